"""Random tables: the YAML format, its validation on load, and rolling on a table.

A table file holds one table, or several under ``tables:``::

    id: twist/threat            # a stable, path-like id
    title: A new threat
    dice: d20                   # dN, KdN, d66, d100, or ``weights``
    rows:
      - range: 1-3              # or ``roll: 4``; with ``dice: weights``, ``weight: 2`` (default 1)
        id: hound               # optional; otherwise the range ("1-3", "4") or "#n" for weights
        text: "Something with {denizen|a stranger}'s face follows {character}."
      - roll: 4
        table: twist/eerie      # roll on another table; its text fills {roll} (or stands alone)

Every problem is a load error that names the file, the line and the field
(:class:`~wyrd.oracle.yamlfile.ContentError`): a range that runs outside the dice, two
rows covering the same roll, a roll no row covers, a weight below 1, a reference
to a table that does not exist (or a loop of references), a stray brace in a
text. Nothing is ever clamped at roll time: a table that loaded covers every roll.

Deck mode: pass a ``deck_state`` dict to :func:`roll` and no row of a table comes
up again until every row has (then the deck is shuffled anew). The first draw of
a fresh deck rolls the table's own dice; later draws roll one die over what is
left, each remaining row keeping its share of the odds. The state is a plain
JSON-able ``{table id: [row ids used]}`` that the caller saves and passes back.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from wyrd.oracle import tablecache
from wyrd.oracle.dicespec import DiceSpec
from wyrd.oracle.tablecheck import compile_file, find_cycles
from wyrd.oracle.text import Layered, capitalise, fill
from wyrd.oracle.yamlfile import ContentError, Problem, load_yaml
from wyrd.rules.dice import Dice
from wyrd.rulesets import Ruleset, resource, rulesets
from wyrd.stories.files import MAX_DEPTH as MAX_FOLDER_DEPTH
from wyrd.stories.files import FileRefused, list_yaml, read_bytes
from wyrd.stories.yamlguard import MAX_BYTES

__all__ = [
    "MAX_DEPTH",
    "SHARED_TABLES",
    "ContentError",
    "DeckState",
    "Problem",
    "Row",
    "Table",
    "TableResult",
    "TableSet",
    "UnknownTable",
    "bundled_tables",
    "load_tables",
    "make_table",
    "parse_tables",
    "roll",
    "ruleset_tables",
]

MAX_DEPTH = 12
# The oracle's own tables, which every ruleset shares: the question oracle's words and twists
# (wyrd.oracle.question, wyrd.oracle.twists) and the places a narration may name. Each
# ruleset's own tables are named by its registry entry (wyrd.rulesets.Ruleset.tables).
SHARED_TABLES = ("wyrd.oracle:tables/meaning.yaml", "wyrd.oracle:tables/places.yaml",
                 "wyrd.oracle:tables/twists.yaml")
DeckState = dict[str, list[str]]


class UnknownTable(KeyError):
    """A roll asked for a table id that is not loaded."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else "unknown table"


class Row(BaseModel):
    """One row: the rolls it covers (``low``..``high``) or its weight, and its text."""

    model_config = ConfigDict(frozen=True)

    id: str
    low: int | None = None
    high: int | None = None
    weight: int  # the number of equally likely outcomes that land here
    text: str = ""
    table: str | None = None
    line: int = 0


class Table(BaseModel):
    """A validated table: every possible roll lands on exactly one row."""

    model_config = ConfigDict(frozen=True)

    id: str
    title: str
    dice: DiceSpec
    rows: tuple[Row, ...]
    file: str = "<code>"
    line: int = 0

    @property
    def total(self) -> int:
        return sum(r.weight for r in self.rows)

    def row_at(self, value: int) -> Row:
        """The row a dice value (or, for weights, a position 1..total) lands on."""
        if self.dice.weighted:
            for row in self.rows:
                if value <= row.weight:
                    return row
                value -= row.weight
        else:
            for row in self.rows:
                if row.low is not None and row.high is not None and row.low <= value <= row.high:
                    return row
        raise ValueError(f"table {self.id}: no row for {value}")  # impossible once validated

    def exact(self) -> dict[str, Fraction]:
        """The exact chance of each row (by row id) on one roll."""
        return {r.id: Fraction(r.weight, self.total) for r in self.rows}

    def references(self) -> list[str]:
        return [r.table for r in self.rows if r.table]


