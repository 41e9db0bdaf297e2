"""YAML with line numbers, and content problems that name file, line and field.

``yaml.safe_load`` forgets where things were. :func:`load_yaml` uses the same safe
loader but builds every mapping as a :class:`Located` dict that remembers its own
line and the line of each value, so a validation error can point at the exact
line of the bad field. Duplicate keys (which plain YAML silently collapses) are
reported as problems too. Table files may come from anyone: they are held to the
story files' limits on size, depth and aliases (:mod:`wyrd.stories.yamlguard`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from pydantic import BaseModel, ConfigDict

from wyrd.stories.yamlguard import MAX_ALIASES, MAX_BYTES, MAX_DEPTH, LimitError, check_events, yaml

if TYPE_CHECKING:
    from wyrd.stories.yamlguard import SafeLoader

__all__ = ["MAX_ALIASES", "MAX_BYTES", "MAX_DEPTH", "ContentError", "Located", "LocatedList", "Problem", "line_of",
           "load_yaml"]


class Problem(BaseModel):
    """One thing wrong with a content file."""

    model_config = ConfigDict(frozen=True)

    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class ContentError(ValueError):
    """Content that cannot be loaded; :attr:`problems` lists every problem found."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Located(dict[str, Any]):
    """A mapping read from YAML: ``line`` is where it starts, ``lines[key]`` where each value is."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[str, int] = {}


class LocatedList(list[Any]):
    """A sequence read from YAML: ``lines[i]`` is where item ``i`` is."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: list[int] = []


if TYPE_CHECKING:
    class _Loader(SafeLoader):
        """What :func:`_loader` makes: the safe loader, and the keys it saw twice."""

        duplicates: list[tuple[str, int]]


def _mapping(loader: _Loader, node: yaml.MappingNode) -> Located:
    loader.flatten_mapping(node)
    out = Located()
    out.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        key = str(key)
        if key in out:
            loader.duplicates.append((key, key_node.start_mark.line + 1))
        out[key] = loader.construct_object(value_node, deep=True)
        out.lines[key] = value_node.start_mark.line + 1
    return out


def _sequence(loader: _Loader, node: yaml.SequenceNode) -> LocatedList:
    out = LocatedList()
    for item in node.value:
        out.append(loader.construct_object(item, deep=True))
        out.lines.append(item.start_mark.line + 1)
    return out


@functools.cache
def _loader() -> type[_Loader]:
    """The safe loader building :class:`Located` mappings and lists (made at the first file parsed:
    a start whose tables are kept never loads PyYAML)."""
    from wyrd.stories.yamlguard import SafeLoader

    class Loader(SafeLoader):
        duplicates: list[tuple[str, int]]

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _sequence)
    return cast("type[_Loader]", Loader)


def _guard(text: str, file: str) -> None:
    """Refuse a file too big, too deep or with too many aliases, before anything is built."""
    try:
        check_events(text)
    except LimitError as exc:
        line = exc.mark.line + 1 if exc.mark is not None else 0
        raise ContentError([Problem(file=file, line=line, field="(yaml)", message=exc.message)]) from None
    except yaml.YAMLError:
        return  # the loader below reports syntax errors with their line


def load_yaml(text: str, file: str) -> Any:
    """Parse ``text``; a syntax error, a duplicate key or a file past the limits raises :class:`ContentError`."""
    _guard(text, file)
    loader = _loader()(text)
    loader.duplicates = []
    try:
        data = loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else 0
        raise ContentError([Problem(file=file, line=line, field="(yaml)", message=str(exc.problem))]) from exc
    except yaml.YAMLError as exc:
        raise ContentError([Problem(file=file, line=0, field="(yaml)", message=str(exc))]) from exc
    finally:
        loader.dispose()
    if loader.duplicates:
        raise ContentError([Problem(file=file, line=line, field=key, message="this key appears twice in one mapping")
                            for key, line in loader.duplicates])
    return data


def line_of(data: Any, loc: Sequence[int | str]) -> int:
    """The line of the value at ``loc`` (a pydantic error location), or the nearest one above it."""
    line = data.line if isinstance(data, Located) else 0
    node = data
    for part in loc:
        if isinstance(node, Located) and isinstance(part, str) and part in node:
            line = node.lines.get(part, line)
            node = node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            if isinstance(node, LocatedList):
                line = node.lines[part]
            node = node[part]
        else:
            break
    return line
