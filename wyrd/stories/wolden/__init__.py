"""The Wolden story format: the pieces of a scenario (:mod:`~wyrd.stories.wolden.specs`), the
scenario that holds them (:mod:`~wyrd.stories.wolden.scenario`), finding and reading scenario and
cult files (:mod:`~wyrd.stories.wolden.loader`), where play stands in a scenario
(:mod:`~wyrd.stories.wolden.progress`), and the ruleset's :class:`~wyrd.stories.formats.StoryFormat`
(:mod:`~wyrd.stories.wolden.format`).

The public names of the first four are offered here too, as play has always found them.
"""

from wyrd.stories.wolden import loader as _loader
from wyrd.stories.wolden import progress as _progress
from wyrd.stories.wolden import scenario as _scenario
from wyrd.stories.wolden import specs as _specs
from wyrd.stories.wolden.loader import *  # noqa: F403  (each module's public names, listed once there)
from wyrd.stories.wolden.progress import *  # noqa: F403
from wyrd.stories.wolden.scenario import *  # noqa: F403
from wyrd.stories.wolden.specs import *  # noqa: F403

__all__ = sorted([*_specs.__all__, *_scenario.__all__, *_loader.__all__, *_progress.__all__])
