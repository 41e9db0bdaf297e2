"""The table's own record beside the save: seats, their tokens and claims, the host's settings.

A small SQLite file next to the save (``GAME.wyrd`` keeps its table in ``GAME.wyrd.table``), so
seats, claims and settings survive a host killed and restarted with ``--resume``, and the save
file itself is never changed by the table. Tokens are stored as their SHA-256 and compared in
constant time (:func:`hmac.compare_digest`); each is :data:`TOKEN_BYTES` random bytes.

It also records which seat sent each command (``lines``): the row is written *before* the command
runs, naming the command number it will get, and counts only if the save has that command with the
same text. So a host killed between the two writes never attributes a command wrongly, and a line
resent after a restart is known to have been applied (issue 20, point 5).

One thread uses it (the table's engine worker): SQLite connections stay in the thread that made them.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import sqlite3
from dataclasses import dataclass
from pathlib import Path

__all__ = ["TOKEN_BYTES", "Seat", "SeatBook", "book_path", "new_token"]

#: Random bytes in every token: 24 bytes, 192 bits (issue 20, point 7: at least 128).
TOKEN_BYTES = 24

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS seats (id INTEGER PRIMARY KEY, name TEXT NOT NULL,
        token TEXT NOT NULL, host INTEGER NOT NULL DEFAULT 0, revoked INTEGER NOT NULL DEFAULT 0,
        seen INTEGER NOT NULL DEFAULT 0, left_at TEXT)""",
    "CREATE TABLE IF NOT EXISTS claims (character TEXT PRIMARY KEY, seat INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS lines (command INTEGER PRIMARY KEY, seat INTEGER NOT NULL,
        client_id TEXT NOT NULL, text TEXT NOT NULL)""",
    "CREATE INDEX IF NOT EXISTS lines_by_id ON lines (seat, client_id)",
)


def new_token() -> str:
    """A fresh secret: :data:`TOKEN_BYTES` random bytes, URL-safe."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def book_path(save: Path) -> Path:
    """Where the table of ``save`` is kept."""
    return save.with_name(save.name + ".table")


@dataclass(frozen=True)
class Seat:
    """One seat: who sits there, whether it is the host's, the last entry it was sent."""

    id: int
    name: str
    host: bool
    revoked: bool
    seen: int
    left_at: str | None


