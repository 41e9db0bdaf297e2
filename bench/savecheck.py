"""What a save's checking itself costs: verifying the digest chain at 10,000 and 100,000 commands.

A 10,000-command save is played as in bench/session.py; the 100,000-command one repeats its
records through ``SaveFile.append`` (with the disk syncs off: the figures are about reading).
Each is opened read-only (the chain walked, the latest snapshot checked) and resumed, and
opened again with the check skipped: the difference is what verification costs.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from unittest import mock

import wyrd.play.engine.savefile as savefile_module
from bench.session import scripted_session
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session

__all__ = ["grow", "run"]


def grow(source: Path, path: Path, commands: int) -> None:
    """A save at ``path`` of ``commands`` commands, ``source``'s records over and over."""
    with SaveFile.open(source, readonly=True) as old:
        records = list(old.live_commands())
        meta = {k: v for k, v in old.meta.items() if k not in ("format", "schema_version", "app_version",
                                                                "created_at", "holder")}
    with SaveFile.create(path, meta=meta) as save:
        save._conn.execute("PRAGMA synchronous = OFF")
        while save.last_seq() < commands:
            for r in records[: commands - save.last_seq()]:
                dice = [{"sides": d.sides, "faces": list(d.faces), "purpose": d.purpose} for d in r.dice]
                save.append(r.text, r.parsed, dice, list(r.events))


def _best(action: Callable[[], object], rounds: int = 3) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run() -> list[str]:
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        small = Path(folder) / "10k.wyrd"
        scripted_session(small, 10_000)
        big = Path(folder) / "100k.wyrd"
        grow(small, big, 100_000)
        for n, path in ((10_000, small), (100_000, big)):
            checked = _best(lambda p=path: SaveFile.open(p, readonly=True).close())
            with mock.patch.object(savefile_module, "_verify", lambda conn, p: None):
                unchecked = _best(lambda p=path: SaveFile.open(p, readonly=True).close())
            lines.append(f"{n} commands: read-only open {checked * 1000:.0f} ms with the chain checked, "
                         f"{unchecked * 1000:.0f} ms without (verification {(checked - unchecked) * 1000:.0f} ms)")
        resumed = _best(lambda: Session.resume(small).close())
        with mock.patch.object(savefile_module, "_verify", lambda conn, p: None):
            bare = _best(lambda: Session.resume(small).close())
        lines.append(f"resume of 10000 commands: {resumed * 1000:.0f} ms checked, {bare * 1000:.0f} ms unchecked")
    return lines
