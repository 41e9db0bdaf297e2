"""The save file: an append-only SQLite log of commands, their dice and their events.

Generic: it knows nothing of rules, only JSON-serialisable dicts. Each command is written in one
durable transaction *before* anything is shown (DESIGN.md, core loop step 5), and its narration is
added to it in a second one (:meth:`SaveFile.append_told`), leaving the rows as one would; state is rebuilt by
replaying the live commands' recorded dice, optionally from a snapshot. Nothing is ever deleted:
an undo is itself a recorded command (``undoes`` names its target) that marks the latest live
command ``undone``, so ``all_commands`` is the full audit trail. Opening never writes to a file
that is not ours: header bytes first, then SQLite read-only, and only then read-write.

A save is written by one session at a time (an exclusive lock held while it is open, see
:mod:`~wyrd.play.engine.savelock`), checks itself with a chained digest of everything it
records (schema 2, :mod:`~wyrd.play.engine.savedigest`), and is created complete or not at all:
it is built under a hidden name in the same folder and moved into place without overwriting.

Opening checks the digest chain whole only when it cannot know the file is as Wyrd left it, so a
resume costs the same at any length (issue 21, point 3): a session that saw no write but its own
marks the save on close (:mod:`~wyrd.play.engine.savemark`: the file's identity, its change time
included, and its last command's digest, kept in the data folder), and an open that finds the
file exactly so checks the chain after the mark (normally nothing) and the snapshot it uses. Any
other file (copied in, written by another program, edited by hand, left by a kill) is checked
whole, as issue 16, point 3 asks, and marked when its session closes.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Self

from wyrd.play.engine import savelock, savemark
from wyrd.play.engine.savedigest import GENESIS, command_digest, first_edit, migrate, snapshot_digest
from wyrd.play.engine.saveplace import APPLICATION_ID, SQLITE_MAGIC, discard, is_save_file, part_name, place

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "CorruptSave", "EditedSave", "Event", "ForeignSave",
           "NewerSave", "NotASave", "ReadOnlySave", "Record", "Roll", "SaveError", "SaveExists", "SaveFile",
           "SaveLocked", "SaveWriteError", "Snapshot", "is_save_file", "part_name"]

SCHEMA_VERSION = 2
_RESERVED_META = ("format", "schema_version", "app_version", "created_at", "holder")
# What reading a damaged file can raise, from SQLite, the JSON and zlib decoders alike
# (UnicodeDecodeError and json's errors are ValueErrors).
_DAMAGE = (sqlite3.Error, ValueError, TypeError, zlib.error, IndexError, KeyError, OverflowError)
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE commands (seq INTEGER PRIMARY KEY, text TEXT NOT NULL, parsed TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'undone')),
        undone_by INTEGER REFERENCES commands(seq), undoes INTEGER UNIQUE REFERENCES commands(seq),
        created_at TEXT NOT NULL, digest BLOB)""",
    # WITHOUT ROWID clusters a command's rows together, so reading back is one range scan.
    """CREATE TABLE dice (command INTEGER NOT NULL REFERENCES commands(seq), idx INTEGER NOT NULL,
        sides INTEGER NOT NULL, faces TEXT NOT NULL, purpose TEXT NOT NULL,
        PRIMARY KEY (command, idx)) WITHOUT ROWID""",
    """CREATE TABLE events (command INTEGER NOT NULL REFERENCES commands(seq),
        idx INTEGER NOT NULL, kind TEXT NOT NULL, data TEXT NOT NULL,
        PRIMARY KEY (command, idx)) WITHOUT ROWID""",
    # seq 0 is the state before any command, so snapshots.seq has no foreign key; taken_at is
    # the last seq when it was saved, which is what integrity_check needs to judge it.
    """CREATE TABLE snapshots (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL,
        taken_at INTEGER NOT NULL, state BLOB NOT NULL, extra TEXT NOT NULL,
        created_at TEXT NOT NULL, invalidated_by INTEGER REFERENCES commands(seq), digest BLOB)""",
)
_MAY_TAKE_AGAIN = "instr(parsed, '\"again\"') > 0"
# Indexes that keep undo and resume from reading the whole game (issue 21, point 3): the live
# commands by number (the latest one, what undo takes back, is found without reading the undone
# ones and undo records after it) and the undone ones (what Rolled reads on resume, and where
# event numbers may have gone back in saves made before they never did). None reads the JSON,
# so a row edited outside Wyrd into bad JSON is still written, and then refused by its digest.
# Not part of what a save holds: a save made before them gains them when a session claims it,
# and reads the same without them.
_INDEXES = (
    "CREATE INDEX IF NOT EXISTS live ON commands(seq) WHERE status = 'live' AND undoes IS NULL",
    "CREATE INDEX IF NOT EXISTS undone ON commands(seq) WHERE status = 'undone'",
    # The commands that may say they took an undone command's faces again (``again``): a text
    # search, as an index that decoded the JSON would refuse to write a row edited into bad JSON.
    f"CREATE INDEX IF NOT EXISTS again ON commands(seq) WHERE {_MAY_TAKE_AGAIN}",
    # The snapshots still valid, newest first: the one a resume starts from, without reading the rest.
    "CREATE INDEX IF NOT EXISTS valid ON snapshots(seq, id) WHERE invalidated_by IS NULL",
)
_LATEST_LIVE = ("SELECT seq FROM commands{} WHERE status = 'live' AND undoes IS NULL"
                " ORDER BY seq DESC LIMIT 1 OFFSET ?")


