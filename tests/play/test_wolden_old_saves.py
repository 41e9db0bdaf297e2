"""Wolden saves made before issue 17's corrections resume to exactly the state they were left in.

The four ``fixtures/saves/wolden_before17_*.wyrd`` were written by the release before the
corrections (fa45f72), each by the script beside it (``.script.txt``, seed 5), and each
``.state.json`` is what that release resumed it to (tests/play/test_old_saves.py resumes them
all). Each plays a rule that now decides differently; the commands in them replay under the
reading they were played with, and what is typed after resuming follows the text:

* seed 001 (001_0ed33d63b95f167b.txt), downtime "Once per session or between sessions, at most,
  when the characters have a chance to spend a day or night in a reasonably sized village or city,
  or back in Wolden": once taken before any scene and on the causeway (not settled), once taken
  twice in one run by typing `session` between;
* seed 001, in a fight "it is taken as granted that they're at the same time trying to avoid any
  attacks on them": once passed for free while enemies went for the one passing;
* seed 001, "Assemble your dice pool (maximum 4d12)": pools past four dice were refused, so the
  save holds none; today they are capped.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import wyrd.rules.wolden as W
from tests.play.saveedit import reseal
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.wolden.verbs import EDITION, VERBS

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saves"
OLD = ("downtime_settled", "downtime_session", "pass_fight", "pool_cap")
# the arguments the corrected verbs put in; a command saved before them has none
ADDED = {"downtime": {"settled", "run"}, "session": {"run"}, "pass": {"exposed"}}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def copy_of(name: str, tmp_path: Path) -> Path:
    copy = tmp_path / f"{name}.wyrd"  # resuming writes (digests, WAL): never to the fixture itself
    shutil.copyfile(FIXTURES / f"wolden_before17_{name}.wyrd", copy)
    return copy


def commands(name: str) -> list[tuple[str, dict[str, Any]]]:
    """The live commands of a fixture, text and saved arguments, read straight from the file."""
    with sqlite3.connect(f"file:{FIXTURES / f'wolden_before17_{name}.wyrd'}?mode=ro&immutable=1", uri=True) as conn:
        rows = conn.execute("SELECT text, parsed FROM commands WHERE status = 'live' ORDER BY seq").fetchall()
    return [(text, json.loads(parsed)) for text, parsed in rows]


def resumed(name: str, tmp_path: Path) -> tuple[Session, Console]:
    """A fixture resumed as `wyrd resume` opens it: a new play session begins."""
    path = copy_of(name, tmp_path)
    session = Session.resume(path)
    console = Console(session, path)
    console.opening()
    return session, console


def game(session: Session) -> W.GameState:
    assert isinstance(session.state, W.GameState)
    return session.state


def expected(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FIXTURES / f"wolden_before17_{name}.state.json").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("name", OLD)
def test_the_fixtures_were_saved_before_the_corrections(name: str) -> None:
    """No saved command carries an edition or any argument the corrected verbs add."""
    saved = commands(name)
    assert saved, name
    for text, parsed in saved:
        args = parsed["args"]
        assert "edition" not in args, text
        assert not ADDED.get(parsed["verb"], set()) & set(args), text


@pytest.mark.parametrize("name", OLD)
def test_an_old_wolden_save_resumes_to_the_state_it_was_left_in(name: str, tmp_path: Path) -> None:
    want = expected(name)
    session, _ = resumed(name, tmp_path)
    try:
        assert session.ruleset == want["ruleset"] == "wolden"
        assert session.state.model_dump(mode="json") == want["state"]
        assert (session.next_command, session.next_event) == (want["next_command"], want["next_event"])
    finally:
        session.close()


def test_downtime_taken_where_nothing_is_settled_replays(tmp_path: Path) -> None:
    """Before any scene and on the causeway the old release allowed downtime; today it is refused there."""
    session, console = resumed("downtime_settled", tmp_path)
    try:
        state = game(session)
        assert state.downtime == ["Wenna Ashgrove", "Ysolde Marrow", "Corin Tallow"] and state.session == 1
        assert [i.id for i in state.characters["Corin Tallow"].items] == ["storm-lantern"]
        # typed now, on the causeway still: refused, and nothing changes
        refused = console.handle("downtime wenna rest").events[0]
        assert refused["kind"] == "refused" and refused["rule"] == "wolden.downtime.not-settled"
        assert session.state.model_dump(mode="json") == expected("downtime_settled")["state"]
    finally:
        session.close()


def test_sessions_typed_at_will_replay(tmp_path: Path) -> None:
    """Two `session`s in one run gave session 3; typed now, a resume begins a new session, and one run is one."""
    session, console = resumed("downtime_session", tmp_path)
    try:
        state = game(session)
        assert state.session == 3 and state.downtime == ["Ysolde Marrow"]
        assert state.characters["Wenna Ashgrove"].slots == 12
        # resuming is a new play session: Ysolde's downtime of session 3 was in an earlier one
        events = console.handle("downtime ysolde rest").events
        assert [e["kind"] for e in events[:2]] == ["session_advanced", "downtime_taken"]
        assert game(session).session == 4 and game(session).downtime == ["Ysolde Marrow"]
        assert console.handle("session").events[0]["rule"] == "wolden.session.same-sitting"
        assert console.handle("downtime ysolde rest").events[0]["rule"] == "wolden.downtime.once-per-session"
        assert game(session).session == 4
    finally:
        session.close()


def test_a_free_pass_in_a_fight_replays(tmp_path: Path) -> None:
    """Bo and Ada passed while the wolves went for them, untouched; a pass typed now takes the blows."""
    session, console = resumed("pass_fight", tmp_path)
    try:
        bo = game(session).characters["Bo"]
        assert not any(bo.damage.values()) and bo.wounds == 0
        # the save stops in round 3 with both wolves going for Bo (Ada is out): the first blow takes Bo out
        events = console.handle("pass bo").events
        struck = [(e["source"], e["character"]) for e in events if e["kind"] == "struck"]
        assert struck == [("wolf", "Bo")]
        assert game(session).characters["Bo"].out and game(session).encounter is None
    finally:
        session.close()


def test_pools_past_four_were_never_saved(tmp_path: Path) -> None:
    """The two lines asking for 6d12 and 5d12 were refused, so the save holds only the 4d12 roll."""
    saved = commands("pool_cap")
    assert [text for text, _ in saved] == [
        "start", "story the-drowned-bell", "pc take all", "pc add Bo brine-choir might=0 agility=1 mind=2 graces=3",
        "check wenna agility gift night-eyes with corin ysolde", "roll"]
    assert [p["args"].get("helpers") for _, p in saved if p["verb"] == "check"] == [["Corin Tallow", "Ysolde Marrow"]]
    session, console = resumed("pool_cap", tmp_path)
    try:
        # typed now, the same 5d12 line is capped at 4d12 instead of refused
        events = console.handle("check wenna agility adv with corin ysolde bo").events
        capped = next(e for e in events if e["kind"] == "pool_capped")
        assert capped["asked"] == 5 and capped["dice"] == 4 and capped["lost"] == ["Bo"]
    finally:
        session.close()


def test_every_wolden_command_read_carries_the_edition(tmp_path: Path) -> None:
    session, console = resumed("pass_fight", tmp_path)
    try:
        assert set(VERBS.verbs()) >= {"pass", "downtime", "session", "check"}
        assert session.parse("pass bo").args == {"who": "Bo", "edition": EDITION}
        console.handle("pass bo")
        assert session.save is not None
        last = session.save.last_live()
        assert last is not None and last.parsed["args"]["edition"] == EDITION
        assert last.parsed["args"]["exposed"] == ["wolf", "wolf-2"]
    finally:
        session.close()


def test_a_command_saved_after_the_corrections_without_an_edition_replays_as_played(tmp_path: Path) -> None:
    """Saves made between the corrections and editions carry the added arguments but no edition."""
    session, console = resumed("pass_fight", tmp_path)
    path = tmp_path / "pass_fight.wyrd"
    try:
        struck = [e for e in console.handle("pass bo").events if e["kind"] == "struck"]
        assert len(struck) == 1
        before = session.state.model_dump(mode="json")
    finally:
        session.close()
    with sqlite3.connect(path) as conn:
        seq, parsed = conn.execute("SELECT seq, parsed FROM commands ORDER BY seq DESC LIMIT 1").fetchone()
        saved = json.loads(parsed)
        del saved["args"]["edition"]
        conn.execute("UPDATE commands SET parsed = ? WHERE seq = ?", (json.dumps(saved), seq))
    reseal(path)  # as such a release wrote it, digests apart
    again = Session.resume(path)
    try:
        assert again.state.model_dump(mode="json") == before
    finally:
        again.close()
