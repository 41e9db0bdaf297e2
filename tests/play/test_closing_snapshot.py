"""A game closed is snapshot as it is left, so that resuming it replays nothing (issue 21, point 2).

For every ruleset: the resumed game is the game as closed (state, story follower, the tables' decks,
the next event's number), no command is replayed, and the next command tells what it would have told
without the pause. Closing with nothing new since the latest snapshot adds none; an undo after a
resume takes the closing snapshot back like any other; a game whose process was killed is replayed.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine.session import Session

# a story of each ruleset, and lines that move its state, its story and its tables' decks
GAMES = {
    "abacus": ("the-milestones", ["pc take all", "scene", "wyrd"], "scene"),
    "wolden": ("the-drowned-bell", ["pc take all", "scene"], "scene"),
    "feat": ("lantern-at-gull-reach", ["scene"], "scene"),
    "lots": ("harrow-mere", ["pc take all", "scene"], "scene"),
}


def _play(path: Path, ruleset: str, seed: int = 5) -> Session:
    story, lines, _ = GAMES[ruleset]
    session = Session.new(path, seed=seed, ruleset=ruleset, story=story)
    for line in lines:
        reply = session.execute(line)
        assert reply.refused is None, reply.reason
    return session


def _snapshots(path: Path) -> list[tuple[int, Any]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute("SELECT seq, invalidated_by FROM snapshots ORDER BY id").fetchall()


def _as_left(session: Session) -> dict[str, Any]:
    return {"state": session.state.model_dump(mode="json"), "next_event": session.next_event,
            "next_command": session.next_command, "deck": session.teller.deck,
            "follower": session.follower.snapshot() if session.follower is not None else None}


def _no_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(self: Session, record: Any) -> None:
        raise AssertionError(f"command {record.seq} replayed")

    monkeypatch.setattr(Session, "_replay", refuse)


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_closed_game_resumes_from_its_closing_snapshot_as_it_was_left(
        ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.wyrd"
    live = _play(path, ruleset)
    left = _as_left(live)
    last = live.save.last_live() if live.save is not None else None
    assert last is not None and _snapshots(path) == []  # none due yet in a short game
    live.close()
    assert _snapshots(path) == [(last.seq, None)]
    with monkeypatch.context() as patched:
        _no_replay(patched)
        resumed = Session.resume(path)
    try:
        assert _as_left(resumed) == left
        # The game goes on as it would have: the same next command, from a game never paused.
        straight = _play(tmp_path / "straight.wyrd", ruleset)
        try:
            line = GAMES[ruleset][2]
            assert [r.plain() for r in resumed.execute(line).events] == \
                [r.plain() for r in straight.execute(line).events]
        finally:
            straight.close()
    finally:
        resumed.close()


def test_closing_with_nothing_new_since_the_latest_snapshot_adds_none(tmp_path: Path) -> None:
    path = tmp_path / "game.wyrd"
    _play(path, "abacus").close()
    Session.resume(path).close()
    assert len(_snapshots(path)) == 1
    again = Session.resume(path)
    again.execute("status")  # shows, changes nothing: no command to snapshot
    again.close()
    assert len(_snapshots(path)) == 1


def test_an_undo_after_a_resume_takes_the_closing_snapshot_back(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.wyrd"
    live = _play(path, "abacus")
    assert live.undo().refused is None
    before_last = _as_left(live)
    live.execute("wyrd")
    live.close()
    resumed = Session.resume(path)
    assert resumed.undo().refused is None
    assert _as_left(resumed)["state"] == before_last["state"]
    resumed.close()
    [(first, undone), (second, valid)] = _snapshots(path)
    assert undone is not None and valid is None and second < first
    with monkeypatch.context() as patched:
        _no_replay(patched)
        again = Session.resume(path)
    try:
        assert _as_left(again)["state"] == before_last["state"]
    finally:
        again.close()


def test_a_game_whose_process_was_killed_is_replayed_to_the_same_game(tmp_path: Path) -> None:
    path = tmp_path / "game.wyrd"
    live = _play(path, "lots")
    left = _as_left(live)
    assert live.save is not None
    live.save.close()  # as a killed process leaves it: no closing snapshot
    assert _snapshots(path) == []
    resumed = Session.resume(path)
    try:
        assert _as_left(resumed) == left
    finally:
        resumed.close()


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_with_a_kept_folder_a_quit_games_state_is_kept_and_its_resume_builds_no_validator_for_it(
        ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its state, validated as the resume will read it when the game is closed, is kept
    (wyrd.stories.modelkept) and taken back by the resume: the same game, with its story."""
    from wyrd import kept
    from wyrd.stories import modelkept

    kept.keep_in(lambda: tmp_path / "cache")
    path = tmp_path / "game.wyrd"
    live = _play(path, ruleset)
    left = _as_left(live)
    state_model = type(live.state)
    live.close()
    assert list((tmp_path / "cache").glob(f"model-{state_model.__name__.lower()}-*.pickle"))
    modelkept._RECENT.clear()  # as a new process: nothing remembered

    def refuse(cls: type[Any], *args: Any, **kwargs: Any) -> Any:
        raise AssertionError(f"{cls.__name__} validated again")

    with monkeypatch.context() as patched:
        _no_replay(patched)
        patched.setattr(state_model, "model_validate", classmethod(refuse))
        resumed = Session.resume(path)
    try:
        assert _as_left(resumed) == left
        assert resumed.state == state_model.model_validate(left["state"])
    finally:
        resumed.close()
