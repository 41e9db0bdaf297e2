"""The chained digest that lets a save check itself (schema 2).

Each command row stores ``digest_n = sha256(digest_{n-1} + bytes_n)``, where ``bytes_n`` are the
exact stored values of that command (seq, text, parsed JSON, undoes) and of its dice and event
rows, in order. Columns that later commands change (``status``, ``undone_by``) are left out: an
undo is covered by its own row, which names its target. Each snapshot stores
``sha256(chain digest at its seq + state blob + extra)``. Editing any of these by hand breaks
the chain at the command where the edit was made, which is what the player is told.

This guards against edits by hand and damage, not against someone who rewrites the digests too:
the algorithm is public and there is no secret key.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator, Sequence
from typing import Any

__all__ = ["GENESIS", "chain", "command_digest", "first_edit", "migrate", "snapshot_digest"]

GENESIS = bytes(32)  # the chain digest "at command 0", before any command
# Schema 1 had no digests: a save opened for writing gains them once (see migrate).
_MIGRATE_1 = ("ALTER TABLE commands ADD COLUMN digest BLOB", "ALTER TABLE snapshots ADD COLUMN digest BLOB")


def command_digest(prev: bytes, seq: object, text: object, parsed: object, undoes: object,
                   dice: Sequence[Sequence[Any]], events: Sequence[Sequence[Any]]) -> bytes:
    """The chain digest after one command, from its stored values.

    Fields are joined with separators; the two that hold raw text (the command's and a roll's
    purpose) are length-prefixed, the rest are numbers or JSON (whose control characters are
    escaped), so no two different commands give the same bytes. ``str`` of each value keeps
    this cheap: it is paid for every command whenever a save is opened.
    """
    t, parts = str(text), [str(seq), "", str(parsed), str(undoes)]
    parts[1] = f"{len(t)}:{t}"
    parts += [f"{i}\x1e{sides}\x1e{faces}\x1e{len(str(purpose))}:{purpose}" for i, sides, faces, purpose in dice]
    parts.append("\x1d")
    parts += [f"{i}\x1e{kind}\x1e{data}" for i, kind, data in events]
    return hashlib.sha256(prev + "\x1f".join(parts).encode("utf-8", "surrogatepass")).digest()


def snapshot_digest(at: bytes, state: object, extra: object) -> bytes | None:
    """A snapshot's digest: the chain digest at its seq, its state blob and its extra text."""
    if not isinstance(state, bytes) or not isinstance(extra, str):
        return None
    return hashlib.sha256(at + state + extra.encode("utf-8", "surrogatepass")).digest()


def chain(conn: sqlite3.Connection, *, stored: bool = True, since: tuple[int, bytes] = (0, GENESIS)
          ) -> Iterator[tuple[int, bytes | None, bytes | None]]:
    """Each command's (seq, digest computed from its rows, digest stored) in order, after the
    command and chain digest ``since`` (default: the whole chain).

    The three tables are read as three ordered range scans merged here, so a long save costs
    one pass. A dice or event row of a command that does not exist is reported as a broken
    digest at that command's number. With ``stored=False`` (a schema-1 save) the stored digest
    is None. The caller holds one read transaction around the whole walk.
    """
    digest_column = "digest" if stored else "NULL"
    after, prev_digest = since
    # The whole chain reads every row, those of commands numbered 0 or less included (orphans).
    past = "{} > ?" if after else "? IS NOT NULL"
    commands = conn.execute(f"SELECT seq, text, parsed, undoes, {digest_column} FROM commands"
                            f" WHERE {past.format('seq')} ORDER BY seq", (after,))
    dice = conn.execute(f"SELECT command, idx, sides, faces, purpose FROM dice WHERE {past.format('command')}"
                        " ORDER BY command, idx", (after,))
    events = conn.execute(f"SELECT command, idx, kind, data FROM events WHERE {past.format('command')}"
                          " ORDER BY command, idx", (after,))
    next_die = next(dice, None)
    next_event = next(events, None)
    prev: bytes | None = prev_digest
    for seq, text, parsed, undoes, saved in commands:
        own_dice: list[tuple[Any, ...]] = []
        own_events: list[tuple[Any, ...]] = []
        orphan = False
        while next_die is not None and not _after(next_die[0], seq):
            orphan = orphan or next_die[0] != seq
            own_dice.append(next_die[1:])
            next_die = next(dice, None)
        while next_event is not None and not _after(next_event[0], seq):
            orphan = orphan or next_event[0] != seq
            own_events.append(next_event[1:])
            next_event = next(events, None)
        digest = None if prev is None or orphan else command_digest(
            prev, seq, text, parsed, undoes, own_dice, own_events)
        yield int(seq) if isinstance(seq, int) else -1, digest, saved if isinstance(saved, bytes) else None
        prev = digest
    for row in (next_die, next_event):
        if row is not None:  # rows after the last command: as if a command had been cut off
            yield row[0] if isinstance(row[0], int) else -1, None, b""


def _after(command: object, seq: int) -> bool:
    """Whether a dice/event row's ``command`` sorts after ``seq`` (SQLite orders mixed types)."""
    return (isinstance(command, int) and command > seq) or isinstance(command, (str, bytes))


def first_edit(conn: sqlite3.Connection, since: tuple[int, bytes] = (0, GENESIS)) -> str | None:
    """Where the save was first changed outside Wyrd ("command 8", "the snapshot of command
    200"), or None: the chain after ``since`` (default: the whole chain) and the latest valid
    snapshot, checked in one pass."""
    for seq, computed, stored in chain(conn, since=since):
        if computed is None or computed != stored:
            return f"command {seq}"
    row = conn.execute(
        "SELECT s.seq, s.state, s.extra, s.digest, c.digest FROM snapshots s LEFT JOIN commands c ON"
        " c.seq = s.seq WHERE s.invalidated_by IS NULL ORDER BY s.seq DESC, s.id DESC LIMIT 1").fetchone()
    if row is not None:
        seq, state, extra, stored, at = row
        at = GENESIS if seq == 0 else at
        if not isinstance(at, bytes) or snapshot_digest(at, state, extra) != stored:
            return f"the snapshot of command {seq}"
    return None


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Give a schema-1 save its digests and make it ``version`` (in the caller's write transaction)."""
    digests: dict[int, bytes] = {0: GENESIS}
    for seq, computed, _ in chain(conn, stored=False):
        if computed is None:
            raise ValueError(f"command {seq} cannot be read")
        digests[seq] = computed
    for statement in _MIGRATE_1:
        conn.execute(statement)
    conn.executemany("UPDATE commands SET digest = ? WHERE seq = ?", [(d, s) for s, d in digests.items() if s])
    snaps = conn.execute("SELECT id, seq, state, extra FROM snapshots").fetchall()
    conn.executemany("UPDATE snapshots SET digest = ? WHERE id = ?",
                     [(snapshot_digest(digests.get(seq, b""), state, extra), sid) for sid, seq, state, extra in snaps])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (json.dumps(version),))
    conn.execute(f"PRAGMA user_version = {int(version)}")
