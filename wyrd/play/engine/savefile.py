"""The save file: an append-only SQLite log of commands, their dice and their events.

Generic: it knows nothing of rules, only JSON-serialisable dicts. Each command is written in one
durable transaction *before* anything is shown (DESIGN.md, core loop step 5); state is rebuilt by
replaying the live commands' recorded dice, optionally from a snapshot. Nothing is ever deleted:
an undo is itself a recorded command (``undoes`` names its target) that marks the latest live
command ``undone``, so ``all_commands`` is the full audit trail. Opening never writes to a file
that is not ours: header bytes first, then SQLite read-only, and only then read-write.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import closing, contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple, Self

__all__ = ["APPLICATION_ID", "SCHEMA_VERSION", "CorruptSave", "Event", "ForeignSave", "NewerSave",
           "NotASave", "Record", "Roll", "SaveError", "SaveExists", "SaveFile", "SaveWriteError",
           "Snapshot"]

SCHEMA_VERSION = 1
APPLICATION_ID = 0x57797264  # "Wyrd": `file(1)` and our header check recognise saves by it
_RESERVED_META = ("format", "schema_version", "app_version", "created_at")
_SQLITE_MAGIC = b"SQLite format 3\x00"
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
    """CREATE TABLE commands (seq INTEGER PRIMARY KEY, text TEXT NOT NULL, parsed TEXT NOT NULL,
        status TEXT NOT NULL DEFAULT 'live' CHECK (status IN ('live', 'undone')),
        undone_by INTEGER REFERENCES commands(seq), undoes INTEGER UNIQUE REFERENCES commands(seq),
        created_at TEXT NOT NULL)""",
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
        created_at TEXT NOT NULL, invalidated_by INTEGER REFERENCES commands(seq))""",
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


def _check(path: Path, timeout: float) -> None:
    """Refuse anything but one of our saves, without writing a byte to it."""
    try:  # raw bytes first, so a foreign file is never handed to SQLite (which may write)
        with path.open("rb") as f:
            header = f.read(100)
    except OSError as e:  # missing, a directory, unreadable
        raise NotASave(f"There is no save file at {path} ({e.strerror}).") from None
    if not header.startswith(_SQLITE_MAGIC):  # also an empty file, which SQLite would accept
        raise NotASave(f"{path} is not a Wyrd save file (it is not an SQLite database).")
    if len(header) < 100:
        raise CorruptSave(f"{path} is a damaged save file (its header is cut short).")
    # Saves are created in rollback mode, so application_id is always in the main file's header.
    if int.from_bytes(header[68:72], "big") != APPLICATION_ID:
        raise ForeignSave(f"{path} is an SQLite database of another program, not a Wyrd save.")
    try:  # then SQLite, read-only: it sees a WAL's committed changes that the header may lack
        uri = path.resolve().as_uri() + "?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=timeout)) as conn:
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema")}
    except sqlite3.DatabaseError as e:
        raise CorruptSave(f"{path} is a damaged save file ({e}).") from e
    if version > SCHEMA_VERSION:
        raise NewerSave(f"{path} was saved by a newer Wyrd (format {version}); please upgrade.")
    if version < 1 or not {"meta", "commands", "dice", "events", "snapshots"} <= tables:
        raise CorruptSave(f"{path} is a damaged save file (its tables are incomplete).")


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
    # isolation_level=None: we issue BEGIN IMMEDIATE/COMMIT ourselves, so a transaction is
    # exactly one command and a competing writer is detected before we write anything.
    conn = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = FULL")  # WAL+FULL survives power loss (FACTS.md)
    return conn


