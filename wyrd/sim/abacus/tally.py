"""Whole-number tallies of many runs, which add up the same in any order.

A worker process folds its runs into a :class:`Tally`; the parent adds the
tallies together. Everything kept is a count, a sum or a sum of squares of whole
numbers (exact chances are kept in sixths), plus minima and maxima, so the merged
tally, and the report built from it, is the same whatever the number of workers
and whatever order their results arrive in.

Keys are short tuples: ``("visit", scene)``, ``("challenge", scene, id, status)``,
``("defeat_step", character, step)``... :mod:`wyrd.sim.abacus.report` reads them back.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from wyrd.rules.abacus import DEFEATED, FREED, HELD
from wyrd.sim.abacus.game import ChallengeRecord, RunRecord, SceneRecord

__all__ = ["Key", "Meta", "Outcome", "Tally"]

Key = tuple[str | int, ...]


class Outcome(NamedTuple):
    """What a run adds up to beside its scenes, as plain tuples (equal outcomes can be counted together)."""

    steps: int  # scenes played
    points: int  # ability points assigned in the whole run
    wyrd: int  # Wyrd drawn in the whole run
    dice: int
    defeated_at: tuple[tuple[str, int], ...]
    char_points: tuple[tuple[str, int], ...]
    char_wyrd: tuple[tuple[str, int], ...]
    clocks: tuple[tuple[str, int, tuple[int, ...]], ...]  # id, final value, thresholds reached
    counters: tuple[tuple[str, int], ...]
    results: tuple[tuple[str, str], ...]
    ending: str | None  # the last scene played
    stuck: str | None = None
    safe_rerun: bool = False
    rules_core: bool = False

    @classmethod
    def of(cls, run: RunRecord) -> Outcome:
        return cls(
            len(run.scenes), sum(s.points for s in run.scenes), sum(s.wyrd for s in run.scenes), run.dice,
            tuple(run.defeated_at.items()), tuple(run.points.items()), tuple(run.wyrd.items()),
            tuple((k, value, reached) for k, (value, reached) in run.clocks.items()), tuple(run.counters.items()),
            tuple(run.results.items()), run.scenes[-1].id if run.scenes else None, run.stuck, run.safe_rerun,
            run.rules_core)


@dataclass(frozen=True)
class Meta:
    """What a placed challenge is: its name, type and value as placed."""

    name: str
    type: str
    value: int


@dataclass
class Tally:
    """Counts and sums over runs (see the module docstring for the keys)."""

    runs: int = 0
    count: Counter[Key] = field(default_factory=Counter)
    sums: dict[Key, list[int]] = field(default_factory=dict)  # [n, total, sum of squares]
    low: dict[Key, int] = field(default_factory=dict)
    high: dict[Key, int] = field(default_factory=dict)
    meta: dict[Key, Meta] = field(default_factory=dict)
    reasons: Counter[str] = field(default_factory=Counter)

    def observe(self, key: Key, x: int, times: int = 1) -> None:
        """``times`` observations ``x`` of the quantity ``key``."""
        found = self.sums.get(key)
        if found is None:
            self.sums[key] = [times, times * x, times * x * x]
        else:
            found[0] += times
            found[1] += times * x
            found[2] += times * x * x

    def bound(self, key: Key, x: int) -> None:
        """Keep the least and the greatest ``x`` seen under ``key``."""
        self.low[key] = min(self.low.get(key, x), x)
        self.high[key] = max(self.high.get(key, x), x)

    def sum(self, key: Key) -> tuple[int, int, int]:
        found = self.sums.get(key)
        return (found[0], found[1], found[2]) if found else (0, 0, 0)

    def add(self, run: RunRecord) -> None:
        """Fold one run in."""
        for scene in run.scenes:
            self.add_scene(scene)
        self.add_outcome(Outcome.of(run))

    def add_scene(self, scene: SceneRecord, times: int = 1) -> None:
        """Fold in ``times`` visits of a scene that went as ``scene`` (its run's outcome is added apart)."""
        self._add_visits(scene.id, times)
        self.observe(("points", scene.id), scene.points, times)
        self.observe(("wyrd", scene.id), scene.wyrd, times)
        self._add_defeated(scene.id, scene.defeated, times)
        self._add_challenges(scene.id, scene.challenges, times)

    def add_scenes(self, scenes: Iterable[tuple[SceneRecord, int]]) -> None:
        """Fold in each ``(scene, times)``: as :meth:`add_scene` for each, but each part of a scene (its
        points, its Wyrd, its defeats, its challenges) is added once per value it takes."""
        parts: list[Counter[Any]] = [Counter() for _ in range(5)]
        visits, points, wyrd, defeated, challenges = parts
        for scene, times in scenes:
            ident = scene.id
            visits[ident] += times
            points[ident, scene.points] += times
            wyrd[ident, scene.wyrd] += times
            defeated[ident, scene.defeated] += times
            challenges[ident, scene.challenges] += times
        for ident, times in visits.items():
            self._add_visits(ident, times)
        for kind, values in (("points", points), ("wyrd", wyrd)):
            for (ident, x), times in values.items():
                self.observe((kind, ident), x, times)
        for (ident, names), times in defeated.items():
            self._add_defeated(ident, names, times)
        for (ident, records), times in challenges.items():
            self._add_challenges(ident, records, times)

    # The parts of a scene, each added on its own (``add_scenes`` counts each part's values first).

    def _add_visits(self, ident: str, times: int) -> None:
        self.count["visit", ident] += times

    def _add_defeated(self, ident: str, defeated: tuple[str, ...], times: int) -> None:
        count = self.count
        if defeated:
            count["scene_defeat", ident] += times
        for name in set(defeated):
            count["scene_defeated", ident, name] += times

    def _add_challenges(self, ident: str, challenges: tuple[ChallengeRecord, ...], times: int) -> None:
        count = self.count
        cleared = True
        for ch in challenges:
            key = ("challenge", ident, ch.id)
            if key not in self.meta:
                self.meta[key] = Meta(ch.name, ch.type, ch.value)
            count[(*key, "placed")] += times
            count[(*key, ch.status)] += times
            cleared = cleared and ch.status in ("overcome", "bypassed")
            if ch.attempted:
                count[(*key, "attempted")] += times
            if ch.sixths is not None:
                self.observe(("sixths", ident, ch.id), ch.sixths, times)
                self.bound(("sixths", ident, ch.id), ch.sixths)
        if cleared:
            count["cleared", ident] += times

    def add_outcome(self, run: Outcome, times: int = 1) -> None:
        """Fold in ``times`` runs that ended as ``run`` (their scenes are added apart)."""
        self.runs += times
        self._add_steps(run.steps, times)
        self.observe(("run_points",), run.points, times)
        self.observe(("run_wyrd",), run.wyrd, times)
        self.observe(("dice",), run.dice, times)
        self._add_defeats(run.defeated_at, times)
        self._add_each("char_points", run.char_points, times)
        self._add_each("char_wyrd", run.char_wyrd, times)
        self._add_clocks(run.clocks, times)
        self._add_counters(run.counters, times)
        self._add_end(run[9:], times)

    def add_outcomes(self, runs: Mapping[Outcome, int]) -> None:
        """Fold in each outcome of ``runs`` as many times as it says: as :meth:`add_outcome` for each, but
        each part of an outcome (each total, the defeats, the clocks...) is added once per value it takes,
        however many outcomes share it."""
        parts: list[Counter[Any]] = [Counter() for _ in range(10)]
        steps, run_points, run_wyrd, dice, defeats, points, wyrd, clocks, counters, ends = parts
        for run, times in runs.items():
            self.runs += times
            steps[run.steps] += times
            run_points[run.points] += times
            run_wyrd[run.wyrd] += times
            dice[run.dice] += times
            defeats[run.defeated_at] += times
            points[run.char_points] += times
            wyrd[run.char_wyrd] += times
            clocks[run.clocks] += times
            counters[run.counters] += times
            ends[run[9:]] += times
        for x, times in steps.items():
            self._add_steps(x, times)
        for kind, values in (("run_points", run_points), ("run_wyrd", run_wyrd), ("dice", dice)):
            for x, times in values.items():
                self.observe((kind,), x, times)
        for part, times in defeats.items():
            self._add_defeats(part, times)
        for part, times in points.items():
            self._add_each("char_points", part, times)
        for part, times in wyrd.items():
            self._add_each("char_wyrd", part, times)
        for part, times in clocks.items():
            self._add_clocks(part, times)
        for part, times in counters.items():
            self._add_counters(part, times)
        for part, times in ends.items():
            self._add_end(part, times)

    # The parts of an outcome, each added on its own (``add_outcomes`` counts each part's values first).

    def _add_steps(self, steps: int, times: int) -> None:
        self.observe(("steps",), steps, times)
        self.bound(("steps",), steps)

    def _add_defeats(self, defeated_at: tuple[tuple[str, int], ...], times: int) -> None:
        count = self.count
        for name, step in defeated_at:
            count["defeat_step", name, step] += times
        if defeated_at:
            count["any_defeat_step", min(step for _, step in defeated_at)] += times

    def _add_each(self, kind: str, values: tuple[tuple[str, int], ...], times: int) -> None:
        for name, x in values:
            self.observe((kind, name), x, times)

    def _add_clocks(self, clocks: tuple[tuple[str, int, tuple[int, ...]], ...], times: int) -> None:
        count = self.count
        for clock, value, reached in clocks:
            self.observe(("clock", clock), value, times)
            count["clock_at", clock, value] += times
            for at in reached:
                count["reached", clock, at] += times

    def _add_counters(self, counters: tuple[tuple[str, int], ...], times: int) -> None:
        for counter, value in counters:
            self.observe(("counter", counter), value, times)
            self.count["counter_at", counter, value] += times

    def _add_end(self, end: tuple[Any, ...], times: int) -> None:
        """How the run ended: its results, last scene, what stopped it, and which path played it."""
        results, ending, stuck, safe_rerun, rules_core = end
        count = self.count
        if safe_rerun:
            count["safe_rerun",] += times
        if rules_core:
            count["rules_core",] += times
        if stuck is not None:
            count["stuck",] += times
            self.reasons[stuck] += times
            return
        count["finished",] += times
        if ending is not None:
            count["ending", ending] += times
        fates = [result for _, result in results]
        for name, result in results:
            count["finale", name, result] += times
        for label, holds in (("all_freed", all(f == FREED for f in fates)), ("any_held", HELD in fates),
                             ("any_defeated", DEFEATED in fates), ("all_defeated", all(f == DEFEATED for f in fates))):
            if holds and fates:
                count["party", label] += times

    def merge(self, other: Tally) -> None:
        """Add ``other``'s runs to this tally."""
        self.runs += other.runs
        self.count.update(other.count)
        for key, (n, total, squares) in other.sums.items():
            mine = self.sums.setdefault(key, [0, 0, 0])
            mine[0] += n
            mine[1] += total
            mine[2] += squares
        for key, x in other.low.items():
            self.low[key] = min(self.low.get(key, x), x)
        for key, x in other.high.items():
            self.high[key] = max(self.high.get(key, x), x)
        for key, meta in other.meta.items():
            self.meta.setdefault(key, meta)
        self.reasons.update(other.reasons)
