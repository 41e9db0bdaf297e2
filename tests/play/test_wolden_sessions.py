"""Wolden downtime at play: once a session, only somewhere settled; a session is one run of play or resume.

Seed 001 (001_0ed33d63b95f167b.txt): "Once per session or between sessions, at most, when the characters
have a chance to spend a day or night in a reasonably sized village or city, or back in Wolden, they can
choose one of Focused Training, Going Shopping, Pure Rest, or Carousing". README (Wolden rules notes): a
play session is one run of ``wyrd play`` or ``wyrd resume``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import wyrd.rules.wolden as W
from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def opened(path: Path | None, lines: list[str]) -> tuple[Session, Console, list[dict[str, Any]]]:
    """A new game opened as a front-end opens it (a new sitting), with ``lines`` played."""
    session = Session.new(path, seed=3, ruleset="wolden")
    console = Console(session, path)
    console.opening()
    events: list[dict[str, Any]] = []
    for line in lines:
        events += console.handle(line).events
    return session, console, events


def game(session: Session) -> W.GameState:
    assert isinstance(session.state, W.GameState)
    return session.state


def test_session_cannot_be_typed_at_will(tmp_path: Path) -> None:
    """The issue's case: 8 -> 12 -> 16 gift slots in one scene by typing `session` between downtimes."""
    session, console, events = opened(tmp_path / "s.wyrd", [
        "story the-drowned-bell", "pc take all", "scene", "downtime wenna rest"])
    assert any(e["kind"] == "downtime_taken" for e in events)
    slots = game(session).characters["Wenna Ashgrove"].slots
    refused = console.handle("session").events[0]
    assert refused["kind"] == "refused" and refused["rule"] == "wolden.session.same-sitting"
    again = console.handle("downtime wenna rest").events[0]
    assert again["rule"] == "wolden.downtime.once-per-session"
    assert game(session).characters["Wenna Ashgrove"].slots == slots and game(session).session == 1
    session.close()


def test_only_in_a_settled_scene(tmp_path: Path) -> None:
    """Seed 001: only "in a reasonably sized village or city, or back in Wolden": the scene's `settled`."""
    session, console, events = opened(None, ["story the-drowned-bell", "pc take all", "downtime wenna rest"])
    assert events[-1]["rule"] == "wolden.downtime.not-settled"  # no scene begun: not arrived anywhere
    console.handle("scene")  # the gate at Wolden: settled
    console.handle("scene")  # the causeway: a montage, not settled
    console.handle("abandon")
    refused = console.handle("downtime ysolde rest").events[0]
    assert refused["rule"] == "wolden.downtime.not-settled"
    assert "Ysolde Marrow" not in game(session).downtime


def test_without_a_scenario_the_players_say_where_they_are() -> None:
    """[ours] Without a scenario nobody but the players knows the place: taking a downtime says it is settled."""
    _, _, events = opened(None, ["pc add Bo brine-choir might=0 agility=1 mind=2 graces=3", "downtime bo rest"])
    assert any(e["kind"] == "downtime_taken" for e in events)


def test_undo_stays_in_the_same_session(tmp_path: Path) -> None:
    """[ours] Undo rebuilds the game but opens no new sitting: no second downtime by undoing something."""
    session, console, _ = opened(tmp_path / "u.wyrd", [
        "story the-drowned-bell", "pc take all", "scene", "downtime wenna rest", "downtime corin rest"])
    assert console.handle("undo").events[0]["command"] == "downtime corin rest"
    assert console.handle("session").events[0]["rule"] == "wolden.session.same-sitting"
    assert console.handle("downtime wenna rest").events[0]["rule"] == "wolden.downtime.once-per-session"
    session.close()


def test_resuming_begins_a_new_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A run of `wyrd resume` is a new session: the first downtime in it begins session 2 by itself."""
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("story the-drowned-bell\npc take all\nscene\ndowntime wenna rest\nsession\n", encoding="utf-8")
    rest.write_text("downtime wenna rest\nsession\ndowntime corin rest\ndowntime corin rest\n", encoding="utf-8")
    save = tmp_path / "r.wyrd"
    assert main(["play", "--ruleset", "wolden", "--seed", "2", "--save", str(save), "--script", str(first),
                 "--json"]) == 0
    played = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert played[-1]["rule"] == "wolden.session.same-sitting"
    assert main(["resume", str(save), "--script", str(rest), "--json"]) == 0
    resumed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    kinds = [e["kind"] for e in resumed]
    assert kinds[:2] == ["session_advanced", "downtime_taken"] and resumed[1]["session"] == 2
    refusals = [e["rule"] for e in resumed if e["kind"] == "refused"]
    # `session` again in the same run, then Corin's second downtime of session 2
    assert refusals == ["wolden.session.same-sitting", "wolden.downtime.once-per-session"]
    assert sum(e["kind"] == "downtime_taken" for e in resumed) == 2
    # and the save replays to the same game: the sittings are in the saved arguments
    again = Session.resume(save)
    try:
        assert game(again).session == 2 and game(again).downtime == ["Wenna Ashgrove", "Corin Tallow"]
    finally:
        again.close()
