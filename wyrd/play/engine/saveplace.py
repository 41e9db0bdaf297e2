"""Putting a save in place whole: built under a hidden name, then moved without overwriting.

A new save (or a backup) is built at :func:`part_name` beside where it goes, complete, then
:func:`place` gives it its name: ``os.link`` fails if the name is taken, so nothing is ever
overwritten, and a kill at any moment leaves either no save or a whole one. A kill may leave the
hidden ``.NAME.wyrd.part-PID`` behind; :func:`is_save_file` and the listing of saves ignore it.
"""

from __future__ import annotations

import errno
import os
from contextlib import suppress
from pathlib import Path

__all__ = ["APPLICATION_ID", "SQLITE_MAGIC", "discard", "is_save_file", "part_name", "place"]

APPLICATION_ID = 0x57797264  # "Wyrd": `file(1)` and our header check recognise saves by it
SQLITE_MAGIC = b"SQLite format 3\x00"
# Where hard links are impossible (some network and FAT file systems), not merely refused.
_NO_LINKS = (errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EACCES, errno.ENOSYS)


def part_name(path: Path) -> Path:
    """Where a save (or a backup) is built before it is moved to ``path``: hidden, not ``.wyrd``."""
    return path.with_name(f".{path.name}.part-{os.getpid()}")


def is_save_file(path: Path) -> bool:
    """Whether ``path`` looks like a whole save from its first 100 bytes (cheap: no SQLite)."""
    try:
        with path.open("rb") as f:
            header = f.read(100)
    except OSError:
        return False
    return (len(header) == 100 and header.startswith(SQLITE_MAGIC)
            and int.from_bytes(header[68:72], "big") == APPLICATION_ID)


def place(part: Path, path: Path) -> None:
    """Move the finished ``part`` to ``path``; ``FileExistsError`` if anything is there already."""
    try:
        os.link(part, path)  # atomic, and fails if path exists
    except FileExistsError:
        raise
    except OSError as e:
        if e.errno not in _NO_LINKS:
            raise
        # No hard links: claim the name with O_EXCL, then replace our empty claim. A kill in
        # between leaves an empty file, which nobody takes for a save (it has no header).
        os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        os.replace(part, path)
    else:
        part.unlink()
    with suppress(OSError):  # make the new name durable too
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def discard(part: Path) -> None:
    """Remove a part and whatever SQLite left beside it."""
    for leftover in (part, Path(f"{part}-wal"), Path(f"{part}-shm"), Path(f"{part}-journal")):
        with suppress(OSError):
            leftover.unlink()
