"""``wyrd check``: lint story files of any ruleset, each with its own ruleset's format.

A file's format is chosen as :mod:`wyrd.stories.formats` says (its ``ruleset:``, else
its folder, else the default ruleset); a folder is checked file by file, every
``*.yaml`` and ``*.yml`` below it. The folder may be anyone's: only its regular files
are read (:mod:`wyrd.stories.files`); a symlink that leaves it, loops, or leads to a
FIFO or a device is reported as refused and never read, so nothing of what it points
at is shown.
"""

from __future__ import annotations

from pathlib import Path

from wyrd.rulesets import UnknownRuleset
from wyrd.stories.files import MAX_DEPTH, list_yaml, regular_file
from wyrd.stories.formats import NoStoryFormat, format_for, ruleset_of
from wyrd.stories.loader import read_yaml
from wyrd.stories.problems import Origin, Problem, StoryError

__all__ = ["check_file", "check_targets", "files_below"]


def _refused(path: Path, why: str) -> Problem:
    return Problem(str(path), None, None, "", f"refused, not read: {why}")


def files_below(folder: Path) -> list[Path]:
    """Every YAML file in ``folder`` and its sub-folders that may be read, sorted."""
    return list_yaml(folder, depth=MAX_DEPTH).files


def check_targets(paths: list[Path]) -> tuple[list[Path], list[Problem]]:
    """The files to check for the paths named (folders searched), and the problems of those refused unread.

    A file named alone is read only if it is a regular file whose real place is in its own folder
    (a symlink out of the folder it is named in is refused, as it is inside a checked folder).
    """
    files: list[Path] = []
    refused: list[Problem] = []
    for path in paths:
        if path.is_dir():
            listing = list_yaml(path, depth=MAX_DEPTH)
            files += listing.files
            refused += [_refused(p, why) for p, why in listing.refused]
        else:
            why = regular_file(path, path.parent)
            if why is None:
                files.append(path)
            else:
                refused.append(_refused(path, why))
    return files, refused


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
