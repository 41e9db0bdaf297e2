"""A ``story`` command's story is validated once from its arguments for both its readers (issue 21,
point 2: a new game of the Abacus reaches its prompt sooner).

The verb's rules (``apply``) and the story follower each read the saved arguments; they now share one
validation of them, and arguments that are the JSON form of the story just read from its file are that
story (``wyrd.stories.modelkept``). Arguments read anew, as a replay reads them from the save, are
validated anew (or taken from the kept folder, for the same data), so a replay still depends on
nothing but what was saved.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine.session import Session
from wyrd.play.kits.abacus import following
from wyrd.stories.abacus.schema import Story


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen: list[Any] = []
    original = Story.model_validate.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Story], data: Any, *args: Any, **kwargs: Any) -> Story:
        seen.append(data)
        return original(cls, data, *args, **kwargs)  # type: ignore[no-any-return]

    monkeypatch.setattr(Story, "model_validate", classmethod(counted))
    return seen


def test_a_new_game_validates_the_story_once_from_the_file_and_its_arguments_are_that_story(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = _counting(monkeypatch)
    session = Session.new(tmp_path / "g.wyrd", seed=1, ruleset="abacus", story="the-milestones")
    try:
        # the file's data; the saved arguments (its JSON form: the rules' and the follower's) are not validated again
        assert len(seen) == 1 and "scenes" in seen[0]
        follower = session.follower
        assert follower is not None and following.story_of(session.context(session.next_command)) is not None
    finally:
        assert session.save is not None
        session.save.close()  # as a killed process leaves it: the resume below replays the story command
        session.close()
    seen.clear()
    resumed = Session.resume(tmp_path / "g.wyrd")
    try:
        assert len(seen) == 1  # the saved arguments, read anew from the save: validated anew
    finally:
        resumed.close()


def test_the_same_arguments_give_the_same_story_and_other_arguments_another() -> None:
    from wyrd.stories import BUNDLED
    from wyrd.stories.abacus.loader import load_story

    data = load_story(BUNDLED / "the-milestones.yaml").model_dump(mode="json")
    first = following.story_in({"story": data})
    assert following.story_in({"id": "s", "story": data}) is first
    again = following.story_in({"story": dict(data)})
    assert again is not first and again == first
