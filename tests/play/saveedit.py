"""Editing a save by hand in the tests, as the digests of schema 2 would let Wyrd do.

Tests of what replay makes of a strange save edit it directly; :func:`reseal` then writes the
digests again, so the edit reaches the replay instead of being refused as a hand edit.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

from wyrd.play.engine.savedigest import GENESIS, chain, snapshot_digest

__all__ = ["SMALL_GAME", "reseal"]

# The small game the save tests play (tests/play/conftest.py's ``game``): a snapshot falls every four commands.
SMALL_GAME = ["pc add Ada body=5 mind=5 soul=5", "scene with Ada", 'challenge add "Gate" obstruction 1',
              "attempt gate by Ada", "roll", "wyrd", "end scene", "scene with Ada", "end scene"]


def reseal(path: Path) -> None:
    """Recompute every command's and snapshot's digest of the save at ``path``."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        digests = {0: GENESIS}
        for seq, computed, _ in list(chain(conn)):
            assert computed is not None
            digests[seq] = computed
        conn.executemany("UPDATE commands SET digest = ? WHERE seq = ?", [(d, s) for s, d in digests.items() if s])
        snaps = conn.execute("SELECT id, seq, state, extra FROM snapshots").fetchall()
        conn.executemany("UPDATE snapshots SET digest = ? WHERE id = ?",
                         [(snapshot_digest(digests[seq], state, extra), i) for i, seq, state, extra in snaps])
        conn.execute("COMMIT")
