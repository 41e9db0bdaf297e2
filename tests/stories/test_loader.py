"""Reading story files (stories/loader.py): errors name file, line and field; hostile files fail fast."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import yaml

from wyrd.stories.abacus.loader import discover, find_story, load_story
from wyrd.stories.loader import (
    BUNDLED,
    MAX_ALIASES,
    Problem,
    Severity,
    StoryError,
    format_path,
    read_yaml,
    story_files,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
Data = Callable[[], dict[str, Any]]


def problems(path: Path | str) -> list[tuple[int | None, str, str]]:
    with pytest.raises(StoryError) as caught:
        load_story(path)
    return [(p.line, p.field, p.message) for p in caught.value.problems]


@contextmanager
def quickly(seconds: float = 2.0) -> Iterator[None]:
    start = time.perf_counter()
    yield
    assert time.perf_counter() - start < seconds


def write(tmp_path: Path, text: str, name: str = "story.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# -- errors name the file, the line and the field ------------------------------------


def test_field_errors_name_line_and_field() -> None:
    found = problems(FIXTURES / "bad_fields.yaml")
    assert [(line, field) for line, field, _ in found] == [
        (13, "scenes[0].next[0].when"),
        (22, "scenes[1].challenges[0].value"),
        (23, "scenes[1].challenges[1].value"),  # missing: the line of the mapping that lacks it
        (26, "scenes[1].challenges[1].vaule"),
        (29, "scenes[1].challenges[2].type"),
    ]
    messages = [m for _, _, m in found]
    assert messages[0].startswith("a condition is always, or one of overcome: CHALLENGE")
    assert messages[1] == "Input should be greater than or equal to 0"
    assert messages[2] == "required field missing"
    assert messages[3].startswith("unknown field")


def test_error_text_is_file_line_field_message() -> None:
    with pytest.raises(StoryError) as caught:
        load_story(FIXTURES / "bad_fields.yaml")
    lines = str(caught.value).splitlines()
    assert lines[1] == (f"{FIXTURES / 'bad_fields.yaml'}:22: scenes[1].challenges[0].value: "
                        "Input should be greater than or equal to 0")
    assert caught.value.problems[1].column == 9


def test_relative_paths_are_kept_as_given(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES.parent)
    with pytest.raises(StoryError) as caught:
        load_story("fixtures/bad_fields.yaml")
    assert str(caught.value).splitlines()[1].startswith("fixtures/bad_fields.yaml:22: scenes[1].challenges[0].value")


def test_wrong_types() -> None:
    with quickly():
        found = problems(FIXTURES / "bad_types.yaml")
    assert [(line, field) for line, field, _ in found] == [(7, "pregens[0].body"), (10, "scenes")]
    assert "valid integer" in found[0][2] and "valid list" in found[1][2]


def test_yaml_syntax_error_names_the_line() -> None:
    ((line, field, message),) = problems(FIXTURES / "bad_syntax.yaml")
    assert line == 3 and field == ""
    assert "quoted scalar" in message


def test_a_key_written_twice_is_an_error() -> None:
    ((line, _, message),) = problems(FIXTURES / "duplicate_key.yaml")
    assert line == 4
    assert message == "key 'title' is written twice in this mapping (first on line 2)"


def test_positions_inside_flow_mappings(tmp_path: Path, story_data: Data) -> None:
    data = story_data()
    del data["clocks"], data["stage_rules"]
    path = write(tmp_path, yaml.safe_dump(data, sort_keys=False) +
                 "clocks: [{id: night, name: Night, thresholds: [{at: x}]}]\n")
    with pytest.raises(StoryError) as caught:
        load_story(path)
    text = path.read_text().splitlines()
    (problem,) = caught.value.problems
    assert problem.field == "clocks[0].thresholds[0].at"
    assert problem.line == len(text) and text[problem.line - 1][problem.column - 1:].startswith("at: x")


def test_yaml_12_booleans_keep_on_as_a_key(tmp_path: Path, story_data: Data) -> None:
    """``on:`` is a trigger field, not YAML 1.1's boolean true."""
    data = story_data()
    del data["stage_rules"]
    text = yaml.safe_dump(data, sort_keys=False) + (
        "stage_rules:\n"
        "  - id: cold\n"
        "    name: Cold\n"
        "    trigger: {on: wyrd_roll, at_or_under: dread}\n"
    )
    path = write(tmp_path, text)
    story = load_story(path)
    assert story.stage_rules[0].trigger.on == "wyrd_roll"
    assert story.origin is not None and story.origin.file == str(path)
    data, _ = read_yaml(write(tmp_path, "a: yes\nb: on\nc: true\nd: False\n", "b.yaml"))
    assert data == {"a": "yes", "b": "on", "c": True, "d": False}


