"""The Thaeborn story format behind the common protocol (``Ruleset.stories`` names this module).

Scenarios sit in the ``lots`` folder of a story folder; their shape and what holds them
together are :class:`~wyrd.stories.lots.scenario.Scenario`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from wyrd.stories.formats import StoryInfo
from wyrd.stories.lots.scenario import FOLDER, Scenario
from wyrd.stories.modelformat import ModelFormat
from wyrd.stories.problems import Steps

__all__ = ["FORMAT", "LotsFormat"]


class LotsFormat(ModelFormat[Scenario]):
    """Thaeborn scenarios: pregens, NPCs (who never roll), scenes and an ending."""

    ruleset = "lots"
    folder = FOLDER
    model = Scenario
    what = "a Thaeborn scenario"

    def faults(self, found: Scenario) -> Iterable[tuple[Steps, str]]:
        return found.faults()

    def entry(self, found: Scenario, path: Path, folder: Path) -> StoryInfo:
        return StoryInfo(id=found.id, title=found.title, path=path, folder=folder, ruleset=self.ruleset,
                         premise=found.premise)


FORMAT = LotsFormat()
