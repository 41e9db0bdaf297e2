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
from dataclasses import dataclass, field

from wyrd.rules.abacus import DEFEATED, FREED, HELD
from wyrd.sim.abacus.game import RunRecord

__all__ = ["Key", "Meta", "Tally"]

Key = tuple[str | int, ...]


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

    def observe(self, key: Key, x: int) -> None:
        """One observation ``x`` of the quantity ``key``."""
        found = self.sums.get(key)
        if found is None:
            self.sums[key] = [1, x, x * x]
        else:
            found[0] += 1
            found[1] += x
            found[2] += x * x

    def bound(self, key: Key, x: int) -> None:
        """Keep the least and the greatest ``x`` seen under ``key``."""
        self.low[key] = min(self.low.get(key, x), x)
        self.high[key] = max(self.high.get(key, x), x)

    def sum(self, key: Key) -> tuple[int, int, int]:
        found = self.sums.get(key)
        return (found[0], found[1], found[2]) if found else (0, 0, 0)

    def add(self, run: RunRecord) -> None:
        """Fold one run in."""
        self.runs += 1
        count = self.count
        total_points = total_wyrd = 0
        for scene in run.scenes:
            count["visit", scene.id] += 1
            self.observe(("points", scene.id), scene.points)
            self.observe(("wyrd", scene.id), scene.wyrd)
            total_points += scene.points
            total_wyrd += scene.wyrd
            if scene.defeated:
                count["scene_defeat", scene.id] += 1
            for name in set(scene.defeated):
                count["scene_defeated", scene.id, name] += 1
            cleared = True
            for ch in scene.challenges:
                key = ("challenge", scene.id, ch.id)
                if key not in self.meta:
                    self.meta[key] = Meta(ch.name, ch.type, ch.value)
                count[(*key, "placed")] += 1
                count[(*key, ch.status)] += 1
                cleared = cleared and ch.status in ("overcome", "bypassed")
                if ch.attempted:
                    count[(*key, "attempted")] += 1
                if ch.sixths is not None:
                    self.observe(("sixths", scene.id, ch.id), ch.sixths)
                    self.bound(("sixths", scene.id, ch.id), ch.sixths)
            if cleared:
                count["cleared", scene.id] += 1
        self.observe(("steps",), len(run.scenes))
        self.bound(("steps",), len(run.scenes))
        self.observe(("run_points",), total_points)
        self.observe(("run_wyrd",), total_wyrd)
        self.observe(("dice",), run.dice)
        for name, step in run.defeated_at.items():
            count["defeat_step", name, step] += 1
        if run.defeated_at:
            count["any_defeat_step", min(run.defeated_at.values())] += 1
        for name, points in run.points.items():
            self.observe(("char_points", name), points)
        for name, wyrd in run.wyrd.items():
            self.observe(("char_wyrd", name), wyrd)
        for clock, (value, reached) in run.clocks.items():
            self.observe(("clock", clock), value)
            count["clock_at", clock, value] += 1
            for at in reached:
                count["reached", clock, at] += 1
        for counter, value in run.counters.items():
            self.observe(("counter", counter), value)
            count["counter_at", counter, value] += 1
        if run.safe_rerun:
            count["safe_rerun",] += 1
        if run.rules_core:
            count["rules_core",] += 1
        if run.stuck is not None:
            count["stuck",] += 1
            self.reasons[run.stuck] += 1
            return
        self._finale(run)

    def _finale(self, run: RunRecord) -> None:
        count = self.count
        count["finished",] += 1
        if run.scenes:
            count["ending", run.scenes[-1].id] += 1
        fates = list(run.results.values())
        for name, result in run.results.items():
            count["finale", name, result] += 1
        for label, holds in (("all_freed", all(f == FREED for f in fates)), ("any_held", HELD in fates),
                             ("any_defeated", DEFEATED in fates), ("all_defeated", all(f == DEFEATED for f in fates))):
            if holds and fates:
                count["party", label] += 1

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
