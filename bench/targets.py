"""Issue 21's targets in one run, each beside its floor measured in that same run.

Runs the three suites that hold a target (``startup``: the first prompt beside the import floor;
``simulate``: the simulator beside a bare loop making its draws, and 10,000 games of every bundled
story; ``longgame``: undo, resume, a command and memory at 1k, 10k and 100k commands beside the
1k game's), prints their figures, then gathers every line that states a target into one list with
its verdict, so the whole of the issue reads at a glance.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from bench import longgame, simulate, startup

__all__ = ["run", "summary"]

SUITES: tuple[tuple[str, Callable[[], list[str]]], ...] = (
    ("startup", startup.run), ("simulate", simulate.run), ("longgame", longgame.run))
_VERDICT = re.compile(r"\b(met|not met|missed)\)?\s*$")


def summary(lines: list[str]) -> list[str]:
    """The lines of ``lines`` that end in a verdict, squeezed to one line each."""
    return [" ".join(line.split()) for line in lines if "target" in line and _VERDICT.search(line)]


def run() -> list[str]:
    out: list[str] = []
    every: list[str] = []
    for name, suite in SUITES:
        lines = suite()
        out += [f"### {name}", *lines, ""]
        every += lines
    found = summary(every)
    verdicts = [m.group(1) for line in found if (m := _VERDICT.search(line))]
    return [*out, f"### the targets: {verdicts.count('met')} of {len(found)} met", *found]
