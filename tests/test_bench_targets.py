"""`python -m bench targets` (issue 21, point 4: "figures in one run"): every line of the three suites that
states a target is gathered with its verdict, and the default run of every suite does not run them twice."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bench.__main__ import SUITES, main
from bench.targets import summary


def test_the_summary_keeps_each_target_line_with_its_verdict() -> None:
    lines = ["bare loop, the same 55,935 d6 draws        1,023,005 resolutions/s (the floor)",
             "simulator / floor     1/21.3 by CPU time (target 1/25 or better: met)",
             "  hollow-fair (Wyrd Abacus)    3.1 s (6.0 s of CPU; target < 4 s: met)",
             "wyrd play to its first prompt   301.0 ms  (floor +141 ms, 1.88x the floor; target floor +100 ms: missed)",
             "an undo (engine, CPU)   1k 0.18 ms   10k 0.17 ms (0.98x)   (target within 2x: met)",
             "median times by game length; (x) is the ratio to the 1,000-command game's (target: within 2x)"]
    assert summary(lines) == [" ".join(line.split()) for line in lines[1:5]]


def test_targets_is_a_suite_of_its_own_and_not_part_of_the_default_run(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "targets" in SUITES
    ran: list[str] = []

    def suite(name: str) -> Callable[[], list[str]]:
        return lambda: ran.append(name) or []  # type: ignore[func-returns-value]

    for name in list(SUITES):
        monkeypatch.setitem(SUITES, name, suite(name))
    assert main([]) == 0
    assert "targets" not in ran and {"startup", "simulate", "longgame"} <= set(ran)
