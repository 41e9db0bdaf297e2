"""Stories made ready for simulation, kept per process: :func:`prepared`.

Reading and validating a story file costs more than a thousand plain runs' worth of a
millisecond, and preparing it more again; a process that simulates the same story
several times (a bench's best of three, a script trying policies) pays that once.
An entry is keyed on the file's resolved path *and its exact bytes*, so a file changed
on disk is read again: the cache is never stale. A story given as an object, or found
only by reading every story file, is not kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from wyrd.sim.abacus.engine import Kit, prepare
from wyrd.sim.abacus.fast import Layout, layout
from wyrd.stories.abacus.loader import find_story, load_story, named_files
from wyrd.stories.abacus.schema import Story
from wyrd.stories.loader import BUNDLED

__all__ = ["Prepared", "prepared"]

KEPT = 8  # story files kept at once (a process rarely simulates more than a few)


@dataclass
class Prepared:
    """One story file as read, with its kits (by party size) and their plain layouts."""

    story: Story
    kits: dict[int | None, Kit] = field(default_factory=dict)
    layouts: dict[int | None, Layout | None] = field(default_factory=dict)

    def kit(self, players: int | None) -> Kit:
        kit = self.kits.get(players)
        if kit is None:
            kit = self.kits[players] = prepare(self.story, players)
        return kit

    def layout(self, players: int | None) -> Layout | None:
        if players not in self.layouts:
            self.layouts[players] = layout(self.kit(players))
        return self.layouts[players]


_KEPT: dict[tuple[Path, bytes], Prepared] = {}


def prepared(ident: str, dirs: Sequence[str | Path] | None = None) -> Prepared:
    """The story ``ident`` from ``dirs`` (the bundled stories by default), as :func:`find_story` finds it.

    Raises:
        StoryError: If it can't be found or doesn't load.
    """
    folders = list(dirs) if dirs is not None else [BUNDLED]
    for path in named_files(ident, folders):
        where = path.resolve()
        try:
            data = where.read_bytes()
        except OSError:  # gone since it was found: let the loader say so
            break
        entry = _KEPT.get((where, data))
        if entry is None:
            story = load_story(path)
            if where.read_bytes() != data:  # changed while it was read: don't keep what may be neither
                return Prepared(story)
            if len(_KEPT) >= KEPT:
                _KEPT.pop(next(iter(_KEPT)))
            entry = _KEPT[where, data] = Prepared(story)
        if entry.story.id == ident:
            return entry
    return Prepared(find_story(ident, folders))
