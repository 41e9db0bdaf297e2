"""``wyrd odds lots`` (play/cli_odds_lots.py): the exact odds of a Thaeborn check on the command line.

The numbers follow seed 004 (a check succeeds when the Attribute meets the Difficulty, then
the lots of a WEAL d4 and a WOE d4 may turn it) and RULES.md, "Thaeborn (lots)".
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from wyrd.play.cli.main import main
from wyrd.rules.lots import CheckOdds, check_odds


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Attribute 5 against Difficulty 5: success in 14 casts of 16 (7/8), a FUMBLE fails it, a WASTE voids it."""
    code, out, err = run(capsys, "odds", "lots", "--attribute", "5", "--difficulty", "5")
    assert (code, err) == (0, "")
    intro, lots, outcomes, *_ = out.strip().split("\n\n")
    assert "is a success" in intro
    rows = {line.split()[0]: line for line in lots.splitlines()[1:]}
    assert list(rows) == ["CRIT", "FUMBLE", "WASTE", "WEAL", "WOE", "NONE"]
    assert "1/16" in rows["CRIT"] and "6.2%" in rows["CRIT"]
    assert "9/16" in rows["NONE"] and "56.2%" in rows["NONE"]
    assert "turns the success into a failure" in rows["FUMBLE"]
    table = {line.split()[0]: line.split()[1:] for line in outcomes.splitlines()[1:]}
    assert table["success"] == ["14/16", "7/8", "87.5%"]
    assert table["failure"] == ["1/16", "1/16", "6.2%"]
    assert table["waste"] == ["1/16", "1/16", "6.2%"]


def test_rule_of_fours_is_explained(capsys: pytest.CaptureFixture[str]) -> None:
    """RULES.md, Rule of Fours: 4 short, not even a CRIT; 4 above, not even a FUMBLE."""
    _, out, _ = run(capsys, "odds", "lots", "-a", "1", "-d", "5")
    assert "cannot succeed at all, not even on a CRIT" in out
    assert "still a failure (Rule of Fours)" in out
    _, out, _ = run(capsys, "odds", "lots", "-a", "9", "-d", "5")
    assert "not even a FUMBLE" in out


def test_attack(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004: attacks are exempt: a CRIT lands one even 4 or more short."""
    _, out, _ = run(capsys, "odds", "lots", "-a", "1", "-d", "5", "--attack")
    assert out.startswith("Attack:")
    assert "turns the failure into a success" in out
    assert "may try again" not in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--json: the odds model, fractions as strings such as "7/8"."""
    code, out, _ = run(capsys, "odds", "lots", "-a", "3", "-d", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["kind"], data["gap"], data["base"]) == ("lots_odds", -2, "failure")
    assert (data["p_success"], data["p_failure"], data["p_waste"]) == ("1/16", "7/8", "1/16")
    assert {s["lot"]: s["casts"] for s in data["lots"]} == {
        "crit": 1, "fumble": 1, "waste": 1, "weal": 2, "woe": 2, "none": 9}
    assert sum(Fraction(s["p"]) for s in data["results"]) == 1
    data.pop("kind"), data.pop("gap")
    assert CheckOdds.model_validate(data) == check_odds(3, 5)


def test_proficiency_and_tier_flags(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "lots", "-a", "4", "-d", "5", "--proficiency", "1", "--json")
    assert code == 0
    assert json.loads(out)["p_success"] == "0"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "lots", "-a", "five", "-d", "5"], "whole number"),
        (["odds", "lots", "-a", "5", "-d", "1.5"], "whole number"),
        (["odds", "lots", "-a", "500", "-d", "5"], "between -100 and 100"),
        (["odds", "lots", "-a", "5"], "required"),
        (["odds", "lots", "-d", "5"], "required"),
        (["odds", "lots", "-a", "5", "-d", "5", "--tier", "x"], "whole number"),
    ],
)
def test_bad_input_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    """Bad input: exit 2, the message on stderr, no traceback."""
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_import_stays_light() -> None:
    """Importing the command loads neither pydantic nor the rules (they load when it runs)."""
    probe = (
        "import sys, wyrd.play.kits.lots.odds_cli; "
        "print([m for m in sys.modules if m.split('.')[0] == 'pydantic' or m.split('.')[:2] == ['wyrd', 'rules']])"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


def test_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "wyrd", "odds", "lots", "-a", "6", "-d", "4"],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "7/8" in result.stdout


def test_a_barred_check_reads_as_a_failure(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004, Rule of Fours: "you simply won't be able to succeed at it": an attribute of 9 with a
    proficiency of 5 meets difficulty 9 and is still a failure before the lots."""
    _, out, _ = run(capsys, "odds", "lots", "-a", "9", "-d", "9", "--proficiency", "5")
    assert "is a failure unless the lots turn it" in out
    assert "cannot succeed at all" in out
    assert check_odds(9, 9, proficiency=5).p_success == 0