class SaveFile:
    """An open save. Use ``SaveFile.create`` or ``SaveFile.open``; it is a context manager."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    @classmethod
    def create(cls, path: str | os.PathLike[str], *, meta: Mapping[str, Any],
               busy_timeout: float = 2.0) -> SaveFile:
        """Create a new save; an existing file (of any kind) is refused with ``SaveExists``."""
        from importlib.metadata import PackageNotFoundError, version  # only paid on create

        p = Path(path)
        rows = _meta_rows(meta)
        try:
            app_version = version("wyrd")
        except PackageNotFoundError:
            app_version = "unknown"
        rows += [(k, _dumps(v)) for k, v in (("format", "wyrd-save"), ("created_at", _now()),
                 ("schema_version", SCHEMA_VERSION), ("app_version", app_version))]
        try:  # O_EXCL makes "refuse if it exists" atomic, even against another process
            os.close(os.open(p, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            raise SaveExists(f"{p} already exists; choose another name.") from None
        except OSError as e:
            raise SaveWriteError(f"Could not create the save file {p} ({e.strerror}).") from e
        conn: sqlite3.Connection | None = None
        try:
            conn = _connect(p, busy_timeout)
            conn.execute("BEGIN IMMEDIATE")
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.executemany("INSERT INTO meta VALUES (?, ?)", rows)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            conn.execute("COMMIT")  # still in rollback mode: the header lands in the main file
            conn.execute("PRAGMA journal_mode = WAL")
        except sqlite3.Error as e:
            if conn is not None:
                conn.close()
            for leftover in (p, Path(f"{p}-wal"), Path(f"{p}-shm"), Path(f"{p}-journal")):
                leftover.unlink(missing_ok=True)  # we made it; don't leave a half-save behind
            raise SaveWriteError(f"Could not create the save file {p} ({e}).") from e
        return cls(p, conn)

    @classmethod
    def open(cls, path: str | os.PathLike[str], *, busy_timeout: float = 2.0) -> SaveFile:
        """Open an existing save, refusing (without writing to it) anything that isn't one."""
        p = Path(path)
        _check(p, busy_timeout)
        return cls(p, _connect(p, busy_timeout))  # WAL mode persists in the file: no write here

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # --- writing: every method here is one BEGIN IMMEDIATE ... COMMIT ---------------------------

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One BEGIN IMMEDIATE ... COMMIT; any failure rolls it back, leaving the file as it was."""
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")  # takes the write lock now, so a rival is seen here
            yield conn
            conn.execute("COMMIT")  # WAL + synchronous=FULL: durable once this returns
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
            seq: int = conn.execute(
                "INSERT INTO commands (text, parsed, created_at) VALUES (?, ?, ?) RETURNING seq",
                (text, parsed_json, _now())).fetchone()[0]
            conn.executemany("INSERT INTO dice VALUES (?, ?, ?, ?, ?)",
                             [(seq, *row) for row in dice_rows])
            conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?)",
                             [(seq, *row) for row in event_rows])
        return seq

    def undo(self, text: str = "undo") -> int | None:
        """Mark the latest live command undone, recording the undo; returns its seq or None."""
        with self._writing() as conn:
            (target,) = conn.execute("SELECT max(seq) FROM commands WHERE status = 'live'"
                                     " AND undoes IS NULL").fetchone()
            if target is None:
                return None
            undo_seq = conn.execute(
                "INSERT INTO commands (text, parsed, undoes, created_at) VALUES (?, ?, ?, ?)"
                " RETURNING seq", (text, _dumps({"undo": target}), target, _now())).fetchone()[0]
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
            conn.execute(
                "INSERT INTO snapshots (seq, taken_at, state, extra, created_at) VALUES"
                " (?, (SELECT coalesce(max(seq), 0) FROM commands), ?, ?, ?)",
                (seq, blob, _dumps(extra), _now()))

    def update_meta(self, changes: Mapping[str, Any]) -> None:
        """Set or replace meta keys (the save's own, such as ``format``, are refused)."""
        rows = _meta_rows(changes)
        with self._writing() as conn:
            conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", rows)

    # --- reading ------------------------------------------------------------------------------

    @property
    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self._conn.execute("SELECT key, value FROM meta")}

    def last_seq(self) -> int:
        """The highest seq recorded (commands and undos alike), 0 for a new save."""
        return int(self._conn.execute("SELECT coalesce(max(seq), 0) FROM commands").fetchone()[0])

    def last_event_seq(self) -> int:
        """The highest event ``seq`` ever recorded, undone commands' included (0 if none)."""
        row = self._conn.execute("SELECT max(json_extract(data, '$.seq')) FROM events").fetchone()
        return int(row[0] or 0)

    def last_live(self) -> Record | None:
        """The latest live command (the one ``undo`` would take back), or None."""
        (seq,) = self._conn.execute("SELECT max(seq) FROM commands WHERE status = 'live'"
                                    " AND undoes IS NULL").fetchone()
        return None if seq is None else self._records(seq - 1, live_only=True)[0]

    def _records(self, after: int, live_only: bool) -> list[Record]:
        # Three primary-key range scans in one read transaction (a consistent view), merged in
        # Python; each column's JSON is decoded in one json.loads call, which halves the cost.
        conn = self._conn
        conn.execute("BEGIN")
        try:
            commands = conn.execute("SELECT seq, text, parsed, status, undone_by, undoes, "
                                    "created_at FROM commands WHERE seq > ? ORDER BY seq",
                                    (after,)).fetchall()
            dice_rows = conn.execute("SELECT command, sides, faces, purpose FROM dice WHERE "
                                     "command > ? ORDER BY command, idx", (after,)).fetchall()
            event_rows = conn.execute("SELECT command, data FROM events WHERE command > ? "
                                      "ORDER BY command, idx", (after,)).fetchall()
        finally:
            conn.execute("COMMIT")
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

    def live_commands(self, after: int = 0) -> Iterator[Record]:
        """The commands that count (not undone, not undo records) with seq > ``after``."""
        return iter(self._records(after, live_only=True))

    def all_commands(self) -> Iterator[Record]:
        """Every command ever recorded, undone ones and undo records included: the audit log."""
        return iter(self._records(0, live_only=False))

    def events_since(self, seq: int) -> list[Event]:
        """The events of live commands with a seq greater than ``seq``, in order."""
        rows = self._conn.execute(
            "SELECT command, idx, kind, data FROM events WHERE command > ?1 AND command NOT IN"
            " (SELECT seq FROM commands WHERE seq > ?1 AND (status = 'undone' OR undoes IS NOT"
            " NULL)) ORDER BY command, idx", (seq,)).fetchall()
        return [Event(s, i, k, data)
                for (s, i, k, _), data in zip(rows, _loads_all(r[3] for r in rows), strict=True)]

    def latest_snapshot(self, max_seq: int | None = None) -> Snapshot | None:
        """The newest still-valid snapshot at or before ``max_seq`` (default: any)."""
        row = self._conn.execute(
            "SELECT seq, state, extra FROM snapshots WHERE invalidated_by IS NULL AND seq <= ?"
            " ORDER BY seq DESC, id DESC LIMIT 1",
            (max_seq if max_seq is not None else 2**62,)).fetchone()
        if row is None:
            return None
        return Snapshot(row[0], json.loads(zlib.decompress(row[1])), json.loads(row[2]))

    def integrity_check(self) -> list[str]:
        """SQLite's own check plus the log's invariants; an empty list means the save is sound."""
        q = self._conn.execute
        problems = [r[0] for r in q("PRAGMA integrity_check") if r[0] != "ok"]
        problems += [f"{t} row {rowid} refers to a missing row of {parent}"
                     for t, rowid, parent, _ in q("PRAGMA foreign_key_check")]
        for query, message in _CHECKS:
            problems += [message.format(*row) for row in q(query)]
        return problems
