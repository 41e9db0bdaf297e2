"""What every simulator shares about running many playthroughs: how runs are cut up, how progress shows.

Runs are cut into chunks of consecutive run indices (:func:`chunks`); each chunk is
played and folded into a tally by whichever process takes it, and the tallies are
added up. Every run is seeded by ``(seed, index)`` and a tally adds up the same in
any order, so a report is the same for 1 job or 8. :class:`ProgressBar` shows the
chunks finishing on a terminal.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

__all__ = ["MAX_RUNS", "Progress", "ProgressBar", "chunks", "run_seed"]

MAX_RUNS = 10_000_000
Progress = Callable[[int, int], None]


def run_seed(seed: int, index: int, stream: str) -> str:
    """The seed of one of a run's random streams (``dice``, ``policy``...)."""
    return f"wyrd-sim:{seed}:{index}:{stream}"


def chunks(runs: int, jobs: int) -> list[tuple[int, int]]:
    """Consecutive ``(start, stop)`` run ranges: small enough to share out and show progress."""
    size = max(10, min(250, runs // (max(1, jobs) * 20) or 1))
    return [(start, min(runs, start + size)) for start in range(0, runs, size)]


class ProgressBar:
    """A one-line progress counter on a terminal stream, redrawn at most ten times a second."""

    WIDTH = 30

    def __init__(self, label: str, stream: TextIO | None = None) -> None:
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.start = time.perf_counter()
        self.shown = 0.0

    def __call__(self, done: int, total: int) -> None:
        now = time.perf_counter()
        if done < total and now - self.shown < 0.1:
            return
        self.shown = now
        filled = self.WIDTH * done // max(1, total)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        elapsed = now - self.start
        self.stream.write(f"\r{self.label} [{bar}] {done:,}/{total:,} runs, {elapsed:.1f} s")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()
