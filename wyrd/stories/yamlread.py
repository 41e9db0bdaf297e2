"""Story files' YAML read with limits, YAML 1.2 booleans and the position of every path.

:func:`read_yaml` is how every story format reads a file whose findings name lines
(:mod:`wyrd.stories.loader` validates what it reads and locates pydantic's errors there).
Story files may come from anyone, so a hostile one must fail cleanly, and fast: files over
:data:`MAX_BYTES`, nesting deeper than :data:`MAX_DEPTH` or more than :data:`MAX_ALIASES`
aliases (checked on the parser's events, :mod:`wyrd.stories.yamlguard`), or aliases that
would expand past :data:`MAX_NODES` nodes (a "billion laughs") are refused with a
:class:`~wyrd.stories.problems.StoryError` before any of it is built. Booleans are YAML 1.2's
(``true``/``false`` only), so ``on:``, ``yes`` and ``no`` stay text, as editors using the JSON
Schema read them too; a key written twice in one mapping is an error, not a silent overwrite.
It imports no story format, so :mod:`wyrd.stories.formats` may read with it too.
"""

from __future__ import annotations

import errno
import functools
import re
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wyrd.stories.files import FileRefused, read_bytes
from wyrd.stories.problems import Problem, Steps, StoryError
from wyrd.stories.yamlguard import MAX_BYTES, MAX_DEPTH, LimitError, check_events, yaml
from wyrd.stories.yamlkept import keep_reading, kept_reading

if TYPE_CHECKING:
    from wyrd.stories.yamlguard import SafeLoader

__all__ = ["MAX_NODES", "read_yaml"]

MAX_NODES = 200_000


# -- YAML with limits ----------------------------------------------------------------

_BOOL = "tag:yaml.org,2002:bool"
_MERGE = "tag:yaml.org,2002:merge"


@functools.cache
def _loader() -> type[SafeLoader]:
    """The safe loader, with YAML 1.2 booleans (made when a file is first parsed: PyYAML loads then)."""
    from wyrd.stories.yamlguard import SafeLoader

    class Loader(SafeLoader):
        # PyYAML reads this per class; a fresh copy here leaves the safe loader itself untouched.
        yaml_implicit_resolvers: dict[Any, Any] = {  # noqa: RUF012
            first: [(tag, rx) for tag, rx in resolvers if tag != _BOOL]
            for first, resolvers in SafeLoader.yaml_implicit_resolvers.items()
        }

    Loader.add_implicit_resolver(_BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF"))
    return Loader


def _measure(root: yaml.Node) -> None:
    """Refuse trees that aliases would blow up (too many nodes, too deep, or a cycle)."""
    memo: dict[int, tuple[int, int]] = {}  # node id -> (expanded size, nesting height)
    active: set[int] = set()

    def visit(node: yaml.Node, above: int) -> tuple[int, int]:
        key = id(node)
        if key in active:
            raise LimitError("refused: an alias refers to the mapping or list that contains it", node.start_mark)
        nests = isinstance(node, yaml.CollectionNode)
        if above + nests > MAX_DEPTH:
            raise LimitError(f"refused: nesting deeper than {MAX_DEPTH} levels (through aliases)", node.start_mark)
        if key in memo:
            size, height = memo[key]
            if above + height > MAX_DEPTH:
                raise LimitError(f"refused: nesting deeper than {MAX_DEPTH} levels (through aliases)", node.start_mark)
            return memo[key]
        active.add(key)
        size, height = 1, 0
        children: list[yaml.Node] = []
        if isinstance(node, yaml.MappingNode):
            seen: dict[str, int] = {}
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode) and k.tag != _MERGE:
                    if k.value in seen:
                        raise LimitError(f"key {k.value!r} is written twice in this mapping (first on line "
                                         f"{seen[k.value]})", k.start_mark)
                    seen[k.value] = k.start_mark.line + 1
                children += [k, v]
        elif isinstance(node, yaml.SequenceNode):
            children = list(node.value)
        for child in children:
            child_size, child_height = visit(child, above + nests)
            size += child_size
            height = max(height, child_height)
            if size > MAX_NODES:
                raise LimitError(f"refused: aliases expand this file beyond {MAX_NODES} nodes", node.start_mark)
        active.discard(key)
        memo[key] = (size, height + nests)
        return memo[key]

    visit(root, 0)


