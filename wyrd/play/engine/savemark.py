"""The mark that a save is exactly as Wyrd last left it, so opening it need not walk its chain.

Checking a save's whole digest chain (:mod:`~wyrd.play.engine.savedigest`) grows with the game:
a third of a second at 100,000 commands (issue 21, point 3). When a session that wrote a save
closes it, having seen nobody else write it meanwhile, it leaves a mark in the player's data
folder (``WYRD_HOME/marks``, never beside the save): the file's identity (its real path, device,
inode, size, and modification and change times in nanoseconds) with the number and digest of
its last command. An open that finds the file exactly so (and no ``-wal`` beside it) checks only
the chain after the mark (normally nothing) and the snapshot it uses; anything else (a save
copied in, written by another program, edited with ``sqlite3``, left by a killed session) is
checked whole, as before, and marked anew when its session closes.

Why a hand edit still cannot pass: any write to the file, or putting its modification time
back with ``os.utime``, sets its change time (``st_ctime``) to the clock's now, which no
ordinary program can set back. A mark is kept only once the clock has moved past the file's
change time (at most a tick; no mark if it has not within half a second), so an edit made after the
close cannot wear the same time. Where the change time is not that (Windows, where it is the
creation time) no mark is kept and every open checks the whole chain. While a session holds the
save it follows the file between its own commits (:class:`Watch`) and SQLite's count of other
connections' commits: any write it did not make, by SQLite or by anything else, and no mark is
left. What it cannot tell: a write made in the very clock tick of Wyrd's own last write while it
closes (a few milliseconds at most, where the kernel keeps coarse file times); like the digests,
the mark guards against edits by hand and damage, not against a program racing Wyrd.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from contextlib import suppress
from pathlib import Path
from typing import NamedTuple

from wyrd.play.engine.paths import data_dir

__all__ = ["Mark", "Watch", "forget", "load", "store", "unchanged"]

# How long a closing session waits for the clock to move past the save's change time. It waits a
# tick at most where the clock is sound (the loop ends as soon as it moves); the margin is for a
# machine so busy that the waiting process is not run for a while, which must not cost the mark.
_PATIENCE = 0.5
_TRUSTED = os.name == "posix"  # st_ctime is the inode's change time only there

Stat = tuple[int, int, int, int, int]


class Mark(NamedTuple):
    """A save as Wyrd left it: the main file's identity, and its last command's seq and digest."""

    file: Stat
    seq: int
    head: bytes


def _stat(path: str) -> Stat | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def _mark_file(real: str) -> Path:
    return data_dir() / "marks" / (hashlib.sha256(os.fsencode(real)).hexdigest()[:40] + ".json")


def load(path: Path) -> Mark | None:
    """The save's mark, if the file is the file alone (no ``-wal``) exactly as it says; else None."""
    if not _TRUSTED:
        return None
    real = os.path.realpath(path)
    try:
        data = json.loads(_mark_file(real).read_text(encoding="utf-8"))
        file, seq, head = tuple(data["file"]), data["seq"], bytes.fromhex(data["head"])
    except (OSError, ValueError, TypeError, KeyError):
        return None
    if data.get("path") != real or not isinstance(seq, int) or len(head) != 32:
        return None
    if file != _stat(real) or _stat(real + "-wal") is not None:
        return None
    return Mark(file, seq, head)


def unchanged(path: Path, mark: Mark) -> bool:
    """Whether the save is still as ``mark`` says, checked again once SQLite holds it: the main
    file unchanged, and no frame in a ``-wal`` (opening one creates it empty)."""
    real = os.path.realpath(path)
    wal = _stat(real + "-wal")
    return _stat(real) == mark.file and (wal is None or wal[2] == 0)


def store(path: Path, seq: int, head: bytes) -> bool:
    """Mark the save, closed by a session that saw no write but its own, as the file now is.

    Nothing is marked if a ``-wal`` is left beside it (another connection still has it open) or
    the clock does not move past the file's change time; a mark that cannot be written is simply
    not there (the next open checks the whole chain).
    """
    if not _TRUSTED:
        return False
    real = os.path.realpath(path)
    file = _stat(real)
    if file is None or _stat(real + "-wal") is not None:
        forget(path)
        return False
    target = _mark_file(real)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, part = tempfile.mkstemp(dir=target.parent, prefix=".", suffix=".part")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"path": real, "file": file, "seq": seq, "head": head.hex()}, f)
        os.replace(part, target)
        if _clock_moved_past(target, file[4]) and _stat(real) == file:
            return True
    except OSError:
        pass
    forget(path)
    return False


def _clock_moved_past(probe: Path, ctime_ns: int) -> bool:
    """Touch ``probe`` until its change time is past ``ctime_ns``: then a later write to the save
    gets a later change time than the one marked."""
    deadline = time.monotonic() + _PATIENCE
    while os.stat(probe).st_ctime_ns <= ctime_ns:
        if time.monotonic() > deadline:
            return False
        time.sleep(0.001)
        os.utime(probe)
    return True


def forget(path: Path) -> None:
    """Drop the save's mark, if any."""
    with suppress(OSError):
        _mark_file(os.path.realpath(path)).unlink(missing_ok=True)


class Watch:
    """A session's view of its save between its own commits: the main file and its ``-wal``
    as its last commit left them. Any other change (a commit by another program, bytes written
    by hand) breaks the watch, and the session leaves no mark."""

    def __init__(self, path: Path) -> None:
        self._real = os.path.realpath(path)
        self.intact = _TRUSTED
        self._seen = self._now()

    def _now(self) -> tuple[Stat | None, Stat | None]:
        return _stat(self._real), _stat(self._real + "-wal")

    def check(self) -> None:
        """Before a write of ours (and at close): the files must be as our last write left them."""
        if self.intact and self._now() != self._seen:
            self.intact = False

    def note(self) -> None:
        """After a write of ours: this is how it left the files."""
        if self.intact:
            self._seen = self._now()
