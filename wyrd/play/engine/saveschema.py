"""The save file's tables, indexes and the queries that must use them: SQL text, no I/O of its own.

:mod:`~wyrd.play.engine.savefile` creates a save from :data:`TABLES` and :data:`INDEXES`, reads the
latest live command and the live rows by the indexes (issue 21, point 3: undo and resume do not read
the whole game), and checks the log's own invariants with :data:`CHECKS`.
"""

from __future__ import annotations

import sqlite3

__all__ = ["CHECKS", "INDEXES", "LATEST_LIVE", "LIVE_ROWS", "MAY_TAKE_AGAIN", "SCHEMA_VERSION", "TABLES", "indexed",
           "latest_live"]

SCHEMA_VERSION = 2
TABLES = (
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
MAY_TAKE_AGAIN = "instr(parsed, '\"again\"') > 0"
# Indexes that keep undo and resume from reading the whole game (issue 21, point 3): the live
# commands by number (the latest one, what undo takes back, is found without reading the undone
# ones and undo records after it) and the undone ones (what Rolled reads on resume, and where
# event numbers may have gone back in saves made before they never did). None reads the JSON,
# so a row edited outside Wyrd into bad JSON is still written, and then refused by its digest.
# Not part of what a save holds: a save made before them gains them when a session claims it,
# and reads the same without them.
INDEXES = (
    "CREATE INDEX IF NOT EXISTS live ON commands(seq) WHERE status = 'live' AND undoes IS NULL",
    "CREATE INDEX IF NOT EXISTS undone ON commands(seq) WHERE status = 'undone'",
    # The commands that may say they took an undone command's faces again (``again``): a text
    # search, as an index that decoded the JSON would refuse to write a row edited into bad JSON.
    f"CREATE INDEX IF NOT EXISTS again ON commands(seq) WHERE {MAY_TAKE_AGAIN}",
    # The snapshots still valid, newest first: the one a resume starts from, without reading the rest.
    "CREATE INDEX IF NOT EXISTS valid ON snapshots(seq, id) WHERE invalidated_by IS NULL",
)
LATEST_LIVE = ("SELECT seq FROM commands{} WHERE status = 'live' AND undoes IS NULL"
                " ORDER BY seq DESC LIMIT 1 OFFSET ?")


def indexed(conn: sqlite3.Connection, name: str = "live") -> bool:
    """Whether the save has the index ``name`` (one of :data:`INDEXES`)."""
    return conn.execute("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", (name,)).fetchone() is not None


def latest_live(conn: sqlite3.Connection, back: int = 0) -> int | None:
    """The seq of the latest live command, or of the one ``back`` live commands before it (None: none),
    by the index where the save has it (SQLite's planner would rather walk the undoes column's index,
    which holds every undone command)."""
    row = conn.execute(LATEST_LIVE.format(" INDEXED BY live" if indexed(conn) else ""), (back,)).fetchone()
    return None if row is None else int(row[0])


# The live commands after a seq and their rows, read through the index: what is undone after
# them is never read (the commands first, each one's dice and events by its key).
LIVE_ROWS = (
    "SELECT seq, text, parsed, status, undone_by, undoes, created_at FROM commands INDEXED BY live"
    " WHERE seq > ? AND status = 'live' AND undoes IS NULL ORDER BY seq",
    "SELECT d.command, d.sides, d.faces, d.purpose FROM commands c INDEXED BY live CROSS JOIN dice d"
    " ON d.command = c.seq WHERE c.seq > ? AND c.status = 'live' AND c.undoes IS NULL ORDER BY c.seq, d.idx",
    "SELECT e.command, e.data FROM commands c INDEXED BY live CROSS JOIN events e"
    " ON e.command = c.seq WHERE c.seq > ? AND c.status = 'live' AND c.undoes IS NULL ORDER BY c.seq, e.idx",
)

# The log's own invariants for integrity_check: each query returns the rows that break one.
CHECKS = (
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
