"""What a story file's YAML reads as, kept between starts.

Reading a story file is the largest part of a new game's start that is the same every time: 13 to
15 ms for The Hollow Fair with its limits and positions (:func:`wyrd.stories.yamlread.read_yaml`),
3 to 4 ms for the other rulesets' files (:func:`wyrd.stories.yamlguard.safe_load`, YAML 1.1, read
twice or three times by a Wolden start), against about 1 ms to read the result back as JSON
(bench/RESULTS.md, issue 21, point 2). A reading that passed is kept (:mod:`wyrd.kept`)
under a digest of the file's bytes, the code that reads it and PyYAML's installed files, and given back for
the same bytes; anything else is read again, and every problem is reported as it always is. The
story is still validated by its format each time: only the YAML parse and its checks are saved.

A kept reading is the data's JSON text on a line of its own, then the positions' (a Wyrd Abacus
story's). The data's text is handed to :mod:`wyrd.stories.modelkept`, which names the story's kept
model by it without writing the data out again; the positions are read when first asked for
(a story's problems, ``wyrd check``), not at every start.

Only what JSON gives back exactly is kept: text, whole and decimal numbers, true, false, null, lists
and mappings with text keys. A file with a date, a number as a key or binary data is read anew at
every start. A story's path has one reading of each kind kept at a time, its latest.
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator, Mapping
from typing import Any, NamedTuple

from wyrd.deferred import origin
from wyrd.kept import code_digest, file_stamps, keep, kept
from wyrd.stories.modelkept import exact_json, known_text
from wyrd.stories.problems import Steps

__all__ = ["READER_MODULES", "Loaded", "keep_load", "keep_reading", "kept_load", "kept_reading", "pyyaml_stamp"]

#: The modules whose code decides what a story file's YAML reads as, and whether it passes.
READER_MODULES = ("wyrd.stories.yamlread", "wyrd.stories.yamlguard", "wyrd.stories.yamlkept")
# Bumped when what is written changes shape.
_FORMAT = b"wyrd story reading 3\n"
# What is kept: read_yaml's data and positions (YAML 1.2), or safe_load's data (YAML 1.1).
_READING, _LOADING = "story-", "yaml11-"

Positions = dict[Steps, tuple[int, int]]


class _KeptPositions(Mapping[Steps, tuple[int, int]]):
    """The positions of a kept reading, read from their JSON text when first asked for."""

    def __init__(self, text: bytes) -> None:
        self._text: bytes | None = text
        self._read: Positions = {}

    def _all(self) -> Positions:
        if self._text is not None:
            try:
                rows = json.loads(self._text)
            except ValueError:
                rows = None
            if isinstance(rows, list) and all(isinstance(row, list) and len(row) >= 2 and all(
                    isinstance(part, str | int) for part in row) for row in rows):
                self._read = {tuple(row[2:]): (row[0], row[1]) for row in rows}
            # else not what was written: a problem is then told without its line
            self._text = None
        return self._read

    def __getitem__(self, steps: Steps) -> tuple[int, int]:
        return self._all()[steps]

    def __iter__(self) -> Iterator[Steps]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


class Loaded(NamedTuple):
    """The data :func:`~wyrd.stories.yamlguard.safe_load` read from a file (which may be None)."""

    data: Any


@functools.cache
def _code() -> bytes:
    """The digest of the reading code and of PyYAML's files: the same for every file a process reads.

    PyYAML's files, not its version: asking it for its version would load it, which a start whose
    files are all kept never needs to do.
    """
    return code_digest(READER_MODULES, pyyaml_stamp())


@functools.cache
def pyyaml_stamp() -> str:
    """What tells one PyYAML from another without importing it: each of its files' name, size and time.

    An upgrade, a build with or without libyaml, or an edit in place each change it.
    """
    where = origin("yaml")
    if where is None:
        return "pyyaml: unknown"
    return "pyyaml:" + "\t".join(sorted(file_stamps(os.path.dirname(where))))


def _names(kind: str, path: str, raw: bytes) -> tuple[str, str]:
    """The name a reading of ``raw`` at ``path`` is kept under, and the glob of the path's others."""
    import hashlib

    key = hashlib.sha256(_FORMAT + kind.encode() + _code() + raw).hexdigest()
    place = hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"{kind}{place}-{key}.json", f"{kind}{place}-*.json"


def _kept(kind: str, path: str, raw: bytes) -> tuple[Any, bytes] | None:
    """The data kept for ``raw`` (its JSON text made known to the model keeper) and what follows its line."""
    body = kept(_names(kind, path, raw)[0])
    if body is None:
        return None
    head, _, rest = body.partition(b"\n")
    if head != kind.encode():
        return None  # not what was written: read again
    text, _, rest = rest.partition(b"\n")  # compact JSON has no newline of its own
    try:
        decoded = text.decode("utf-8")
        data = json.loads(decoded)
    except ValueError:
        return None
    known_text(data, decoded)
    return data, rest


def _keep(kind: str, path: str, raw: bytes, data: Any, more: str | None = None) -> None:
    text = exact_json(data)
    if text is None:
        return  # a date, bytes, a set, a number as a key: not kept
    name, others = _names(kind, path, raw)
    body = "\n".join([kind, text] if more is None else [kind, text, more])
    keep(name, body.encode("utf-8"), replacing=others)


def kept_reading(path: str, raw: bytes) -> tuple[Any, Mapping[Steps, tuple[int, int]]] | None:
    """The data and positions kept for these bytes of the file at ``path``, or None."""
    found = _kept(_READING, path, raw)
    return (found[0], _KeptPositions(found[1])) if found is not None and found[1] else None


def keep_reading(path: str, raw: bytes, data: Any, positions: Mapping[Steps, tuple[int, int]]) -> None:
    """Keep a reading that passed, if JSON gives it back exactly."""
    rows = [[*at, *steps] for steps, at in positions.items()]
    _keep(_READING, path, raw, data, json.dumps(rows, ensure_ascii=False, separators=(",", ":")))


def kept_load(path: str, text: str) -> Loaded | None:
    """The data kept for this text of the file at ``path``, or None."""
    found = _kept(_LOADING, path, text.encode("utf-8", "surrogateescape"))
    return Loaded(found[0]) if found is not None else None


def keep_load(path: str, text: str, data: Any) -> None:
    """Keep a load that passed, if JSON gives it back exactly."""
    _keep(_LOADING, path, text.encode("utf-8", "surrogateescape"), data)
