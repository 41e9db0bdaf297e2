"""Checking one table file: structure by pydantic, then ranges, weights and texts.

:func:`compile_file` turns parsed YAML (with line numbers, see
:mod:`wyrd.oracle.yamlfile`) into plain row data, collecting a :class:`Problem` for
each thing wrong: the field, its line, and what is wrong in words. The range
checks work on the exact outcomes of the dice (:mod:`wyrd.oracle.dicespec`): a row that
reaches outside them is out of range, a value two rows cover is an overlap, and a
value no row covers is a gap. Cross-file checks (unknown references, loops) are
in :mod:`wyrd.oracle.tables`, which sees the whole set.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wyrd.oracle.dicespec import DiceSpec, parse_dice
from wyrd.oracle.text import check_template
from wyrd.oracle.yamlfile import Problem, line_of

__all__ = ["TABLE_ID", "compile_file", "find_cycles", "parse_range"]

TABLE_ID = re.compile(r"^[a-z0-9][a-z0-9_.\-]*(/[a-z0-9][a-z0-9_.\-]*)*$")
_RANGE = re.compile(r"^\s*(\d+)\s*(?:[-\u2013]\s*(\d+))?\s*$")


class RowSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str | int | None = None
    range: str | int | None = None
    roll: int | None = None
    weight: int | None = None
    text: str = ""
    table: str | None = None


class TableSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    dice: str
    rows: list[RowSpec] = Field(min_length=1)
    notes: str = ""

    @field_validator("rows", mode="before")
    @classmethod
    def _bare_text(cls, value: Any) -> Any:
        """A row written as a bare string is a row with that text (for weighted tables)."""
        if isinstance(value, list):
            return [{"text": v} if isinstance(v, str) else v for v in value]
        return value


class FileSpec(BaseModel):
    model_config = ConfigDict(extra="forbid")

    tables: list[TableSpec] = Field(min_length=1)
    notes: str = ""


def parse_range(value: str | int) -> tuple[int, int]:
    """``4`` -> (4, 4); ``"1-3"`` -> (1, 3); a ``ValueError`` otherwise."""
    if isinstance(value, int):
        return value, value
    match = _RANGE.match(value)
    if match is None:
        raise ValueError(f"{value!r} is not a roll or a range like 1-3")
    low = int(match.group(1))
    high = int(match.group(2) or low)
    if low > high:
        raise ValueError(f"range {value!r} runs backwards")
    return low, high


def _field(loc: Sequence[int | str]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def _span(values: list[int]) -> str:
    return str(values[0]) if len(values) == 1 else f"{values[0]}-{values[-1]}"


def _pair(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


class _Checker:
    def __init__(self, data: Any, file: str, prefix: tuple[int | str, ...]) -> None:
        self.data, self.file, self.prefix = data, file, prefix
        self.problems: list[Problem] = []

    def add(self, loc: tuple[int | str, ...], message: str) -> None:
        full = self.prefix + loc
        self.problems.append(Problem(file=self.file, line=line_of(self.data, full), field=_field(full),
                                     message=message))

    def table(self, spec: TableSpec) -> dict[str, Any] | None:
        if not TABLE_ID.match(spec.id):
            self.add(("id",), f"{spec.id!r} is not a table id (lower case words joined by - and /)")
        try:
            dice = parse_dice(spec.dice)
        except ValueError as exc:
            self.add(("dice",), str(exc))
            return None
        before = len(self.problems)
        rows = self._weighted(spec, dice) if dice.weighted else self._ranged(spec, dice)
        seen: dict[str, int] = {}
        for i, (row_spec, row) in enumerate(zip(spec.rows, rows, strict=True)):
            if row["id"] in seen:
                self.add(("rows", i, "id"), f"table {spec.id}: row id {row['id']!r} is also row {seen[row['id']]}")
            seen.setdefault(row["id"], i)
            if not row_spec.text and not row_spec.table:
                self.add(("rows", i), f"table {spec.id}: a row needs text, a table to roll on, or both")
            why = check_template(row_spec.text)
            if why:
                self.add(("rows", i, "text"), f"table {spec.id}: {why}")
            if row_spec.table is not None and not TABLE_ID.match(row_spec.table):
                self.add(("rows", i, "table"), f"{row_spec.table!r} is not a table id")
            row["line"] = line_of(self.data, (*self.prefix, "rows", i))
        if len(self.problems) > before:
            return None
        return {"id": spec.id, "title": spec.title, "dice": dice, "rows": rows, "file": self.file,
                "line": line_of(self.data, self.prefix)}

    def _weighted(self, spec: TableSpec, dice: DiceSpec) -> list[dict[str, Any]]:
        rows = []
        for i, r in enumerate(spec.rows):
            for name in ("range", "roll"):
                if getattr(r, name) is not None:
                    self.add(("rows", i, name), f"table {spec.id} is rolled by weights: give this row a weight, "
                                                f"not a {name}")
            weight = 1 if r.weight is None else r.weight
            if weight < 1:
                self.add(("rows", i, "weight"), f"table {spec.id}: a weight of {weight} can never come up "
                                                "(weights are whole numbers from 1)")
            rows.append({"id": str(r.id) if r.id is not None else f"#{i + 1}", "weight": weight,
                         "text": r.text, "table": r.table})
        return rows

    def _ranged(self, spec: TableSpec, dice: DiceSpec) -> list[dict[str, Any]]:
        outcomes = dice.outcomes()
        owner: dict[int, int] = {}
        rows: list[dict[str, Any]] = []
        for i, r in enumerate(spec.rows):
            row: dict[str, Any] = {"id": str(r.id) if r.id is not None else f"row{i + 1}", "weight": 0,
                                   "text": r.text, "table": r.table}
            rows.append(row)
            if r.weight is not None:
                self.add(("rows", i, "weight"), f"table {spec.id} is rolled with {dice.notation}: "
                                                "give this row a range or a roll, not a weight")
            given = [(name, v) for name, v in (("range", r.range), ("roll", r.roll)) if v is not None]
            if len(given) != 1:
                self.add(("rows", i), f"table {spec.id}: a row of a {dice.notation} table needs exactly one "
                                      "of range (1-3) or roll (4)")
                continue
            name, raw = given[0]
            try:
                low, high = parse_range(raw)
            except ValueError as exc:
                self.add(("rows", i, name), f"table {spec.id}: {exc}")
                continue
            row.update(low=low, high=high)
            if r.id is None:
                row["id"] = _pair(low, high)
            if low < dice.low or high > dice.high:
                self.add(("rows", i, name), f"table {spec.id}: {_pair(low, high)} is out of range: "
                                            f"{dice.notation} rolls {dice.low} to {dice.high}")
                continue
            covered = [v for v in outcomes if low <= v <= high]
            if not covered:
                self.add(("rows", i, name), f"table {spec.id}: no roll of {dice.notation} lands in "
                                            f"{_pair(low, high)}")
                continue
            clash = sorted({owner[v] for v in covered if v in owner})
            for j in clash:
                both = [v for v in covered if owner.get(v) == j]
                self.add(("rows", i, name), f"table {spec.id}: {_pair(low, high)} overlaps row {j} "
                                            f"({rows[j]['id']}) at {_span(both)}")
            for v in covered:
                owner.setdefault(v, i)
            row["weight"] = sum(outcomes[v] for v in covered)
        self._gaps(spec, dice, outcomes, owner)
        return rows

    def _gaps(self, spec: TableSpec, dice: DiceSpec, outcomes: Mapping[int, int], owner: Mapping[int, int]) -> None:
        run: list[int] = []
        gaps: list[str] = []
        for v in outcomes:  # in ascending order: consecutive uncovered values make one gap
            if v not in owner:
                run.append(v)
            elif run:
                gaps.append(_span(run))
                run = []
        if run:
            gaps.append(_span(run))
        if gaps:
            self.add(("rows",), f"table {spec.id}: no row covers {', '.join(gaps)} "
                                f"({dice.notation} rolls {dice.low} to {dice.high})")


def compile_file(data: Any, file: str) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The tables in one parsed file as plain dicts, and every problem found."""
    many = isinstance(data, dict) and "tables" in data
    try:
        specs = FileSpec.model_validate(data).tables if many else [TableSpec.model_validate(data)]
    except ValidationError as exc:
        return [], [Problem(file=file, line=line_of(data, tuple(e["loc"])), field=_field(tuple(e["loc"])),
                            message=e["msg"]) for e in exc.errors()]
    compiled: list[dict[str, Any]] = []
    problems: list[Problem] = []
    for i, spec in enumerate(specs):
        checker = _Checker(data, file, ("tables", i) if many else ())
        table = checker.table(spec)
        problems.extend(checker.problems)
        if table is not None:
            compiled.append(table)
    return compiled, problems


def find_cycles(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Loops in a table-reference graph, each as a path that returns to its start."""
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph.get(node, ()):
            if state.get(nxt) == 1:
                full = [*path, node]
                cycles.append([*full[full.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, node])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [])
    return cycles
