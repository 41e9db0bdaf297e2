"""``wyrd odds wolden DICE ABILITY [--json]`` (play/cli_odds_wolden.py).

The numbers follow seed 001's roll (RULES.md, Wolden "Roll"); this file sits with the Wolden tests
because it checks the same odds, through the command line.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from wyrd.play.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_table_text(capsys: pytest.CaptureFixture[str]) -> None:
    """2d12 + 3: 1/48 critical failure, 1/24 failure, 1/2 partial, 5/12 success, 1/48 critical success."""
    code, out, err = run(capsys, "odds", "wolden", "2", "3")
    assert (code, err) == (0, "")
    intro, table, summary = out.strip().split("\n\n")
    assert intro.startswith("Wolden roll: 2d12")
    header, *lines = table.splitlines()
    assert header.split() == ["result", "total", "chance"]
    cells = [line.split()[-2:] for line in lines]
    assert cells == [["1/48", "2.1%"], ["1/24", "4.2%"], ["1/2", "50.0%"], ["5/12", "41.7%"], ["1/48", "2.1%"]]
    assert [line.split("  ")[0] for line in lines] == ["critical failure", "failure", "partial success",
                                                      "success", "critical success"]
    assert "1/16" in summary and "7/16" in summary


def test_one_die_notes_no_criticals(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 001: one die can't crit."""
    code, out, _ = run(capsys, "odds", "wolden", "1d12", "0")
    assert code == 0
    assert "can't show a pair" in out


def test_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "wolden", "2", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "wolden_odds"
    assert (data["dice"], data["ability"]) == (2, 3)
    assert data["results"] == {"critical_failure": "1/48", "failure": "1/24", "partial": "1/2",
                               "success": "5/12", "critical_success": "1/48"}
    assert data["any_failure"] == "1/16"
    assert data["expected_rating_change"] == "-5/4"


@pytest.mark.parametrize(
    "argv",
    [("0", "2"), ("5", "2"), ("2", "-1"), ("2", "11"), ("x", "2"), ("2", "two"), ("2",), ("2d6", "1")],
)
def test_invalid_input_exits_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]) -> None:
    """Invalid input is refused with exit code 2 and a message on stderr, never a traceback."""
    code, out, err = run(capsys, "odds", "wolden", *argv)
    assert code == 2
    assert out == ""
    assert "error:" in err and "Traceback" not in err


def test_listed_under_odds(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "--help")
    assert code == 0
    assert "wolden" in out


def test_import_stays_light() -> None:
    """Importing the module loads neither pydantic nor the rules (wyrd --help stays fast)."""
    probe = (
        "import sys, wyrd.play.kits.wolden.odds_cli; "
        "print([m for m in sys.modules if m.split('.')[0] == 'pydantic' or m.split('.')[:2] == ['wyrd', 'rules']])"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
