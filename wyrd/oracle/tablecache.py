"""The bundled tables' check, kept on disk between starts and keyed on what was checked.

Loading the tables every ruleset narrates with (:func:`wyrd.oracle.tables.bundled_tables`) parses and
checks every bundled table file: 14 files and more than two hundred tables, most of a start's wait
for a ruleset whose opening is told from them. Those files change only with the installed packages, so
once they have passed every check the result is kept (:mod:`wyrd.kept`, in the folder the
program names) and read back at the next start in place of the check.

The key is a digest of everything the result depends on: each file's label and bytes, the source of
the modules that parse and check tables, and the version of pydantic. A file changed, a ruleset
installed or removed, or Wyrd upgraded gives another key, and the tables are loaded and checked
again, every problem reported with its file, line and field as before; only a load that passed is
written, and it replaces the results of earlier keys. It is written as the ids of the tables, one line
of JSON, then each table's JSON on a line of its own (:func:`pack`), so that a start may validate only
the tables it rolls on (:meth:`wyrd.oracle.tables.TableSet.kept`), each read as a file is (through the
tables' own model, :meth:`pydantic.BaseModel.model_validate_json`). A kept result cut short, unreadable,
or changed without its digest is ignored, and the tables are checked again; one whose digest was made
again over a changed table is checked again when that table is first read. A player's own tables are
never kept: they are checked at every start.

This module imports only the standard library, and what it needs to read and write only when it does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wyrd.kept import code_digest, keep_in, kept_in
from wyrd.kept import keep as _keep
from wyrd.kept import kept as _kept

__all__ = ["CHECKER_MODULES", "keep", "keep_in", "kept", "kept_in", "key_of", "pack", "unpack"]

#: The modules whose code decides what a table file means and whether it passes: a change to any of
#: them changes the key (the stories' YAML guard sets the limits, the stories' wording the grammar).
CHECKER_MODULES = ("wyrd.oracle.tables", "wyrd.oracle.tablecheck", "wyrd.oracle.text", "wyrd.oracle.dicespec",
                   "wyrd.oracle.yamlfile", "wyrd.oracle.tablecache", "wyrd.stories.yamlguard",
                   "wyrd.stories.wording")
# Bumped when what is written changes shape.
_FORMAT = b"wyrd bundled tables 2\n"
_PREFIX = "tables-"


def key_of(files: Sequence[tuple[str, bytes]]) -> str:
    """The key of a load of ``files`` (label, bytes), in the order they are loaded."""
    import hashlib

    import pydantic

    from wyrd.stories.yamlkept import pyyaml_stamp

    digest = hashlib.sha256(_FORMAT + code_digest(CHECKER_MODULES, pydantic.VERSION, pyyaml_stamp()))
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


def pack(tables: Mapping[str, bytes]) -> bytes:
    """Tables (id -> one table's JSON, which holds no newline) as one body: the ids, then each table."""
    import json

    return b"\n".join([json.dumps(list(tables)).encode("utf-8"), *tables.values()])


def unpack(body: bytes | None) -> dict[str, bytes] | None:
    """The tables of a body :func:`pack` made (id -> JSON, in their order), or None if it is not one."""
    import json

    if body is None:
        return None
    first, *tables = body.split(b"\n")
    try:
        ids = json.loads(first)
    except ValueError:
        return None
    if not isinstance(ids, list) or len(ids) != len(tables) or not all(isinstance(i, str) for i in ids) \
            or len(set(ids)) != len(ids):
        return None
    return dict(zip(ids, tables, strict=True))
