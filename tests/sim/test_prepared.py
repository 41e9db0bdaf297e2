"""A story simulated by id is read, validated and prepared once per process, and read again when its file
changes (issue 21, point 1: the story's reading taken off every ``simulate`` call, never stale)."""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.sim.conftest import story_data
from wyrd.sim.abacus import simulate
from wyrd.sim.abacus.prepared import prepared


def _write(folder: Path, value: int) -> None:
    door = {"id": "door", "name": "The Door", "type": "obstruction", "value": value,
            "on_fail": [{"do": "mark", "text": "It holds."}]}
    (folder / "tiny.yaml").write_text(yaml.safe_dump(story_data([door])), encoding="utf-8")


def test_the_same_file_is_prepared_once_and_a_changed_file_is_read_again(tmp_path: Path) -> None:
    _write(tmp_path, 7)
    first = prepared("tiny", [tmp_path])
    assert prepared("tiny", [tmp_path]) is first
    assert first.kit(None) is first.kit(None) and first.layout(None) is first.layout(None)
    easy = simulate("tiny", 200, seed=3, dirs=[tmp_path])
    assert simulate("tiny", 200, seed=3, dirs=[tmp_path]) == easy
    _write(tmp_path, 12)  # a harder door: the report must follow the file, not the kept story
    again = prepared("tiny", [tmp_path])
    assert again is not first
    assert again.kit(None).scenes["door"].challenges[0].value == 12
    hard = simulate("tiny", 200, seed=3, dirs=[tmp_path])
    assert hard.scenes[0].challenges[0].overcome.p < easy.scenes[0].challenges[0].overcome.p


def test_a_story_found_only_by_reading_every_file_is_found_as_before(tmp_path: Path) -> None:
    _write(tmp_path, 7)
    (tmp_path / "tiny.yaml").rename(tmp_path / "other-name.yaml")
    assert prepared("tiny", [tmp_path]).story.id == "tiny"
