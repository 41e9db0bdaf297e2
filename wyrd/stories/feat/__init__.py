"""The Heroes of the Fall story format: scenarios (:mod:`~wyrd.stories.feat.scenario`) and the
ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.feat.format`).

The scenario module's names are offered here too, as play has always found them.
"""

from wyrd.stories.feat import scenario as _scenario
from wyrd.stories.feat.scenario import *  # noqa: F403  (the scenario module's public names, listed once there)

__all__ = list(_scenario.__all__)
