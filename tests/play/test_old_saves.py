"""Saves written by the previous release still resume, to exactly the state they were left in.

Issue 15, point 7 ("nothing lost on the way"): the five saves in ``fixtures/saves`` were written
by the release before the engine stopped naming rulesets (one per ruleset, two for the Abacus:
plain challenge rolls, and a whole story followed scene by scene). Each ``.state.json`` beside
them is what that release resumed the save to. Point 2 of the issue makes the Abacus story one
kit follower among four; snapshots taken before that kept it under ``story``, and still resume.
Issue 17 changed what some Heroes of the Fall commands decide: ``feat_try_attribute``,
``feat_shock_held`` and ``feat_wyrd_oppose`` were played by the release before it (see
``test_feat_editions.py``).
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import wyrd.play.engine.history as history_module
from tests.play.saveedit import reseal
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.abacus.following import StoryFollower

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saves"
SAVES = sorted(FIXTURES.glob("*.wyrd"))


def test_every_ruleset_has_an_old_save() -> None:
    rulesets = {json.loads(p.with_suffix(".state.json").read_text(encoding="utf-8"))["ruleset"] for p in SAVES}
    assert rulesets == {"abacus", "wolden", "feat", "lots"}


@pytest.mark.parametrize("save", SAVES, ids=[p.stem for p in SAVES])
def test_an_old_save_resumes_to_the_state_it_was_left_in(save: Path, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    copy = tmp_path / save.name  # resuming may write (WAL), never to the fixture itself
    shutil.copyfile(save, copy)
    expected = json.loads(save.with_suffix(".state.json").read_text(encoding="utf-8"))
    session = Session.resume(copy)
    try:
        assert session.ruleset == expected["ruleset"]
        assert session.state.model_dump(mode="json") == expected["state"]
        assert session.next_command == expected["next_command"]
        assert session.next_event == expected["next_event"]
    finally:
        session.close()


def test_an_old_story_save_follows_its_story_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Abacus story in an old save is followed as before: the next `scene` is the story's."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    copy = tmp_path / "story.wyrd"
    shutil.copyfile(FIXTURES / "story_hollow_fair.wyrd", copy)
    session = Session.resume(copy)
    try:
        follower = session.follower
        assert isinstance(follower, StoryFollower) and follower.play is not None
        assert follower.play.story.id == "hollow-fair" and follower.play.played
    finally:
        session.close()


def _story_session(path: Path) -> Session:
    session = Session.new(path, seed=4, story="hollow-fair", ruleset="abacus")
    console = Console(session, path)
    for line in ["pc take all", "scene", "wyrd", "end scene", "scene"]:
        console.handle(line)
    return session


def test_a_snapshot_of_the_story_taken_before_followers_resumes(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot whose Abacus story is under ``story`` (as the previous release wrote it) resumes
    to the same follower as replaying every command does."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    monkeypatch.setattr(history_module, "SNAPSHOT_EVERY", 3)
    path = tmp_path / "snap.wyrd"
    live = _story_session(path)
    assert isinstance(live.follower, StoryFollower) and live.follower.play is not None
    played = list(live.follower.play.played)
    assert played, "the script plays a scene through"
    live.close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT id, extra FROM snapshots").fetchall()
        assert rows, "the script is long enough for a snapshot"
        for ident, extra in rows:
            old = json.loads(extra)
            old["story"] = old.pop("follower")
            conn.execute("UPDATE snapshots SET extra = ? WHERE id = ?", (json.dumps(old), ident))
    reseal(path)  # as the previous release wrote it, digests apart (issue 16, point 3)
    resumed = Session.resume(path)
    try:
        assert resumed.save is not None and resumed.save.latest_snapshot() is not None
        assert isinstance(resumed.follower, StoryFollower) and resumed.follower.play is not None
        assert resumed.follower.play.played == played
        assert resumed.follower.snapshot() == live.follower.snapshot()
    finally:
        resumed.close()
