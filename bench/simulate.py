"""The balance simulator's speed: challenge resolutions per second, and a 10,000-run simulation.

Resolutions per second are measured on the bundled story hollow-fair in one
process, beside a bare loop that makes the same number of random draws
(``Random.randint(1, 6)``, one per die the simulation rolled): the floor a
simulation in Python could reach if deciding and applying the rules cost
nothing. The same runs in safe mode (every action deep-copies the state) show
what the copy costs. The 10,000-run simulation uses every core.
"""

from __future__ import annotations

import os
import random
import resource
import time

from wyrd.rulesets import rulesets
from wyrd.sim import BotReport, BotSimulator, Request, simulator_for, story_ruleset
from wyrd.sim.abacus import prepare, simulate
from wyrd.sim.abacus.policy import POLICIES
from wyrd.sim.abacus.report import Report
from wyrd.stories.loader import BUNDLED, find_story

__all__ = ["bare_draws", "bot_rates", "resolutions", "run"]

STORY = "hollow-fair"
# A bundled story for each ruleset whose bots play through play sessions (found by the story, not named).
BOT_STORIES = ("the-drowned-bell", "lantern-at-gull-reach", "harrow-mere")


def resolutions(report: Report) -> int:
    """Challenge rolls made in a simulation (each attempted challenge is one resolution)."""
    return sum(ch.attempted.k for scene in report.scenes for ch in scene.challenges)


def bare_draws(n: int, seed: int = 1) -> float:
    """Seconds for a plain loop to make ``n`` draws of a d6 from a ``random.Random``."""
    randint = random.Random(seed).randint
    start = time.perf_counter()
    for _ in range(n):
        randint(1, 6)
    return time.perf_counter() - start


def _cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the worker processes)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _timed(runs: int, **kwargs: object) -> tuple[Report, float, float]:
    """The report, its wall time and its CPU time (on a busy machine the CPU time is the steadier)."""
    start, cpu = time.perf_counter(), _cpu()
    report = simulate(STORY, runs, **kwargs)  # type: ignore[arg-type]
    return report, time.perf_counter() - start, _cpu() - cpu


def bot_rates(runs: int = 100) -> list[str]:
    """Runs per second of each ruleset's bots on its bundled story, in one process."""
    lines = []
    for story in BOT_STORIES:
        ruleset = story_ruleset(story)
        simulator = simulator_for(ruleset)
        assert isinstance(simulator, BotSimulator)
        simulator.simulate(Request(story, 1))  # warm the imports and the story
        start, cpu = time.perf_counter(), _cpu()
        report = simulator.simulate(Request(story, runs, seed=1))
        seconds, used = time.perf_counter() - start, _cpu() - cpu
        assert isinstance(report, BotReport)
        name = next(r.name for r in rulesets() if r.id == ruleset)
        label = f"bots on {story} ({name}, {runs} runs, 1 process)"
        lines.append(f"{label:<66}  {report.runs / seconds:,.0f} runs/s ({seconds / report.runs * 1000:.1f} ms a run, "
                     f"{used / report.runs * 1000:.1f} ms of CPU; {report.lines.mean:.0f} lines a run)")
    return lines


def run(runs: int = 1000, big: int = 10_000, safe_runs: int = 30) -> list[str]:
    prepare(find_story(STORY, [BUNDLED]))  # warm the imports and the story cache
    report, seconds, cpu = _timed(runs, policy="cautious", seed=1)
    done = resolutions(report)
    dice = round(report.dice.mean * report.runs)
    bare = min(bare_draws(dice) for _ in range(3))
    rate = done / seconds
    bare_rate = done / bare
    safe_report, safe_seconds, _ = _timed(safe_runs, policy="cautious", seed=1, safe=True)
    safe_rate = resolutions(safe_report) / safe_seconds
    jobs = os.cpu_count() or 1
    big_report, big_seconds, big_cpu = _timed(big, policy=POLICIES["cautious"], seed=1, jobs=jobs)
    return [
        f"simulated resolutions ({runs} runs of {STORY}, 1 process)  {rate:,.0f}/s "
        f"({seconds / report.runs * 1000:.2f} ms a run, {cpu / report.runs * 1000:.2f} ms of CPU; "
        f"{done / report.runs:.1f} resolutions and {dice / report.runs:.1f} dice a run)",
        f"bare loop, the same {dice:,} d6 draws             {bare_rate:,.0f} resolutions/s "
        f"(simulation at 1/{bare_rate / rate:,.0f} of it; target at least 1/4)",
        f"safe mode (a deep copy per action), {safe_runs} runs    {safe_rate:,.0f}/s "
        f"({rate / safe_rate:.1f}x slower than fast mode)",
        f"{big:,}-run simulation of {STORY} ({jobs} jobs)     {big_seconds:.1f} s "
        f"({big_report.runs / big_seconds:,.0f} runs/s; {big_cpu:.1f} s of CPU, {big_cpu / jobs:.1f} s a core; "
        "target < 30 s)",
        *bot_rates(),
    ]
