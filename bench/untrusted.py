"""Untrusted input, bounded: the time to refuse a long line, and to list and read a hostile content folder.

Before the line limit a refused 1.6 M-character line cost 104 s (splitting it into words was
quadratic); a FIFO named ``f.yaml`` hung, a link to ``/dev/zero`` took 16 GB, a link to ``/`` was
walked for minutes. Each figure is the median of several runs; the parse time of a line just
under the limit is printed beside, for scale.
"""

from __future__ import annotations

import contextlib
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import MAX_LINE, Console
from wyrd.stories.files import MAX_DEPTH, list_yaml, read_bytes

__all__ = ["run"]


def _median(action: Callable[[], object], runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run() -> list[str]:
    session = Session.new(None, seed=1, ruleset="abacus")
    console = Console(session)
    lines = []
    for n in (MAX_LINE, 1_600_000):
        line = ("ask " + "likely " * (n // 7 + 1))[:n]
        seconds = _median(lambda text=line: console.handle(text))  # type: ignore[misc]
        lines.append(f"a line of {n:,} characters: handled in {seconds * 1000:.2f} ms")
    session.close()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "mine.yaml").write_text("id: mine\n")
        os.mkfifo(folder / "f.yaml")
        (folder / "z.yaml").symlink_to("/dev/zero")
        (folder / "loop.yaml").symlink_to(folder / "loop.yaml")
        (folder / "root").symlink_to("/")
        with (folder / "big.yaml").open("wb") as f:
            f.truncate(200 * 1024 * 1024)
        seconds = _median(lambda: list_yaml(folder, depth=MAX_DEPTH))
        lines.append(f"a hostile folder (FIFO, /dev/zero, a loop, a link to /, 200 MB): listed in "
                     f"{seconds * 1000:.2f} ms")

        def refuse_big() -> None:
            with contextlib.suppress(OSError):
                read_bytes(folder / "big.yaml")

        lines.append(f"the 200 MB file refused in {_median(refuse_big) * 1000:.3f} ms")
    return lines


if __name__ == "__main__":
    print("\n".join(run()))
