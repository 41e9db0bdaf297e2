"""The Heroes of the Fall story format: scenarios (:mod:`~wyrd.stories.feat.scenario`), reading and
finding them (:mod:`~wyrd.stories.feat.loader`), following play through one
(:mod:`~wyrd.stories.feat.progress`), and the ruleset's :class:`~wyrd.stories.formats.StoryFormat`
(:mod:`~wyrd.stories.feat.format`).

The public names of the first three are offered here too, as play has always found them.
"""

from wyrd.stories.feat import loader as _loader
from wyrd.stories.feat import progress as _progress
from wyrd.stories.feat import scenario as _scenario
from wyrd.stories.feat.loader import *  # noqa: F403  (each module's public names, listed once there)
from wyrd.stories.feat.progress import *  # noqa: F403
from wyrd.stories.feat.scenario import *  # noqa: F403

__all__ = sorted([*_scenario.__all__, *_loader.__all__, *_progress.__all__])
