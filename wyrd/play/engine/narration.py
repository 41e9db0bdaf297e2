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

It works in two steps, so that what happened is saved before any prose is asked
for (issue 19, point 1): :meth:`Storyteller.additions` gives what the kit adds
(saved with the command's own events) and the :class:`Moments` left to tell;
:meth:`Storyteller.tell_moments` tells them afterwards, handing a model's words
to the caller as they come. :meth:`Storyteller.tell` does both at once.

Its dice are seeded apart from the rules' (``{seed}:{seq}:oracle``): narration
never changes which faces the rules see. The deck (rows not to repeat until a
table is used up) is kept here; the session saves what each command changed of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from wyrd.oracle.narrators.telling import Command, KitNarration, narration_event
from wyrd.play.engine.kits import PlayHooks
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
    from wyrd.oracle.narrators.table import TableNarrator
    from wyrd.oracle.tables import Table

__all__ = ["Moments", "Storyteller", "user_tables"]


class Moments(NamedTuple):
    """A command's moments still to be told: the requests, the narration's dice (going on from
    where the kit's additions left them) and whether table rows are drawn through the deck."""

    requests: tuple[NarrationRequest, ...]
    dice: Dice
    deck: bool


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

    def close(self) -> None:
        """Stop a model's streams still running (quitting while a moment is told leaves none behind)."""
        close = getattr(self.llm, "close", None)
        if callable(close):
            close()

    def reset(self, deck: dict[str, list[str]] | None = None) -> None:
        self.deck.clear()
        self.deck.update(copy.deepcopy(deck or {}))

    def tell(self, kit: PlayHooks, before: Any, after: Any, events: Sequence[Event], dice: Dice,
             follower: Any = None) -> list[Event]:
        """The events the narration adds to a command's own: the kit's additions, then the telling of its moments.

        Both steps at once (:meth:`additions`, then :meth:`tell_moments`), for a caller that
        saves them together. Args as for :meth:`additions`.
        """
        added, moments = self.additions(kit, before, after, events, dice, follower)
        return added + self.tell_moments(moments)

    def additions(self, kit: PlayHooks, before: Any, after: Any, events: Sequence[Event], dice: Dice,
                  follower: Any = None) -> tuple[list[Event], Moments]:
        """What the kit adds to a command (twists, scene tests: part of what happened), and its moments to tell.

        The additions are settled here, with ``dice``; the moments are told later, by
        :meth:`tell_moments`, with the same dice going on where these left off.

        Args:
            kit: the ruleset's play hooks; its ``tell`` is the kit's narration hook.
            before: the rules state before the command; ``after`` after it.
            events: the command's events, as stored.
            dice: the narration's own dice for this command.
            follower: the kit's story follower, or None.
        """
        hook = kit.tell
        if hook is None:
            return [], Moments((), dice, False)
        if not isinstance(hook, KitNarration):  # a plain teller: events in, events out, all at once
            told_plain = hook(before, after, list(events), dice)
            return (told_plain if self.prose else []), Moments((), dice, False)
        hook = hook.resolve()
        told = hook.tell(Command(before, after, events, dice, follower, deck=self.deck, tables=self.tables,
                                 prose=self.prose))
        deck = hook.deck if self.use_deck is None else self.use_deck
        return list(told.added), Moments(tuple(told.moments) if self.prose else (), dice, deck)

    def tell_moments(self, moments: Moments, *, on_text: Callable[[str], object] | None = None,
                     on_told: Callable[[Event], object] | None = None) -> list[Event]:
        """The narration events of ``moments``, each told by the narrator in charge, the tables behind it.

        Args:
            moments: what :meth:`additions` left to tell.
            on_text: given each piece of a model's reply as it may be shown (cleaned and checked);
                for this telling only, in place of the model's own ``on_text``.
            on_told: given each moment's narration event as soon as it is settled.
        """
        llm = self.llm
        swap = on_text is not None and llm is not None and hasattr(llm, "on_text")
        saved = getattr(llm, "on_text", None)
        if swap:
            llm.on_text = on_text  # type: ignore[union-attr]
        try:
            told: list[Event] = []
            for request in moments.requests:
                event = narration_event(request, self._narrate(request, moments.dice, moments.deck).event())
                told.append(event)
                if on_told is not None:
                    on_told(event)
            return told
        finally:
            if swap:
                llm.on_text = saved  # type: ignore[union-attr]

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
