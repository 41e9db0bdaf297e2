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

With a model in charge (and :attr:`Storyteller.readings` on, as it is by default),
each answer, twist and inspiration of a command also gets a reading: one or two
sentences of what it might mean here, asked of the model alone after the kit's own
moments (:mod:`wyrd.oracle.narrators.readings`) and saved as an ``interpretation``
event. A reading the model fails to give, or that the checks refuse, is simply
not there: the tables never invent one.

Its dice are seeded apart from the rules' (``{seed}:{seq}:oracle``): narration
never changes which faces the rules see.

A model is told the story so far as a few short lines of fact, never its own earlier
prose: :func:`recall` reads the events of the commands played (the scenes reached,
the outcomes settled, who was hurt) through each kit's :attr:`~wyrd.play.engine.kits.PlayHooks.recall`
wording. The storyteller adds a command's lines once its moments are told, and reads
them all again from the saved commands (``history``) when a model takes over, after a
resume and after an undo, so the story so far is the same whether the game was
resumed or played straight. The deck (rows not to repeat until a
table is used up) is kept here; the session saves what each command changed of it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from wyrd.oracle.narrators.telling import Command, KitNarration, Told, narration_event
from wyrd.play.engine.events import Recorded, plain
from wyrd.play.engine.kits import PlayHooks
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from wyrd.oracle.events import Interpreted
    from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
    from wyrd.oracle.narrators.table import TableNarrator
    from wyrd.oracle.tables import Table

__all__ = ["RECALL_CHARS", "Moments", "Storyteller", "played", "recall", "user_tables"]

RECALL_CHARS = 160  # the longest line of the story so far (a twist's text may run longer)
# The oracle's kinds, alike in every ruleset: how the story so far recalls them (a kit's own words first).
_SHARED_RECALL: dict[str, Callable[[dict[str, Any]], str]] = {
    "twist": lambda e: f"Twist for {e['character']}: {e['text']}",
    "answer": lambda e: f"Asked: {e['question']} The answer: {str(e['answer']).replace('_', ' ')}.",
}
# The events of the last ``n`` commands played (all of them when fewer), oldest first.
History = Callable[[int], Sequence[Sequence[Mapping[str, Any]]]]
RECALL_FIRST = 16  # commands read back for the story so far at first; eight times more while it is not full


class Moments(NamedTuple):
    """A command's moments still to be told: the requests, the narration's dice (going on from
    where the kit's additions left them) and whether table rows are drawn through the deck."""

    requests: tuple[NarrationRequest, ...]
    dice: Dice
    deck: bool
    kit: PlayHooks | None = None  # whose wording recalls the command for a model's story so far
    events: tuple[Event, ...] = ()  # the command's events and additions, recalled once its moments are told


def recall(kit: PlayHooks, events: Iterable[Recorded | Event | Mapping[str, Any]]) -> list[str]:
    """The lines of the story so far that ``events`` add, in the kit's wording (saved or typed alike)."""
    lines = []
    for event in plain(events):
        kind = str(event.get("kind"))
        word = kit.recall.get(kind) or _SHARED_RECALL.get(kind)
        if word is None:
            continue
        try:
            line = " ".join(str(word(event)).split())
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            continue  # a field missing (a save from before it was kept): the line is left out
        if line:
            lines.append(line if len(line) <= RECALL_CHARS else line[:RECALL_CHARS - 3].rstrip() + "...")
    return lines


