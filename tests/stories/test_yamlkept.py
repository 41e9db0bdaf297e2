"""A story file's reading kept between starts (issue 21, point 2: a new game of any ruleset reads its
story's YAML as JSON an earlier start kept, instead of parsing and checking it again).

What a kept reading gives is exactly what reading gives, positions included; a file changed, a kept
reading changed by hand, or a file JSON cannot give back exactly is read anew; a file that does not
read is never kept and is reported as before; nothing is kept unless the program names a folder.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from wyrd import kept as keeping
from wyrd.stories import yamlguard, yamlread
from wyrd.stories.problems import StoryError
from wyrd.stories.yamlguard import safe_load
from wyrd.stories.yamlread import read_yaml

BUNDLED = Path(yamlread.__file__).resolve().parent / "content" / "hollow-fair.yaml"


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Path]:
    where = tmp_path / "cache"
    keeping.keep_in(lambda: where)
    yield where
    keeping.keep_in(None)


def _never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(name: str, text: str) -> Any:
        raise AssertionError(f"{name} parsed again")

    monkeypatch.setattr(yamlread, "_parse", refuse)


def _kept(where: Path) -> list[Path]:
    return sorted(where.glob("story-*.json"))


def test_a_second_reading_takes_the_kept_one_and_gets_the_same_data_and_positions(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    keeping.keep_in(None)
    plain = read_yaml(BUNDLED)
    keeping.keep_in(lambda: folder)
    first = read_yaml(BUNDLED)  # parsed, checked and kept
    assert len(_kept(folder)) == 1
    _never_parsed(monkeypatch)
    second = read_yaml(BUNDLED)
    assert first == plain and second == plain
    # the positions' keys come back as the tuples of steps they were, not as lists
    assert all(type(steps) is tuple for steps in second[1])
    assert second[1][("scenes", 0, "id")] == plain[1][("scenes", 0, "id")]


def test_a_kept_readings_positions_are_read_when_first_asked_for(folder: Path) -> None:
    """Issue 21, point 2: a story whose reading was kept loads without reading its positions (about
    1 ms of The Hollow Fair's start); they are read when a problem or ``wyrd check`` asks for one."""
    from wyrd.stories import yamlkept
    from wyrd.stories.abacus.loader import load_story

    plain = read_yaml(BUNDLED)  # parsed, and kept
    story = load_story(BUNDLED)
    assert story.origin is not None
    positions = story.origin.positions
    assert isinstance(positions, yamlkept._KeptPositions) and positions._text is not None  # still unread
    assert story.origin.locate(("scenes", 0, "id")) == plain[1][("scenes", 0, "id")]
    assert positions._text is None  # read now, once
    assert dict(positions) == plain[1] and len(positions) == len(plain[1])


def _ada_kept(folder: Path, tmp_path: Path) -> tuple[Path, Path]:
    """A small story read once: the file, and its kept reading."""
    story = tmp_path / "s.yaml"
    story.write_text("id: a\nname: Ada\n")
    read_yaml(story)
    [file] = _kept(folder)
    return story, file


def _forge(file: Path, body: bytes) -> None:
    """Write ``body`` as a kept result, its digest made again over it (as if kept so)."""
    file.write_bytes(hashlib.sha256(body).hexdigest().encode() + b"\n" + body)


def test_kept_positions_that_are_not_positions_tell_no_line(folder: Path, tmp_path: Path) -> None:
    story, file = _ada_kept(folder, tmp_path)
    head, text, _ = file.read_bytes().partition(b"\n")[2].split(b"\n")
    _forge(file, b"\n".join([head, text, b'{"not": "rows"}']))
    data, positions = read_yaml(story)
    assert data == {"id": "a", "name": "Ada"} and dict(positions) == {}


def test_a_changed_file_is_read_again_and_its_reading_replaces_the_old(folder: Path, tmp_path: Path) -> None:
    story = tmp_path / "s.yaml"
    story.write_text("id: a\nlist: [1, 2]\n")
    assert read_yaml(story)[0] == {"id": "a", "list": [1, 2]}
    [old] = _kept(folder)
    story.write_text("id: b\nlist: [1, 2, 3]\n")
    data, positions = read_yaml(story)
    assert data == {"id": "b", "list": [1, 2, 3]}
    assert positions[("list", 2)] == (2, 14)
    [new] = _kept(folder)
    assert new != old  # one reading a path, its latest


def test_a_kept_reading_changed_by_hand_is_not_taken(folder: Path, tmp_path: Path) -> None:
    story, file = _ada_kept(folder, tmp_path)
    check, _, body = file.read_bytes().partition(b"\n")
    file.write_bytes(check + b"\n" + body.replace(b"Ada", b"Eve"))
    assert read_yaml(story)[0] == {"id": "a", "name": "Ada"}
    # A digest made again over something that is not a reading is not taken either.
    _forge(file, json.dumps({"data": {"id": "x"}}).encode())
    assert read_yaml(story) == read_yaml(story)
    assert read_yaml(story)[0] == {"id": "a", "name": "Ada"}


@pytest.mark.parametrize("text", [
    "id: a\nwhen: 2026-12-01\n",       # a date
    "id: a\n1: one\n",                 # a number as a key
    "id: a\nblob: !!binary aGk=\n",    # bytes
    "id: a\nodd: .nan\n",              # not a number
    "id: a\ntwo: !!set {x, y}\n",      # a set
])
def test_a_file_json_cannot_give_back_exactly_is_read_anew_each_time(folder: Path, tmp_path: Path,
                                                                     text: str) -> None:
    story = tmp_path / "s.yaml"
    story.write_text(text)
    first = read_yaml(story)
    assert _kept(folder) == []
    second = read_yaml(story)
    assert repr(first) == repr(second)


def test_a_file_that_does_not_read_is_never_kept_and_is_reported_as_before(folder: Path, tmp_path: Path) -> None:
    story = tmp_path / "s.yaml"
    story.write_text("id: a\nid: b\n")
    for _ in range(2):
        with pytest.raises(StoryError) as caught:
            read_yaml(story)
        [problem] = caught.value.problems
        assert (problem.line, "written twice" in problem.message) == (2, True)
    assert _kept(folder) == []


def test_nothing_is_kept_without_a_folder(tmp_path: Path) -> None:
    keeping.keep_in(None)
    story = tmp_path / "s.yaml"
    story.write_text("id: a\n")
    read_yaml(story)
    assert not list(tmp_path.rglob("story-*.json"))


def test_a_folder_that_cannot_be_written_leaves_the_reading_as_it_is(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    keeping.keep_in(lambda: blocked / "cache")
    try:
        story = tmp_path / "s.yaml"
        story.write_text("id: a\n")
        assert read_yaml(story)[0] == {"id": "a"}
    finally:
        keeping.keep_in(None)


def test_a_new_game_reads_its_story_from_the_reading_an_earlier_start_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``wyrd`` command keeps readings in the data folder; a second start parses nothing."""
    from wyrd.play.cli.main import main

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    script = tmp_path / "quit.txt"
    script.write_text("status\n")
    try:
        assert main(["play", "--story", "hollow-fair", "--seed", "1", "--save", str(tmp_path / "a.wyrd"),
                     "--script", str(script)]) == 0
        assert len(_kept(tmp_path / "cache")) == 1
        _never_parsed(monkeypatch)
        assert main(["play", "--story", "hollow-fair", "--seed", "1", "--save", str(tmp_path / "b.wyrd"),
                     "--script", str(script)]) == 0
    finally:
        keeping.keep_in(None)


# -- the other rulesets' files, read as YAML 1.1 (wyrd.stories.yamlguard.safe_load) --------------


def _never_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("loaded again")

    monkeypatch.setattr(yamlguard.yaml, "load", refuse)


def test_a_second_load_of_a_file_takes_the_kept_one(folder: Path, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    story = tmp_path / "s.yaml"
    text = "id: a\nflag: yes\nempty:\nlist: [1, 2.5, 'x']\n"  # `yes` is true in YAML 1.1
    story.write_text(text)
    first = safe_load(text, source=story)
    assert first == {"id": "a", "flag": True, "empty": None, "list": [1, 2.5, "x"]}
    assert [p.name.split("-")[0] for p in folder.glob("*.json")] == ["yaml11"]
    _never_loaded(monkeypatch)
    assert safe_load(text, source=story) == first
    assert read_yaml(story)[0]["flag"] == "yes"  # the YAML 1.2 reading is kept apart: `yes` is text there


def test_a_load_without_its_file_or_of_other_text_is_not_taken_from_what_was_kept(
        folder: Path, tmp_path: Path) -> None:
    story = tmp_path / "s.yaml"
    safe_load("id: a\n", source=story)
    assert safe_load("id: b\n", source=story) == {"id": "b"}  # the file changed
    assert len(list(folder.glob("yaml11-*.json"))) == 1  # and its reading replaced the old
    assert safe_load("id: c\n") == {"id": "c"}  # no file named: nothing kept
    assert len(list(folder.glob("yaml11-*.json"))) == 1


def test_an_empty_file_loads_as_none_from_what_was_kept_too(folder: Path, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    story = tmp_path / "empty.yaml"
    assert safe_load("# nothing\n", source=story) is None
    _never_loaded(monkeypatch)
    assert safe_load("# nothing\n", source=story) is None


def test_a_file_past_the_limits_is_refused_every_time_and_never_kept(folder: Path, tmp_path: Path) -> None:
    story = tmp_path / "deep.yaml"
    text = "a: " + "[" * 80 + "]" * 80 + "\n"
    for _ in range(2):
        with pytest.raises(yamlguard.yaml.YAMLError, match="nesting deeper"):
            safe_load(text, source=story)
    assert list(folder.glob("*.json")) == []


@pytest.mark.parametrize(("story", "ruleset"), [("the-drowned-bell", "wolden"), ("lantern-at-gull-reach", "feat"),
                                                ("harrow-mere", "lots")])
def test_a_new_game_of_every_ruleset_reads_its_files_from_what_an_earlier_start_kept(
        story: str, ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from wyrd.play.cli.main import main

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    script = tmp_path / "quit.txt"
    script.write_text("status\n")
    try:
        assert main(["play", "--story", story, "--seed", "1", "--save", str(tmp_path / "a.wyrd"),
                     "--script", str(script)]) == 0
        assert list((tmp_path / "cache").glob("yaml11-*.json"))
        _never_parsed(monkeypatch)
        _never_loaded(monkeypatch)
        assert main(["play", "--story", story, "--seed", "1", "--save", str(tmp_path / "b.wyrd"),
                     "--script", str(script)]) == 0
    finally:
        keeping.keep_in(None)


# -- PyYAML itself, loaded only when a file is parsed ------------------------------------------------

_START = """
import sys
from wyrd.play.cli.main import main
assert main(sys.argv[1:]) == 0
print("loaded" if "yaml.error" in sys.modules else "not loaded")
"""


@pytest.mark.parametrize("story", ["hollow-fair", "the-drowned-bell", "lantern-at-gull-reach", "harrow-mere"])
def test_a_start_whose_files_were_all_kept_never_loads_pyyaml(story: str, tmp_path: Path) -> None:
    """Issue 21, point 2: importing PyYAML (its resolvers' expressions compiled, libyaml linked) costs
    about 85 M instructions, a sixth of a start's own; a new game or a resume whose story and tables an
    earlier start kept reads no YAML, so PyYAML stays unloaded (``yamlguard.yaml`` is put in place
    unloaded). The first start parsed its files, and loaded it."""
    script = tmp_path / "status.txt"
    script.write_text("status\n", encoding="utf-8")

    def start(*argv: str) -> str:
        done = subprocess.run([sys.executable, "-c", _START, *argv, "--script", str(script)], capture_output=True,
                              text=True, timeout=120, check=True, cwd=Path(__file__).resolve().parents[2],
                              env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path), "WYRD_MODEL": "table"})
        return done.stdout.splitlines()[-1]

    assert start("play", "--story", story, "--seed", "1", "--save", str(tmp_path / "a.wyrd")) == "loaded"
    assert start("play", "--story", story, "--seed", "2", "--save", str(tmp_path / "b.wyrd")) == "not loaded"
    assert start("resume", str(tmp_path / "b.wyrd")) == "not loaded"


_STAMP = """
from wyrd.stories.yamlkept import pyyaml_stamp
print(pyyaml_stamp())
from wyrd.stories.yamlguard import yaml
print(type(yaml).__name__)
"""


def test_pyyaml_is_told_apart_by_its_files_without_loading_it(tmp_path: Path) -> None:
    """The kept readings' key names PyYAML by its files (name, size, time), read without importing it:
    a file of it changed, added or removed changes the key. Here a stand-in package takes its place."""
    package = tmp_path / "yaml"
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('not to be loaded')\n", encoding="utf-8")
    (package / "__pycache__").mkdir()

    def stamp() -> list[str]:
        done = subprocess.run([sys.executable, "-c", _STAMP], capture_output=True, text=True, check=True, timeout=60,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{tmp_path}:{Path(__file__).parents[2]}"})
        return done.stdout.splitlines()

    first, kind = stamp()
    assert kind == "_LazyModule" and "__init__.py" in first and "__pycache__" not in first
    assert stamp()[0] == first
    (package / "_yaml.so").write_bytes(b"\0")  # as a build with libyaml
    second = stamp()[0]
    assert second != first
    (package / "_yaml.so").write_bytes(b"\0\0")
    assert stamp()[0] not in {first, second}
