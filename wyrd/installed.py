"""What the packages installed beside Wyrd declare: their entry points, kept between starts.

Rulesets come in through an entry-point group (:mod:`wyrd.rulesets`), and pydantic looks for its
plugins through another. Finding them means reading the metadata of every installed package,
which ``importlib.metadata`` does anew in each process: a few milliseconds before every first
prompt, the same answer each time. Where the ``wyrd`` command keeps its readings
(:func:`wyrd.kept.keep_in`), the answer for the groups in :data:`GROUPS` is kept under a
fingerprint of what is installed: every folder on ``sys.path``, the packages' metadata folders in
it, and the time and size of each one's ``entry_points.txt``. Installing, removing or upgrading a
package, or another ``sys.path``, gives another fingerprint, and the metadata is read again. The
answer is the one ``importlib.metadata`` gave; nothing here reads metadata itself.

Like the registry, this module imports only the standard library.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from functools import reduce
from typing import Any, NamedTuple

from wyrd.kept import keep, kept, kept_in

__all__ = ["GROUPS", "Declared", "declared", "fingerprint"]

#: The groups whose entry points are kept: the rulesets, and pydantic's plugins.
GROUPS = ("wyrd.rulesets", "pydantic")
_NAMES = "entry-points-*.json"
# Answers kept at once: a data folder shared by a few environments (a pipx install and a checkout's
# virtual environment) keeps each one's instead of reading the metadata again at every other start.
_MOST = 4
_METADATA = (".dist-info", ".egg-info")


class Declared(NamedTuple):
    """One entry point: its name, and the object it names as ``module:attribute``."""

    name: str
    value: str

    def load(self) -> Any:
        """Import the module and return the attribute it names (the module itself when none is named).

        As ``importlib.metadata.EntryPoint.load`` does: extras in brackets are not part of the object.
        """
        target = self.value.split("[", 1)[0].strip()
        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module.strip())
        return reduce(getattr, filter(None, attribute.strip().split(".")), loaded)


# The answers this process has read or kept, by the folder they are kept in and the path they are for.
_answers: dict[tuple[str, tuple[str, ...]], dict[str, list[Declared]]] = {}


def declared(group: str) -> list[Declared]:
    """The entry points of ``group`` that installed packages declare, as ``importlib.metadata`` finds them."""
    folder = kept_in()
    if group not in GROUPS or folder is None:
        return _scan(group)
    asked = (str(folder), tuple(sys.path))
    answer = _answers.get(asked)
    if answer is None:
        name = f"entry-points-{fingerprint()[:32]}.json"
        answer = _read(kept(name))
        if answer is None:
            answer = {each: _scan(each) for each in GROUPS}
            body = {each: [list(point) for point in points] for each, points in answer.items()}
            keep(name, json.dumps(body).encode(), replacing=_NAMES, most=_MOST)
        _answers[asked] = answer
    return list(answer[group])


def _scan(group: str) -> list[Declared]:
    import importlib.metadata

    return [Declared(point.name, point.value) for point in importlib.metadata.entry_points(group=group)]


def _read(body: bytes | None) -> dict[str, list[Declared]] | None:
    """The kept answer, or None when there is none or it is not one (then the metadata is read again)."""
    if body is None:
        return None
    try:
        data = json.loads(body)
        answer = {group: [Declared(name, value) for name, value in data[group]] for group in GROUPS}
    except (ValueError, KeyError, TypeError):
        return None
    if any(not isinstance(part, str) for points in answer.values() for point in points for part in point):
        return None
    return answer


def fingerprint() -> str:
    """A digest of what the metadata of the installed packages depends on, as a hex string.

    The Python, each ``sys.path`` entry, and in each folder the name of every package's metadata
    folder with the modification time and size of its ``entry_points.txt`` (a zip or a file on
    the path: its own time and size).
    """
    import hashlib

    digest = hashlib.sha256(sys.version.encode())
    for entry in sys.path:
        digest.update(b"\0path\0" + os.fsencode(entry))
        folder = entry or "."
        try:
            with os.scandir(folder) as found:
                names = sorted(item.name for item in found if item.name.endswith(_METADATA))
        except OSError:  # not a folder: a zip of packages, or nothing
            digest.update(_stamp(folder))
            continue
        for name in names:
            digest.update(b"\0" + os.fsencode(name) + _stamp(os.path.join(folder, name, "entry_points.txt")))
    return digest.hexdigest()


def _stamp(path: str) -> bytes:
    try:
        status = os.stat(path)
    except OSError:
        return b"\0-"
    return f"\0{status.st_mtime_ns}\0{status.st_size}".encode()
