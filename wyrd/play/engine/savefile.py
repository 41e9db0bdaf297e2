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
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from wyrd.play.engine import savelock, savemark
from wyrd.play.engine.savedigest import GENESIS, command_digest, first_edit, migrate, snapshot_digest
from wyrd.play.engine.saveopen import checked, connect, connect_readonly, damaged, is_closed, writable
from wyrd.play.engine.saveplace import APPLICATION_ID, discard, is_save_file, part_name, place
from wyrd.play.engine.savereading import DAMAGE, SaveReading
from wyrd.play.engine.saveschema import (
    INDEXES,
    SCHEMA_VERSION,
    TABLES,
    latest_live,
)
from wyrd.play.engine.savetypes import (
    CorruptSave,
    EditedSave,
    Event,
    ForeignSave,
    NewerSave,
    NotASave,
    ReadOnlySave,
    Record,
    Roll,
    SaveError,
    SaveExists,
    SaveLocked,
    SaveWriteError,
    Snapshot,
)

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "CorruptSave", "EditedSave", "Event", "ForeignSave",
           "NewerSave", "NotASave", "ReadOnlySave", "Record", "Roll", "SaveError", "SaveExists", "SaveFile",
           "SaveLocked", "SaveWriteError", "Snapshot", "is_save_file", "part_name"]

_RESERVED_META = ("format", "schema_version", "app_version", "created_at", "holder")


def _dumps(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _meta_rows(meta: Mapping[str, Any]) -> list[tuple[str, str]]:
    clash = [k for k in _RESERVED_META if k in meta]
    if clash:
        raise ValueError(f"meta keys {clash} are set by the save file itself")
    return [(k, _dumps(v)) for k, v in meta.items()]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _name_holder(conn: sqlite3.Connection, holder: str | None) -> None:
    """The lock's holder, in the meta, for a second session refused to say who plays the save;
    and the indexes of :data:`INDEXES`, for a save made before it had them."""
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('holder', ?)", (_dumps(savelock.holder(holder)),))
    for statement in INDEXES:
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


class SaveFile(SaveReading):
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
        self.closed = False
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
        from wyrd import __version__

        p = Path(path)
        rows = _meta_rows(meta)
        # The holder is written with the rest: the save is never opened without one, and naming
        # it when opened would be one more transaction to flush before a new game's prompt.
        rows += [(k, _dumps(v)) for k, v in (("format", "wyrd-save"), ("created_at", _now()),
                 ("schema_version", SCHEMA_VERSION), ("app_version", __version__),
                 ("holder", savelock.holder(holder)))]
        if os.path.lexists(p):
            cls._refuse_existing(p)
        part = part_name(p)
        discard(part)  # a leftover of an earlier process that had our pid
        with _built_beside(part, f"create the save file {p}"):
            cls._build(part, rows, busy_timeout)
            cls._placing(part, p)
        return cls.open(p, busy_timeout=busy_timeout, claim=False)

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
        conn = connect(part, timeout)
        try:
            # The part is not a save until it is flushed whole below and moved into place, and a
            # part left by a crash is discarded: SQLite need not flush each of its own steps (the
            # two transactions' journal, file and folder, eight flushes before a new game's prompt).
            conn.execute("PRAGMA synchronous = OFF")
            conn.execute("BEGIN IMMEDIATE")
            for statement in (*TABLES, *INDEXES):
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
        conn = checked(p, busy_timeout, closed=readonly and is_closed(p))
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
        # The read transaction checked began stays open: every read sees the same moment.
        try:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            if version >= 2:
                _verify(conn, p, mark)
        except DAMAGE as e:
            raise damaged(p, e) from e
        return cls(p, conn, readonly=True, verified=version >= 2)

    @classmethod
    def _for_writing(cls, p: Path, busy_timeout: float, holder: str | None, claim: bool,
                     mark: savemark.Mark | None) -> SaveFile:
        if not writable(p):
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
            conn = connect(p, busy_timeout)
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
            if isinstance(e, DAMAGE):
                raise damaged(p, e) from e
            raise
        return cls(p, conn, lock=lock, watch=watch)

    def claim(self, holder: str | None = None) -> None:
        """Write into the save who holds its lock (see :meth:`open`'s ``claim``).

        Who holds the lock is told, not kept: the lock itself keeps a second session out, and a
        crash releases both. So this write does not wait for the disk (WAL with ``synchronous =
        NORMAL``: consistent, only not yet durable), and the first command's commit makes it so.
        """
        self._conn.execute("PRAGMA synchronous = NORMAL")
        try:
            with self._writing() as conn:
                _name_holder(conn, holder)
        finally:
            self._conn.execute("PRAGMA synchronous = FULL")

    @staticmethod
    def _holder(p: Path) -> object:
        """What the save says holds it (None if it cannot be read)."""
        try:
            conn = connect_readonly(p, 0.5)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key = 'holder'").fetchone()
            finally:
                conn.close()
            return json.loads(row[0]) if row else None
        except DAMAGE:
            return None

    def close(self) -> None:
        """Close the save; one open for writing is marked as it is left, if only this session
        wrote it (see :mod:`.savemark`), before its lock is released."""
        head = self._head_to_mark()
        self.closed = True
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
            target = latest_live(conn)
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