def _indexed(conn: sqlite3.Connection, name: str = "live") -> bool:
    """Whether the save has the index ``name`` (one of :data:`_INDEXES`)."""
    return conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", (name,)).fetchone() is not None


def _latest_live(conn: sqlite3.Connection, back: int = 0) -> int | None:
    """The seq of the latest live command, or of the one ``back`` live commands before it (None: none),
    by the index where the save has it (SQLite's planner would rather walk the undoes column's index,
    which holds every undone command)."""
    row = conn.execute(_LATEST_LIVE.format(" INDEXED BY live" if _indexed(conn) else ""), (back,)).fetchone()
    return None if row is None else int(row[0])


# The live commands after a seq and their rows, read through the index: what is undone after
# them is never read (the commands first, each one's dice and events by its key).
_LIVE_ROWS = (
    "SELECT seq, text, parsed, status, undone_by, undoes, created_at FROM commands INDEXED BY live"
    " WHERE seq > ? AND status = 'live' AND undoes IS NULL ORDER BY seq",
    "SELECT d.command, d.sides, d.faces, d.purpose FROM commands c INDEXED BY live CROSS JOIN dice d"
    " ON d.command = c.seq WHERE c.seq > ? AND c.status = 'live' AND c.undoes IS NULL ORDER BY c.seq, d.idx",
    "SELECT e.command, e.data FROM commands c INDEXED BY live CROSS JOIN events e"
    " ON e.command = c.seq WHERE c.seq > ? AND c.status = 'live' AND c.undoes IS NULL ORDER BY c.seq, e.idx",
)

# The log's own invariants for integrity_check: each query returns the rows that break one.
_CHECKS = (
    ("SELECT prev + 1, seq - 1 FROM (SELECT seq, lag(seq, 1, 0) OVER (ORDER BY seq) AS prev"
     " FROM commands) WHERE seq > prev + 1", "commands {} to {} are missing"),
    *((f"SELECT command, count(*), min(idx), max(idx) FROM {t} GROUP BY command"
       " HAVING min(idx) != 0 OR max(idx) != count(*) - 1",
       f"command {{0}}: {t} indices {{2}}..{{3}} for {{1}} rows") for t in ("dice", "events")),
    ("SELECT c.seq FROM commands c LEFT JOIN commands u ON u.seq = c.undone_by"
     " WHERE (c.status = 'undone') != (c.undone_by IS NOT NULL) OR (c.undone_by IS NOT NULL"
     " AND (u.undoes IS NOT c.seq OR u.seq <= c.seq)) OR (c.undoes IS NOT NULL AND"
     " c.status != 'live')", "command {}: its status and its undo record do not match"),
    ("SELECT u.seq FROM commands u JOIN commands t ON t.seq = u.undoes WHERE t.undone_by IS NOT"
     " u.seq OR t.undoes IS NOT NULL OR EXISTS (SELECT 1 FROM commands c WHERE c.undoes IS NULL"
     " AND c.seq > t.seq AND c.seq < u.seq AND (c.status = 'live' OR c.undone_by > u.seq))",
     "undo {} did not undo the latest live command"),
    ("SELECT DISTINCT s.id, s.seq FROM snapshots s JOIN commands u ON u.undoes <= s.seq AND"
     " u.seq > s.taken_at WHERE s.invalidated_by IS NULL",
     "snapshot {} (at {}) predates an undo of a command it includes but is still valid"),
)


class SaveError(Exception):
    """A save file could not be used; the message is one sentence meant for the player."""


class NotASave(SaveError):
    """Not an SQLite database at all (an empty file included), or no file."""


class ForeignSave(SaveError):
    """An SQLite database, but another program's."""


class NewerSave(SaveError):
    """A save in a format newer than this code knows."""


class CorruptSave(SaveError):
    """One of our saves, but damaged."""


class EditedSave(CorruptSave):
    """One of our saves whose recorded digests no longer match: changed outside Wyrd."""


class SaveLocked(SaveError):
    """Another session holds the save (it is being played); the message names the holder."""


class ReadOnlySave(SaveError):
    """The save (or its folder) cannot be written: it can be read, not played on."""


class SaveExists(SaveError, FileExistsError):
    """``create`` was given a path where a file already exists."""


class SaveWriteError(SaveError):
    """A write failed and was rolled back: the file holds exactly what was committed before."""


class Roll(NamedTuple):
    """One recorded roll: ``faces`` of dice with ``sides`` sides, and what it was for."""

    sides: int
    faces: tuple[int, ...]
    purpose: str


class Record(NamedTuple):
    """One command as stored. An undo record has ``undoes`` set and no dice or events."""

    seq: int
    text: str
    parsed: dict[str, Any]
    dice: tuple[Roll, ...]
    events: tuple[dict[str, Any], ...]
    status: str
    undone_by: int | None
    undoes: int | None
    created_at: str

    @property
    def faces(self) -> list[int]:
        """Every face in rolling order: what a scripted dice source needs to replay it."""
        return [face for roll in self.dice for face in roll.faces]


@dataclass(frozen=True, slots=True)
class Event:
    """One event of command ``seq``, the ``index``-th it produced; ``data`` includes ``kind``."""

    seq: int
    index: int
    kind: str
    data: dict[str, Any]


