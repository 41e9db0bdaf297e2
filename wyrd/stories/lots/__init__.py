"""The Thaeborn story format: scenarios (:mod:`~wyrd.stories.lots.scenario`) and the
ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.lots.format`).

The scenario module's names are offered here too, as play has always found them.
"""

from wyrd.stories.lots import scenario as _scenario
from wyrd.stories.lots.scenario import *  # noqa: F403  (the scenario module's public names, listed once there)

__all__ = list(_scenario.__all__)
