"""``wyrd check``: lint story files of any ruleset, each with its own ruleset's format.

A file's format is chosen as :mod:`wyrd.stories.formats` says (its ``ruleset:``, else
its folder, else the default ruleset); a folder is checked file by file, every
``*.yaml`` and ``*.yml`` below it.
"""

from __future__ import annotations

from pathlib import Path

from wyrd.rulesets import UnknownRuleset
from wyrd.stories.formats import NoStoryFormat, format_for, ruleset_of
from wyrd.stories.loader import read_yaml
from wyrd.stories.problems import Origin, Problem, StoryError

__all__ = ["check_file", "files_below"]


def files_below(folder: Path) -> list[Path]:
    """Every YAML file in ``folder`` and its sub-folders, sorted."""
    return sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def check_file(path: str | Path) -> list[Problem]:
    """Every problem in one story file, by its ruleset's format (the reader's problems if it does not read)."""
    try:
        data, positions = read_yaml(path)
    except StoryError as exc:
        return list(exc.problems)
    try:
        found = format_for(ruleset_of(Path(path), data))
    except (UnknownRuleset, NoStoryFormat) as exc:
        return [Origin(str(path), positions).problem(("ruleset",), str(exc.args[0]))]
    return found.lint(path)
