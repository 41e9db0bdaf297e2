"""Writing a file the player names (a journal) without ever destroying a save or, unasked, anything else.

``wyrd export g.wyrd -o g.wyrd`` and the REPL's ``export self.wyrd`` once wrote the journal over
the game itself. :func:`check_target` refuses, always, a target that is the save being read (the
same file, through any name or link), any Wyrd save (recognised by its header: SQLite's magic
and Wyrd's application id at bytes 68-72), and a save's ``-wal``/``-shm``/``-journal`` companion
(writing there loses the latest commands); any other existing file is refused unless ``force``
is given. :func:`write_new` checks and then writes so that a refusal can never be raced: without
``force`` the file is created exclusively; with it, written beside and moved into place whole.

Refusals are :class:`OverwriteRefused`; its message says what to do (another name, or the
caller's own way of forcing, passed as ``force_hint``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from wyrd.play.engine.savefile import APPLICATION_ID

__all__ = ["COMPANIONS", "OverwriteRefused", "check_target", "is_save", "write_new"]

_SQLITE_MAGIC = b"SQLite format 3\x00"
#: what SQLite keeps beside a save: overwriting one of these loses or damages the game
COMPANIONS = ("-wal", "-shm", "-journal")


class OverwriteRefused(Exception):
    """A target that is not written; the message says why and what to do instead."""


def is_save(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a regular file with a Wyrd save's header (a FIFO or device is never opened for long)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        header = os.read(fd, 72)
    except OSError:
        return False
    finally:
        os.close(fd)
    return header.startswith(_SQLITE_MAGIC) and len(header) == 72 and \
        int.from_bytes(header[68:72], "big") == APPLICATION_ID


def _same(a: Path, b: Path) -> bool:
    try:
        if os.path.samefile(a, b):
            return True
    except OSError:
        pass
    return a.resolve() == b.resolve()


def check_target(target: str | os.PathLike[str], *, source: str | os.PathLike[str] | None = None,
                 force: bool = False, force_hint: str = "--force") -> None:
    """Refuse (:class:`OverwriteRefused`) writing ``target`` if it would destroy a save, or an existing file unasked.

    ``source`` is the save being read, if any: ``target`` may never be it (nor one of its
    companions); a Wyrd save is never overwritten, ``force`` or not.
    """
    where = Path(target)
    if source is not None:
        save = Path(source)
        if _same(where, save):
            raise OverwriteRefused(f"{where} is the save being exported; writing there would lose the game. "
                                   "Choose another name.")
        for suffix in COMPANIONS:
            if _same(where, save.with_name(save.name + suffix)):
                raise OverwriteRefused(f"{where} is part of the save {save}; writing there would damage the game. "
                                       "Choose another name.")
    if is_save(where):
        raise OverwriteRefused(f"{where} is a Wyrd save; nothing Wyrd writes replaces a save. Choose another name.")
    for suffix in COMPANIONS:
        if where.name.endswith(suffix) and is_save(where.with_name(where.name.removesuffix(suffix))):
            raise OverwriteRefused(f"{where} belongs to a Wyrd save; writing there would damage it. "
                                   "Choose another name.")
    if not force and (where.exists() or where.is_symlink()):
        raise OverwriteRefused(f"{where} already exists; choose another name, or add {force_hint} to replace it.")


def write_new(target: str | os.PathLike[str], text: str, *, source: str | os.PathLike[str] | None = None,
              force: bool = False, force_hint: str = "--force") -> None:
    """Write ``text`` (UTF-8) to ``target`` after :func:`check_target`.

    Without ``force`` the file is created exclusively (a file that appears meanwhile is refused,
    not replaced); with it, the text is written to a new file beside and moved into place, so
    the old file is either kept whole or replaced whole (a link there is replaced, not followed).

    Raises:
        OverwriteRefused: as :func:`check_target` says.
        OSError: the file could not be written (nothing is left half-written by ``force``).
    """
    check_target(target, source=source, force=force, force_hint=force_hint)
    where = Path(target)
    data = text.encode("utf-8")
    if not force:
        try:
            fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            raise OverwriteRefused(f"{where} already exists; choose another name, or add {force_hint} "
                                   "to replace it.") from None
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        return
    fd, temp = tempfile.mkstemp(prefix=f".{where.name}.", suffix=".tmp", dir=where.parent)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        os.chmod(temp, 0o644)
        os.replace(temp, where)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
