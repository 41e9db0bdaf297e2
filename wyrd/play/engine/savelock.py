"""One writer per save: an exclusive ``flock`` held for a session's whole life.

The lock is taken on a file descriptor of its own, kept open by the save until it closes; the
kernel drops it when the process dies, so a crash never leaves a save locked. On Linux ``flock``
locks and the POSIX (``fcntl``) locks SQLite uses are independent, so holding one never blocks
SQLite's readers or writers (tests/play/test_save_lock.py checks this). Closing *any* descriptor
of a file drops the POSIX locks a process holds on it, so the lock's descriptor is closed only
after the SQLite connection. Who holds the lock is written into the save's meta (``holder``)
when it is taken, so a refused opener can name it.
"""

from __future__ import annotations

import os
import socket
import sys
import time
from pathlib import Path
from typing import Any

__all__ = ["describe", "free", "holder", "release", "take"]

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: the save is still SQLite-locked per write
    fcntl = None  # type: ignore[assignment]


def take(path: Path) -> int | None:
    """An open descriptor holding ``path``'s exclusive lock, or None if someone else holds it."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    if fcntl is None:  # pragma: no cover
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def free(path: Path) -> bool:
    """Whether no session holds ``path``'s lock now (a moment's shared lock, taken and dropped)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return False
    try:
        if fcntl is None:  # pragma: no cover
            return False
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # drops the shared lock with it


def release(fd: int | None) -> None:
    """Drop the lock (closing its descriptor); call it after the SQLite connection is closed."""
    if fd is not None:
        os.close(fd)


def holder(command: str | None = None) -> dict[str, Any]:
    """Who is taking the lock: process, host, the command line's words, and since when."""
    if command is None:
        program = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else "python"
        if program in ("wyrd", "__main__.py"):
            command = " ".join(["wyrd", *[w for w in sys.argv[1:] if not w.startswith("-")][:1]])
        else:
            command = f"wyrd in {program}"
    return {"pid": os.getpid(), "host": socket.gethostname(), "command": command,
            "since": time.strftime("%Y-%m-%d %H:%M:%S")}


def _clean(value: object, limit: int = 60) -> str:
    """A field read from the save, fit to print: printable characters only, and short."""
    text = "".join(c for c in str(value) if c.isprintable())
    return text[:limit]


def describe(info: object) -> str:
    """The holder as one phrase for the player (the save's text is untrusted: cleaned)."""
    if not isinstance(info, dict):
        return "another Wyrd session"
    return (f"`{_clean(info.get('command', 'wyrd'))}` (process {_clean(info.get('pid', '?'))} on "
            f"{_clean(info.get('host', '?'))}, since {_clean(info.get('since', '?'))})")
