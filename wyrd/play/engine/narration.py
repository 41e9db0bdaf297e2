"""After the rules: what each ruleset's kit adds to a command, and the narration of its moments.

The rules core settles what happened; the kit's narration hook (a
:class:`~wyrd.oracle.narrators.telling.KitNarration`, the ``tell`` of its
:class:`~wyrd.play.engine.kits.PlayHooks`) says what the oracle adds (the Abacus
adds its twists and scene tests) and which moments are worth telling. The
:class:`Storyteller` tells every moment of every ruleset the same way: with the
table narrator, drawing rows through the no-repeat deck, or, once a model is in
charge, with the LLM narrator behind the firewall and the tables whenever it
fails, is slow or says too much. Everything it returns is stored as events with
the command, so a replay, a log or an export never asks again.

Its dice are seeded apart from the rules' (``{seed}:{seq}:oracle``): narration
never changes which faces the rules see. The deck (rows not to repeat until a
table is used up) is kept here; the session saves what each command changed of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wyrd.oracle.narrators.table import TableNarrator
from wyrd.oracle.narrators.telling import Command, KitNarration, narration_event
from wyrd.oracle.tables import Table, bundled_tables, load_tables
from wyrd.play.engine.kits import PlayHooks
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator

__all__ = ["Storyteller", "user_tables"]


def user_tables(dirs: Sequence[Path]) -> Mapping[str, Table] | None:
    """The bundled tables with the player's own (``tables`` beside their stories) over them,
    or None when there are none. A broken table file is an error naming file, line and field."""
    found = [d / "tables" for d in dirs if (d / "tables").is_dir()]
    return load_tables(found, base=bundled_tables()) if found else None


class Storyteller:
    """Turns a command's events, for any ruleset, into the kit's additions and the narration of its moments.

    Args:
        narrator: tells every moment instead of the tables (tests); ``fallback`` behind it.
        prose: False keeps what the kits add (twists, scene tests) and drops the narration.
        tables: the tables in play (None: the bundled ones).
        deck: True or False to draw every kit's rows through the deck or not; None lets each kit say.
    """

    def __init__(self, narrator: Narrator | None = None, *, fallback: Narrator | None = None,
                 prose: bool = True, tables: Mapping[str, Table] | None = None, deck: bool | None = None) -> None:
        self.prose = prose
        self.deck: dict[str, list[str]] = {}
        self.tables = tables  # None: the bundled tables
        self.use_deck = deck
        self.table = TableNarrator(tables, deck_state=self.deck)
        self._plain = TableNarrator(tables)  # for a kit whose rows are drawn without the deck
        self.llm: Narrator | None = None
        self.on_told: Callable[[Narration], object] | None = None
        self.narrator = narrator or self.table
        self.fallback = fallback if fallback is not None else (self.table if narrator is not None else None)

    def use_llm(self, llm: Narrator, on_told: Callable[[Narration], object] | None = None) -> None:
        """Narrate with ``llm``, the tables speaking whenever it fails, is slow or says too much."""
        from wyrd.oracle.narrators.llm import FallbackNarrator  # a game without a model never loads it

        self.llm = llm
        self.on_told = on_told
        self.narrator = FallbackNarrator(llm, self.table, on_told=on_told)
        self.fallback = self.table

    def use(self, which: str) -> str:
        """Switch to ``table`` or ``llm`` narration; says what is in use now."""
        if which == "table":
            self.narrator = self.table
        elif self.llm is None:
            raise ValueError("no language model is configured (wyrd play --model PROVIDER:MODEL)")
        else:
            self.use_llm(self.llm, self.on_told)
        return "llm" if self.narrator is not self.table else "table"

    def reset(self, deck: dict[str, list[str]] | None = None) -> None:
        self.deck.clear()
        self.deck.update(copy.deepcopy(deck or {}))

    def tell(self, kit: PlayHooks, before: Any, after: Any, events: Sequence[Event], dice: Dice,
             follower: Any = None) -> list[Event]:
        """The events the narration adds to a command's own: the kit's additions, then the telling of its moments.

        Args:
            kit: the ruleset's play hooks; its ``tell`` is the kit's narration hook.
            before: the rules state before the command; ``after`` after it.
            events: the command's events, as stored.
            dice: the narration's own dice for this command.
            follower: the kit's story follower, or None.
        """
        hook = kit.tell
        if hook is None:
            return []
        if not isinstance(hook, KitNarration):  # a plain teller: events in, events out
            told_plain = hook(before, after, list(events), dice)
            return told_plain if self.prose else []
        hook = hook.resolve()
        told = hook.tell(Command(before, after, events, dice, follower, deck=self.deck, tables=self.tables))
        added: list[Event] = list(told.added)
        if not self.prose:
            return added
        deck = hook.deck if self.use_deck is None else self.use_deck
        for request in told.moments:
            added.append(narration_event(request, self._narrate(request, dice, deck).event()))
        return added

    def _narrate(self, request: NarrationRequest, dice: Dice, deck: bool) -> Narration:
        """One moment, by the narrator in charge; the tables (with or without the deck) behind it."""
        table = self.table if deck else self._plain
        if self.narrator is self.table:
            return table.narrate(request, dice)
        if self.llm is not None:
            from wyrd.oracle.narrators.llm import narrate_with_fallback

            narration = narrate_with_fallback(self.llm, table, request, dice)
            if self.on_told is not None:
                self.on_told(narration)
            return narration
        try:
            return self.narrator.narrate(request, dice)
        except Exception:
            if self.fallback is None:
                raise
            return (table if self.fallback is self.table else self.fallback).narrate(request, dice)
