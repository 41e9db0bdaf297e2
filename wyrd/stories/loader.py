"""Reading story files of any ruleset: YAML in, data and the line of every field out.

Errors name the file, the line and the field (``stories/content/x.yaml:42:
scenes[3].challenges[0].value: Input should be greater than or equal to 0``): the
file is composed with PyYAML's safe loader (libyaml's, where PyYAML has it), the
position of every path is kept (:func:`read_yaml`, from :mod:`wyrd.stories.yamlread`), and each pydantic error's
location is looked up there (:func:`validation_problems`). Every story format
reads its files through here, so its findings name lines the same way.

Story files may come from anyone, so a hostile one must fail cleanly, and fast:
files over :data:`MAX_BYTES`, nesting deeper than :data:`MAX_DEPTH` or more than
:data:`MAX_ALIASES` aliases (checked on the parser's events, :mod:`wyrd.stories.yamlguard`),
or aliases that would expand past :data:`MAX_NODES` nodes (a "billion laughs") are
refused with a :class:`StoryError` before any of it is built. [ours] Booleans are
YAML 1.2's (``true``/``false`` only), so ``on:``, ``yes`` and ``no`` stay text, as
editors using the JSON Schema read them too; a key written twice in one mapping is
an error, not a silent overwrite.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from pydantic_core import ErrorDetails

from wyrd.stories.files import read_bytes
from wyrd.stories.formats import BUNDLED, StoryInfo, discover, story_files
from wyrd.stories.problems import Origin, Problem, Severity, Steps, StoryError, format_path
from wyrd.stories.yamlguard import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, safe_load
from wyrd.stories.yamlread import MAX_NODES, read_yaml

__all__ = [
    "BUNDLED",
    "MAX_ALIASES",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_NODES",
    "Problem",
    "Severity",
    "StoryError",
    "StoryInfo",
    "discover",
    "format_path",
    "read_mapping",
    "read_yaml",
    "story_files",
    "validate",
    "validation_problems",
]

M = TypeVar("M", bound=BaseModel)


# -- validation errors, located ------------------------------------------------------


def _locate(error: ErrorDetails, data: Any) -> tuple[Steps, Steps]:
    """The path in the data an error is about, and the path to show (with a missing key).

    Pydantic's ``loc`` also names union branches ("spec", "overcome"); only the
    steps that exist in the data are kept.
    """
    loc = error["loc"]
    found: list[str | int] = []
    node = data
    for i, step in enumerate(loc):
        present = step in node if isinstance(node, dict) else (
            isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node))
        if present:
            found.append(step)
            node = node[step]
        elif i == len(loc) - 1 and error["type"] == "missing" and isinstance(node, dict):
            return tuple(found), (*found, step)
    return tuple(found), tuple(found)


def _message(error: ErrorDetails) -> str:
    kind = error["type"]
    if kind == "value_error":
        return str(error["msg"]).removeprefix("Value error, ")
    if kind == "extra_forbidden":
        return "unknown field (misspelt, or not part of the story format here)"
    if kind == "model_type" and error["loc"] and error["loc"][-1] == "spec":
        return "should be an id, or a mapping that writes the element out"
    if kind == "missing":
        return "required field missing"
    return error["msg"]


def validation_problems(name: str, exc: ValidationError, data: Any,
                        positions: Mapping[Steps, tuple[int, int]]) -> list[Problem]:
    """Pydantic's errors about ``data`` (read from file ``name``), each at its line and field, in file order."""
    origin = Origin(name, positions)
    problems = []
    for error in exc.errors(include_url=False):
        where, shown = _locate(error, data)
        line, column = origin.locate(where) or (None, None)
        problems.append(Problem(name, line, column, format_path(shown), _message(error)))
    return sorted(problems, key=lambda p: (p.line or 0, p.column or 0))


def read_mapping(path: str | Path, what: str = "a story file", *,
                 yaml11: bool = False) -> tuple[dict[str, Any], Mapping[Steps, tuple[int, int]]]:
    """:func:`read_yaml` for a file that must hold one mapping (StoryError if it does not).

    With ``yaml11`` the data is read again as :func:`wyrd.stories.yamlguard.safe_load` reads
    it (YAML 1.1 booleans), for the formats whose files play reads that way; the positions
    are the same either way.
    """
    data, positions = read_yaml(path)
    if not isinstance(data, dict):
        raise StoryError([Problem(str(path), 1, 1, "", f"{what} holds one mapping (id: ..., title: ..., ...)")])
    if yaml11:
        data = safe_load(read_bytes(path, MAX_BYTES).decode("utf-8-sig"), source=path)
    return data, positions


def validate(model: type[M], path: str | Path, data: Any, positions: Mapping[Steps, tuple[int, int]],
             context: dict[str, Any] | None = None) -> M:
    """``model`` validated from a file's data (StoryError naming file, line and field of every fault)."""
    try:
        return model.model_validate(data, context=context)
    except ValidationError as exc:
        raise StoryError(validation_problems(str(path), exc, data, positions)) from None
