"""Command latency and resume time of a long scripted session, narration off.

A loop of ordinary play (a scene, a challenge, an attempt, points, the roll, a
Wyrd roll, the scene's end) is repeated until 10,000 commands have been saved,
each command committed to a real save file as in play.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from itertools import cycle
from pathlib import Path

from play.console import Console
from play.session import Session

__all__ = ["LOOP", "run", "scripted_session"]

LOOP = [
    "scene with Ada, Bram",
    'challenge add "Gate" obstruction 1',
    "attempt gate by Ada",
    "roll",
    "wyrd",
    "end scene",
]
SETUP = ["pc add Ada body=5 mind=5 soul=5", "pc add Bram body=6 mind=5 soul=4"]


def scripted_session(path: Path, commands: int) -> list[float]:
    """Play ``commands`` lines into a save at ``path``; the latency of each, in seconds."""
    session = Session.new(path, seed=1)
    console = Console(session, path)
    for line in SETUP:
        console.handle(line)
    latencies = []
    for line, _ in zip(cycle(LOOP), range(commands - len(SETUP)), strict=False):
        start = time.perf_counter()
        out = console.handle(line)
        latencies.append(time.perf_counter() - start)
        if out.events and out.events[0]["kind"] == "refused":
            raise RuntimeError(f"the benchmark script was refused: {out.events[0]['reason']}")
    session.close()
    return latencies


def run(commands: int = 10_000) -> list[str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.wyrd"
        latencies = sorted(scripted_session(path, commands))
        median = statistics.median(latencies)
        p99 = latencies[int(len(latencies) * 0.99)]
        resumes = []
        for _ in range(3):
            start = time.perf_counter()
            Session.resume(path).close()
            resumes.append(time.perf_counter() - start)
        replay = Session.resume(path)
        start = time.perf_counter()
        replay.rebuild(use_snapshots=False)
        full = time.perf_counter() - start
        replay.close()
        size = path.stat().st_size + sum(p.stat().st_size for p in path.parent.glob("bench.wyrd-*"))
    return [
        f"command latency ({commands} commands)  median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
        " (targets 2 ms / 10 ms)",
        f"resume of {commands} commands        {statistics.median(resumes) * 1000:.0f} ms (target 500 ms)",
        f"full replay, no snapshots         {full * 1000:.0f} ms",
        f"save file size                    {size / 1024:.0f} KiB",
    ]
