"""How the ``wyrd`` subcommands print: aligned columns, exact chances, JSON, and exit codes.

Every ``wyrd odds`` kind, whichever ruleset adds it, shows its numbers the same
way: a fraction beside a percentage that never rounds a possibility away, in
columns, or with ``--json`` one indented object whose fractions are strings.
Only the standard library is imported, so a ruleset's odds module may use this
while ``wyrd --version`` stays fast.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fractions import Fraction

__all__ = [
    "EXIT_FAILURE",
    "EXIT_OK",
    "EXIT_USAGE",
    "chance",
    "chance_cells",
    "columns",
    "percent",
    "print_json",
    "print_lines",
]

# Exit codes: 0 success, 1 a failure while running, 2 invalid input (bad arguments or values
# the rules refuse).
EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2


def percent(p: Fraction) -> str:
    """A percentage that never rounds a possibility to 0% or 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    text = f"{float(p) * 100:.1f}%"
    if text == "100.0%":
        return ">99.9%"
    if text == "0.0%":
        return "<0.1%"
    return text


def chance(p: Fraction) -> str:
    """A fraction with its percentage: ``1/3 (33.3%)``."""
    return f"{p} ({percent(p)})"


def chance_cells(p: Fraction, exact: bool = True) -> list[str]:
    """Two cells, a fraction and its percentage; the fraction's is empty when ``exact`` is False."""
    return [str(p) if exact else "", percent(p)]


def columns(header: list[str] | None, rows: list[list[str]], *, right: set[int], indent: str = "") -> list[str]:
    """Align cells in columns; column numbers in ``right`` are right-aligned."""
    table = ([header] if header else []) + rows
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    out = []
    for r in table:
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(r, widths, strict=True))
        ]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def print_lines(lines: list[str]) -> None:
    print("\n".join(lines))


def print_json(data: object) -> None:
    print(json.dumps(data, indent=2))
