"""The bundled tables' check, kept on disk between starts and keyed on what was checked.

Loading the tables every ruleset narrates with (:func:`wyrd.oracle.tables.bundled_tables`) parses and
checks every bundled table file: 14 files and more than two hundred tables, most of a start's wait
for a ruleset whose opening is told from them. Those files change only with the installed packages, so
once they have passed every check the result is kept (:mod:`wyrd.stories.kept`, in the folder the
program names) and read back at the next start in place of the check.

The key is a digest of everything the result depends on: each file's label and bytes, the source of
the modules that parse and check tables, and the version of pydantic. A file changed, a ruleset
installed or removed, or Wyrd upgraded gives another key, and the tables are loaded and checked
again, every problem reported with its file, line and field as before; only a load that passed is
written, and it replaces the results of earlier keys. What is read back is read as a file is (through
the tables' own models, :meth:`pydantic.BaseModel.model_validate_json`): a kept result cut short,
unreadable, or changed without its digest is ignored, and the tables are checked again. A player's own
tables are never kept: they are checked at every start.

This module imports only the standard library, and what it needs to read and write only when it does.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.stories.kept import code_digest, keep_in, kept_in
from wyrd.stories.kept import keep as _keep
from wyrd.stories.kept import kept as _kept

__all__ = ["CHECKER_MODULES", "keep", "keep_in", "kept", "kept_in", "key_of"]

#: The modules whose code decides what a table file means and whether it passes: a change to any of
#: them changes the key (the stories' YAML guard sets the limits, the stories' wording the grammar).
CHECKER_MODULES = ("wyrd.oracle.tables", "wyrd.oracle.tablecheck", "wyrd.oracle.text", "wyrd.oracle.dicespec",
                   "wyrd.oracle.yamlfile", "wyrd.oracle.tablecache", "wyrd.stories.yamlguard",
                   "wyrd.stories.wording")
# Bumped when what is written changes shape.
_FORMAT = b"wyrd bundled tables 1\n"
_PREFIX = "tables-"


def key_of(files: Sequence[tuple[str, bytes]]) -> str:
    """The key of a load of ``files`` (label, bytes), in the order they are loaded."""
    import hashlib

    import pydantic

    digest = hashlib.sha256(_FORMAT + code_digest(CHECKER_MODULES, pydantic.VERSION))
    for label, data in files:
        digest.update(b"%d:%s\0%d:" % (len(label.encode()), label.encode(), len(data)))
        digest.update(data)
    return digest.hexdigest()


def kept(key: str) -> bytes | None:
    """What was written under ``key``, if it is there whole and unchanged; None otherwise."""
    return _kept(f"{_PREFIX}{key}.json")


def keep(key: str, body: bytes) -> None:
    """Write ``body`` under ``key``, replacing the results of earlier keys."""
    _keep(f"{_PREFIX}{key}.json", body, replacing=f"{_PREFIX}*.json")