class TableResult(BaseModel):
    """What a roll on a table gave: the row, the faces shown, the filled text."""

    model_config = ConfigDict(frozen=True)

    table: str
    row: str
    faces: tuple[int, ...]
    value: int
    text: str  # filled, first letter capitalised
    raw: str = ""  # filled, as written (for use mid-sentence)
    nested: tuple[TableResult, ...] = ()
    deck: bool = False


class TableSet(Mapping[str, Table]):
    """Tables by id; ``merge`` lays a user's tables over these (same id: the user's wins).

    A set read back from the bundled tables' kept check (:func:`TableSet.kept`) holds each table
    as the JSON it was kept as, and validates it when it is first asked for: a start reads the
    few tables its opening rolls on, not the two hundred (about 9 ms less before the first prompt
    of a ruleset whose opening is told from the tables, bench/RESULTS.md). Should a kept table not
    validate (the kept check was changed by hand), every table still unread is taken from
    ``reread``, which loads the files and checks them as at a first start.
    """

    _tables: dict[str, Table | bytes]
    _reread: Callable[[], TableSet] | None

    def __init__(self, tables: Mapping[str, Table] | None = None) -> None:
        if isinstance(tables, TableSet):
            self._tables, self._reread = dict(tables._tables), tables._reread
        else:
            self._tables, self._reread = dict(tables or {}), None

    @classmethod
    def kept(cls, tables: Mapping[str, bytes], reread: Callable[[], TableSet]) -> TableSet:
        """The tables as kept (id -> JSON), each validated when first asked for."""
        found = cls()
        found._tables = dict(tables)
        found._reread = reread
        return found

    def __getitem__(self, key: str) -> Table:
        try:
            found = self._tables[key]
        except KeyError:
            raise UnknownTable(f"no table {key!r} is loaded") from None
        return found if isinstance(found, Table) else self._read(key, found)

    def _read(self, key: str, kept: bytes) -> Table:
        try:
            table = self._tables[key] = Table.model_validate_json(kept)
        except ValueError:
            if self._reread is None:
                raise
            checked, self._reread = self._reread(), None
            self._tables = {k: checked[k] if isinstance(v, bytes) else v for k, v in self._tables.items()
                            if not isinstance(v, bytes) or k in checked}
            return self[key]
        return table

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __contains__(self, key: object) -> bool:
        return key in self._tables

    def __len__(self) -> int:
        return len(self._tables)

    def merge(self, other: Mapping[str, Table]) -> TableSet:
        merged = TableSet(self)
        merged._tables.update(other._tables if isinstance(other, TableSet) else other)
        return merged

    def roll(self, table: str, dice: Dice, context: Mapping[str, object] | None = None,
             deck_state: DeckState | None = None) -> TableResult:
        return roll(self[table], dice, context, deck_state, tables=self)


def _to_table(compiled: dict[str, Any]) -> Table:
    rows = tuple(Row(**r) for r in compiled["rows"])
    return Table(id=compiled["id"], title=compiled["title"], dice=compiled["dice"], rows=rows,
                 file=compiled["file"], line=compiled["line"])


def parse_tables(text: str, file: str) -> list[Table]:
    """The tables in one YAML text (``file`` names it in errors); references are not checked here."""
    compiled, problems = compile_file(load_yaml(text, file), file)
    if problems:
        raise ContentError(problems)
    return [_to_table(c) for c in compiled]


def make_table(ident: str, title: str, dice: str, rows: Sequence[Mapping[str, object]],
               *, file: str = "<code>") -> Table:
    """Build a table in code (story entries, twist weights) through the same checks as a file."""
    data = {"id": ident, "title": title, "dice": dice, "rows": [dict(r) for r in rows]}
    compiled, problems = compile_file(data, file)
    if problems:
        raise ContentError(problems)
    return _to_table(compiled[0])


def _check_set(tables: Mapping[str, Table], fresh: Sequence[Table]) -> list[Problem]:
    problems: list[Problem] = []
    for table in fresh:
        for i, row in enumerate(table.rows):
            if row.table and row.table not in tables:
                problems.append(Problem(file=table.file, line=row.line, field=f"rows[{i}].table",
                                        message=f"table {table.id}: no table {row.table!r} is loaded"))
    graph = {t.id: [r for r in t.references() if r in tables] for t in tables.values()}
    for cycle in find_cycles(graph):
        first = tables[cycle[0]]
        problems.append(Problem(file=first.file, line=first.line, field="rows",
                                message="tables roll on each other in a loop: " + " -> ".join(cycle)))
    return problems


