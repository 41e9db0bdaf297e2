"""The Wyrd Abacus story format behind the common protocol (``Ruleset.stories`` names this module).

Abacus story files sit at the top of a story folder (``ID.yaml`` or ``ID/story.yaml``);
the schema, loader and linter beside this module do the work.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wyrd.stories.abacus.lint import check_file, lint
from wyrd.stories.abacus.loader import RULESET, info, load_story
from wyrd.stories.abacus.schema import Story, json_schema
from wyrd.stories.formats import StoryFormat, StoryInfo
from wyrd.stories.problems import Problem, StoryError, errors

__all__ = ["FORMAT", "AbacusFormat"]


class AbacusFormat(StoryFormat[Story]):
    """Wyrd Abacus stories: scenes, denizens, stage rules, clocks, twists and postscripts."""

    ruleset = RULESET
    folder = ""

    def load(self, path: str | Path) -> Story:
        # As every format's: a story that can be played as written (the linter's errors too), or StoryError.
        story = load_story(path)
        found = errors(lint(story))
        if found:
            raise StoryError(found)
        return story

    def lint(self, path: str | Path) -> list[Problem]:
        return check_file(path)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def info(self, path: Path, folder: Path) -> StoryInfo | None:
        return info(path, folder)


FORMAT = AbacusFormat()
