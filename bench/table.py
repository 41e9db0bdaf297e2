"""The shared table under load (issue 20, point 8): latency to every seat, and memory over a long game.

A table is served by ``wyrd host`` in a process of its own, on loopback; six seats connect from this
process with the websockets client. Each seat in turn sends a line of ordinary play
(the table opened, so anyone moves anyone), and the time from the line sent to its log entry arriving
at *every* seat is measured (median and p99; target: p99 under 50 ms on loopback). Then one seat
sends lines until the save holds 10,000 commands, and the process's resident memory is read before and
after: what a table that has run for days costs its host. ``WYRD_BENCH_TABLE_COMMANDS`` sets that count.
"""

from __future__ import annotations

import asyncio
import json
import os
import statistics
import tempfile
import time
from collections.abc import Iterator
from itertools import cycle
from pathlib import Path
from typing import Any

__all__ = ["LINES", "run"]

SETUP = ["pc add Ada body=5 mind=5 soul=5", "pc add Bram body=6 mind=5 soul=4"]
LINES = ["scene with Ada, Bram", 'challenge add "Gate" obstruction 1', "attempt gate by Ada", "roll", "wyrd",
         "end scene"]
SEATS = 6
ROUNDS = 100  # lines per seat in the latency run


def _rss_mib(pid: int) -> float:
    """A process's resident memory now, in MiB (Linux)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


class _Seat:
    def __init__(self, ws: Any, everyone: dict[str, list[float]], done: dict[str, asyncio.Event]) -> None:
        self.ws = ws
        self.everyone = everyone  # line id -> when its entry reached each seat
        self.done = done  # line id -> set once every seat has it
        self.answers: dict[str, asyncio.Future[dict[str, Any]]] = {}

    async def listen(self) -> None:
        async for frame in self.ws:
            message = json.loads(frame)
            line_id = message.get("id")
            if isinstance(line_id, str):
                if message["type"] == "log":
                    times = self.everyone.setdefault(line_id, [])
                    times.append(time.perf_counter())
                    if len(times) == SEATS and line_id in self.done:
                        self.done[line_id].set()
                future = self.answers.pop(line_id, None)
                if future is not None and not future.done():
                    future.set_result(message)


async def _play(port: int, invite: str, pid: int, commands: int) -> tuple[list[float], int, float, float, float]:
    from websockets.asyncio.client import connect

    url = f"ws://127.0.0.1:{port}/ws"
    seats: list[_Seat] = []
    everyone: dict[str, list[float]] = {}
    done: dict[str, asyncio.Event] = {}
    for i in range(SEATS):
        ws = await connect(url, max_size=None)
        hello = {"type": "hello", "invite": invite, "name": f"P{i}"}
        await ws.send(json.dumps(hello))
        while json.loads(await ws.recv())["type"] != "view":
            pass
        seats.append(_Seat(ws, everyone, done))
    listening = [asyncio.ensure_future(s.listen()) for s in seats]

    async def send(seat: _Seat, line_id: str, text: str) -> dict[str, Any]:
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        seat.answers[line_id] = future
        await seat.ws.send(json.dumps({"type": "line", "id": line_id, "text": text}))
        return await asyncio.wait_for(future, 60)

    for i, text in enumerate(SETUP):
        await send(seats[0], f"setup{i}", text)
    latencies: list[float] = []
    lines = cycle(LINES)
    for n in range(ROUNDS * SEATS):
        seat = seats[n % SEATS]
        line_id = f"lat{n}"
        done[line_id] = asyncio.Event()
        sent = time.perf_counter()
        answer = await send(seat, line_id, next(lines))
        if answer["type"] != "log":
            continue
        if len(everyone.get(line_id, [])) < SEATS:
            await asyncio.wait_for(done[line_id].wait(), 60)
        latencies.append(max(everyone.pop(line_id)) - sent)
    # The long game: the seats in turn send lines until the save holds `commands` commands, each line
    # waiting for its entry to reach every seat, as at a table.
    before = _rss_mib(pid)
    started = time.perf_counter()
    n = 0
    last = 0
    while last < commands:
        line_id = f"long{n}"
        done[line_id] = asyncio.Event()
        answer = await send(seats[n % SEATS], line_id, next(lines))
        n += 1
        if answer["type"] == "log":
            last = int(answer["n"])
            if len(everyone.get(line_id, [])) < SEATS:
                await asyncio.wait_for(done[line_id].wait(), 60)
        everyone.pop(line_id, None)
        done.pop(line_id, None)
    elapsed = time.perf_counter() - started
    after = _rss_mib(pid)
    for s in seats:
        await s.ws.close()
    for task in listening:
        task.cancel()
    return latencies, last, before, after, elapsed


def run() -> Iterator[str]:
    import signal
    import subprocess
    import sys

    from wyrd.play.frontends.table.seats import SeatBook, book_path

    commands = int(os.environ.get("WYRD_BENCH_TABLE_COMMANDS", "10000"))
    with tempfile.TemporaryDirectory() as folder:
        save = Path(folder) / "table.wyrd"
        # The table is opened beforehand (anyone moves anyone), as its host would with `open`.
        env = {**os.environ, "WYRD_HOME": folder}
        args = [sys.executable, "-m", "wyrd", "host", "--story", "none", "--seed", "7", "--save", str(save),
                "--port", "0", "--no-repl", "--no-qr", "--rate", "100000"]
        proc = subprocess.Popen(args, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True, env=env)
        try:
            assert proc.stdout is not None
            link = next(line.strip() for line in proc.stdout if "#invite=" in line)
            book = SeatBook(book_path(save))
            book.set("characters", "open")
            book.close()
            port = int(link.split(":")[2].split("/")[0])
            start = _rss_mib(proc.pid)
            latencies, last, before, after, elapsed = asyncio.run(
                _play(port, link.split("#invite=")[1], proc.pid, commands))
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(60)
        ms = sorted(x * 1000 for x in latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        yield (f"latency, a line sent to its entry at all {SEATS} seats ({len(ms)} lines, loopback): "
               f"median {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms, max {ms[-1]:.1f} ms "
               f"(target p99 < 50 ms: {'met' if p99 < 50 else 'NOT met'})")
        yield (f"a long game: {last:,} commands in the save, {elapsed:.0f} s for the last ones "
               f"({elapsed / max(1, last - len(ms)) * 1000:.1f} ms a command, {SEATS} seats sent each)")
        yield (f"the host's memory (resident): {start:.0f} MiB when open, {before:.0f} MiB after the latency run, "
               f"{after:.0f} MiB after {last:,} commands ({after - before:+.0f} MiB)")
