"""The balance simulator's speed beside its floor, measured in the same run.

* **Resolutions per second** on the bundled story hollow-fair in one process,
  beside a bare loop making the same d6 draws (``random.Random.randint(1, 6)``, as
  many as the simulation rolled): the floor a simulation in Python could reach if
  deciding and applying the rules cost nothing. Printed as a ratio to the floor
  (issue 21, point 1: 1/25 or better).
* **Safe mode** (every action deep-copies the state) beside fast mode.
* **10,000 games of every bundled story** of every ruleset with 2 worker
  processes, wall time (issue 21, point 1: under 4 s each). A story whose first
  games show it would take over a minute is not played out: its time is estimated
  from their CPU time and marked so.
"""

from __future__ import annotations

import random
import resource
import time
from collections.abc import Callable

from wyrd.rulesets import rulesets
from wyrd.sim import Request, SimError, simulator_for
from wyrd.sim.abacus import simulate
from wyrd.sim.abacus.report import Report
from wyrd.stories.formats import discover

__all__ = ["bare_draws", "bundled_stories", "floor", "games", "resolutions", "run"]

STORY = "hollow-fair"
GAMES = 10_000
JOBS = 2
TARGET_RATIO = 25  # the simulator at 1/25 of the bare loop or better
TARGET_SECONDS = 4.0  # 10,000 games of any bundled story on two cores
PATIENCE = 60.0  # a story that would take longer than this is estimated, not played out


def resolutions(report: Report) -> int:
    """Challenge rolls made in a simulation (each attempted challenge is one resolution)."""
    return sum(ch.attempted.k for scene in report.scenes for ch in scene.challenges)


def bare_draws(n: int, seed: int = 1, clock: Callable[[], float] = time.perf_counter) -> float:
    """Seconds (by ``clock``) for a plain loop to make ``n`` draws of a d6 from a ``random.Random``."""
    randint = random.Random(seed).randint
    start = clock()
    for _ in range(n):
        randint(1, 6)
    return clock() - start


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(runs: int, **kwargs: object) -> tuple[Report, float, float]:
    """The report, its wall time and its CPU time (on a busy machine the CPU time is the steadier)."""
    start, cpu = time.perf_counter(), _cpu()
    report = simulate(STORY, runs, **kwargs)  # type: ignore[arg-type]
    return report, time.perf_counter() - start, _cpu() - cpu


def floor(runs: int = 1000, safe_runs: int = 30) -> list[str]:
    """Resolutions per second of the simulator, and of the bare loop making its draws, side by side."""
    simulate(STORY, 1)  # warm the imports and the story kept for this process, as every run after it finds it
    best: tuple[Report, float, float] | None = None
    for _ in range(3):  # the best of three: the machine is shared
        timed = _timed(runs, policy="cautious", seed=1)
        if best is None or timed[1] < best[1]:
            best = timed
    assert best is not None
    report, seconds, cpu = best
    done = resolutions(report)
    dice = round(report.dice.mean * report.runs)
    bare = min(bare_draws(dice) for _ in range(3))
    bare_cpu = min(bare_draws(dice, clock=time.process_time) for _ in range(3))
    rate, bare_rate = done / seconds, done / bare
    # By CPU time, both in this one process: steadier than wall time on a shared machine.
    ratio, wall_ratio = cpu / bare_cpu, bare_rate / rate
    safe_report, safe_seconds, _ = _timed(safe_runs, policy="cautious", seed=1, safe=True)
    safe_rate = resolutions(safe_report) / safe_seconds
    verdict = "met" if ratio <= TARGET_RATIO else "not met"
    return [
        f"bare loop, the same {dice:,} d6 draws (one Random)        {bare_rate:,.0f} resolutions/s (the floor)",
        f"simulator, {runs} runs of {STORY} (1 process)        {rate:,.0f} resolutions/s "
        f"({seconds / report.runs * 1000:.3f} ms a run, {cpu / report.runs * 1000:.3f} ms of CPU; "
        f"{done / report.runs:.1f} resolutions and {dice / report.runs:.1f} dice a run)",
        f"simulator / floor                                  1/{ratio:,.1f} by CPU time, 1/{wall_ratio:,.1f} by wall "
        f"time (target 1/{TARGET_RATIO} or better: {verdict})",
        f"safe mode (a deep copy per action), {safe_runs} runs           {safe_rate:,.0f} resolutions/s "
        f"({rate / safe_rate:.1f}x slower than fast mode)",
    ]


def bundled_stories() -> list[tuple[str, str, bool]]:
    """Every bundled story: its id, its ruleset's name, and whether it is freeform (no scene flow)."""
    names = {r.id: r.name for r in rulesets()}
    return [(info.id, names.get(info.ruleset, info.ruleset), info.freeform) for info in discover(()) if info.ok]


def games(story: str, total: int = GAMES, jobs: int = JOBS, patience: float = PATIENCE) -> str:
    """The wall time of ``total`` games of ``story`` with ``jobs`` processes (estimated if it would be long).

    A first 1% of the games (50 at least) is played in this process to see what a game costs in CPU
    time; if ``total`` games shared over ``jobs`` cores would take longer than ``patience``, that is the
    figure given, marked as an estimate (the best case: ``jobs`` idle cores, no start-up).
    """
    from wyrd.sim import story_ruleset

    simulator = simulator_for(story_ruleset(story))
    simulator.simulate(Request(story, 1))  # warm the imports and the story in this process
    probe = max(50, total // 100)
    cpu = _cpu()
    simulator.simulate(Request(story, probe, seed=1))
    per_game = (_cpu() - cpu) / probe
    if per_game * total / jobs > patience:
        seconds = per_game * total / jobs
        how = f"estimated: {per_game * 1000:.1f} ms of CPU a game over {jobs} cores"
    else:
        start, cpu = time.perf_counter(), _cpu()
        report = simulator.simulate(Request(story, total, seed=1, jobs=jobs))
        seconds = time.perf_counter() - start
        how = f"{_cpu() - cpu:.1f} s of CPU"
        assert report.runs == total
    verdict = "met" if seconds < TARGET_SECONDS else "not met"
    return f"{seconds:7.1f} s ({how}; target < {TARGET_SECONDS:.0f} s: {verdict})"


def run(total: int = GAMES, jobs: int = JOBS) -> list[str]:
    lines = floor()
    lines.append(f"{total:,} games of each bundled story, {jobs} jobs (wall time):")
    for story, ruleset, freeform in bundled_stories():
        label = f"  {story} ({ruleset})"
        if freeform:
            lines.append(f"{label:<48} freeform setting: no scene flow for bots to follow")
            continue
        try:
            lines.append(f"{label:<48} {games(story, total, jobs)}")
        except SimError as exc:
            lines.append(f"{label:<48} cannot be simulated: {exc}")
    return lines
