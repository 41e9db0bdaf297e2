"""Dice once rolled stay rolled: the faces of undone commands, kept for the same command typed again.

``undo`` takes a command back, but not its dice: typed again, the same command (the same verb
with the same canonical arguments) gets the faces it rolled the first time, so an undo is never
a free re-roll. It holds for seeded and typed dice alike: with typed dice the player is not asked
again for faces already given. A command that needs more dice than the undone one rolled gets
the rest from the session's own source; one whose faces no longer fit (a die of another kind
now) rolls afresh.

What is kept is rebuilt from the save (its undone commands, and the ``again`` mark a command
that took faces back carries in its saved arguments), so a quit and a resume keep it too.
Undone twice, the same command's faces come back latest first.
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from wyrd.play.engine.savefile import Record, SaveFile

__all__ = ["Earlier", "Rolled", "command_key"]


def command_key(verb: str, args: Mapping[str, Any]) -> str:
    """What makes two commands "the same": the verb's key and the canonical arguments, as JSON.

    A kit's ``edition`` (which reading of its rules a command was played under) is left out: a
    command saved before an edition and the same command typed now are the same command.
    """
    words = {k: v for k, v in args.items() if k != "edition"}
    return json.dumps({"verb": verb, "args": words}, sort_keys=True, separators=(",", ":"), default=str)


class Earlier(NamedTuple):
    """The faces an undone command rolled, in the order it used them, and its number."""

    seq: int
    faces: tuple[int, ...]


class Rolled:
    """The faces of undone commands not yet taken again, by command."""

    def __init__(self) -> None:
        self._kept: dict[str, list[Earlier]] = {}

    @classmethod
    def from_save(cls, save: SaveFile | None) -> Rolled:
        """What the save's undone commands rolled, less what later commands took back."""
        rolled = cls()
        if save is None:
            return rolled
        undone, taken = save.rolled_back()
        for record in undone:
            if record.seq not in taken:
                rolled.keep(record)
        return rolled

    def keep(self, record: Record) -> None:
        """Keep an undone command's faces for the same command typed again."""
        faces = tuple(record.faces)
        if faces and record.undoes is None:
            key = command_key(str(record.parsed.get("verb")), record.parsed.get("args", {}))
            # In the order of the commands, as a resume reads them: an undo keeps its command's
            # faces here too, and one undone later may be an earlier command.
            insort(self._kept.setdefault(key, []), Earlier(record.seq, faces), key=lambda e: e.seq)

    def find(self, verb: str, args: Mapping[str, Any]) -> Earlier | None:
        """The faces the same command rolled before it was undone, latest first (None: none kept)."""
        if not self._kept:
            return None  # most games: no key to make (a story's arguments hold the whole story)
        kept = self._kept.get(command_key(verb, args))
        return kept[-1] if kept else None

    def taken(self, earlier: Earlier) -> None:
        """``earlier`` was used by a saved command: it is not offered again."""
        for key, kept in self._kept.items():
            if earlier in kept:
                kept.remove(earlier)
                if not kept:
                    del self._kept[key]
                return
