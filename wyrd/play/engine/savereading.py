"""Reading a save file: its meta, its commands with their dice and events, its snapshots, its own check.

:class:`SaveReading` is the reading half of :class:`~wyrd.play.engine.savefile.SaveFile`: every query
runs in one read transaction, and whatever a damaged file makes SQLite, JSON or zlib raise is
reported as :class:`~wyrd.play.engine.savetypes.CorruptSave`, one sentence naming the file. The live
commands and the latest one are read by the indexes of :mod:`~wyrd.play.engine.saveschema`, so a
resume or an undo does not read the whole game (issue 21, point 3).
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from wyrd.play.engine.savedigest import GENESIS, snapshot_digest
from wyrd.play.engine.saveopen import damaged
from wyrd.play.engine.saveschema import CHECKS, LIVE_ROWS, MAY_TAKE_AGAIN, indexed, latest_live
from wyrd.play.engine.savetypes import EditedSave, Event, Record, Roll, Snapshot

__all__ = ["DAMAGE", "SaveReading"]

# What reading a damaged file can raise, from SQLite, the JSON and zlib decoders alike
# (UnicodeDecodeError and json's errors are ValueErrors).
DAMAGE = (sqlite3.Error, ValueError, TypeError, zlib.error, IndexError, KeyError, OverflowError)


def _loads_all(texts: Iterable[str]) -> list[Any]:
    """Decode many JSON texts at once: one json.loads call costs half as much as one each."""
    return list(json.loads("[" + ",".join(texts) + "]"))


class SaveReading:
    """What an open save answers; :class:`~wyrd.play.engine.savefile.SaveFile` adds opening and writing."""

    path: Path
    _conn: sqlite3.Connection
    verified: bool  # False: a schema-1 save read as it is, without digests

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
        except DAMAGE as e:
            raise damaged(self.path, e) from e

    @property
    def meta(self) -> dict[str, Any]:
        with self._reading() as conn:
            meta = {k: json.loads(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        if not all(isinstance(k, str) for k in meta):
            raise damaged(self.path, ValueError("its meta keys are not text"))
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
            by = " INDEXED BY undone" if indexed(conn, "undone") else ""
            last = conn.execute("SELECT max(json_extract(data, '$.seq')) FROM events WHERE command ="
                                " (SELECT max(command) FROM events)").fetchone()[0]
            undone = conn.execute(f"SELECT max(json_extract(e.data, '$.seq')) FROM commands c{by} CROSS JOIN"
                                  " events e ON e.command = c.seq WHERE c.status = 'undone'").fetchone()[0]
            return int(max(last or 0, undone or 0))

    @staticmethod
    def _first_undone(conn: sqlite3.Connection) -> int:
        """The first undone command's seq (past the last if none)."""
        by = " INDEXED BY undone" if indexed(conn, "undone") else ""
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
            if live_only and indexed(conn):
                commands, dice_rows, event_rows = (conn.execute(q, (after,)).fetchall() for q in LIVE_ROWS)
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
            by = " INDEXED BY undone" if indexed(conn, "undone") else ""
            commands = conn.execute(f"SELECT seq, text, parsed, status, undone_by, undoes, created_at FROM"
                                    f" commands{by} WHERE status = 'undone' AND EXISTS (SELECT 1 FROM dice"
                                    " WHERE command = seq) ORDER BY seq").fetchall()
            dice_rows = conn.execute(f"SELECT d.command, d.sides, d.faces, d.purpose FROM commands c{by} CROSS JOIN"
                                     " dice d ON d.command = c.seq WHERE c.status = 'undone'"
                                     " ORDER BY c.seq, d.idx").fetchall()
            # A command takes back the faces of an undone one before it: none comes before the first.
            again = " INDEXED BY again" if indexed(conn, "again") else ""
            taken = conn.execute(f"SELECT json_extract(parsed, '$.again') FROM commands{again} WHERE seq > ?"
                                 f" AND {MAY_TAKE_AGAIN} AND json_extract(parsed, '$.again') IS NOT NULL",
                                 (self._first_undone(conn),)).fetchall()
            return self._merge(commands, dice_rows, [], False), {int(row[0]) for row in taken}

    def live_commands(self, after: int = 0) -> Iterator[Record]:
        """The commands that count (not undone, not undo records) with seq > ``after``."""
        return iter(self._records(after, live_only=True))

    def live_tail(self, count: int) -> list[Record]:
        """The last ``count`` live commands (all of them if there are fewer), oldest first; what it
        reads does not grow with the length of the game."""
        with self._reading() as conn:
            first = latest_live(conn, count - 1) if count > 0 else None
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
            text = zlib.decompress(state).decode("utf-8")
            snap_state, snap_extra = json.loads(text), json.loads(extra)
            if not isinstance(snap_state, dict) or not isinstance(snap_extra, dict):
                raise ValueError("a snapshot is not a JSON object")
            return Snapshot(seq, snap_state, snap_extra, text)

    def integrity_check(self) -> list[str]:
        """SQLite's own check plus the log's invariants; an empty list means the save is sound."""
        with self._reading() as conn:
            q = conn.execute
            problems = [str(r[0]) for r in q("PRAGMA integrity_check") if r[0] != "ok"]
            problems += [f"{t} row {rowid} refers to a missing row of {parent}"
                         for t, rowid, parent, _ in q("PRAGMA foreign_key_check")]
            for query, message in CHECKS:
                problems += [message.format(*row) for row in q(query)]
            return problems
