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

__all__ = ["GENESIS", "chain", "command_digest", "snapshot_digest"]

GENESIS = bytes(32)  # the chain digest "at command 0", before any command


def command_digest(prev: bytes, seq: object, text: object, parsed: object, undoes: object,
                   dice: Sequence[Sequence[Any]], events: Sequence[Sequence[Any]]) -> bytes | None:
    """The chain digest after one command, from its stored values (None: values no save holds)."""
    try:
        payload = json.dumps([seq, text, parsed, undoes, [list(d) for d in dice], [list(e) for e in events]],
                             separators=(",", ":"), ensure_ascii=False).encode("utf-8", "surrogatepass")
    except (TypeError, ValueError):  # a blob or a float NaN where text or a number belongs
        return None
    return hashlib.sha256(prev + payload).digest()


def snapshot_digest(at: bytes, state: object, extra: object) -> bytes | None:
    """A snapshot's digest: the chain digest at its seq, its state blob and its extra text."""
    if not isinstance(state, bytes) or not isinstance(extra, str):
        return None
    return hashlib.sha256(at + state + extra.encode("utf-8", "surrogatepass")).digest()


def chain(conn: sqlite3.Connection, *, stored: bool = True
          ) -> Iterator[tuple[int, bytes | None, bytes | None]]:
    """Each command's (seq, digest computed from its rows, digest stored) in order.

    The three tables are read as three ordered range scans merged here, so a long save costs
    one pass. A dice or event row of a command that does not exist is reported as a broken
    digest at that command's number. With ``stored=False`` (a schema-1 save) the stored digest
    is None. The caller holds one read transaction around the whole walk.
    """
    digest_column = "digest" if stored else "NULL"
    commands = conn.execute(f"SELECT seq, text, parsed, undoes, {digest_column} FROM commands ORDER BY seq")
    dice = conn.execute("SELECT command, idx, sides, faces, purpose FROM dice ORDER BY command, idx")
    events = conn.execute("SELECT command, idx, kind, data FROM events ORDER BY command, idx")
    next_die = dice.fetchone()
    next_event = events.fetchone()
    prev: bytes | None = GENESIS
    for seq, text, parsed, undoes, saved in commands:
        own_dice: list[tuple[Any, ...]] = []
        own_events: list[tuple[Any, ...]] = []
        orphan = False
        while next_die is not None and not _after(next_die[0], seq):
            orphan = orphan or next_die[0] != seq
            own_dice.append(next_die[1:])
            next_die = dice.fetchone()
        while next_event is not None and not _after(next_event[0], seq):
            orphan = orphan or next_event[0] != seq
            own_events.append(next_event[1:])
            next_event = events.fetchone()
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
