"""The game as it stood before each of the latest live commands, kept in memory for undo.

An undo must give the game the save would give after the command is taken back. Rebuilding it
from the latest snapshot replays up to :data:`~wyrd.play.engine.history.SNAPSHOT_EVERY` commands,
and a player who holds down undo would pay that for every command taken back (issue 21, point 3).
So while a rebuild replays, it notes the game before each command it replays (the rules state,
which the rules never change in place, the follower as its snapshot, the deck); an undo of a
noted command takes the note back and replays nothing. A rebuild that follows a note replays
from it, not from the save's snapshot.

Notes are only ever a copy of what replay gives: they are dropped whenever the game in memory is
read again from the save, and at most :data:`KEPT` are kept (memory stays flat however long the
game), the oldest going first.
"""

from typing import Any, NamedTuple

__all__ = ["KEPT", "Before", "Recent"]

KEPT = 200


class Before(NamedTuple):
    """The game before live command ``seq``: its rules ``state``, ``follower`` (its snapshot, None:
    the kit follows no story), the teller's ``deck`` (a copy), and ``unsnapped`` (how many live
    commands before ``seq`` came after the latest snapshot)."""

    seq: int
    state: Any
    follower: dict[str, Any] | None
    deck: dict[str, list[str]]
    unsnapped: int


class Recent:
    """Notes of the game before each of the latest live commands, oldest first (at most :data:`KEPT`)."""

    def __init__(self) -> None:
        self._notes: list[Before] = []

    def __len__(self) -> int:
        return len(self._notes)

    def clear(self) -> None:
        self._notes.clear()

    def note(self, before: Before) -> None:
        """Note the game before a live command later than every one noted."""
        self._notes.append(before)
        if len(self._notes) > KEPT:
            del self._notes[: len(self._notes) - KEPT]

    def latest_before(self, seq: int) -> Before | None:
        """The latest note of a command at or before ``seq`` (the notes after it are dropped: they
        are of commands taken back), or None: none is kept."""
        while self._notes and self._notes[-1].seq > seq:
            self._notes.pop()
        return self._notes[-1] if self._notes else None

    def take(self, seq: int) -> Before | None:
        """The note of command ``seq``, dropped with every later one, or None if it is not kept."""
        note = self.latest_before(seq)
        if note is None or note.seq != seq:
            return None
        self._notes.pop()
        return note
