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

With a model in charge (and :attr:`Storyteller.readings` on, as it is by default),
each answer, twist and inspiration of a command also gets a reading: one or two
sentences of what it might mean here, asked of the model alone after the kit's own
moments (:mod:`wyrd.oracle.narrators.readings`) and saved as an ``interpretation``
event. A reading the model fails to give, or that the checks refuse, is simply
not there: the tables never invent one.

Its dice are seeded apart from the rules' (``{seed}:{seq}:oracle``): narration
never changes which faces the rules see. The deck (rows not to repeat until a
table is used up) is kept here; the session saves what each command changed of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wyrd.oracle.narrators.telling import Command, KitNarration, narration_event
from wyrd.play.engine.kits import PlayHooks
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.events import Interpreted
    from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
    from wyrd.oracle.narrators.table import TableNarrator
    from wyrd.oracle.tables import Table

__all__ = ["Storyteller", "user_tables"]


def user_tables(dirs: Sequence[Path]) -> Mapping[str, Table] | None:
    """The bundled tables with the player's own (``tables`` beside their stories) over them,
    or None when there are none. A broken table file is an error naming file, line and field."""
    found = [d / "tables" for d in dirs if (d / "tables").is_dir()]
    if not found:
        return None
    from wyrd.oracle.tables import bundled_tables, load_tables

    return load_tables(found, base=bundled_tables())


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
        # The table narrators are made at the first moment told: a command that tells none (the
        # opening of a game) loads nothing of the tables, so the first prompt comes sooner.
        self._table: TableNarrator | None = None
        self._plain: TableNarrator | None = None  # for a kit whose rows are drawn without the deck
        self.llm: Narrator | None = None
        self.on_told: Callable[[Narration], object] | None = None
        self._narrator = narrator  # None: the tables
        self._fallback = fallback
        # With a model in charge, a reading of each answer, twist and inspiration (`narrator readings on|off`).
        self.readings = True

    @property
    def table(self) -> TableNarrator:
        """The table narrator, drawing its rows through the deck."""
        if self._table is None:
            from wyrd.oracle.narrators.table import TableNarrator

            self._table = TableNarrator(self.tables, deck_state=self.deck)
        return self._table

    @property
    def plain(self) -> TableNarrator:
        """The table narrator without the deck."""
        if self._plain is None:
            from wyrd.oracle.narrators.table import TableNarrator

            self._plain = TableNarrator(self.tables)
        return self._plain

    @property
    def narrator(self) -> Narrator:
        """Who tells each moment: the tables unless a model or a test's narrator is in charge."""
        return self.table if self._narrator is None else self._narrator

    @property
    def fallback(self) -> Narrator | None:
        """Who speaks when the narrator in charge fails (None: nobody, the failure is raised)."""
        if self._fallback is not None:
            return self._fallback
        return None if self._narrator is None else self.table

    def use_llm(self, llm: Narrator, on_told: Callable[[Narration], object] | None = None) -> None:
        """Narrate with ``llm``, the tables speaking whenever it fails, is slow or says too much."""
        from wyrd.oracle.narrators.llm import FallbackNarrator  # a game without a model never loads it

        self.llm = llm
        self.on_told = on_told
        self._narrator = FallbackNarrator(llm, self.table, on_told=on_told)
        self._fallback = self.table

    def use(self, which: str) -> str:
        """Switch to ``table`` or ``llm`` narration; says what is in use now."""
        if which == "table":
            self._narrator = None
            self._fallback = None
        elif self.llm is None:
            raise ValueError("no language model is configured (wyrd play --model PROVIDER:MODEL)")
        else:
            wake = getattr(self.llm, "wake", None)  # `narrator llm` also ends a model's rest
            if callable(wake):
                wake()
            self.use_llm(self.llm, self.on_told)
        return "table" if self._narrator is None else "llm"

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
        told = hook.tell(Command(before, after, events, dice, follower, deck=self.deck, tables=self.tables,
                                 prose=self.prose))
        added: list[Event] = list(told.added)
        if not self.prose:
            return added
        deck = hook.deck if self.use_deck is None else self.use_deck
        moments = [*told.moments, *self.reading_requests(kit, after, [*events, *added], follower)]
        for request in moments:
            if request.aside:
                reading = self._read(request, dice)
                added += [reading] if reading is not None else []
            else:
                added.append(narration_event(request, self._narrate(request, dice, deck).event()))
        return added

    @property
    def reading(self) -> bool:
        """True when answers, twists and inspirations get a model's reading: a model is in charge, readings on."""
        return self.readings and self.llm is not None and self._narrator is not None

    def reading_requests(self, kit: PlayHooks, after: Any, events: Sequence[Event],
                         follower: Any = None) -> list[NarrationRequest]:
        """The readings to ask the model for, after a command's own moments (none unless :attr:`reading`)."""
        if not self.reading:
            return []
        from wyrd.oracle.narrators.readings import READ_KINDS, reading_requests, scene_words

        resting = bool(getattr(getattr(self.llm, "stats", None), "resting", 0))
        if resting or not any(e.kind in READ_KINDS for e in events):
            return []  # a resting model is not asked: its rest is not spent on readings
        try:
            scene = scene_words(kit.frame(after, follower))
        except Exception:  # the scene's words only ground a reading: without them it is still asked
            scene = ""
        return reading_requests(events, moment=kit.oracle.reading, scene=scene, present=kit.oracle.present(after))

    def _read(self, request: NarrationRequest, dice: Dice) -> Interpreted | None:
        """The model's reading for ``request``, checked, or None: a reading is the model's or nobody's."""
        if self.llm is None:
            return None
        from wyrd.oracle.events import Interpreted
        from wyrd.oracle.narrators.readings import reading_problem, trimmed

        try:
            told = self.llm.narrate(request, dice)
        except Exception:  # failed, slow, refused by the firewall: no reading, and the game goes on
            return None
        text = trimmed(told.text)
        if reading_problem(text, request) is not None:
            return None
        return Interpreted(text=text, source=told.source, of=(request.marks or {}).get("of", ""))

    def _narrate(self, request: NarrationRequest, dice: Dice, deck: bool) -> Narration:
        """One moment, by the narrator in charge; the tables (with or without the deck) behind it."""
        table = self.table if deck else self.plain
        if self._narrator is None:
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
