"""What a save file hands back (its commands, rolls, events and snapshots) and the errors it raises.

Kept apart from :mod:`~wyrd.play.engine.savefile`, which re-exports them, so that code reading a
record or catching a refusal need not know how the file is written.
"""

from dataclasses import dataclass
from typing import Any, NamedTuple

__all__ = ["CorruptSave", "EditedSave", "Event", "ForeignSave", "NewerSave", "NotASave", "ReadOnlySave", "Record",
           "Roll", "SaveError", "SaveExists", "SaveLocked", "SaveWriteError", "Snapshot"]


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


class EditedSave(CorruptSave):
    """One of our saves whose recorded digests no longer match: changed outside Wyrd."""


class SaveLocked(SaveError):
    """Another session holds the save (it is being played); the message names the holder."""


class ReadOnlySave(SaveError):
    """The save (or its folder) cannot be written: it can be read, not played on."""


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
    # the JSON text ``state`` was read from (None: not read from text)
    state_text: str | None = None