class Snapshot(NamedTuple):
    """The state after every command live at ``seq`` (0: before any), plus e.g. dice state."""

    seq: int
    state: dict[str, Any]
    extra: dict[str, Any]


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _loads_all(texts: Iterable[str]) -> list[Any]:
    """Decode many JSON texts at once: one json.loads call costs half as much as one each."""
    return list(json.loads("[" + ",".join(texts) + "]"))


def _meta_rows(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    clash = [k for k in _RESERVED_META if k in meta]
    if clash:
        raise ValueError(f"meta keys {clash} are set by the save file itself")
    return [(k, _dumps(v)) for k, v in meta.items()]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _damaged(path: Path, e: BaseException) -> CorruptSave:
    # SQLite quotes the undecodable text itself: keep printable characters only, and few.
    detail = "".join(c for c in str(e) if c.isprintable())[:200] or type(e).__name__
    return CorruptSave(f"{path} is a damaged save file ({detail}).")


def _writable(path: Path) -> bool:
    """Whether SQLite could write ``path`` and its -wal/-shm files beside it."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK | os.X_OK)


def _connect_ro(path: Path, timeout: float, *, closed: bool = False) -> sqlite3.Connection:
    """A read-only connection. ``mode=ro`` still takes SQLite's locks and reads a -wal, so it
    sees a game being played consistently. Where neither the file nor its folder can be written
    and there is no -wal, nobody can be writing it either, and ``immutable=1`` lets SQLite read
    it without creating a -shm it could not create: it skips all locking and change detection,
    and would ignore a -wal, so it is used only then, or for a save ``closed`` (see :func:`_closed`)."""
    uri = path.resolve().as_uri() + "?mode=ro"
    wal = Path(f"{path}-wal")
    if not wal.exists() and (closed or (not _writable(path) and not os.access(path.parent, os.W_OK))):
        uri += "&immutable=1"
    return sqlite3.connect(uri, uri=True, timeout=timeout, isolation_level=None)


def _closed(path: Path) -> bool:
    """Whether no session has the save open: no -wal beside it (the last connection to close
    folds it in and removes it) and nobody holds its lock. Such a save is the file alone, and a
    reader may read it immutably (as ``wyrd saves`` does), leaving no empty -wal or -shm behind
    as a plain read-only reader would (issue 18, point 10). A session that began just after
    writes to its own -wal first, which the file does not take in until it closes; `wyrd log`
    and `wyrd export` read all they need as soon as they open."""
    return not Path(f"{path}-wal").exists() and savelock.free(path)


def _check(path: Path, timeout: float, *, closed: bool = False) -> sqlite3.Connection:
    """Refuse anything but one of our saves, without writing a byte to it; a read-only
    connection to it, in a read transaction (one consistent view) that the caller ends
    (immutable for a save ``closed``: see :func:`_closed`)."""
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
        conn = _connect_ro(path, timeout, closed=closed)
        conn.execute("BEGIN")
        (version,) = conn.execute("PRAGMA user_version").fetchone()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema")}
    except (sqlite3.Error, ValueError) as e:
        if conn is not None:
            conn.close()
        raise _damaged(path, e) from e
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        conn.close()
        raise NewerSave(f"{path} was saved by a newer Wyrd (format {version}); please upgrade.")
    if version < 1 or not {"meta", "commands", "dice", "events", "snapshots"} <= tables:
        conn.close()
        raise CorruptSave(f"{path} is a damaged save file (its tables are incomplete).")
    return conn


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves, so a transaction is
    # exactly one command and a competing writer is detected before we write anything.
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")  # WAL+FULL survives power loss (FACTS.md)
    return conn


def _name_holder(conn: sqlite3.Connection, holder: str | None) -> None:
    """The lock's holder, in the meta, for a second session refused to say who plays the save;
    and the indexes of :data:`_INDEXES`, for a save made before it had them."""
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (_dumps(savelock.holder(holder)),))
    for statement in _INDEXES:
        conn.execute(statement)


@contextmanager
def _built_beside(part: Path, what: str) -> Iterator[None]:
    """A new file built under the hidden name ``part`` and moved into place: a failure is a
    ``SaveWriteError`` saying it could not ``what`` (``SaveExists`` passes as it is), and the
    part is gone afterwards, placed or not."""
    try:
        yield
    except sqlite3.Error as e:
        raise SaveWriteError(f"Could not {what} ({e}).") from e
    except SaveExists:
        raise
    except OSError as e:
        raise SaveWriteError(f"Could not {what} ({e.strerror or e}).") from e
    finally:
        discard(part)


def _verify(conn: sqlite3.Connection, path: Path, mark: savemark.Mark | None) -> None:
    """Walk the digest chain and check the latest valid snapshot against it: the whole chain, or
    only what follows the ``mark`` of a save exactly as Wyrd left it (see :mod:`.savemark`)."""
    since = (0, GENESIS)
    if mark is not None and savemark.unchanged(path, mark):
        row = conn.execute("SELECT digest FROM commands WHERE seq = ?", (mark.seq,)).fetchone()
        if mark.seq == 0 or (row is not None and row[0] == mark.head):
            since = (mark.seq, mark.head if mark.seq else GENESIS)
    where = first_edit(conn, since)
    if where is not None:
        raise EditedSave(f"{path} was changed outside Wyrd at {where}; it cannot be trusted.")


class SaveFile:
    """An open save. Use ``SaveFile.create`` or ``SaveFile.open``; it is a context manager.

    A save opened for writing holds its lock until :meth:`close` (or the process's death); one
    opened with ``readonly=True`` takes no lock and reads one consistent view of the file.
    """

    def __init__(self, path: Path, conn: sqlite3.Connection, *, lock: int | None = None,
                 readonly: bool = False, verified: bool = True,
                 watch: tuple[savemark.Watch, int] | None = None) -> None:
        self.path = path
        self._conn = conn
        self._lock = lock
        self.readonly = readonly
        self.verified = verified  # False: a schema-1 save read as it is, without digests
        # A save open for writing follows its file between its own commits, and SQLite's count
        # of other connections' commits, from the moment it was checked: it is marked on close
        # (see :mod:`.savemark`) only if nobody else wrote it meanwhile.
        self._watch: savemark.Watch | None = watch[0] if watch is not None else None
        self._data_version = watch[1] if watch is not None else -1

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, meta: Mapping[str, Any],
               busy_timeout: float = 2.0, holder: str | None = None) -> SaveFile:
        """Create a new save, complete or not at all, and open it (locked) for writing.

        An existing file (of any kind) is refused with ``SaveExists``, and never overwritten.
        """
        from importlib.metadata import PackageNotFoundError, version  # only paid on create

        p = Path(path)
        rows = _meta_rows(meta)
        try:
            app_version = version("wyrd")
        except PackageNotFoundError:
            app_version = "unknown"
        rows += [(k, _dumps(v)) for k, v in (("format", "wyrd-save"), ("created_at", _now()),
                 ("schema_version", SCHEMA_VERSION), ("app_version", app_version))]
        if os.path.lexists(p):
            cls._refuse_existing(p)
        part = part_name(p)
        discard(part)  # a leftover of an earlier process that had our pid
        with _built_beside(part, f"create the save file {p}"):
            cls._build(part, rows, busy_timeout)
            cls._placing(part, p)
        return cls.open(p, busy_timeout=busy_timeout, holder=holder)

    @classmethod
    def _refuse_existing(cls, p: Path) -> None:
        """Say why ``p`` cannot be created: being played (naming by whom), or there at all."""
        if is_save_file(p):
            with suppress(OSError):
                lock = savelock.take(p)
                if lock is None:
                    raise SaveLocked(f"{p} is being played by {savelock.describe(cls._holder(p))}; "
                                     "finish that game first (one save, one player at a time).")
                savelock.release(lock)
        raise SaveExists(f"{p} already exists; choose another name.")

    @staticmethod
    def _build(part: Path, rows: list[tuple[str, str]], timeout: float) -> None:
        """The whole empty save, in WAL mode with no -wal or -shm left, at ``part``."""
        os.close(os.open(part, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        conn = _connect(part, timeout)
        try:
            conn.execute("BEGIN IMMEDIATE")
            for statement in (*_SCHEMA, *_INDEXES):
                conn.execute(statement)
            conn.executemany("INSERT INTO meta VALUES (?, ?)", rows)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")  # still in rollback mode: the header lands in the main file
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()  # the last connection: SQLite checkpoints and removes -wal and -shm
        fd = os.open(part, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    @staticmethod
    def _placing(part: Path, path: Path) -> None:
        """Move the finished save into place (a step of its own: crash tests stop around it)."""
        try:
            place(part, path)
        except FileExistsError:
            raise SaveExists(f"{path} already exists; choose another name.") from None

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, busy_timeout: float = 2.0, readonly: bool = False,
             holder: str | None = None, claim: bool = True) -> SaveFile:
        """Open an existing save, refusing (without writing to it) anything that isn't one.

        For writing (the default) the save is locked for as long as it is open: another
        session's save is refused with ``SaveLocked``, a save that cannot be written with
        ``ReadOnlySave``. ``holder`` is what the lock says holds it (default: ``wyrd`` and the
        command's first word). Every command's digest is checked (``EditedSave`` names the
        first command changed); a schema-1 save is given its digests once, when opened for
        writing, and read as it is when opened read-only. With ``claim=False`` the lock is
        taken but the save does not yet name its holder: :meth:`claim` does, once the caller
        has found the game sound, so a save refused after opening is left as it was.
        """
        p = Path(path)
        mark = savemark.load(p)  # before SQLite touches it; checked again once SQLite holds it
        conn = _check(p, busy_timeout, closed=readonly and _closed(p))
        try:
            if readonly:
                return cls._reading_only(p, conn, mark)
            conn.close()
            return cls._for_writing(p, busy_timeout, holder, claim, mark)
        except BaseException:
            conn.close()
            raise

    @classmethod
    def _reading_only(cls, p: Path, conn: sqlite3.Connection, mark: savemark.Mark | None) -> SaveFile:
        # The read transaction _check began stays open: every read sees the same moment.
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version >= 2:
                _verify(conn, p, mark)
        except _DAMAGE as e:
            raise _damaged(p, e) from e
        return cls(p, conn, readonly=True, verified=version >= 2)

    @classmethod
    def _for_writing(cls, p: Path, busy_timeout: float, holder: str | None, claim: bool,
                     mark: savemark.Mark | None) -> SaveFile:
        if not _writable(p):
            raise ReadOnlySave(f"{p} is read-only (the file or its folder cannot be written); "
                               "`wyrd log` and `wyrd export` can still read it.")
        try:
            lock = savelock.take(p)
        except OSError as e:
            raise NotASave(f"There is no save file at {p} ({e.strerror}).") from None
        if lock is None:
            raise SaveLocked(f"{p} is being played by {savelock.describe(cls._holder(p))}; "
                             "finish that game first (one save, one player at a time).")
        conn: sqlite3.Connection | None = None
        try:
            conn = _connect(p, busy_timeout)
            conn.execute("BEGIN IMMEDIATE")
            watch = savemark.Watch(p), int(conn.execute("PRAGMA data_version").fetchone()[0])
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version < SCHEMA_VERSION:
                migrate(conn, SCHEMA_VERSION)
            else:
                _verify(conn, p, mark)
            for (value,) in conn.execute("SELECT value FROM meta"):  # damaged meta: refused unwritten
                json.loads(value)
            if claim:
                _name_holder(conn, holder)
            conn.execute("COMMIT")
            watch[0].note()
        except BaseException as e:
            if conn is not None:
                conn.close()
            savelock.release(lock)
            if isinstance(e, sqlite3.Error) and (getattr(e, "sqlite_errorcode", 0) & 0xFF) in (5, 6):
                raise SaveLocked(f"{p} is being written by another program; try again later.") from e
            if isinstance(e, sqlite3.Error) and (getattr(e, "sqlite_errorcode", 0) & 0xFF) == 8:
                raise ReadOnlySave(f"{p} is read-only; `wyrd log` and `wyrd export` can still read it.") from e
            if isinstance(e, _DAMAGE):
                raise _damaged(p, e) from e
            raise
        return cls(p, conn, lock=lock, watch=watch)

    def claim(self, holder: str | None = None) -> None:
        """Write into the save who holds its lock (see :meth:`open`'s ``claim``)."""
        with self._writing() as conn:
            _name_holder(conn, holder)

    @staticmethod
    def _holder(p: Path) -> object:
        """What the save says holds it (None if it cannot be read)."""
        try:
            conn = _connect_ro(p, 0.5)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'holder'").fetchone()
            finally:
                conn.close()
            return json.loads(row[0]) if row else None
        except _DAMAGE:
            return None

    def close(self) -> None:
        """Close the save; one open for writing is marked as it is left, if only this session
        wrote it (see :mod:`.savemark`), before its lock is released."""
        head = self._head_to_mark()
        try:
            self._conn.close()
        finally:  # after the connection: closing a descriptor drops this process's POSIX locks
            if self._lock is not None and head is not None:
                savemark.store(self.path, *head)
            elif self._lock is not None:
                savemark.forget(self.path)
            savelock.release(self._lock)
            self._lock = None

    def _head_to_mark(self) -> tuple[int, bytes] | None:
        """The last command's seq and digest, if nothing but this session wrote the save since it
        was opened and checked (None: do not mark it)."""
        if self._watch is None or self._lock is None:
            return None
        self._watch.check()
        try:
            (version,) = self._conn.execute("PRAGMA data_version").fetchone()
            row = self._conn.execute("SELECT seq, digest FROM commands ORDER BY seq DESC LIMIT 1").fetchone()
        except sqlite3.Error:
            return None
        if not self._watch.intact or version != self._data_version:
            return None
        if row is None:
            return 0, GENESIS
        return (int(row[0]), row[1]) if isinstance(row[0], int) and isinstance(row[1], bytes) else None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def backup(self, dest: str | os.PathLike[str]) -> Path:
        """Copy this save, write-ahead log folded in, into one new self-contained file ``dest``.

        ``dest`` must not exist (``SaveExists``; nothing is ever overwritten); the copy is built
        under a hidden name beside it and moved into place whole, as a new save is.
        """
        out = Path(dest)
        if os.path.lexists(out):
            raise SaveExists(f"{out} already exists; choose another name.")
        part = part_name(out)
        discard(part)
        with _built_beside(part, f"write the copy {out}"):
            os.close(os.open(part, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
            target = sqlite3.connect(part, isolation_level=None)
            try:
                self._conn.backup(target)  # page by page, one consistent view of the source
                target.execute("PRAGMA journal_mode = DELETE")  # fold everything into the file
                target.execute("PRAGMA journal_mode = WAL")  # then as a save is: WAL, no -wal left
            finally:
                target.close()
            try:
                place(part, out)
            except FileExistsError:
                raise SaveExists(f"{out} already exists; choose another name.") from None
        return out

    # --- writing: every method here is one BEGIN IMMEDIATE ... COMMIT ---------------------------

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One BEGIN IMMEDIATE ... COMMIT; any failure rolls it back, leaving the file as it was."""
        conn, watch = self._conn, self._watch
        try:
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock now, so a rival is seen here
            if watch is not None:
                watch.check()
            try:
                yield conn
                conn.execute("COMMIT")  # WAL + synchronous=FULL: durable once this returns
            finally:
                if watch is not None:  # what a failed write of ours left in the -wal is ours too
                    watch.note()
        except BaseException as e:
            if conn.in_transaction:  # SQLite may have rolled back already (e.g. on SQLITE_FULL)
                with suppress(sqlite3.Error):
                    conn.execute("ROLLBACK")
            if not isinstance(e, sqlite3.Error):
                raise
            code = getattr(e, "sqlite_errorcode", 0) & 0xFF
            busy = "another program or Wyrd session is writing to it"
            why = {13: "the disk is full", 5: busy, 6: busy}.get(code, str(e))  # FULL, BUSY, LOCKED
            raise SaveWriteError(
                f"Could not write to {self.path}: {why}; nothing was saved.") from e

    def append(self, text: str, parsed: Mapping[str, Any], dice: Sequence[Mapping[str, Any]],
               events: Sequence[Mapping[str, Any]]) -> int:
        """Record a command durably (dice: sides, faces, purpose; events: kind, ...); its seq."""
        # Serialise first: a value JSON can't hold raises TypeError before anything is written.
        parsed_json = _dumps(parsed)
        dice_rows = [(i, int(d["sides"]), _dumps(list(d["faces"])), str(d.get("purpose", "")))
                     for i, d in enumerate(dice)]
        event_rows = [(i, str(e["kind"]), _dumps(e)) for i, e in enumerate(events)]
        with self._writing() as conn:
            seq, prev = self._chain_head(conn)
            digest = command_digest(prev, seq, text, parsed_json, None, dice_rows, event_rows)
            conn.execute("INSERT INTO commands (seq, text, parsed, created_at, digest) VALUES (?, ?, ?, ?, ?)",
                         (seq, text, parsed_json, _now(), digest))
            conn.executemany("INSERT INTO dice VALUES (?, ?, ?, ?, ?)",
                             [(seq, *row) for row in dice_rows])
            conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)",
                             [(seq, *row) for row in event_rows])
        return seq

    def append_told(self, seq: int, events: Sequence[Mapping[str, Any]], deck: Mapping[str, Any] | None = None) -> None:
        """Add the narration told after command ``seq`` to it, durably, in a transaction of its own.

        The command is saved first and told after (its prose never holds up what happened):
        the events follow its own, and ``deck`` (the rows the telling drew) is merged into its
        ``parsed["deck"]``, so the save reads as if both had been written at once and a save
        written before this existed reads as it always did. Only the latest command, live and
        with no snapshot taken at it yet, can be told; its chain digest is written anew (nothing
        follows it in the chain yet).

        Raises:
            ValueError: ``seq`` is not the latest live command, or a snapshot was taken at it.
            SaveWriteError: the write failed and was rolled back.
        """
        rows = [(str(e["kind"]), _dumps(e)) for e in events]
        with self._writing() as conn:
            head = conn.execute("SELECT seq, text, parsed, undoes, status FROM commands"
                                " ORDER BY seq DESC LIMIT 1").fetchone()
            if head is None or head[0] != seq or head[3] is not None or head[4] != "live":
                raise ValueError(f"command {seq} is not the latest live command; it can no longer be told")
            if conn.execute("SELECT 1 FROM snapshots WHERE seq = ? AND invalidated_by IS NULL", (seq,)).fetchone():
                raise ValueError(f"command {seq} has a snapshot already; it can no longer be told")
            parsed_json = head[2]
            if deck:
                parsed = json.loads(parsed_json)
                parsed["deck"] = {**(parsed.get("deck") or {}), **deck}
                parsed_json = _dumps(parsed)
            (start,) = conn.execute("SELECT count(*) FROM events WHERE command = ?", (seq,)).fetchone()
            conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)",
                             [(seq, start + i, kind, data) for i, (kind, data) in enumerate(rows)])
            before = conn.execute("SELECT digest FROM commands WHERE seq < ? ORDER BY seq DESC LIMIT 1",
                                  (seq,)).fetchone()
            dice_rows = conn.execute("SELECT idx, sides, faces, purpose FROM dice WHERE command = ? ORDER BY idx",
                                     (seq,)).fetchall()
            event_rows = conn.execute("SELECT idx, kind, data FROM events WHERE command = ? ORDER BY idx",
                                      (seq,)).fetchall()
            digest = command_digest(before[0] if before is not None else GENESIS, seq, head[1], parsed_json, None,
                                    dice_rows, event_rows)
            conn.execute("UPDATE commands SET parsed = ?, digest = ? WHERE seq = ?", (parsed_json, digest, seq))

    @staticmethod
    def _chain_head(conn: sqlite3.Connection) -> tuple[int, bytes]:
        """The next command's seq and the chain digest it follows (in a write transaction)."""
        row = conn.execute("SELECT seq, digest FROM commands ORDER BY seq DESC LIMIT 1").fetchone()
        if row is None:
            return 1, GENESIS
        return int(row[0]) + 1, row[1]

    def undo(self, text: str = "undo") -> int | None:
        """Mark the latest live command undone, recording the undo; returns its seq or None."""
        with self._writing() as conn:
            target = _latest_live(conn)
            if target is None:
                return None
            undo_seq, prev = self._chain_head(conn)
            parsed = _dumps({"undo": target})
            conn.execute("INSERT INTO commands (seq, text, parsed, undoes, created_at, digest) VALUES"
                         " (?, ?, ?, ?, ?, ?)", (undo_seq, text, parsed, target, _now(),
                                                 command_digest(prev, undo_seq, text, parsed, target, [], [])))
            conn.execute("UPDATE commands SET status = 'undone', undone_by = ? WHERE seq = ?",
                         (undo_seq, target))
            # Snapshots at or after the target include its effects, so they are stale now.
            conn.execute("UPDATE snapshots SET invalidated_by = ? WHERE seq >= ? AND "
                         "invalidated_by IS NULL", (undo_seq, target))
        return int(target)

    def save_snapshot(self, seq: int, state: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        """Store the state after every command live at ``seq`` (0: before any command)."""
        blob = zlib.compress(_dumps(state).encode(), 6)
        with self._writing() as conn:
            (status,) = conn.execute("SELECT max(status) FROM commands WHERE seq = ?",
                                     (seq,)).fetchone()
            if seq != 0 and status != "live":
                raise ValueError(f"command {seq} does not exist or was undone")
            at = GENESIS if seq == 0 else conn.execute("SELECT digest FROM commands WHERE seq = ?",
                                                       (seq,)).fetchone()[0]
            extra_json = _dumps(extra)
            conn.execute(
                "INSERT INTO snapshots (seq, taken_at, state, extra, created_at, digest) VALUES"
                " (?, (SELECT coalesce(max(seq), 0) FROM commands), ?, ?, ?, ?)",
                (seq, blob, extra_json, _now(), snapshot_digest(at, blob, extra_json)))

    def update_meta(self, changes: Mapping[str, Any]) -> None:
        """Set or replace meta keys (the save's own, such as ``format``, are refused)."""
        rows = _meta_rows(changes)
        with self._writing() as conn:
            conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", rows)

    # --- reading: every damaged-file error becomes a CorruptSave -----------------------------

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction (unless one is open: a read-only save keeps one for its life);
        whatever SQLite, JSON or zlib raise on a damaged file is reported as ``CorruptSave``."""
        conn = self._conn
        own = not conn.in_transaction
        try:
            if own:
                conn.execute("BEGIN")
            try:
                yield conn
            finally:
                if own and conn.in_transaction:
                    conn.execute("COMMIT")
        except _DAMAGE as e:
            raise _damaged(self.path, e) from e

    @property
    def meta(self) -> dict[str, Any]:
        with self._reading() as conn:
            meta = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        if not all(isinstance(k, str) for k in meta):
            raise _damaged(self.path, ValueError("its meta keys are not text"))
        return meta

    def last_seq(self) -> int:
        """The highest seq recorded (commands and undos alike), 0 for a new save."""
        with self._reading() as conn:
            return int(conn.execute("SELECT coalesce(max(seq), 0) FROM commands").fetchone()[0])

    def last_event_seq(self) -> int:
        """The highest event ``seq`` ever recorded, undone commands' included (0 if none)."""
        with self._reading() as conn:
            # Each command numbers its events on from every live one before it, so the highest is
            # the last command's with events, or an undone command's (in early saves an undo took
            # its numbers back for the next command): never the whole game's to read.
            by = " INDEXED BY undone" if _indexed(conn, "undone") else ""
            last = conn.execute("SELECT max(json_extract(data, '$.seq')) FROM events WHERE command ="
                                " (SELECT max(command) FROM events)").fetchone()[0]
            undone = conn.execute(f"SELECT max(json_extract(e.data, '$.seq')) FROM commands c{by} CROSS JOIN"
                                  " events e ON e.command = c.seq WHERE c.status = 'undone'").fetchone()[0]
            return int(max(last or 0, undone or 0))

    @staticmethod
    def _first_undone(conn: sqlite3.Connection) -> int:
        """The first undone command's seq (past the last if none)."""
        by = " INDEXED BY undone" if _indexed(conn, "undone") else ""
        row = conn.execute(f"SELECT seq FROM commands{by} WHERE status = 'undone' ORDER BY seq LIMIT 1").fetchone()
        return int(row[0]) if row is not None else 2**62

    def last_live(self) -> Record | None:
        """The latest live command (the one ``undo`` would take back), or None."""
        tail = self.live_tail(1)
        return tail[-1] if tail else None

    def _records(self, after: int, live_only: bool) -> list[Record]:
        # Three primary-key range scans in one read transaction (a consistent view), merged in
        # Python; each column's JSON is decoded in one json.loads call, which halves the cost.
        with self._reading() as conn:
            if live_only and _indexed(conn):
                commands, dice_rows, event_rows = (conn.execute(q, (after,)).fetchall() for q in _LIVE_ROWS)
                return self._merge(commands, dice_rows, event_rows, live_only)
            commands = conn.execute("SELECT seq, text, parsed, status, undone_by, undoes, "
                                    "created_at FROM commands WHERE seq > ? ORDER BY seq",
                                    (after,)).fetchall()
            dice_rows = conn.execute("SELECT command, sides, faces, purpose FROM dice WHERE "
                                     "command > ? ORDER BY command, idx", (after,)).fetchall()
            event_rows = conn.execute("SELECT command, data FROM events WHERE command > ? "
                                      "ORDER BY command, idx", (after,)).fetchall()
            return self._merge(commands, dice_rows, event_rows, live_only)

    @staticmethod
    def _merge(commands: list[Any], dice_rows: list[Any], event_rows: list[Any], live_only: bool) -> list[Record]:
        dice: dict[int, list[Roll]] = {}
        for (seq, sides, _, purpose), faces in zip(
                dice_rows, _loads_all(r[2] for r in dice_rows), strict=True):
            dice.setdefault(seq, []).append(Roll(sides, tuple(faces), purpose))
        events: dict[int, list[dict[str, Any]]] = {}
        for (seq, _), data in zip(event_rows, _loads_all(r[1] for r in event_rows), strict=True):
            events.setdefault(seq, []).append(data)
        return [Record(seq, text, parsed, tuple(dice.get(seq, ())), tuple(events.get(seq, ())),
                       status, undone_by, undoes, created_at)
                for (seq, text, _, status, undone_by, undoes, created_at), parsed
                in zip(commands, _loads_all(r[2] for r in commands), strict=True)
                if not live_only or (status == "live" and undoes is None)]

    def rolled_back(self) -> tuple[list[Record], set[int]]:
        """The undone commands that rolled dice (without their events), and the seqs whose faces a
        later command has already taken again (``parsed.again``): see :mod:`wyrd.play.engine.rolled`."""
        with self._reading() as conn:
            by = " INDEXED BY undone" if _indexed(conn, "undone") else ""
            commands = conn.execute(f"SELECT seq, text, parsed, status, undone_by, undoes, created_at FROM"
                                    f" commands{by} WHERE status = 'undone' AND EXISTS (SELECT 1 FROM dice"
                                    " WHERE command = seq) ORDER BY seq").fetchall()
            dice_rows = conn.execute(f"SELECT d.command, d.sides, d.faces, d.purpose FROM commands c{by} CROSS JOIN"
                                     " dice d ON d.command = c.seq WHERE c.status = 'undone'"
                                     " ORDER BY c.seq, d.idx").fetchall()
            # A command takes back the faces of an undone one before it: none comes before the first.
            again = " INDEXED BY again" if _indexed(conn, "again") else ""
            taken = conn.execute(f"SELECT json_extract(parsed, '$.again') FROM commands{again} WHERE seq > ?"
                                 f" AND {_MAY_TAKE_AGAIN} AND json_extract(parsed, '$.again') IS NOT NULL",
                                 (self._first_undone(conn),)).fetchall()
            return self._merge(commands, dice_rows, [], False), {int(row[0]) for row in taken}

    def live_commands(self, after: int = 0) -> Iterator[Record]:
        """The commands that count (not undone, not undo records) with seq > ``after``."""
        return iter(self._records(after, live_only=True))

    def live_tail(self, count: int) -> list[Record]:
        """The last ``count`` live commands (all of them if there are fewer), oldest first; what it
        reads does not grow with the length of the game."""
        with self._reading() as conn:
            first = _latest_live(conn, count - 1) if count > 0 else None
        if count > 0 and first is None:
            return self._records(0, live_only=True)
        return [] if first is None else self._records(first - 1, live_only=True)

    def all_commands(self) -> Iterator[Record]:
        """Every command ever recorded, undone ones and undo records included: the audit log."""
        return iter(self._records(0, live_only=False))

    def commands_since(self, after: int) -> list[Record]:
        """Every command recorded after ``after``, undone ones and undo records included, in order."""
        return self._records(after, live_only=False)

    def events_since(self, seq: int) -> list[Event]:
        """The events of live commands with a seq greater than ``seq``, in order."""
        with self._reading() as conn:
            rows = conn.execute(
                "SELECT command, idx, kind, data FROM events WHERE command > ?1 AND command NOT IN"
                " (SELECT seq FROM commands WHERE seq > ?1 AND (status = 'undone' OR undoes IS NOT"
                " NULL)) ORDER BY command, idx", (seq,)).fetchall()
            return [Event(s, i, k, data)
                    for (s, i, k, _), data in zip(rows, _loads_all(r[3] for r in rows), strict=True)]

    def last_command_with(self, kinds: Iterable[str]) -> int | None:
        """The seq of the last live command that recorded an event of one of ``kinds`` (None: none did)."""
        wanted = sorted(set(kinds))
        if not wanted:
            return None
        marks = ", ".join("?" * len(wanted))
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT max(command) FROM events WHERE kind IN ({marks}) AND command NOT IN"
                " (SELECT seq FROM commands WHERE status = 'undone' OR undoes IS NOT NULL)", wanted).fetchone()
            return int(row[0]) if row and row[0] is not None else None

    def latest_snapshot(self, max_seq: int | None = None) -> Snapshot | None:
        """The newest still-valid snapshot at or before ``max_seq`` (default: any), its digest
        checked against the chain (``EditedSave`` if it was changed)."""
        with self._reading() as conn:
            row = conn.execute(
                f"SELECT s.seq, s.state, s.extra, {'s.digest, c.digest' if self.verified else 'NULL, NULL'}"
                " FROM snapshots s LEFT JOIN commands c ON c.seq = s.seq WHERE s.invalidated_by IS NULL"
                " AND s.seq <= ? ORDER BY s.seq DESC, s.id DESC LIMIT 1",
                (max_seq if max_seq is not None else 2**62,)).fetchone()
            if row is None:
                return None
            seq, state, extra, stored, at = row
            if self.verified and snapshot_digest(GENESIS if seq == 0 else at or b"", state, extra) != stored:
                raise EditedSave(f"{self.path} was changed outside Wyrd at the snapshot of command {seq};"
                                 " it cannot be trusted.")
            snap_state, snap_extra = json.loads(zlib.decompress(state)), json.loads(extra)
            if not isinstance(snap_state, dict) or not isinstance(snap_extra, dict):
                raise ValueError("a snapshot is not a JSON object")
            return Snapshot(seq, snap_state, snap_extra)

    def integrity_check(self) -> list[str]:
        """SQLite's own check plus the log's invariants; an empty list means the save is sound."""
        with self._reading() as conn:
            q = conn.execute
            problems = [str(r[0]) for r in q("PRAGMA integrity_check") if r[0] != "ok"]
            problems += [f"{t} row {rowid} refers to a missing row of {parent}"
                         for t, rowid, parent, _ in q("PRAGMA foreign_key_check")]
            for query, message in _CHECKS:
                problems += [message.format(*row) for row in q(query)]
            return problems
