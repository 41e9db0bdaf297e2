"""Reading and finding Heroes of the Fall scenario files.

A file is read within a size limit, parsed as guarded YAML and checked as a
:class:`~wyrd.stories.feat.scenario.FeatStory`. A problem is a :class:`FeatStoryError`
naming the file and the field.

Bundled scenarios live in ``stories/content/feat/``; a player's own go in a
``feat`` folder beside their Abacus stories (``--content DIR`` reads ``DIR/feat``).
A scenario is found by its file name, and the earliest folder wins.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from wyrd.stories.feat.scenario import FeatStory
from wyrd.stories.files import FileRefused, read_bytes, yaml_files
from wyrd.stories.modelkept import validated
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "BUNDLED_FEAT",
    "FOLDER",
    "MAX_BYTES",
    "FeatStoryError",
    "feat_story_files",
    "find_feat_story",
    "list_feat_stories",
    "load_feat_story",
    "story_from",
]

FOLDER = "feat"
"""The sub-folder of a story folder that holds Heroes of the Fall scenarios."""
BUNDLED_FEAT = Path(__file__).resolve().parents[1] / "content" / FOLDER
MAX_BYTES = 256 * 1024


class FeatStoryError(ValueError):
    """A scenario that cannot be used; the message names the file and what is wrong."""


def _problems(exc: ValidationError) -> str:
    """What pydantic found wrong, each as ``field: message``, joined by semicolons."""
    lines: list[str] = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"])
        message = str(error["msg"]).removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "; ".join(lines)


def load_feat_story(path: str | Path) -> FeatStory:
    """Read and check one scenario file.

    Raises:
        FeatStoryError: If it cannot be read, is too big, is not YAML, or breaks the format.
    """
    file = Path(path)
    try:
        raw = read_bytes(file, MAX_BYTES)
    except FileRefused as exc:
        raise FeatStoryError(f"{file}: {exc.reason}") from None
    except OSError as exc:
        raise FeatStoryError(f"{file}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = safe_load(raw.decode("utf-8"), source=file)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise FeatStoryError(f"{file}: not readable YAML ({' '.join(str(exc).split())})") from None
    return story_from(data, str(file))


def story_from(data: Any, where: str = "story") -> FeatStory:
    """A scenario from plain data (a parsed file, or saved arguments)."""
    if not isinstance(data, Mapping):
        raise FeatStoryError(f"{where}: a scenario is one mapping (id: ..., title: ..., ...)")
    try:
        return validated(FeatStory, data)
    except ValidationError as exc:
        raise FeatStoryError(f"{where}: {_problems(exc)}") from None


def feat_story_files(dirs: Iterable[Path]) -> list[Path]:
    """Scenario files: ``*.yaml`` in each folder's ``feat`` subfolder, then the bundled ones."""
    found: list[Path] = []
    for folder in [*(Path(d) / FOLDER for d in dirs), BUNDLED_FEAT]:
        if folder.is_dir():
            found += yaml_files(folder)
    return found


def list_feat_stories(dirs: Iterable[Path]) -> list[str]:
    """The ids of the scenarios found (by file name), each once, earliest folder first."""
    seen: list[str] = []
    for path in feat_story_files(dirs):
        if path.stem not in seen:
            seen.append(path.stem)
    return seen


def find_feat_story(ident: str, dirs: Iterable[Path]) -> FeatStory:
    """The scenario called ``ident`` (its file name); the earliest folder wins.

    Raises:
        FeatStoryError: If there is none, or it does not load.
    """
    folders = list(dirs)
    for path in feat_story_files(folders):
        if path.stem == ident:
            story = load_feat_story(path)
            if story.id != ident:
                raise FeatStoryError(f"{path}: its id is {story.id!r}; a scenario's id is its file name")
            return story
    known = ", ".join(list_feat_stories(folders)) or "none"
    raise FeatStoryError(f"there is no Heroes of the Fall story {ident!r} (known: {known})")