def played(session: Any, last: int | None = None) -> list[list[dict[str, Any]]]:
    """The events of each command ``session`` has played, as saved (its opening alone without a save);
    of the ``last`` ones only, if given."""
    save = session.save
    if save is None:
        return [plain(session.opening_events)]
    records = save.live_commands() if last is None else save.live_tail(last)
    return [list(record.events) for record in records]


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
        # the commands played so far, as saved: the model's story so far is read from them
        self.history: History | None = None
        self._recalled = False  # True while the model's story so far holds every command told since
        # With a model in charge, a reading of each answer, twist and inspiration (`narrator readings on|off`).
        self.readings = True
        self._setting: dict[str, Any] = {}  # the story's title, tone and place, from the latest moment told

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

    def use_llm(self, llm: Narrator, on_told: Callable[[Narration], object] | None = None,
                history: History | None = None) -> None:
        """Narrate with ``llm``, the tables speaking whenever it fails, is slow or says too much.

        ``history`` gives the events of the last ``n`` commands played (:func:`played`): the
        model's story so far is read from them before it tells its first moment.
        """
        from wyrd.oracle.narrators.llm import FallbackNarrator  # a game without a model never loads it

        if llm is not self.llm or history is not None:
            self._recalled = False
        if history is not None:
            self.history = history
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
        self._recalled = False  # the save was read again (an undo, a resume): so is the story so far

    def _recall(self, kit: PlayHooks, events: Sequence[Event]) -> None:
        """Read the model's story so far again from the commands saved before ``events``' own."""
        memory = getattr(self.llm, "memory", None)
        if memory is None:
            return
        # The memory keeps only its last few lines, and which ones depends on nothing older: read back
        # from the newest command until it would be full, so an undo late in a long game costs no more
        # than one early on.
        wanted = int(getattr(memory, "max_items", 0)) or None
        asked = RECALL_FIRST if wanted else 2**62  # a memory of no set size hears every command
        while True:
            memory.clear()
            commands = [list(c) for c in self.history(asked)] if self.history is not None else []
            short = len(commands) < asked
            if commands and events:  # this command already saved (narration told after the commit): not yet
                mine = [{k: v for k, v in e.items() if k != "seq"} for e in plain(commands[-1])][:len(events)]
                if mine == plain(events):
                    commands.pop()
            lines = [line for command in commands for line in recall(kit, command)]
            for line in lines:
                memory.add(line)
            if short or wanted is None or len(lines) >= wanted:
                break
            asked *= 8
        self._recalled = True

    def _remember(self, kit: PlayHooks, events: Sequence[Event]) -> None:
        memory = getattr(self.llm, "memory", None)
        if memory is not None:
            for line in recall(kit, events):
                memory.add(line)

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
        # A kit's narration that surely adds and tells nothing of these events is not asked: a lazy
        # one is then not even loaded (bench/RESULTS.md, issue 21, point 2).
        telling = hook.tells(events) and (hook := hook.resolve()).tells(events)
        if self.llm is not None and not self._recalled:
            self._recall(kit, events)
        told = hook.tell(Command(before, after, events, dice, follower, deck=self.deck, tables=self.tables,
                                 prose=self.prose)) if telling else Told()
        deck = hook.deck if self.use_deck is None else self.use_deck
        added = list(told.added)
        if told.setting:  # the story's title, tone and place as the kit says they stand
            self._setting = dict(told.setting)
        else:  # or as its moments carry them
            for request in told.moments:
                if request.story:
                    self._setting = {"story": request.story, "tone": list(request.tone), "location": request.location}
        requests = (*told.moments, *self.reading_requests(kit, after, [*events, *added], follower)) \
            if self.prose else ()
        moments = Moments(tuple(requests), dice, deck, kit, (*events, *added))
        if self.llm is not None and not moments.requests:  # nothing to tell: recalled at once
            self._remember(kit, moments.events)
        return added, moments

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
                if request.aside:  # a reading: the model's or nobody's, shown whole as its own line
                    reading = self._read(request, moments.dice)
                    if reading is None:
                        continue
                    event: Event = reading
                else:
                    event = narration_event(request, self._narrate(request, moments.dice, moments.deck).event())
                told.append(event)
                if on_told is not None:
                    on_told(event)
            if self.llm is not None and moments.kit is not None and moments.requests:
                # told from the facts, after this command's own moments
                self._remember(moments.kit, [*moments.events, *told])
            return told
        finally:
            if swap:
                llm.on_text = saved  # type: ignore[union-attr]

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
        asked = reading_requests(events, moment=kit.oracle.reading, scene=scene, present=kit.oracle.present(after))
        # told in the same setting as the story's own moments (the latest a kit gave)
        return [r.model_copy(update=self._setting) for r in asked]

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
        problem = reading_problem(text, request)
        if problem is not None:
            refused_after = getattr(self.llm, "refused_after", None)  # counted as refused, not told (status)
            if callable(refused_after):
                refused_after(problem)
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
