"""``resume`` opens with a short recap of the story so far (issue 18, point 10), in every ruleset."""

from __future__ import annotations

from pathlib import Path

import pytest

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import RECAP_LINES, Console

STORIES = {"abacus": "hollow-fair", "wolden": "the-drowned-bell", "feat": "lantern-at-gull-reach",
           "lots": "harrow-mere"}


@pytest.mark.parametrize("ruleset", sorted(STORIES))
def test_resume_recalls_the_last_of_the_story(tmp_path: Path, ruleset: str) -> None:
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=5, ruleset=ruleset, story=STORIES[ruleset])
    console = Console(session, path)
    new_game = [line.text for line in console.opening().lines]
    assert "Previously:" not in new_game  # a new game's own opening says it all
    shown: list[str] = []
    for line in ("pc take all", "scene"):
        shown += [out.text for out in console.handle(line).lines]
    session.close()
    resumed = Session.resume(path)
    try:
        opened = Console(resumed, path).opening().lines
    finally:
        resumed.close()
    lines = [line.text for line in opened]
    assert "Previously:" in lines
    # the recap, not the hints that follow it (a kit may say again whose move it is)
    recap = [line.text for line in opened[lines.index("Previously:") + 1:] if line.style != "hint"]
    told = [text for text in recap if text in shown]
    assert 0 < len(told) <= RECAP_LINES
    assert told == [text for text in shown if text in told][-len(told):]  # the latest, in order
