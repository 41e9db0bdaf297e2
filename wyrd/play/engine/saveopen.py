"""Opening a save file: what is checked before SQLite sees it, and the connections it is read and written through.

A file is refused by its raw header before SQLite opens it (SQLite may write to a file it opens),
then read read-only; only one of our saves is ever opened for writing
(:meth:`~wyrd.play.engine.savefile.SaveFile.open`).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from wyrd.play.engine import savelock
from wyrd.play.engine.saveplace import APPLICATION_ID, SQLITE_MAGIC
from wyrd.play.engine.saveschema import SCHEMA_VERSION
from wyrd.play.engine.savetypes import CorruptSave, ForeignSave, NewerSave, NotASave

__all__ = ["checked", "connect", "connect_readonly", "damaged", "is_closed", "writable"]


def damaged(path: Path, e: BaseException) -> CorruptSave:
    # SQLite quotes the undecodable text itself: keep printable characters only, and few.
    detail = "".join(c for c in str(e) if c.isprintable())[:200] or type(e).__name__
    return CorruptSave(f"{path} is a damaged save file ({detail}).")


def writable(path: Path) -> bool:
    """Whether SQLite could write ``path`` and its -wal/-shm files beside it."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def connect_readonly(path: Path, timeout: float, *, closed: bool = False) -> sqlite3.Connection:
    """A read-only connection. ``mode=ro`` still takes SQLite's locks and reads a -wal, so it
    sees a game being played consistently. Where neither the file nor its folder can be written
    and there is no -wal, nobody can be writing it either, and ``immutable=1`` lets SQLite read
    it without creating a -shm it could not create: it skips all locking and change detection,
    and would ignore a -wal, so it is used only then, or for a save ``closed`` (see :func:`is_closed`)."""
    uri = path.resolve().as_uri() + "?mode=ro"
    wal = Path(f"{path}-wal")
    if not wal.exists() and (closed or (not writable(path) and not os.access(path.parent, os.W_OK))):
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)


def is_closed(path: Path) -> bool:
    """Whether no session has the save open: no -wal beside it (the last connection to close
    folds it in and removes it) and nobody holds its lock. Such a save is the file alone, and a
    reader may read it immutably (as ``wyrd saves`` does), leaving no empty -wal or -shm behind
    as a plain read-only reader would (issue 18, point 10). A session that began just after
    writes to its own -wal first, which the file does not take in until it closes; `wyrd log`
    and `wyrd export` read all they need as soon as they open."""
    return not Path(f"{path}-wal").exists() and savelock.free(path)


def checked(path: Path, timeout: float, *, closed: bool = False) -> sqlite3.Connection:
    """Refuse anything but one of our saves, without writing a byte to it; a read-only
    connection to it, in a read transaction (one consistent view) that the caller ends
    (immutable for a save ``closed``: see :func:`is_closed`)."""
    try:  # raw bytes first, so a foreign file is never handed to SQLite (which may write)
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as e:  # missing, a directory, unreadable
        raise NotASave(f"There is no save file at {path} ({e.strerror}).") from None
    if not header.startswith(SQLITE_MAGIC):  # also an empty file, which SQLite would accept
        raise NotASave(f"{path} is not a Wyrd save file (it is not an SQLite database).")
    if len(header) < 100:
        raise CorruptSave(f"{path} is a damaged save file (its header is cut short).")
    # Saves are created in rollback mode, so application_id is always in the main file's header.
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise ForeignSave(f"{path} is an SQLite database of another program, not a Wyrd save.")
    conn: sqlite3.Connection | None = None
    try:  # then SQLite, read-only: it sees a WAL's committed changes that the header may lack
        conn = connect_readonly(path, timeout, closed=closed)
        conn.execute("BEGIN")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema")}
    except (sqlite3.Error, ValueError) as e:
        if conn is not None:
            conn.close()
        raise damaged(path, e) from e
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        conn.close()
        raise NewerSave(f"{path} was saved by a newer Wyrd (format {version}); please upgrade.")
    if version < 1 or not {"meta", "commands", "dice", "events", "snapshots"} <= tables:
        conn.close()
        raise CorruptSave(f"{path} is a damaged save file (its tables are incomplete).")
    return conn


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves, so a transaction is
    # exactly one command and a competing writer is detected before we write anything.
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")  # WAL+FULL survives power loss (FACTS.md)
    return conn
