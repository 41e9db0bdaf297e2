"""The authors' commands: `wyrd stories`, `wyrd check`, `wyrd schema`, `wyrd oracle selftest`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wyrd.play.cli.main import main

FIXTURES = Path(__file__).resolve().parents[1] / "stories" / "fixtures"
BUNDLED = Path(__file__).resolve().parents[2] / "wyrd" / "stories" / "content"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_stories_lists_the_bundled_ones(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    code, out, _ = run(capsys, "stories")
    assert code == 0
    assert "the-milestones" in out and "hollow-fair" in out and "wrackham" in out


def test_check_passes_the_bundled_stories(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", str(BUNDLED))
    assert code == 0
    assert out.count(": ok,") >= 3


def test_check_names_file_line_and_field(capsys: pytest.CaptureFixture[str]) -> None:
    broken = sorted(FIXTURES.glob("*.yaml"))
    assert broken, "the story tests keep broken fixtures"
    code, out, _ = run(capsys, "check", *map(str, broken))
    assert code == 1
    first = next(line for line in out.splitlines() if ".yaml:" in line and "errors" not in line)
    file, line_no = first.split(":")[:2]
    assert file.endswith(".yaml") and line_no.isdigit()


def test_check_refuses_a_missing_path(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(tmp_path / "nothing.yaml"))
    assert code == 2 and "there is no" in err


def test_schema_is_json_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"].startswith("https://json-schema.org/")
    target = tmp_path / "story.schema.json"
    assert run(capsys, "schema", "-o", str(target))[0] == 0
    assert json.loads(target.read_text()) == schema


def test_oracle_selftest_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "oracle", "selftest", "--samples", "3000")
    assert code == 0, out
