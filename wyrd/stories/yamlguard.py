"""Limits for YAML from unknown sources, checked on the parser's events before anything is built.

Story files (:mod:`wyrd.stories.loader`) and the oracle's table files
(:mod:`wyrd.oracle.yamlfile`) may come from anyone, so both refuse the same hostile
shapes the same way. Reading the parser's events costs time in proportion to the
text, so a file nested thousands deep or full of aliases is refused in bounded
time and memory, before a node of it is composed. It lives here, below both
loaders, because ``oracle`` may import ``stories`` and not the other way round.

:data:`SafeLoader` is libyaml's safe loader when PyYAML was built with it (the
pure-Python scanner costs about ten times as much), else PyYAML's own; the
constructors are the same safe ones either way. :data:`yaml` is PyYAML, loaded when
it is first used: a start that reads every file as kept never loads it.
"""

from __future__ import annotations

import functools
from os import PathLike
from typing import TYPE_CHECKING, Any

from wyrd.deferred import deferred

__all__ = ["MAX_ALIASES", "MAX_BYTES", "MAX_DEPTH", "LimitError", "SafeLoader", "check_events", "safe_load",
           "yaml"]

if TYPE_CHECKING:
    import yaml
    from yaml import SafeLoader
else:
    # A game whose files were all kept reads no YAML: PyYAML loads when a file is first parsed.
    yaml = deferred("yaml")

    def __getattr__(name: str) -> Any:
        if name == "SafeLoader":
            return _safe_loader()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@functools.cache
def _safe_loader() -> type[SafeLoader]:
    """libyaml's safe loader when PyYAML was built with it, else PyYAML's own."""
    try:
        from yaml import CSafeLoader
    except ImportError:  # a PyYAML built without libyaml
        return yaml.SafeLoader
    return CSafeLoader  # type: ignore[return-value]


MAX_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_ALIASES = 100


class LimitError(Exception):
    """A file refused before it is built: ``message`` says why, ``mark`` where (PyYAML's, 0-based).

    The story loader raises it too, for what it checks on the composed nodes (aliases
    that expand too far, a key written twice).
    """

    def __init__(self, message: str, mark: Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.mark = mark


def check_events(text: str) -> None:
    """Refuse ``text`` if it is over :data:`MAX_BYTES` as UTF-8, nests deeper than :data:`MAX_DEPTH`
    or has more than :data:`MAX_ALIASES` aliases.

    Raises:
        LimitError: the first limit passed, with the mark of the event that passed it (none for the size).
        yaml.YAMLError: the text is not valid YAML (up to where it was read).
    """
    if len(text.encode("utf-8", "replace")) > MAX_BYTES:
        raise LimitError(f"refused: larger than {MAX_BYTES // 1024} KiB")
    depth = aliases = 0
    for event in yaml.parse(text, Loader=_safe_loader()):
        if isinstance(event, yaml.AliasEvent):
            aliases += 1
            if aliases > MAX_ALIASES:
                raise LimitError(f"refused: more than {MAX_ALIASES} aliases", event.start_mark)
        elif isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise LimitError(f"refused: nesting deeper than {MAX_DEPTH} levels", event.start_mark)
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            depth -= 1


def safe_load(text: str, *, source: str | PathLike[str] | None = None) -> Any:
    """``yaml.safe_load`` with libyaml where there is one, after :func:`check_events`.

    For the files that need no positions (the other rulesets' scenarios, the prompts):
    a file past the limits raises ``yaml.YAMLError`` naming the line, as bad YAML does.
    With ``source``, the file ``text`` was read from, what an earlier start read from the same
    text there is taken, and a new reading kept (:mod:`wyrd.stories.yamlkept`).
    """
    if source is not None:
        from wyrd.stories.yamlkept import keep_load, kept_load

        found = kept_load(str(source), text)
        if found is not None:
            return found.data
    try:
        check_events(text)
    except LimitError as exc:
        where = f"line {exc.mark.line + 1}: " if exc.mark is not None else ""
        raise yaml.YAMLError(where + exc.message) from None
    data = yaml.load(text, Loader=_safe_loader())
    if source is not None:
        keep_load(str(source), text, data)
    return data