def test_loaded_story_remembers_positions(tmp_path: Path, story_data: Data) -> None:
    path = write(tmp_path, yaml.safe_dump(story_data(), sort_keys=False))
    story = load_story(path)
    assert story.origin is not None
    line, _ = story.origin.positions[("scenes", 1)]
    assert path.read_text().splitlines()[line - 1].strip() == "- id: end"
    assert story.origin.locate(("scenes", 1, "nothing", 3)) == story.origin.positions[("scenes", 1)]


# -- hostile files -------------------------------------------------------------------


def test_billion_laughs_is_refused_quickly() -> None:
    with quickly():
        ((line, _, message),) = problems(FIXTURES / "alias_bomb.yaml")
    assert "aliases expand" in message and line is not None


def test_too_many_aliases(tmp_path: Path) -> None:
    refs = ", ".join(["*a"] * (MAX_ALIASES + 1))
    path = write(tmp_path, f"id: &a x\nlist: [{refs}]\n")
    with quickly():
        ((line, _, message),) = problems(path)
    assert line == 2 and message == f"refused: more than {MAX_ALIASES} aliases"
    assert read_yaml(write(tmp_path, f"id: &a x\nlist: [{', '.join(['*a'] * MAX_ALIASES)}]\n", "ok.yaml"))


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "id: x\nnest: " + "[" * 200 + "]" * 200 + "\n")
    with quickly():
        ((line, _, message),) = problems(path)
    assert line == 2 and "nesting deeper than 64" in message


def test_deep_nesting_in_block_style(tmp_path: Path) -> None:
    text = "".join("  " * i + f"k{i}:\n" for i in range(200)) + "  " * 200 + "end\n"
    with quickly():
        ((_, _, message),) = problems(write(tmp_path, text))
    assert "nesting deeper than 64" in message


def test_nesting_through_aliases_is_counted(tmp_path: Path) -> None:
    inner = "[" * 40 + "1" + "]" * 40
    path = write(tmp_path, f"a: &a {inner}\nb: {'[' * 40}*a{']' * 40}\n")
    with quickly():
        ((_, _, message),) = problems(path)
    assert "through aliases" in message


def test_recursive_alias_is_refused(tmp_path: Path) -> None:
    ((line, _, message),) = problems(write(tmp_path, "a: &a [1, *a]\n"))
    assert line == 1 and "contains it" in message


def test_a_two_megabyte_file_is_refused_unread(tmp_path: Path) -> None:
    path = write(tmp_path, "id: big\npremise: " + "a" * 2 * 1024 * 1024 + "\n")
    with quickly(0.5):
        ((line, _, message),) = problems(path)
    assert line is None and "a story file may be at most 1,048,576 bytes" in message


_READ_ALL = """
import json, sys
if sys.argv[1] == "pure":
    sys.modules["yaml._yaml"] = None  # as PyYAML built without libyaml
from wyrd.stories.loader import StoryError, read_yaml
out = []
for path in sys.argv[2:]:
    try:
        data, positions = read_yaml(path)
        out.append([data, sorted([list(k), v] for k, v in positions.items())])
    except StoryError as exc:
        out.append([[p.line, p.column] + ([p.message] if p.message.startswith("refused") else [])
                    for p in exc.problems])
print(json.dumps(out))
"""


def test_without_libyaml_files_read_the_same(tmp_path: Path) -> None:
    """libyaml parses story files where PyYAML has it; without it the pure-Python parser gives the
    same data, positions and refusals, and syntax errors at the same place."""
    from wyrd.stories import yamlguard

    assert yamlguard.SafeLoader is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)
    paths = [str(BUNDLED / "the-milestones.yaml"), str(FIXTURES / "bad_syntax.yaml")] + [
        str(write(tmp_path, text, f"{i}.yaml")) for i, text in enumerate([
            "id: x\nnest: " + "[" * 200 + "]" * 200 + "\n",
            f"id: &a x\nlist: [{', '.join(['*a'] * (MAX_ALIASES + 1))}]\n",
            "id: [a, b\n", "id: [", "a: &a [1, *a]\n", "a: 1\n\tb: 2\n"])]
    read = {kind: subprocess.run([sys.executable, "-c", _READ_ALL, kind, *paths], capture_output=True, text=True,
                                 check=True, timeout=60).stdout for kind in ("pure", "default")}
    assert read["pure"] == read["default"]


