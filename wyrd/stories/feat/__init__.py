"""The Heroes of the Fall story format: scenarios (:mod:`~wyrd.stories.feat.scenario`) and the
ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.feat.format`).

The scenario module's names are offered here too, as play has always found them.
"""

from wyrd.stories.feat.scenario import (
    BUNDLED_FEAT,
    FOLDER,
    LINTING,
    MAX_BYTES,
    FeatCharacterSpec,
    FeatProgress,
    FeatScene,
    FeatStory,
    FeatStoryError,
    feat_story_files,
    find_feat_story,
    list_feat_stories,
    load_feat_story,
    parse_skill,
    story_from,
)

__all__ = [
    "BUNDLED_FEAT",
    "FOLDER",
    "LINTING",
    "MAX_BYTES",
    "FeatCharacterSpec",
    "FeatProgress",
    "FeatScene",
    "FeatStory",
    "FeatStoryError",
    "feat_story_files",
    "find_feat_story",
    "list_feat_stories",
    "load_feat_story",
    "parse_skill",
    "story_from",
]
