"""Damaged saves never give a traceback (issue 16, point 3).

A small real save is damaged in a fixed, seeded sample of ways (bytes flipped, the file cut
short, a page zeroed) and each copy goes through `resume`, `log`, `export` and `saves` in
process: every run ends with 0 or one clean line on stderr. ``python -m bench savefuzz`` runs
a bigger campaign of the same cases.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bench.savefuzz import COMMANDS, damage, judge, make_game, run_case

CASES = 1000


def test_damaged_saves_give_clean_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    data = make_game(tmp_path)
    rng = random.Random(16)
    problems: list[str] = []
    refused = 0
    for case in range(CASES):
        command = COMMANDS[case % len(COMMANDS)]
        wrong = run_case(tmp_path, damage(data, rng), command)
        out = capsys.readouterr()
        wrong += judge(command, out.out, out.err)
        refused += bool(out.err.strip())
        problems += [f"case {case}: {w}" for w in wrong]
    assert problems == [], "\n".join(problems[:20])
    assert refused > CASES // 5  # much of the damage is noticed
