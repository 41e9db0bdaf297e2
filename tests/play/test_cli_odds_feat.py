"""``wyrd odds feat`` (play/cli_odds_feat.py): the Feat table's odds on the command line.

The numbers follow RULES.md (the Feat table, 1/2 at 0 and halving) and seed 003 (the
d100 step-up; the climb at 7 with 6/81 is 3/10).
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from wyrd.play.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_one_level(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: at +4 the first two dice must show 8 and 7: 1/32."""
    code, out, err = run(capsys, "odds", "feat", "+4")
    assert code == 0 and err == ""
    assert "Feat level +4" in out and "8, 7" in out
    assert "3.1% (1/32)" in out and "96.9% (31/32)" in out  # Issue 18, point 4: percent first


def test_negative_level_json(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: at -5 only a double 1 fails: 1/64; JSON fractions are strings."""
    code, out, _ = run(capsys, "odds", "feat", "-5", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "feat_odds"
    assert (data["level"], data["needs"], data["minimums"]) == (-5, "any", [2, 2])
    assert (data["p_success"], data["p_failure"]) == ("63/64", "1/64")


def test_the_climb(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 003: Difficulty 7, skill 6/81: 3/10."""
    code, out, _ = run(capsys, "odds", "feat", "--skill", "6/81", "--difficulty", "7")
    assert code == 0
    assert "Success 30.0% (3/10); failure 70.0% (7/10)." in out
    assert "20.0% (1/5)" in out
    code, out, _ = run(capsys, "odds", "feat", "-s", "6/81", "-d", "7", "--json")
    data = json.loads(out)
    assert data["kind"] == "skill_feat_odds"
    assert (data["p_success"], data["p_step_up"], data["stepped"]["p_success"]) == ("3/10", "1/5", "1/2")


def test_the_whole_table(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: seventeen levels, success halving upwards from 1/2."""
    code, out, _ = run(capsys, "odds", "feat", "--json")
    assert code == 0
    rows = json.loads(out)["rows"]
    assert [r["level"] for r in rows] == list(range(-8, 9))
    assert [Fraction(r["p_success"]) for r in rows if r["level"] >= 0] == [Fraction(1, 2 ** k) for k in range(1, 10)]
    code, out, _ = run(capsys, "odds", "feat")
    assert code == 0 and "511/512" in out and "+8" in out


def test_eights_and_attribute(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md: a bought 8 at +4 leaves a 7 to roll (1/4); an attribute has no d100
    (Mettle 5 against shock at 8: +3, 1/16)."""
    code, out, _ = run(capsys, "odds", "feat", "4", "--eights", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["p_success"] == "1/4" and data["wyrd_cost"] == 5
    code, out, _ = run(capsys, "odds", "feat", "--attribute", "5", "--difficulty", "8")
    assert code == 0 and "1/16" in out and "no d100" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["9"], "LEVEL runs from -8 to 8"),
        (["x"], "expected a whole number"),
        (["--skill", "6-81", "-d", "7"], "LEVEL/MODIFIER"),
        (["--skill", "6/0", "-d", "7"], "modifier runs from 1 to 99"),
        (["--skill", "6/81"], "need --difficulty"),
        (["-d", "7"], "need --difficulty"),
        (["3", "-d", "7"], "not both"),
        (["--skill", "6/81", "--attribute", "5", "-d", "7"], "not both"),
        (["-s", "6/81", "-d", "-1"], "--difficulty runs from 0"),
        (["-a", "10", "-d", "5"], "--attribute runs from 0 to 9"),
        (["0", "--eights", "4"], "--eights runs from 0 to 3"),
    ],
)
def test_bad_input_exits_2_in_one_line(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    code, out, err = run(capsys, "odds", "feat", *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert err.count("\n") == 1 and err.startswith("wyrd: error: ")


def test_cli_import_stays_light() -> None:
    """The module adds its parser without importing the rules (they load in the handler)."""
    probe = (
        "import sys, wyrd.play.kits.feat.odds_cli; "
        "print([m for m in sys.modules if m.split('.')[0] == 'pydantic' or m.split('.')[:2] == ['wyrd', 'rules']])"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
