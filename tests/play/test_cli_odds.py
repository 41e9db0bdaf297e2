"""Tests for the ``wyrd`` entry point: ``--version`` and ``wyrd odds``.

The odds printed follow seed 000's challenge roll (1d6 + points assigned >= value, then +1
per scene Wyrd point drawn after a failure) and influence roll (highest of N d6; no dice
counts as 1); RULES.md, "Wyrd Abacus".
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import wyrd.rules.odds
from wyrd.play.cli.main import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- --version and the parser ------------------------------------------------------------------


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out == "wyrd 0.1.0\n"


def test_the_version_is_the_sources_and_the_installed_metadata_says_the_same() -> None:
    """``wyrd --version`` prints ``wyrd.__version__``, which pyproject.toml gives the package's metadata,
    and reads no installed package's metadata to do it (about 20 ms at every start)."""
    import importlib.metadata

    import wyrd

    assert importlib.metadata.version("wyrd") == wyrd.__version__
    probe = ("import sys; from wyrd.play.cli.main import main; code = main(['--version']); "
             "print(code, 'importlib.metadata' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [f"wyrd {wyrd.__version__}", "0 False"]


def test_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "challenge", "--help")
    assert code == 0
    assert "--pool" in out


def test_no_command_starts_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`wyrd` alone starts a game, as `wyrd play` does (here fed from a non-terminal stdin)."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    monkeypatch.setattr("sys.stdin", io.StringIO("pc add Ada body=5 mind=5 soul=5\n"))
    code, out, _ = run(capsys)
    assert code == 0
    assert "Ada joins" in out
    assert list((tmp_path / "saves").glob("*.wyrd"))


def test_cli_import_stays_light() -> None:
    """`wyrd --version` must stay fast: importing the CLI loads neither pydantic nor the rules."""
    probe = (
        "import sys, wyrd.play.cli.main; "
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('pydantic', 'icepool') "
        "or m.split('.')[:2] == ['wyrd', 'rules']]; "
        "print(heavy)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"


def test_runs_as_a_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "wyrd", "odds", "challenge", "7", "-p", "2", "-w", "2"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    assert "2/3" in result.stdout


# --- wyrd odds challenge -----------------------------------------------------------------------


def test_challenge_table_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000: value 7 with 2 points overcomes on 5-6 (1/3); a pool of 2 drawn after a
    failure also rescues a 3 or 4 (2/3). The table lists 0, 1 and 2 points."""
    code, out, err = run(capsys, "odds", "challenge", "7", "--points", "2", "--pool", "2")
    assert code == 0
    assert err == ""
    intro, table, detail = out.strip().split("\n\n")
    assert intro.startswith("Challenge 7")
    header, *lines = table.splitlines()
    assert header.split()[:2] == ["points", "overcome"]
    rows = {line.split()[0]: line.split() for line in lines}
    assert list(rows) == ["0", "1", "2"]
    assert rows["0"][1:5] == ["0", "0%", "1/3", "33.3%"]
    assert rows["1"][1:5] == ["1/6", "16.7%", "1/2", "50.0%"]
    assert rows["2"][1:5] == ["1/3", "33.3%", "2/3", "66.7%"]
    assert "more than the pool" in detail  # the breakdown of Wyrd draws for 2 points


def test_challenge_without_points_goes_up_to_certainty(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000: with value - 1 points even a 1 on the die succeeds; the table stops there."""
    code, out, _ = run(capsys, "odds", "challenge", "5", "--json")
    assert code == 0
    data = json.loads(out)
    assert [row["points"] for row in data["rows"]] == [0, 1, 2, 3, 4]
    assert [row["p_overcome"] for row in data["rows"]] == ["1/3", "1/2", "2/3", "5/6", "1"]
    assert data["points"] is None


def test_challenge_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, challenge roll, as JSON: fractions are strings such as "1/3"."""
    code, out, _ = run(capsys, "odds", "challenge", "7", "--points", "2", "--pool", "2", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "challenge_odds"
    assert (data["value"], data["pool"], data["points"]) == (7, 2, 2)
    last = data["rows"][-1]
    assert last["p_overcome"] == "1/3"
    assert last["p_with_pool"] == "2/3"
    assert last["expected_draws"] == "1/2"
    assert [Fraction(c["p"]) for c in last["draws"]] == [
        Fraction(1, 3),
        Fraction(1, 6),
        Fraction(1, 6),
    ]
    # The JSON is the model: it reads back into the same odds.
    assert wyrd.rules.odds.ChallengeOdds.model_validate(last) == wyrd.rules.odds.challenge_odds(7, 2, 2)


def test_challenge_without_pool_has_one_column(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "challenge", "3")
    assert code == 0
    assert "with the pool" not in out
    assert "2/3" in out  # value 3 with no points: a 2 or better


# --- wyrd odds influence -----------------------------------------------------------------------


def test_influence_text(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000, influence roll: the highest of 3 d6 is a 6 with chance 91/216."""
    code, out, err = run(capsys, "odds", "influence", "3")
    assert code == 0
    assert err == ""
    assert "91/216" in out
    assert "42.1%" in out


def test_influence_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "influence", "3", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["kind"] == "influence_odds"
    assert data["dice"] == 3
    assert data["p_any_six"] == "91/216"
    assert {c["outcome"]: c["p"] for c in data["highest"]}[1] == "1/216"
    assert sum(Fraction(c["p"]) for c in data["ties"]) == 1


def test_influence_of_no_dice_is_one(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 000: a trait of 0 counts as a result of 1."""
    code, out, _ = run(capsys, "odds", "influence", "0", "--json")
    assert code == 0
    highest = {c["outcome"]: c["p"] for c in json.loads(out)["highest"]}
    assert highest == {1: "1", 2: "0", 3: "0", 4: "0", 5: "0", 6: "0"}
    code, out, _ = run(capsys, "odds", "influence", "0")
    assert code == 0
    assert "counts as 1" in out


def test_many_dice_show_percentages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "odds", "influence", "40")
    assert code == 0
    assert "%" in out
    assert "/" not in out.split("\n", 2)[2]  # past the header, no unreadable fractions


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["odds", "challenge", "-3"], "can't be negative"),
        (["odds", "challenge", "7", "--points", "-1"], "can't be negative"),
        (["odds", "challenge", "7", "--pool", "-2"], "can't be negative"),
        (["odds", "challenge", "seven"], "whole number"),
        (["odds", "challenge", "7", "--points", "1.5"], "whole number"),
        (["odds", "challenge", "100000"], "at most"),
        (["odds", "challenge"], "required"),
        (["odds", "influence", "-1"], "can't be negative"),
        (["odds", "influence", "1000"], "at most"),
        (["odds"], "required"),
        (["odds", "dice", "3"], "invalid choice"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert message in err
    assert "Traceback" not in err


def test_a_value_the_rules_refuse_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ValueError from the rules core is reported in one line, not as a traceback."""

    def refuse(value: int, max_points: int, pool: int = 0) -> list[wyrd.rules.odds.ChallengeOdds]:
        raise ValueError("value can't be negative (got -1)")

    monkeypatch.setattr(wyrd.rules.odds, "challenge_table", refuse)
    code, out, err = run(capsys, "odds", "challenge", "7")
    assert code == 2
    assert out == ""
    assert err == "wyrd: error: value can't be negative (got -1)\n"
