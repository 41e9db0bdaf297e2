"""The bundled tables' check, kept on disk between starts and keyed on what was checked.

Loading the tables every ruleset narrates with (:func:`wyrd.oracle.tables.bundled_tables`) parses and
checks every bundled table file: 14 files and more than two hundred tables, most of a start's wait
for a ruleset whose opening is told from them. Those files change only with the installed packages, so
once they have passed every check the result is written to a folder the program names (the ``wyrd``
command: ``cache`` in the player's data folder) and read back at the next start in place of the check.

The key is a digest of everything the result depends on: each file's label and bytes, the source of
the modules that parse and check tables, and the version of pydantic. A file changed, a ruleset
installed or removed, or Wyrd upgraded gives another key, and the tables are loaded and checked
again, every problem reported with its file, line and field as before; only a load that passed is
written. What is written carries the digest of its own text, and what is read back is read as a file
is (through the tables' own models, :meth:`pydantic.BaseModel.model_validate_json`): a kept result cut
short, unreadable, or changed without its digest is ignored, and the tables are checked again. (It sits
in the player's own folder, beside their own tables; it is not a guard against someone who rewrites
it with a digest to match.) A player's own tables are never kept: they are checked at every start.

This module imports only the standard library, and what it needs to read and write only when it
does (hashing, temporary files): every ``wyrd`` command names the folder, ``wyrd --version`` too.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

__all__ = ["CHECKER_MODULES", "keep", "keep_in", "kept", "kept_in", "key_of"]

#: The modules whose code decides what a table file means and whether it passes: a change to any of
#: them changes the key (the stories' YAML guard sets the limits, the stories' wording the grammar).
CHECKER_MODULES = ("wyrd.oracle.tables", "wyrd.oracle.tablecheck", "wyrd.oracle.text", "wyrd.oracle.dicespec",
                   "wyrd.oracle.yamlfile", "wyrd.oracle.tablecache", "wyrd.stories.yamlguard",
                   "wyrd.stories.wording")
# Bumped when what is written changes shape.
_FORMAT = b"wyrd bundled tables 1\n"
_PREFIX = "tables-"

_folder: Callable[[], Path] | None = None


def keep_in(folder: Callable[[], Path] | None) -> None:
    """Keep the bundled tables' check in the folder ``folder()`` names when it is needed (None: nowhere).

    A function, not a path, so that the folder is the one of the moment the tables are loaded.
    """
    global _folder
    _folder = folder


def kept_in() -> Path | None:
    """The folder the check is kept in now, or None."""
    return _folder() if _folder is not None else None


def _checker_source() -> bytes:
    import hashlib
    import importlib.util

    digest = hashlib.sha256()
    for name in CHECKER_MODULES:
        spec = importlib.util.find_spec(name)
        origin = spec.origin if spec is not None else None
        digest.update(name.encode() + b"\0")
        if origin is not None and os.path.isfile(origin):
            digest.update(Path(origin).read_bytes())
    import pydantic

    digest.update(pydantic.VERSION.encode())
    return digest.digest()


def key_of(files: Sequence[tuple[str, bytes]]) -> str:
    """The key of a load of ``files`` (label, bytes), in the order they are loaded."""
    import hashlib

    digest = hashlib.sha256(_FORMAT + _checker_source())
    for label, data in files:
        digest.update(b"%d:%s\0%d:" % (len(label.encode()), label.encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()


def kept(key: str) -> bytes | None:
    """What was written under ``key``, if it is there whole and unchanged; None otherwise."""
    import hashlib

    folder = kept_in()
    if folder is None:
        return None
    try:
        text = (folder / f"{_PREFIX}{key}.json").read_bytes()
    except OSError:
        return None
    check, _, body = text.partition(b"\n")
    if check.decode("ascii", "replace") != hashlib.sha256(body).hexdigest():
        return None
    return body


def keep(key: str, body: bytes) -> None:
    """Write ``body`` under ``key`` (replacing the results of earlier keys); a folder that cannot be
    written is left as it is: the next start checks the tables again."""
    import hashlib
    import tempfile

    folder = kept_in()
    if folder is None:
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".tables-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as out:
                out.write(hashlib.sha256(body).hexdigest().encode("ascii") + b"\n" + body)
            os.replace(temporary, folder / f"{_PREFIX}{key}.json")
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        for old in folder.glob(f"{_PREFIX}*.json"):
            if old.name != f"{_PREFIX}{key}.json":
                old.unlink(missing_ok=True)
    except OSError:
        return
