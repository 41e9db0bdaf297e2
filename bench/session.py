"""Command latency and resume time of a long scripted session, narration off.

A loop of ordinary play (a scene, a challenge, an attempt, points, the roll, a
Wyrd roll, the scene's end) is repeated until 10,000 commands have been saved,
each command committed to a real save file as in play.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import cycle
from pathlib import Path

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

__all__ = ["LOOP", "cli_resume", "run", "saves", "scale", "scripted_session", "story_session"]

LOOP = [
    "scene with Ada, Bram",
    'challenge add "Gate" obstruction 1',
    "attempt gate by Ada",
    "roll",
    "wyrd",
    "end scene",
]
SETUP = ["pc add Ada body=5 mind=5 soul=5", "pc add Bram body=6 mind=5 soul=4"]
# The bundled story played to its finale (seed 21): the whole state of a real story,
# its catalogue and stage rules, is what each command copies and saves.
STORY_SCRIPT = Path(__file__).with_name("hollow_fair.txt")
STORY_SEED = 21


def _console(path: Path, seed: int, *, narration: bool = False) -> tuple[Session, Console]:
    """A new game saved at ``path``, narration off unless asked: the benchmarks measure the engine."""
    session = Session.new(path, seed=seed, ruleset="abacus")
    session.teller.prose = narration
    return session, Console(session, path)


def _timed(console: Console, line: str) -> float:
    """Seconds to handle ``line``, saved; a refusal means the script went wrong."""
    start = time.perf_counter()
    out = console.handle(line)
    took = time.perf_counter() - start
    if out.events and out.events[0]["kind"] == "refused":
        raise RuntimeError(f"the benchmark script was refused at {line!r}: {out.events[0]['reason']}")
    return took


def scripted_session(path: Path, commands: int, sizes: dict[int, int] | None = None, *,
                     narration: bool = False) -> list[float]:
    """Play ``commands`` lines into a save at ``path``; the latency of each, in seconds.

    With ``sizes``, the save's size in bytes is noted every 10,000 commands. With
    ``narration``, the tables narrate each command, as in play.
    """
    session, console = _console(path, seed=1, narration=narration)
    for line in SETUP:
        console.handle(line)
    latencies = []
    for line, _ in zip(cycle(LOOP), range(commands - len(SETUP)), strict=False):
        latencies.append(_timed(console, line))
        if sizes is not None and len(latencies) % 10_000 == 0:
            sizes[len(latencies)] = _size(path)
    session.close()
    return latencies


def story_session(games: int = 20) -> list[list[float]]:
    """Play hollow-fair to its finale ``games`` times, each into its own save; each game's command latencies.

    A game's first command (``story hollow-fair``) reads and checks the story file.
    """
    lines = [line for line in STORY_SCRIPT.read_text(encoding="utf-8").splitlines() if line.strip()]
    played = []
    with tempfile.TemporaryDirectory() as folder:
        for game in range(games):
            session, console = _console(Path(folder) / f"story-{game}.wyrd", seed=STORY_SEED)
            played.append([_timed(console, line) for line in lines])
            session.close()
    return played


def _size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def scale(commands: int = 100_000) -> list[str]:
    """A session of 100,000 commands: latency at the end, growth of the file, resume time."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scale.wyrd"
        sizes: dict[int, int] = {}
        latencies = scripted_session(path, commands, sizes)
        tail = sorted(latencies[-10_000:])
        start = time.perf_counter()
        Session.resume(path).close()
        resume = time.perf_counter() - start
    growth = ", ".join(f"{n // 1000}k: {b / 2**20:.1f} MiB" for n, b in sorted(sizes.items()))
    return [
        f"{commands} commands: the last 10,000 at median {statistics.median(tail) * 1000:.2f} ms, "
        f"p99 {tail[int(len(tail) * 0.99)] * 1000:.2f} ms",
        f"save file growth: {growth}",
        f"resume of {commands} commands: {resume * 1000:.0f} ms",
    ]


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
    games = story_session()
    story = sorted(t for game in games for t in game)
    loads = [game[0] for game in games]
    return [
        f"command latency ({commands} commands)  median {median * 1000:.2f} ms, p99 {p99 * 1000:.2f} ms"
        " (targets 2 ms / 10 ms)",
        f"in a story (hollow-fair to its finale, {len(story)} commands)  median "
        f"{statistics.median(story) * 1000:.2f} ms, p99 {story[int(len(story) * 0.99)] * 1000:.2f} ms; "
        f"its first command, reading the story file, median {statistics.median(loads) * 1000:.1f} ms",
        f"resume of {commands} commands        {statistics.median(resumes) * 1000:.0f} ms (target 500 ms)",
        f"full replay, no snapshots         {full * 1000:.0f} ms",
        f"save file size                    {size / 1024:.0f} KiB",
    ]


def cli_resume(path: Path, runs: int = 5) -> list[float]:
    """Seconds for ``wyrd resume PATH --script`` with one ``quit``, process start to exit, ``runs`` times."""
    script = path.with_name("quit.txt")
    script.write_text("quit\n", encoding="utf-8")
    env = {**os.environ, "WYRD_HOME": str(path.with_name("home"))}
    took = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "wyrd", "resume", str(path), "--script", str(script)],
                              capture_output=True, text=True, env=env, check=False)
        took.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise RuntimeError(f"wyrd resume failed: {done.stderr.strip()}")
    return took


def saves(growth: int = 10_000, long: int = 100_000) -> list[str]:
    """The save's growth with the tables narrating, and ``wyrd resume`` of a long save through the CLI."""
    with tempfile.TemporaryDirectory() as folder:
        narrated = Path(folder) / "narrated.wyrd"
        sizes: dict[int, int] = {}
        scripted_session(narrated, growth + len(SETUP), sizes, narration=True)
        open_size = sizes[growth]  # the file, its write-ahead log and its index while the game is open
        size = _size(narrated)  # closed: the log folded into the file
        path = Path(folder) / "long.wyrd"
        scripted_session(path, long, narration=True)
        long_size = _size(path)
        took = sorted(cli_resume(path))
    return [
        f"save growth with narration on (tables): {size / 2**20:.2f} MiB per {growth:,} commands"
        f" (closed; {open_size / 2**20:.2f} MiB with its write-ahead log while open)",
        f"`wyrd resume FILE --script` (one quit) of a {long:,}-command save ({long_size / 2**20:.0f} MiB),"
        f" process start to exit: median {statistics.median(took) * 1000:.0f} ms,"
        f" best {took[0] * 1000:.0f} ms of {len(took)}",
    ]