class SeatBook:
    """The seats, claims, settings and line attributions of one table."""

    def __init__(self, path: Path) -> None:
        self.path = path
        fresh = not path.exists()
        self._conn = sqlite3.connect(path, isolation_level=None)
        if fresh:
            os.chmod(path, 0o600)  # it holds the invitation: only its owner reads it
        self._conn.execute("PRAGMA journal_mode = WAL")
        # WAL + NORMAL survives a killed process (FACTS.md); the save itself is the durable record.
        self._conn.execute("PRAGMA synchronous = NORMAL")
        for statement in _SCHEMA:
            self._conn.execute(statement)

    def close(self) -> None:
        self._conn.close()

    # -- settings ------------------------------------------------------------------

    def setting(self, key: str, default: str = "") -> str:
        row = self._conn.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return str(row[0]) if row else default

    def set(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO settings VALUES (?, ?)", (key, value))

    def invite(self) -> str:
        """The invitation's token, made on first use and kept across restarts."""
        token = self.setting("invite")
        if not token:
            token = new_token()
            self.set("invite", token)
        return token

    def invite_matches(self, token: str) -> bool:
        return hmac.compare_digest(_hash(token), _hash(self.invite()))

    # -- seats ---------------------------------------------------------------------

    def _seat(self, row: tuple[object, ...] | None) -> Seat | None:
        if row is None:
            return None
        id_, name, host, revoked, seen, left_at = row
        return Seat(int(str(id_)), str(name), bool(host), bool(revoked), int(str(seen)),
                    None if left_at is None else str(left_at))

    _COLUMNS = "id, name, host, revoked, seen, left_at"

    def add(self, name: str, *, host: bool = False) -> tuple[Seat, str]:
        """A new seat named ``name`` and its token (shown once: only its hash is kept)."""
        token = new_token()
        cur = self._conn.execute("INSERT INTO seats (name, token, host) VALUES (?, ?, ?)",
                                 (name, _hash(token), int(host)))
        seat = self.get(int(cur.lastrowid or 0))
        assert seat is not None
        return seat, token

    def host_seat(self, name: str = "Host") -> tuple[Seat, str]:
        """The host's seat with a fresh token (the old one, from an earlier run, stops working)."""
        row = self._conn.execute(f"SELECT {self._COLUMNS} FROM seats WHERE host = 1 ORDER BY id LIMIT 1").fetchone()
        seat = self._seat(row)
        if seat is None:
            return self.add(name, host=True)
        token = new_token()
        self._conn.execute("UPDATE seats SET token = ?, revoked = 0 WHERE id = ?", (_hash(token), seat.id))
        return seat, token

    def get(self, seat_id: int) -> Seat | None:
        return self._seat(self._conn.execute(f"SELECT {self._COLUMNS} FROM seats WHERE id = ?",
                                             (seat_id,)).fetchone())

    def find(self, token: str) -> Seat | None:
        """The seat whose token is ``token`` (every seat's hash compared, in constant time each)."""
        wanted = _hash(token)
        found: Seat | None = None
        for row in self._conn.execute(f"SELECT {self._COLUMNS}, token FROM seats").fetchall():
            if hmac.compare_digest(wanted, str(row[-1])):
                found = self._seat(row[:-1])
        return found

    def seats(self) -> list[Seat]:
        return [s for s in (self._seat(r) for r in self._conn.execute(
            f"SELECT {self._COLUMNS} FROM seats ORDER BY id").fetchall()) if s is not None]

    def by_name(self, name: str) -> Seat | None:
        folded = name.casefold()
        return next((s for s in self.seats() if s.name.casefold() == folded and not s.revoked), None)

    def revoke(self, seat_id: int) -> None:
        self._conn.execute("UPDATE seats SET revoked = 1 WHERE id = ?", (seat_id,))
        self._conn.execute("DELETE FROM claims WHERE seat = ?", (seat_id,))

    def seen(self, seat_id: int, n: int, left_at: str | None = None) -> None:
        """The last entry ``seat_id`` was sent (and when it left, if it has)."""
        self._conn.execute("UPDATE seats SET seen = max(seen, ?), left_at = ? WHERE id = ?", (n, left_at, seat_id))

    # -- claims --------------------------------------------------------------------

    def claims(self) -> dict[str, int]:
        """Who holds each character: its name -> the seat's id."""
        return {str(c): int(s) for c, s in self._conn.execute("SELECT character, seat FROM claims").fetchall()}

    def claim(self, character: str, seat_id: int) -> None:
        self._conn.execute("INSERT OR REPLACE INTO claims VALUES (?, ?)", (character, seat_id))

    def release(self, character: str) -> None:
        self._conn.execute("DELETE FROM claims WHERE character = ?", (character,))

    # -- who sent each command -----------------------------------------------------

    def intend(self, command: int, seat_id: int, client_id: str, text: str) -> None:
        """Before a line runs: were it to become command ``command``, ``seat_id`` sent it."""
        self._conn.execute("INSERT OR REPLACE INTO lines VALUES (?, ?, ?, ?)", (command, seat_id, client_id, text))

    def senders(self, after: int) -> dict[int, tuple[int, str, str]]:
        """command -> (seat id, client id, text) for commands after ``after`` (still to be checked)."""
        rows = self._conn.execute("SELECT command, seat, client_id, text FROM lines WHERE command > ?",
                                  (after,)).fetchall()
        return {int(c): (int(s), str(i), str(t)) for c, s, i, t in rows}

    def applied(self, seat_id: int, client_id: str) -> list[tuple[int, str]]:
        """The commands (number, text) recorded as sent by ``seat_id`` with ``client_id``."""
        rows = self._conn.execute("SELECT command, text FROM lines WHERE seat = ? AND client_id = ?",
                                  (seat_id, client_id)).fetchall()
        return [(int(c), str(t)) for c, t in rows]

    def forget_after(self, command: int) -> None:
        """Drop intentions past the save's last command (lines that never ran to their commit)."""
        self._conn.execute("DELETE FROM lines WHERE command > ?", (command,))