def _sources(path: Path | Traversable, refused: list[Problem]) -> list[Path | Traversable]:
    """The table files of ``path``. A player's folder (a Path) is listed as content folders are
    (:func:`wyrd.stories.files.list_yaml`: regular files only, no symlink out of it or in a loop,
    a bounded number of entries); what it refuses is a problem. Bundled tables are listed as they are."""
    if isinstance(path, Path):
        if not path.is_dir():
            return [path] if path.name.endswith((".yaml", ".yml")) else []
        listing = list_yaml(path, depth=MAX_FOLDER_DEPTH)
        refused += [Problem(file=str(p), line=0, field="file", message=f"refused, not read: {why}")
                    for p, why in listing.refused]
        return list(listing.files)
    if path.is_dir():
        found: list[Path | Traversable] = []
        for child in sorted(path.iterdir(), key=lambda p: p.name):
            found.extend(_sources(child, refused))
        return found
    return [path] if path.name.endswith((".yaml", ".yml")) else []


def _text(source: Path | Traversable) -> str:
    """A table file's text: a player's read bounded, from a regular file only (OSError if not)."""
    if isinstance(source, Path):
        return read_bytes(source, MAX_BYTES).decode("utf-8")
    return source.read_text(encoding="utf-8")


def load_tables(paths: Sequence[Path | Traversable], *, base: Mapping[str, Table] | None = None,
                names: Mapping[str, str] | None = None) -> TableSet:
    """Load table files and folders (searched recursively) over ``base``.

    Every problem in every file is collected before anything is raised, so one
    :class:`ContentError` lists them all. ``names`` maps a path to how errors call it.
    """
    problems: list[Problem] = []
    fresh: dict[str, Table] = {}
    for top in paths:
        for source in _sources(top, problems):
            label = (names or {}).get(str(source), str(source))
            try:
                tables = parse_tables(_text(source), label)
            except ContentError as exc:
                problems.extend(exc.problems)
                continue
            except (OSError, UnicodeDecodeError) as exc:
                why = exc.reason if isinstance(exc, FileRefused) else (
                    "is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else f"cannot be read: {exc.strerror}")
                problems.append(Problem(file=label, line=0, field="file", message=why))
                continue
            for table in tables:
                if table.id in fresh:
                    other = fresh[table.id]
                    problems.append(Problem(file=label, line=table.line, field="id",
                                            message=f"table id {table.id!r} is also used at {other.file}:{other.line}"))
                fresh[table.id] = table
    merged = TableSet(base).merge(fresh)
    problems.extend(_check_set(merged, list(fresh.values())))
    if problems:
        raise ContentError(problems)
    return merged


def _named_files(every: Sequence[Ruleset]) -> dict[str, Path | Traversable]:
    """The table files of the shared tables and of ``every`` ruleset, by label, in the order they load."""
    named: dict[str, Path | Traversable] = {}
    missing: list[Problem] = []
    wanted = [("shared", name) for name in SHARED_TABLES]
    wanted += [(f"ruleset {r.id}", name) for r in every for name in r.tables]
    for owner, name in wanted:
        try:
            where = resource(name)
            found = where.locate()
        except (ValueError, ModuleNotFoundError) as exc:
            missing.append(Problem(file=name, line=0, field="tables", message=f"{owner}: {exc}"))
            continue
        if not found.is_file():
            missing.append(Problem(file=where.label, line=0, field="tables",
                                   message=f"{owner} names the table file {name!r}, which does not exist"))
            continue
        named.setdefault(where.label, found)
    if missing:
        raise ContentError(missing)
    return {label: named[label] for label in sorted(named)}


def _load_named(named: Mapping[str, Path | Traversable]) -> TableSet:
    return load_tables(list(named.values()), names={str(found): label for label, found in named.items()})


def ruleset_tables(every: Sequence[Ruleset]) -> TableSet:
    """The shared tables and the tables of ``every`` ruleset, loaded and checked together.

    Files are loaded in the order of their names (``wyrd/oracle/tables/meaning.yaml`` ...), not of
    the rulesets, so a ruleset installed beside Wyrd changes nothing about the others' tables.
    A file that is missing, or whose package is not installed, is an error naming the ruleset.
    """
    return _load_named(_named_files(every))


def _kept_tables(named: Mapping[str, Path | Traversable]) -> TableSet:
    """The tables of ``named`` from the kept check of the same bytes, or loaded, checked and kept."""
    try:
        key = tablecache.key_of([(label, found.read_bytes()) for label, found in named.items()])
    except OSError:
        return _load_named(named)  # which reports the file that cannot be read
    kept = tablecache.unpack(tablecache.kept(key))
    if kept is not None:
        return TableSet.kept(kept, lambda: _checked(named, key))
    return _checked(named, key)


def _checked(named: Mapping[str, Path | Traversable], key: str) -> TableSet:
    """The tables of ``named`` loaded from their files and checked, and kept under ``key``."""
    tables = _load_named(named)
    tablecache.keep(key, tablecache.pack({t.id: t.model_dump_json().encode("utf-8") for t in tables.values()}))
    return tables


@functools.cache
def bundled_tables() -> TableSet:
    """The tables every registered ruleset narrates with (shared and its own), loaded and checked once.

    Where the program keeps the check (:func:`wyrd.oracle.tablecache.keep_in`), a start whose table
    files are byte for byte those of an earlier load that passed takes its result instead."""
    named = _named_files(rulesets())
    if tablecache.kept_in() is None:
        return _load_named(named)
    return _kept_tables(named)


def _draw(table: Table, dice: Dice, deck_state: DeckState | None) -> tuple[Row, int, tuple[int, ...]]:
    used: list[str] = []
    if deck_state is not None:
        stored = deck_state.setdefault(table.id, [])
        if not isinstance(stored, list):
            raise ValueError(f"deck state for {table.id} must be a list of row ids, not {stored!r}")
        used = stored
        if {r.id for r in table.rows} <= set(used):
            used.clear()  # every row has come up: a fresh deck
    if not used:
        if table.dice.weighted:
            value = dice.roll(1, table.total, f"table {table.id}").faces[0]
            row = table.row_at(value)
            faces: tuple[int, ...] = (value,)
        else:
            value, faces = table.dice.roll(dice, f"table {table.id}")
            row = table.row_at(value)
    else:
        left = [r for r in table.rows if r.id not in used]
        value = dice.roll(1, sum(r.weight for r in left), f"deck {table.id}").faces[0]
        faces = (value,)
        pick = value
        row = left[-1]
        for candidate in left:
            if pick <= candidate.weight:
                row = candidate
                break
            pick -= candidate.weight
    if deck_state is not None:
        used.append(row.id)
    return row, value, faces


def roll(table: Table | str, dice: Dice, context: Mapping[str, object] | None = None,
         deck_state: DeckState | None = None, *, tables: Mapping[str, Table] | None = None,
         _depth: int = 0) -> TableResult:
    """Roll on ``table`` (a table or an id looked up in ``tables``, else the bundled ones).

    Args:
        table: the table, or its id.
        dice: every die goes through it.
        context: values for the placeholders (missing ones fall back cleanly).
        deck_state: pass a dict to draw without repeats (see the module docstring); it is updated in place.
        tables: where ids (this one and any the rows roll on) are looked up.
    """
    lookup: Mapping[str, Table] = tables if tables is not None else bundled_tables()
    if isinstance(table, str):
        if table not in lookup:
            raise UnknownTable(f"no table {table!r} is loaded")
        table = lookup[table]
    if _depth > MAX_DEPTH:
        raise RecursionError(f"table {table.id}: rolls nest deeper than {MAX_DEPTH}")
    row, value, faces = _draw(table, dice, deck_state)
    nested: tuple[TableResult, ...] = ()
    ctx: Mapping[str, object] = context or {}
    if row.table:
        if row.table not in lookup:
            raise UnknownTable(f"table {table.id} row {row.id}: no table {row.table!r} is loaded")
        inner = roll(lookup[row.table], dice, context, deck_state, tables=lookup, _depth=_depth + 1)
        nested = (inner,)
        ctx = Layered({"roll": inner.raw}, ctx)
    template = row.text or ("{roll}" if row.table else "")
    raw = fill(template, ctx, capital=False)
    return TableResult(table=table.id, row=row.id, faces=faces, value=value, text=capitalise(raw), raw=raw,
                       nested=nested, deck=deck_state is not None)