@pytest.mark.parametrize(("text", "expected"), [
    ("", "is empty"),
    ("# only a comment\n", "is empty"),
    ("- a\n- b\n", "a story file holds one mapping"),
    ("just text\n", "a story file holds one mapping"),
    ("a: 1\n---\nb: 2\n", "expected a single document"),
    ("a: !!python/object:os.system x\n", "could not determine a constructor"),
    ("? [a, b]\n: c\n", "found unhashable key"),
])
def test_odd_files(tmp_path: Path, text: str, expected: str) -> None:
    ((_, _, message),) = problems(write(tmp_path, text))
    assert expected in message


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"id: x\ntitle: caf\xe9\n")
    assert problems(path) == [(2, "", "is not UTF-8 text")]


def test_missing_file(tmp_path: Path) -> None:
    assert problems(tmp_path / "nope.yaml") == [(None, "", "no such story file")]
    assert problems(tmp_path) == [(None, "", "no such story file")]


# -- problems, paths -----------------------------------------------------------------


def test_problem_text() -> None:
    assert str(Problem("x.yaml", 4, 2, "scenes[0]", "bad")) == "x.yaml:4: scenes[0]: bad"
    assert str(Problem("x.yaml", None, None, "", "bad")) == "x.yaml: bad"
    assert str(Problem(None, None, None, "id", "bad", Severity.WARNING)) == "id: warning: bad"
    assert str(StoryError([Problem("a", 1, 1, "", "x"), Problem("a", 2, 1, "", "y")])) == "a:1: x\na:2: y"


def test_format_path() -> None:
    assert format_path(("scenes", 3, "challenges", 0, "value")) == "scenes[3].challenges[0].value"
    assert format_path(()) == ""


# -- finding stories -----------------------------------------------------------------


def test_story_files(tmp_path: Path, story_data: Data) -> None:
    write(tmp_path, "x", "a.yaml")
    write(tmp_path, "x", "b.yml")
    write(tmp_path, "x", "notes.txt")
    (tmp_path / "folder").mkdir()
    write(tmp_path / "folder", "x", "story.yaml")
    write(tmp_path / "folder", "x", "other.yaml")
    names = [p.relative_to(tmp_path).as_posix() for p in story_files(tmp_path)]
    assert names == ["a.yaml", "b.yml", "folder/story.yaml"]
    assert story_files(tmp_path / "missing") == []


def test_discover_bundled_and_user_folders(tmp_path: Path, story_data: Data) -> None:
    mine = tmp_path / "stories"
    (mine / "tiny-folder").mkdir(parents=True)
    write(mine / "tiny-folder", yaml.safe_dump(story_data()), "story.yaml")
    write(mine, "id: [", "broken.yaml")
    infos = discover([BUNDLED, mine, tmp_path / "absent"])
    ids = [i.id for i in infos]
    assert {"hollow-fair", "wrackham", "the-milestones", "tiny", "broken"} <= set(ids)
    tiny = next(i for i in infos if i.id == "tiny")
    assert tiny.ok and tiny.title == "Tiny" and tiny.folder == mine and tiny.players == (1, 4)
    broken = next(i for i in infos if i.id == "broken")
    assert not broken.ok and broken.problems[0].file == str(mine / "broken.yaml")


def test_find_story_earliest_folder_wins(tmp_path: Path, story_data: Data) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    write(first, yaml.safe_dump({**story_data(), "title": "First"}), "tiny.yaml")
    write(second, yaml.safe_dump({**story_data(), "title": "Second"}), "tiny.yaml")
    assert find_story("tiny", [first, second]).title == "First"
    assert find_story("tiny", [second, first]).title == "Second"
    assert find_story("hollow-fair", [BUNDLED]).title == "The Hollow Fair"


def test_find_story_unknown_or_broken(tmp_path: Path) -> None:
    with pytest.raises(StoryError) as caught:
        find_story("nothing", [BUNDLED])
    assert "there is no story 'nothing' (known: hollow-fair, the-milestones, wrackham)" in str(caught.value)
    write(tmp_path, "id: [", "broken.yaml")
    with pytest.raises(StoryError) as caught:
        find_story("broken", [tmp_path])
    assert caught.value.problems[0].line == 1
