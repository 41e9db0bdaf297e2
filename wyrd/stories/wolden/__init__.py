"""The Wolden story format: scenarios and cult files (:mod:`~wyrd.stories.wolden.scenario`),
and the ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.wolden.format`).

The scenario module's names are offered here too, as play has always found them.
"""

from wyrd.stories.wolden import scenario as _scenario
from wyrd.stories.wolden.scenario import *  # noqa: F403  (the scenario module's public names, listed once there)

__all__ = list(_scenario.__all__)
