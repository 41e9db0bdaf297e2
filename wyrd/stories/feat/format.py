"""The Heroes of the Fall story format behind the common protocol (``Ruleset.stories`` names this module).

Scenarios sit in the ``feat`` folder of a story folder; their shape and what holds them
together are :class:`~wyrd.stories.feat.scenario.FeatStory`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from wyrd.stories.feat.loader import FOLDER
from wyrd.stories.feat.scenario import FeatStory
from wyrd.stories.formats import StoryInfo
from wyrd.stories.modelformat import ModelFormat
from wyrd.stories.problems import Steps

__all__ = ["FORMAT", "FeatFormat"]


class FeatFormat(ModelFormat[FeatStory]):
    """Heroes of the Fall scenarios: a cast, others who enter, scenes and an ending."""

    ruleset = "feat"
    folder = FOLDER
    model = FeatStory
    what = "a Heroes of the Fall scenario"

    def faults(self, found: FeatStory) -> Iterable[tuple[Steps, str]]:
        return found.faults()

    def entry(self, found: FeatStory, path: Path, folder: Path) -> StoryInfo:
        return StoryInfo(id=found.id, title=found.title, path=path, folder=folder, ruleset=self.ruleset,
                         premise=found.premise)


FORMAT = FeatFormat()
