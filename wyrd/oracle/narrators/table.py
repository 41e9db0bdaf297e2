"""The offline narrator: every moment told from random tables, in a line or two.

:class:`TableNarrator` looks up the table for a moment (``narrate/...`` in
``oracle/tables``), rolls on it with the game's dice and fills the placeholders
from the request (:mod:`wyrd.oracle.narrators.context`). Two moments prefer the
story's own words: a scene opening uses one of the scene's narration seeds when
the story gives any, and a stage rule that fires tells the rule's own text.

Tables, most specific first (the first one loaded is used)::

    challenge outcome   narrate/challenge/<type>/<outcome>, narrate/challenge/any/<outcome>
    bypassed challenge  narrate/challenge/bypassed
    challenge placed    narrate/placed/<type>, narrate/placed/any
    twist               narrate/twist/<category>
    answer              narrate/answer/<yes_and|yes|no|no_but>
    magic               narrate/magic/<form>
    postscript          narrate/postscript/<held|freed|defeated>
    defeat              narrate/defeat/<defeated|impediment>
    scene test          narrate/scene-test/<expected|altered|interrupted>
    harm / clock        narrate/harm/<damage|scratch>, narrate/clock/<advanced|threshold>
    anything else       narrate/<moment>, then narrate/any

A request of another ruleset names its own tables (``told_by``, most specific
first) and their placeholders' values (``values``); one with ``own_words`` is
told with one of its story's seeds, as written.

Pass a ``deck_state`` dict (saved with the session) and no variant repeats until
its table is used up; the same goes for a story's seeds, and a stage rule's own
text is told the first time it fires, its later firings from the table
(issue 18, point 8: no line told again while there are others).
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence

from wyrd.oracle.narrators.base import MomentKind, Narration, NarrationRequest, Narrator, Outcome
from wyrd.oracle.narrators.context import kit_values, request_context
from wyrd.oracle.tables import DeckState, Table, TableResult, bundled_tables, roll
from wyrd.oracle.text import fill
from wyrd.rules.dice import Dice

__all__ = ["FALLBACK_TABLE", "RULES_TOLD", "SEEDS_DRAWN", "STORY", "TableNarrator", "narrate_requests", "table_ids"]

FALLBACK_TABLE = "narrate/any"
STORY = "story"  # the source of a narration in the story's own words
# Kept in the no-repeat deck beside the tables' rows: the story seeds drawn (by the seeds they
# were drawn from) and the stage rules whose own text has been told once this game.
SEEDS_DRAWN = "story/seeds/"
RULES_TOLD = "story/stage-rules-told"
_BY_MOMENT: dict[MomentKind, str] = {
    MomentKind.SCENE_OPENING: "narrate/scene/opening",
    MomentKind.SCENE_CLOSING: "narrate/scene/closing",
    MomentKind.WYRD_DRAWN: "narrate/wyrd-drawn",
    MomentKind.WYRD_ROLL: "narrate/wyrd-roll",
    MomentKind.COUNTER: "narrate/counter/changed",
    MomentKind.COUNTER_FIRED: "narrate/counter/fired",
    MomentKind.STAGE_RULE: "narrate/stage-rule/added",
    MomentKind.STAGE_RULE_FIRED: "narrate/stage-rule/fired",
    MomentKind.SERVANT_LOOSE: "narrate/servant-loose",
}
_BY_DETAIL = {
    MomentKind.TWIST: "narrate/twist",
    MomentKind.ANSWER: "narrate/answer",
    MomentKind.MAGIC: "narrate/magic",
    MomentKind.POSTSCRIPT: "narrate/postscript",
    MomentKind.DEFEAT: "narrate/defeat",
    MomentKind.SCENE_TEST: "narrate/scene-test",
    MomentKind.HARM: "narrate/harm",
    MomentKind.CLOCK: "narrate/clock",
    MomentKind.COMPLICATION: "narrate/complication",
}


def table_ids(request: NarrationRequest) -> list[str]:
    """The tables that could tell ``request``, most specific first."""
    if request.told_by:
        return list(request.told_by)
    if request.moment not in MomentKind.__members__.values():
        return [FALLBACK_TABLE]
    moment = MomentKind(request.moment)
    detail = request.detail or ""
    ids: list[str] = []
    challenge_type = request.challenge.type if request.challenge and request.challenge.type else None
    if moment == MomentKind.CHALLENGE_OUTCOME:
        if detail == Outcome.BYPASSED:
            ids.append("narrate/challenge/bypassed")
        else:
            if challenge_type:
                ids.append(f"narrate/challenge/{challenge_type}/{detail}")
            ids.append(f"narrate/challenge/any/{detail}")
    elif moment == MomentKind.CHALLENGE_PLACED:
        if challenge_type:
            ids.append(f"narrate/placed/{challenge_type}")
        ids.append("narrate/placed/any")
    elif moment in _BY_DETAIL:
        ids.append(f"{_BY_DETAIL[moment]}/{detail}")
    if moment in _BY_MOMENT:
        ids.append(_BY_MOMENT[moment])
    ids.append(f"narrate/{moment.value.replace('_', '-')}")
    ids.append(FALLBACK_TABLE)
    return ids


def _trace(result: TableResult) -> tuple[str, ...]:
    out = [f"{result.table}#{result.row}"]
    for inner in result.nested:
        out.extend(_trace(inner))
    return tuple(out)


class TableNarrator(Narrator):
    """Tells every moment from the bundled tables (or the tables given), offline."""

    source = "table"

    def __init__(self, tables: Mapping[str, Table] | None = None, *, deck_state: DeckState | None = None) -> None:
        self._tables = tables
        self.deck_state = deck_state

    @property
    def tables(self) -> Mapping[str, Table]:
        return self._tables if self._tables is not None else bundled_tables()

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        """One or two sentences for ``request``, chosen with ``dice``."""
        tables = self.tables
        if request.own_words and request.seeds:
            seeds = list(request.seeds)
            n = self._seed(seeds, dice, always=True, fresh=bool(request.told_by))
            if n is not None:
                return Narration(text=seeds[n - 1], source=STORY, moment=request.moment,
                                 trace=(f"story/seeds#{n}",))
        if request.told_by:
            ident = next(i for i in request.told_by if i in tables)
            result = roll(ident, dice, kit_values(request), self.deck_state, tables=tables)
            return Narration(text=result.text, source=self.source, moment=request.moment, trace=_trace(result))
        context = request_context(request, dice, tables=tables)
        own = self._story_words(request, dice)
        if own is not None:
            text, trace = own
            return Narration(text=fill(text, context), source=self.source, moment=request.moment, trace=trace)
        ident = next(i for i in table_ids(request) if i in tables)
        result = roll(ident, dice, context, self.deck_state, tables=tables)
        return Narration(text=result.text, source=self.source, moment=request.moment, trace=_trace(result))

    def _story_words(self, request: NarrationRequest, dice: Dice) -> tuple[str, tuple[str, ...]] | None:
        if request.moment == MomentKind.SCENE_OPENING and request.seeds:
            seeds = [s for s in request.seeds if s.strip()]
            n = self._seed(seeds, dice, fresh=True) if seeds else None
            if n is not None:
                return seeds[n - 1], (f"story/seeds#{n}",)
        if request.moment == MomentKind.STAGE_RULE_FIRED:
            text = next((str(t) for e in request.events if (t := getattr(e, "text", None))), "")
            if text.strip() and self._first_time(RULES_TOLD, text):
                return text, ("story/stage-rule",)
        return None

    def _seed(self, seeds: Sequence[str], dice: Dice, *, always: bool = False, fresh: bool = False) -> int | None:
        """Which of a story's seeds (1-based) tells a moment: with the deck, none again until all were.

        Once all were told, ``fresh`` says None (the tables tell the moment instead: a place seen
        again is not described again in the same words); otherwise they are shuffled anew.
        Without the deck it is drawn as it always was (with one seed, a roll only if ``always``).
        """
        if self.deck_state is None:
            if len(seeds) == 1 and not always:
                return 1
            return dice.roll(1, len(seeds), "narration seed").faces[0]
        used = self.deck_state.setdefault(_key(SEEDS_DRAWN, "\n".join(seeds)), [])
        left = [n for n in range(1, len(seeds) + 1) if str(n) not in used]
        if not left:
            if fresh:
                return None
            used.clear()
            left = list(range(1, len(seeds) + 1))
        n = left[dice.roll(1, len(left), "narration seed").faces[0] - 1]
        used.append(str(n))
        return n

    def _first_time(self, key: str, text: str) -> bool:
        """Whether ``text`` is told for the first time this game (always, without the deck); notes it."""
        if self.deck_state is None:
            return True
        told = self.deck_state.setdefault(key, [])
        mark = _key("", text)
        if mark in told:
            return False
        told.append(mark)
        return True


def _key(prefix: str, text: str) -> str:
    """A short stable name for a text (its CRC-32), under ``prefix``."""
    return f"{prefix}{zlib.crc32(text.encode('utf-8')):08x}"


def narrate_requests(narrator: Narrator, requests: Sequence[NarrationRequest], dice: Dice, *,
                     fallback: Narrator | None = None) -> list[Narration]:
    """Every request told in order; a failing narrator falls back to ``fallback`` (if any) for that moment."""
    out: list[Narration] = []
    for request in requests:
        try:
            narration = narrator.narrate(request, dice)
        except Exception:
            if fallback is None:
                raise
            narration = fallback.narrate(request, dice)
        out.append(narration)
    return out
