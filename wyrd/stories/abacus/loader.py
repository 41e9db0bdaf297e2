"""Reading Wyrd Abacus story files: YAML in, a validated :class:`~wyrd.stories.abacus.schema.Story` out.

The YAML is read by :mod:`wyrd.stories.loader` (limits, positions), so every error
names the file, the line and the field. :func:`find_story` finds a story by id in
the story folders; :func:`discover` lists them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from pydantic import ValidationError

from wyrd.stories.abacus.schema import Story
from wyrd.stories.files import regular_file
from wyrd.stories.formats import StoryInfo, story_files
from wyrd.stories.loader import read_mapping, validation_problems
from wyrd.stories.modelkept import validated
from wyrd.stories.problems import Origin, Problem, StoryError

__all__ = ["RULESET", "discover", "find_story", "info", "load_story", "named_files"]

RULESET = "abacus"


def load_story(path: str | Path) -> Story:
    """Read and validate one story file (StoryError naming file, line and field if unfit)."""
    name = str(path)
    data, positions = read_mapping(path)
    try:
        story = validated(Story, data)
    except ValidationError as exc:
        raise StoryError(validation_problems(name, exc, data, positions)) from None
    story.set_origin(Origin(name, positions))
    return story


# -- finding stories -----------------------------------------------------------------


def info(path: Path, folder: Path) -> StoryInfo:
    """The story in ``path`` as a listed story (under its file name, with its problems, if it does not load)."""
    try:
        story = load_story(path)
    except StoryError as exc:
        return StoryInfo(id=path.stem if path.stem != "story" else path.parent.name, title="", path=path,
                         folder=folder, ruleset=RULESET, problems=tuple(exc.problems))
    return StoryInfo(id=story.id, title=story.title, path=path, folder=folder, ruleset=RULESET,
                     premise=story.premise, freeform=story.freeform, players=(story.players.min, story.players.max))


def discover(dirs: Iterable[str | Path]) -> list[StoryInfo]:
    """Every Wyrd Abacus story in ``dirs`` (in that order; folders that do not exist are skipped).

    A file that does not load is listed with its problems, under its file name.
    """
    return [info(path, Path(folder)) for folder in dirs for path in story_files(folder)]


def named_files(ident: str, dirs: Iterable[str | Path]) -> Iterator[Path]:
    """The files named after ``ident`` in ``dirs`` that can be read, in the order :func:`find_story` tries them."""
    if "/" in ident or ident in (".", ".."):
        return
    for folder in map(Path, dirs):
        for name in (f"{ident}.yaml", f"{ident}.yml", f"{ident}/story.yaml", f"{ident}/story.yml"):
            candidate = folder / name
            if regular_file(candidate, folder) is None:
                yield candidate


def find_story(ident: str, dirs: Iterable[str | Path]) -> Story:
    """The story with id ``ident``; where several folders have one, the earliest folder wins.

    A file named after its id (``ID.yaml``, ``ID/story.yaml``) is read alone, so
    starting a game parses one story, not all of them; others are found by reading
    every story file.
    """
    folders = [Path(d) for d in dirs]
    for candidate in named_files(ident, folders):
        story = load_story(candidate)
        if story.id == ident:
            return story
    infos = discover(folders)
    for found in infos:
        if found.id == ident:
            if not found.ok:
                raise StoryError(found.problems)
            return load_story(found.path)
    known = ", ".join(sorted({i.id for i in infos if i.ok})) or "none"
    raise StoryError([Problem(None, None, None, "", f"there is no story {ident!r} (known: {known})")])