def _positions(root: yaml.Node, loader: SafeLoader) -> dict[Steps, tuple[int, int]]:
    """The (line, column), 1-based, of every path: a mapping entry's key, a list item."""
    found: dict[Steps, tuple[int, int]] = {(): (root.start_mark.line + 1, root.start_mark.column + 1)}
    stack: list[tuple[Steps, yaml.Node]] = [((), root)]
    while stack:
        path, node = stack.pop()
        pairs: list[tuple[str | int, yaml.Node, yaml.Node]] = []
        if isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                if isinstance(k, yaml.ScalarNode):
                    key = loader.construct_object(k)
                    if isinstance(key, str | int) and not isinstance(key, bool):
                        pairs.append((key, k, v))
        elif isinstance(node, yaml.SequenceNode):
            pairs = [(i, v, v) for i, v in enumerate(node.value)]
        for key, mark_node, child in pairs:
            sub = (*path, key)
            found[sub] = (mark_node.start_mark.line + 1, mark_node.start_mark.column + 1)  # last wins, as in a dict
            stack.append((sub, child))
    return found


def _problem(file: str, message: str, mark: Any = None, field: str = "") -> Problem:
    line = mark.line + 1 if mark is not None else None
    column = mark.column + 1 if mark is not None else None
    return Problem(file, line, column, field, message)


def _syntax_problem(file: str, exc: yaml.MarkedYAMLError, text: str) -> Problem:
    """A YAML error, shown where a reader would look for it.

    The parser notices something left unclosed only at the end of the file, so that
    is shown where it opened. libyaml puts the end of a file that lacks a final
    newline on a line after the last; it is shown at the last line's end instead.
    """
    def place(mark: Any) -> Any:
        if mark is None or mark.index < len(text):
            return mark
        return yaml.Mark(file, len(text), text.count("\n"), len(text) - 1 - text.rfind("\n"), None, 0)

    problem, context = place(exc.problem_mark), place(exc.context_mark)
    mark, message = problem or context, exc.context or ""
    if problem is not None and context is not None and message:
        message += f" (from line {context.line + 1})"
        if problem.index >= len(text):
            mark = context
    message = ": ".join(p for p in (message, exc.problem) if p) or "is not valid YAML"
    return _problem(file, message, mark)


# One reading kept for the next reader of the same text (``read_yaml(..., keep=True)``): starting a
# game reads the story file once to learn its ruleset and then once more to load it; the second
# reading takes the first's data instead of parsing it again (bench/RESULTS.md, issue 21). The text
# is the key, so a file changed in between is read anew; what is kept is handed out once.
_KEPT: dict[str, tuple[Any, Mapping[Steps, tuple[int, int]]]] = {}


def read_yaml(path: str | Path, *, keep: bool = False) -> tuple[Any, Mapping[Steps, tuple[int, int]]]:
    """The data in a YAML file and the position of every path in it (StoryError if unfit).

    With ``keep``, the result is also kept for the next call that reads the same text, which takes
    it instead of parsing again: the caller must leave the data and the positions as they are.
    """
    name = str(path)
    file = Path(path)
    try:
        # Read once, bounded, from a regular file only: a FIFO or /dev/zero is refused, not waited on.
        raw = read_bytes(file, MAX_BYTES)
    except FileNotFoundError:
        raise StoryError([_problem(name, "no such story file")]) from None
    except FileRefused as exc:
        if exc.reason.endswith("not a regular file"):
            message = "no such story file" if file.is_dir() else "is not a regular file; it is not read"
        else:
            message = f"is too large; a story file may be at most {MAX_BYTES:,} bytes"
        raise StoryError([_problem(name, message)]) from None
    except OSError as exc:
        if exc.errno == errno.EISDIR:
            raise StoryError([_problem(name, "no such story file")]) from None
        raise StoryError([_problem(name, f"cannot be read: {exc.strerror or exc}")]) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise StoryError([Problem(name, line, None, "", "is not UTF-8 text")]) from None
    found = _KEPT.pop(text, None) or _read(name, text, raw)
    if keep:
        _KEPT.clear()
        _KEPT[text] = found
    return found


def _read(name: str, text: str, raw: bytes) -> tuple[Any, Mapping[Steps, tuple[int, int]]]:
    """The reading of these bytes kept by an earlier start, or a new one (kept if it passes)."""
    found = kept_reading(name, raw)
    if found is None:
        found = _parse(name, text)
        keep_reading(name, raw, *found)
    return found


def _parse(name: str, text: str) -> tuple[Any, dict[Steps, tuple[int, int]]]:
    """:func:`read_yaml`'s data and positions of the text of file ``name``."""
    loader = _loader()(text)
    try:
        check_events(text)
        root = loader.get_single_node()
        if root is None:
            raise StoryError([_problem(name, "is empty")])
        _measure(root)
        data = loader.construct_document(root)
        positions = _positions(root, loader)
    except LimitError as exc:
        raise StoryError([_problem(name, exc.message, exc.mark)]) from None
    except yaml.MarkedYAMLError as exc:
        raise StoryError([_syntax_problem(name, exc, text)]) from None
    except (yaml.YAMLError, RecursionError, ValueError, TypeError) as exc:
        raise StoryError([_problem(name, f"is not valid YAML: {exc}")]) from None
    finally:
        loader.dispose()
    return data, positions
