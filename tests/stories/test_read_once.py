"""A story file is parsed once on the way to a new game's first prompt (issue 21, point 2).

``wyrd play --story ID`` reads the file to learn its ruleset, then the ruleset's format loads it:
the second reading takes the first's data (:func:`wyrd.stories.yamlread.read_yaml` with ``keep``)
and finds the same story; a file changed in between, or one the two readings could tell apart,
is read as it was before.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.cli.story import play_ruleset
from wyrd.play.engine.session import Session
from wyrd.stories import yamlread
from wyrd.stories.abacus.loader import load_story
from wyrd.stories.formats import BUNDLED, story_ruleset
from wyrd.stories.loader import read_yaml
from wyrd.stories.problems import StoryError


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files :func:`read_yaml` parses (not those it takes as kept), in order."""
    seen: list[str] = []
    parse: Callable[[str, str], Any] = yamlread._parse

    def counted(name: str, text: str) -> Any:
        seen.append(Path(name).name)
        return parse(name, text)

    monkeypatch.setattr(yamlread, "_parse", counted)
    return seen


def test_a_new_game_parses_its_story_once(parses: list[str], tmp_path: Path) -> None:
    ruleset = play_ruleset("hollow-fair", None, [])
    session = Session.new(tmp_path / "g.wyrd", seed=3, story="hollow-fair", ruleset=ruleset)
    try:
        assert ruleset == "abacus"
        assert parses == ["hollow-fair.yaml"]
        assert session.follower.play.story.model_dump() == load_story(BUNDLED / "hollow-fair.yaml").model_dump()
    finally:
        session.close()


def test_the_kept_reading_is_handed_out_once(parses: list[str], tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("id: s\ntitle: S\n", encoding="utf-8")
    first = read_yaml(path, keep=True)
    assert read_yaml(path) is first
    again = read_yaml(path)
    assert again == first and again is not first
    assert parses == ["s.yaml", "s.yaml"]


def test_a_file_changed_after_the_first_reading_is_read_anew(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text("id: s\ntitle: S\n", encoding="utf-8")
    read_yaml(path, keep=True)
    path.write_text("id: s\ntitle: Changed\n", encoding="utf-8")
    data, positions = read_yaml(path)
    assert data["title"] == "Changed" and positions[("title",)] == (2, 1)


def test_a_ruleset_yaml_1_1_reads_as_a_boolean_is_decided_as_before(tmp_path: Path) -> None:
    # YAML 1.1 (how the ruleset has always been found) reads `on` as true, so the file names no
    # ruleset and is the default's; the loader's YAML 1.2 would read the text "on".
    (tmp_path / "odd.yaml").write_text("id: odd\nruleset: on\ntitle: Odd\n", encoding="utf-8")
    assert story_ruleset("odd", [tmp_path]) == "abacus"


def test_a_file_the_loader_refuses_finds_its_ruleset_as_before(tmp_path: Path) -> None:
    path = tmp_path / "twice.yaml"
    path.write_text("id: twice\nruleset: wolden\nruleset: abacus\n", encoding="utf-8")
    assert story_ruleset("twice", [tmp_path]) == "abacus"  # YAML 1.1: the last one written
    with pytest.raises(StoryError, match="written twice"):
        read_yaml(path)
