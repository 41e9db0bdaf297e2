"""Issue 15 point 5: a game's events stay typed from the rules to the edge, for every ruleset.

A Reply's events are the ruleset's own models (numbered by :class:`Recorded`); they
become JSON only in the save file and at a front-end's edge; resume reads the saved
events back through the ruleset's union, hands the follower typed events, and
compares typed values with the replay's.
"""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from tests.play.saveedit import reseal
from wyrd.play.engine.events import SHARED_EVENTS, Recorded
from wyrd.play.engine.reply import SessionError
from wyrd.play.engine.session import Session
from wyrd.rules.actions import Event

# a story of each ruleset, and lines that make its events of several kinds
GAMES = {
    "abacus": ("the-milestones", ["pc take all", "scene", "wyrd"]),
    "wolden": ("the-drowned-bell", ["pc take all", "scene"]),
    "feat": ("lantern-at-gull-reach", ["scene"]),
    "lots": ("harrow-mere", ["pc take all", "scene"]),
}


def _play(path: Path | None, ruleset: str) -> tuple[Session, list[Recorded]]:
    story, lines = GAMES[ruleset]
    session = Session.new(path, seed=3, ruleset=ruleset, story=story)
    shown = list(session.opening_events)
    for line in lines:
        reply = session.execute(line)
        assert reply.refused is None, reply.reason
        shown += reply.events
    return session, shown


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_replys_events_are_the_rulesets_own_models(ruleset: str) -> None:
    session, shown = _play(None, ruleset)
    models = (*session.kit.events.models, *SHARED_EVENTS)
    assert len({e.kind for e in shown}) >= 3
    for recorded in shown:
        assert isinstance(recorded, Recorded) and isinstance(recorded.seq, int)
        assert isinstance(recorded.event, models), recorded.kind
    # the JSON edge: the event's fields after its number, as a script's --json prints it
    first = shown[0].plain()
    assert list(first)[:2] == ["seq", "kind"] and first["kind"] == "session_started"


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_an_event_held_as_any_event_dumps_as_its_own_kind(ruleset: str) -> None:
    """A recorded event, and the events of a narration request, are typed only as ``Event``: each dumps
    with all its own fields all the same (``Event`` serializes polymorphically), as ``plain`` reads it."""
    from wyrd.oracle.narrators.base import NarrationRequest

    _, shown = _play(None, ruleset)
    for recorded in shown:
        own = recorded.event.model_dump(mode="json")
        assert recorded.model_dump(mode="json")["event"] == own
        assert json.loads(recorded.model_dump_json())["event"] == own
    events = [r.event for r in shown]
    request = NarrationRequest.model_construct(events=events)
    assert request.model_dump(mode="json", include={"events"})["events"] == [e.model_dump(mode="json") for e in events]


def _killed(session: Session) -> None:
    """Leave the game as a process killed after its last command does: with no snapshot taken on
    closing, a resume replays every command (what these tests are about)."""
    assert session.save is not None
    session.save.close()


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_resume_hands_the_follower_typed_events(ruleset: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "game.wyrd"
    live, _ = _play(path, ruleset)
    _killed(live)
    seen: list[Any] = []
    follower = type(live.follower)
    original = follower.observe

    def spy(self: Any, verb: str, args: Any, events: Any) -> None:
        seen.extend(events)
        original(self, verb, args, events)

    monkeypatch.setattr(follower, "observe", spy)
    resumed = Session.resume(path)
    try:
        assert seen and all(isinstance(e, Event) for e in seen)
        assert resumed.follower is not None and resumed.follower.snapshot() == live.follower.snapshot()
    finally:
        resumed.close()


def _edit_first(path: Path, kind: str, change: dict[str, Any]) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        command, idx, data = conn.execute(
            "SELECT command, idx, data FROM events WHERE kind = ? ORDER BY command, idx LIMIT 1", (kind,)).fetchone()
        conn.execute("UPDATE events SET data = ? WHERE command = ? AND idx = ?",
                     (json.dumps({**json.loads(data), **change}), command, idx))
    reseal(path)  # past the digests (issue 16, point 3): this test is about what replay makes of it


def test_replay_compares_typed_values(tmp_path: Path) -> None:
    """A saved event that the union reads as the same value replays; a changed value does not."""
    path = tmp_path / "game.wyrd"
    live, _ = _play(path, "abacus")
    _killed(live)
    # the same typed value, written with its fields in another order: still the same event
    with closing(sqlite3.connect(path)) as conn, conn:
        for command, idx, data in conn.execute("SELECT command, idx, data FROM events").fetchall():
            flipped = dict(reversed(list(json.loads(data).items())))
            conn.execute("UPDATE events SET data = ? WHERE command = ? AND idx = ?",
                         (json.dumps(flipped), command, idx))
    reseal(path)
    _killed(Session.resume(path))
    # a different value of a rules event: the replay tells another story
    _edit_first(path, "character_created", {"wyrd": 7})
    with pytest.raises(SessionError, match="replays differently"):
        Session.resume(path)


def test_a_saved_event_of_a_kind_the_ruleset_never_records_does_not_resume(tmp_path: Path) -> None:
    path = tmp_path / "game.wyrd"
    live, _ = _play(path, "lots")
    _killed(live)
    _edit_first(path, "character_created", {"kind": "scene_test"})
    with pytest.raises(SessionError, match="cannot be resumed"):
        Session.resume(path)
