"""After the rules: the twists a command's Wyrd rolls bring, the scene test, and the narration.

The rules core settles what happened; this module asks the oracle what the Wyrd
makes of it (a twist for each 6, an intrusion for a best of 1 or 2, how a scene's
test came out) and has a narrator tell it. Everything it returns is stored as
events with the command, so a replay, a log or an export never asks again.

Its dice are seeded apart from the rules' (``{seed}:{seq}:oracle``): narration
never changes which faces the rules see. The narrator's deck (rows not to repeat
until a table is used up) is kept here; the session saves what each command
changed of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wyrd.oracle.facts import StoryFacts
from wyrd.oracle.narrators.table import TableNarrator, narrate_events
from wyrd.oracle.tables import Table, bundled_tables, load_tables
from wyrd.oracle.twists import twists
from wyrd.rules.abacus import GameState
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.narrators.base import Narration, Narrator
    from wyrd.play.engine.kits import PlayHooks

__all__ = ["SCENE_TEST", "Storyteller", "user_tables"]

SCENE_TEST = "scene test"
# Story twist categories by the oracle's names for them.
_CATEGORIES = {"threat": "threat", "eerie": "eerie", "personal": "tie", "intrusion": "mundane", "friendly": "friendly"}


def user_tables(dirs: Sequence[Path]) -> Mapping[str, Table] | None:
    """The bundled tables with the player's own (``tables`` beside their stories) over them,
    or None when there are none. A broken table file is an error naming file, line and field."""
    found = [d / "tables" for d in dirs if (d / "tables").is_dir()]
    return load_tables(found, base=bundled_tables()) if found else None


class Storyteller:
    """Turns a command's events into twists, scene tests and narration."""

    def __init__(self, narrator: Narrator | None = None, *, fallback: Narrator | None = None,
                 prose: bool = True, tables: Mapping[str, Table] | None = None) -> None:
        self.prose = prose  # False: twists and scene tests still come, the narration does not
        self.deck: dict[str, list[str]] = {}
        self.tables = tables  # None: the bundled tables
        self.table = TableNarrator(tables, deck_state=self.deck)
        self.llm: Narrator | None = None
        self.narrator = narrator or self.table
        self.fallback = fallback if fallback is not None else (self.table if narrator is not None else None)

    def use_llm(self, llm: Narrator, on_told: Callable[[Narration], object] | None = None) -> None:
        """Narrate with ``llm``, the tables speaking whenever it fails, is slow or says too much."""
        from wyrd.oracle.narrators.llm import FallbackNarrator  # a game without a model never loads it

        self.llm = llm
        self.narrator = FallbackNarrator(llm, self.table, on_told=on_told)
        self.fallback = self.table

    def use(self, which: str) -> str:
        """Switch to ``table`` or ``llm`` narration; says what is in use now."""
        if which == "table":
            self.narrator = self.table
        elif self.llm is None:
            raise ValueError("no language model is configured (wyrd play --model PROVIDER:MODEL)")
        else:
            self.use_llm(self.llm, getattr(self.narrator, "on_told", None))
        return "llm" if self.narrator is not self.table else "table"

    def reset(self, deck: dict[str, list[str]] | None = None) -> None:
        self.deck.clear()
        self.deck.update(copy.deepcopy(deck or {}))

    def tell(self, kit: PlayHooks, before: Any, after: Any, events: Sequence[dict[str, Any]], dice: Dice,
             follower: Any) -> list[dict[str, Any]]:
        """The events the narration adds to a command's own, for any ruleset's kit.

        A kit with its own ``tell`` narrates its events itself; otherwise the oracle's
        twists, scene tests and tables tell them, leaning on the story the follower holds.
        """
        if kit.tell is not None:
            told = kit.tell(before, after, list(events), dice)
            return told if self.prose else []
        return self._tell_wyrd(before, after, events, dice, getattr(follower, "play", None))

    def _tell_wyrd(self, before: GameState, after: GameState, events: Sequence[dict[str, Any]], dice: Dice,
                   story: Any) -> list[dict[str, Any]]:
        facts = self._facts(before, after, story)
        added = self._scene_test(events)
        twist_options: dict[str, Any] = {}
        if story is not None:
            found = story.story.twists
            twist_options["story_tables"] = {
                _CATEGORIES[c]: [e.text for e in found.table(c)] for c in _CATEGORIES if found.table(c)}
            weights = found.weights
            twist_options["weights"] = {"threat": weights.threat, "eerie": weights.eerie, "tie": weights.personal}
            twist_options["intrusion_weights"] = {"mundane": weights.intrusion, "friendly": weights.friendly}
            twist_options["story"] = story.story.id
        # Story twist entries speak of the character as {name}.
        characters = {n: {**c.context(), "name": n} for n, c in facts.characters.items()}
        added += twists(list(events), dice, characters=characters, deck_state=self.deck, tables=self.tables,
                        context={"location": facts.location} if facts.location else None, **twist_options)
        if self.prose:
            added += narrate_events(self.narrator, [*events, *added], facts, dice, fallback=self.fallback)
        return added

    @staticmethod
    def _scene_test(events: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
        results = {str(e["character"]): int(e["result"]) for e in events
                   if e.get("kind") == "influence_rolled" and e.get("reason") == SCENE_TEST}
        if not results:
            return []
        from wyrd.oracle.question import scene_test  # only when a scene starts: not needed for the first prompt

        scene = next((str(e["scene"]) for e in events if e.get("kind") == "scene_started"), None)
        return [scene_test(results).event(scene)]

    @staticmethod
    def _facts(before: GameState, after: GameState, story: Any) -> StoryFacts:
        if story is None:
            return StoryFacts.from_state(after, before)
        extra = story.facts(after.scene.id if after.scene else (before.scene.id if before.scene else None))
        return StoryFacts.from_state(after, before, **extra)
