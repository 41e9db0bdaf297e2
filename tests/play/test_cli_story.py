"""The authors' commands: `wyrd stories`, `wyrd check`, `wyrd schema`, `wyrd oracle selftest`;
and `wyrd play --story ID` taking its ruleset from the story (issue 15, point 3), for every ruleset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.rulesets import find_ruleset, rulesets
from wyrd.stories.formats import default_ruleset, discover, format_for

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
    """Issue 15: all 7 bundled files, of every ruleset, are clean; a folder is checked file by file."""
    code, out, _ = run(capsys, "check", str(BUNDLED))
    assert code == 0
    assert out.count(": ok, 0 warnings") == 8 == len(out.splitlines())
    for sub in ("wolden/cults.yaml", "wolden/the-drowned-bell.yaml", "feat/lantern-at-gull-reach.yaml",
                "lots/harrow-mere.yaml", "hollow-fair.yaml"):
        assert f"{sub}: ok" in out


STORIES = [(i.id, i.ruleset) for i in discover([])]


@pytest.mark.parametrize(("ident", "ruleset"), STORIES, ids=[i for i, _ in STORIES])
def test_stories_lists_every_ruleset_s_stories_with_its_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch, ident: str,
                                                            ruleset: str) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    code, out, _ = run(capsys, "stories")
    assert code == 0
    [line] = [line for line in out.splitlines() if line.startswith(f"{ident}: ")]
    assert line.endswith(f"[{find_ruleset(ruleset).name}]")


def test_stories_lists_a_user_story_of_another_ruleset(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine"
    (mine / "lots").mkdir(parents=True)
    source = BUNDLED / "lots" / "harrow-mere.yaml"
    text = source.read_text(encoding="utf-8").replace("id: harrow-mere", "id: my-mere")
    (mine / "lots" / "my-mere.yaml").write_text(text, encoding="utf-8")
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    code, out, _ = run(capsys, "stories", "--content", str(mine))
    assert code == 0
    assert any(line.startswith("my-mere: ") and line.endswith("[Thaeborn]") for line in out.splitlines())


# ruleset, a bundled file, the text to replace and its replacement, the field then named
BROKEN = [
    ("abacus", "the-milestones.yaml", "location: the-moor", "location: nowhere", "location"),
    ("wolden", "wolden/the-drowned-bell.yaml", "harm: ", "harm: -", "harm"),
    ("wolden", "wolden/cults.yaml", "name: The Lantern Wardens", "nmae: The Lantern Wardens", "nmae"),
    ("feat", "feat/lantern-at-gull-reach.yaml", "vigour: 6", "vigour: lots", "vigour"),
    ("lots", "lots/harrow-mere.yaml", "ruleset: lots\nid: harrow-mere", "ruleset: lots\nid: Harrow Mere", "id"),
]


@pytest.mark.parametrize(("ruleset", "name", "old", "new", "field"), BROKEN, ids=[b[1] for b in BROKEN])
def test_check_names_file_line_and_field_in_every_format(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                         ruleset: str, name: str, old: str, new: str,
                                                         field: str) -> None:
    text = (BUNDLED / name).read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    code, out, _ = run(capsys, "check", str(path))
    assert code == 1
    found = [line.split(":", 3) for line in out.splitlines()[:-1]]
    assert all(where == str(path) and at.isdigit() for where, at, *_ in found), out
    [(_, at, _, _)] = [f for f in found if f[2].strip().split(".")[-1].split("[")[0] == field]
    assert new.splitlines()[-1].split(":")[0].strip() in text.replace(old, new, 1).splitlines()[int(at) - 1]


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


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_schema_of_each_ruleset(capsys: pytest.CaptureFixture[str], ruleset: str) -> None:
    code, out, _ = run(capsys, "schema", "--ruleset", ruleset)
    assert code == 0
    schema = json.loads(out)
    assert schema == format_for(ruleset).json_schema()
    assert schema["$schema"].startswith("https://json-schema.org/")
    others = [format_for(r.id).json_schema() for r in rulesets() if r.id != ruleset]
    assert schema not in others


def test_schema_of_an_unknown_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "schema", "--ruleset", "chess")
    assert code == 2 and "no ruleset 'chess'" in err


def test_schema_is_json_schema(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    schema = json.loads(out)
    assert schema["$schema"].startswith("https://json-schema.org/")
    assert schema == format_for(default_ruleset()).json_schema()  # the README's command, as before
    target = tmp_path / "story.schema.json"
    assert run(capsys, "schema", "-o", str(target))[0] == 0
    assert json.loads(target.read_text()) == schema


def test_oracle_selftest_passes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "oracle", "selftest", "--samples", "3000")
    assert code == 0, out


def _played(capsys: pytest.CaptureFixture[str], tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    script = tmp_path / "quit.txt"
    script.write_text("quit\n", encoding="utf-8")
    return run(capsys, "play", *argv, "--seed", "3", "--script", str(script), "--json",
               "--save", str(tmp_path / "game.wyrd"))


@pytest.mark.parametrize(("ident", "ruleset"), STORIES, ids=[i for i, _ in STORIES])
def test_play_takes_the_ruleset_from_the_story(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch, ident: str, ruleset: str) -> None:
    """Issue 15: `wyrd play --story the-drowned-bell` needs no --ruleset; an agreeing one is fine."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    for extra in ([], ["--ruleset", ruleset]):
        code, out, err = _played(capsys, tmp_path, "--story", ident, *extra)
        assert code == 0, err
        started = json.loads(out.splitlines()[0])
        assert started["kind"] == "session_started"
        assert (started["story"], started["ruleset"]) == (ident, ruleset)
        (tmp_path / "game.wyrd").unlink()


@pytest.mark.parametrize(("ident", "ruleset"), STORIES, ids=[i for i, _ in STORIES])
def test_play_refuses_a_ruleset_the_story_is_not(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch, ident: str, ruleset: str) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    other = next(r for r in rulesets() if r.id != ruleset)
    code, out, err = _played(capsys, tmp_path, "--story", ident, "--ruleset", other.id)
    assert code == 1 and out == ""
    assert f"the story {ident!r} is played by {find_ruleset(ruleset).name} (ruleset {ruleset}), not {other.name}" in err
    assert not (tmp_path / "game.wyrd").exists()
