"""Issue 17 in play (``wyrd play --ruleset feat``): the verbs decide as seed 003 says, and show the odds
of the roll they make. The golden ``tests/golden/feat_fidelity.txt`` plays each case with its citation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import wyrd.play.kits.feat.kit  # noqa: F401  (registers the feat kit)
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

IDA = "pc add Ida vigour=6 mettle=5 wit=5 glamour=4 spirit=5 skill=climbing:vigour:3"
ROOK = "pc add Rook vigour=6 mettle=3 wit=5 glamour=2 spirit=2 tier=none wyrd=5 skill=cutpurse:vigour:6/23"
VIC = "pc add Vic vigour=4 mettle=5 wit=5 glamour=5 spirit=5 tier=none"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def play(*lines: str) -> list[list[dict[str, Any]]]:
    session = Session.new(None, seed=5, ruleset="feat")
    console = Console(session, None)
    return [console.handle(line).events for line in lines]


def test_try_and_test_of_an_attribute_are_one_feat() -> None:
    """Seed 003: "The Attribute or Skill is deducted from the Difficulty": Wit 5 at 6 is +1 (1/4)
    whether asked for with `try` or `test`; today `try` showed 51/3200 and rolled a d100."""
    *_, tried, tested = play(IDA, "try Ida wit 6 dice 7 1 1", "test Ida wit 6 dice 7 1 1")
    assert [e["kind"] for e in tried] == [e["kind"] for e in tested]
    odds = [next(e for e in r if e["kind"] == "odds_shown") for r in (tried, tested)]
    assert odds[0]["p_success"] == odds[1]["p_success"] == "1/4"
    assert not any(e["kind"] == "step_up_rolled" for e in tried)


def test_oppose_reads_an_untrained_opponent_as_its_help_says() -> None:
    """`help oppose`: "a skill TARGET lacks, reads as untrained". Seed 003: the difficulty "may be
    arrived at from a relevant Attribute of the opposing character" (today: refused)."""
    *_, opposed = play(ROOK, VIC, "oppose Rook Vic cutpurse dice 10 10 1 1 1")
    odds = next(e for e in opposed if e["kind"] == "odds_shown")
    assert odds["opposing"] == "cutpurse 0/25"  # Vigour 4, rank 0
    assert any(e["kind"] == "opposed_decided" for e in opposed)


def test_eights_asked_beyond_the_level_cost_nothing_more() -> None:
    """RULES.md: "5 buy an automatic 8 on one die read"; at level 0 one 8 settles the feat, so
    Rook's 5 Wyrd points pay for `eights 3` (today: refused as 15)."""
    *_, rolled = play(ROOK, "feat Rook 0 eights 3")
    feat = next(e for e in rolled if e["kind"] == "feat_rolled")
    assert feat["wyrd_spent"] == 5 and feat["success"]
