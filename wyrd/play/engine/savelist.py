"""What ``wyrd saves`` shows of each game: its story, ruleset, when it was last played and how far.

A listing only reads: each save is opened read-only, asked four small questions, and closed. It
does not check the save's digests (resuming does): what it shows is for choosing a game, and a
save it cannot read is listed as damaged rather than left out, so the player still sees the file.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

__all__ = ["SaveSummary", "summarize"]


class SaveSummary(NamedTuple):
    """One game as the listing shows it (``damaged``: the save could not be read)."""

    path: Path
    story: str | None
    ruleset: str
    last_played: str
    commands: int
    damaged: bool = False


def summarize(path: Path) -> SaveSummary:
    """The summary of the save at ``path``: a few read-only queries, never a write."""
    try:
        # With no write-ahead log beside it the file is the whole game and nobody is writing it:
        # read it as immutable, which leaves no -wal or -shm behind (a plain read-only reader would).
        wal = path.with_name(path.name + "-wal")
        uri = path.resolve().as_uri() + ("?mode=ro" if wal.exists() else "?mode=ro&immutable=1")
        with closing(sqlite3.connect(uri, uri=True, timeout=1.0)) as conn:
            meta = {key: json.loads(value) for key, value in conn.execute("SELECT key, value FROM meta")}
            # A game's own commands: not the start record, not undone ones, not undo records.
            (count,) = conn.execute("SELECT count(*) FROM commands WHERE status = 'live' AND undoes IS NULL"
                                    " AND json_extract(parsed, '$.verb') != 'start'").fetchone()
            (last,) = conn.execute("SELECT max(created_at) FROM commands").fetchone()
    except (sqlite3.Error, ValueError, TypeError, OSError):
        return SaveSummary(path, None, "", "", 0, damaged=True)
    story = meta.get("story")
    return SaveSummary(path, str(story) if story else None, str(meta.get("ruleset", "")), str(last or ""),
                       int(count))
