"""The truth comes first (issue 19, point 1): a command is committed before it is told, and its
narration is saved with it in a transaction of its own.

``Session.act`` commits the rules' events and the kit's additions (twists, scene tests);
``Session.tell`` tells the moments and saves their narration to the same command
(``SaveFile.append_told``), event numbers going on. A game killed between the two keeps
the command, untold, and resumes exactly; Ctrl-C while it is told keeps the command, and
the narration gives way. The console offers both steps (``act``, ``tell``) and ``handle``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

import wyrd.play.engine.history as history_module
from bench.interrupts import view
from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console, Live
from wyrd.play.frontends.view import Line
from wyrd.rules.dice import Dice

BEFORE = ["pc take all"]  # then "scene": its scene test and twist are what happened, then five moments
AFTER = ['attempt fair-unease by "Coral Vell"', "roll", "wyrd"]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    return tmp_path


def _game(path: Path | None) -> tuple[Session, Console]:
    session = Session.new(path, seed=21, story="hollow-fair", ruleset="abacus")
    return session, Console(session, path)


def _kinds(events: Any) -> list[str]:
    return [e["kind"] for e in events]


class Raising(Narrator):
    """Raises ``error`` at every moment (a kill, Ctrl-C, a bug)."""

    source = "raising"

    def __init__(self, error: BaseException) -> None:
        self.error = error
        self.asked = 0

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        self.asked += 1
        raise self.error


# -- the session: two steps, two transactions ---------------------------------------------------


def test_the_command_is_saved_before_its_moments_are_told(tmp_path: Path) -> None:
    """Issue 19, point 1: narration is asked for after the rules' events are saved."""
    path = tmp_path / "g.wyrd"
    session, console = _game(path)
    for line in BEFORE:
        console.handle(line)
    assert session.save is not None
    seen: list[tuple[int, list[str]]] = []

    class Watching(Narrator):
        source = "watching"

        def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
            assert session.save is not None
            last = session.save.last_live()
            assert last is not None
            seen.append((last.seq, _kinds(last.events)))
            return Narration(text="The crowd holds its breath.", source="watching", moment=request.moment)

    session.teller.use_llm(Watching())
    session.teller.readings = False  # the twist's reading (issue 19, point 6) is tested on its own
    reply = session.act("scene", session.parse("scene"))
    assert reply.untold is not None and reply.untold.moments.requests
    assert "narration" not in _kinds(reply.events) and seen == []
    assert {"scene_test", "twist"} <= set(_kinds(reply.events))  # the kit's additions are part of the truth
    told = session.tell(reply.untold)
    assert seen and all(seq == reply.untold.command for seq, _ in seen)
    assert all("narration" not in kinds and kinds == _kinds(reply.events) for _, kinds in seen)
    # The narration joins the same command, numbered on from its events.
    assert told and all(e.kind == "narration" for e in told)
    assert [e.seq for e in told] == list(range(reply.events[-1].seq + 1, reply.events[-1].seq + 1 + len(told)))  # type: ignore[operator]
    last = session.save.last_live()
    assert last is not None and last.seq == reply.untold.command
    assert [e["seq"] for e in last.events] == [e.seq for e in [*reply.events, *told]]
    session.close()
    assert SaveFile.open(path, readonly=True).integrity_check() == []  # the chain of digests holds


def test_both_steps_give_what_one_step_gave(tmp_path: Path) -> None:
    """Issue 19, point 1: the same events in the same order as when everything was one transaction."""
    one, one_console = _game(tmp_path / "one.wyrd")
    two, two_console = _game(tmp_path / "two.wyrd")
    for line in [*BEFORE, "scene", *AFTER]:
        whole = one_console.handle(line)
        truth = two_console.act(line)
        rest = two_console.tell(truth.untold) if truth.untold is not None else None
        assert [e.plain() for e in whole.events] == [e.plain() for e in truth.events + (rest.events if rest else [])]
        assert whole.lines == truth.lines + (rest.lines if rest else [])
    assert view(one) == view(two)
    one.close()
    two.close()
    with SaveFile.open(tmp_path / "one.wyrd", readonly=True) as a, SaveFile.open(tmp_path / "two.wyrd",
                                                                                readonly=True) as b:
        assert [(r.text, r.parsed, r.events) for r in a.all_commands()] == \
               [(r.text, r.parsed, r.events) for r in b.all_commands()]


def test_a_told_save_reads_as_if_written_at_once(tmp_path: Path) -> None:
    """Issue 19, point 1: the narration's own transaction leaves the save as one transaction would have
    (the same rows, the same digest), so saves read and replay as they always did."""
    first = [{"seq": 1, "kind": "scene_started"}]
    then = [{"seq": 2, "kind": "narration", "text": "Rain.", "source": "table"}]
    parsed = {"verb": "scene", "args": {}, "deck": {"a": ["1"]}}
    whole = SaveFile.create(tmp_path / "whole.wyrd", meta={"game": "test"})
    whole.append("scene", {**parsed, "deck": {"a": ["1"], "b": ["2"]}}, [], first + then)
    split = SaveFile.create(tmp_path / "split.wyrd", meta={"game": "test"})
    seq = split.append("scene", parsed, [], first)
    split.append_told(seq, then, {"b": ["2"]})
    digests = []
    for save in (whole, split):
        (digest,) = save._conn.execute("SELECT digest FROM commands WHERE seq = 1").fetchone()
        digests.append(digest)
        assert save.integrity_check() == []
        save.close()
    assert digests[0] == digests[1]
    for name in ("whole.wyrd", "split.wyrd"):
        with SaveFile.open(tmp_path / name) as reopened:  # every digest checked on opening
            (record,) = list(reopened.live_commands())
            assert record.events == tuple(first + then) and record.parsed["deck"] == {"a": ["1"], "b": ["2"]}


def test_only_the_latest_command_can_be_told(tmp_path: Path) -> None:
    save = SaveFile.create(tmp_path / "s.wyrd", meta={"game": "test"})
    first = save.append("a", {"verb": "a"}, [], [{"seq": 1, "kind": "x"}])
    save.append("b", {"verb": "b"}, [], [{"seq": 2, "kind": "x"}])
    with pytest.raises(ValueError, match="latest live command"):
        save.append_told(first, [{"seq": 3, "kind": "narration"}])
    save.save_snapshot(2, {}, {})
    with pytest.raises(ValueError, match="snapshot"):
        save.append_told(2, [{"seq": 3, "kind": "narration"}])
    assert save.integrity_check() == []
    save.close()


def test_a_snapshot_waits_for_the_telling(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19, point 1: snapshots come after the narration, which adds to the command."""
    monkeypatch.setattr(history_module, "SNAPSHOT_EVERY", 1)
    path = tmp_path / "g.wyrd"
    session, console = _game(path)
    assert session.save is not None
    truth = console.act("pc take all")
    assert truth.untold is not None
    snap = session.save.latest_snapshot()
    assert snap is None or snap.seq < truth.untold.command
    console.tell(truth.untold)
    snap = session.save.latest_snapshot()
    assert snap is not None and snap.seq == truth.untold.command
    assert snap.extra["next_event"] == session.next_event
    # A command left untold gets its snapshot when the next one comes.
    left = console.act("scene")
    assert left.untold is not None
    console.handle("wyrd")
    assert session.save.latest_snapshot().seq > left.untold.command  # type: ignore[union-attr]
    assert console.tell(left.untold).events == []  # too late: it stays untold
    live = view(session)
    session.close()
    resumed = Session.resume(path)
    assert view(resumed) == live
    resumed.close()


# -- stopped between the steps -------------------------------------------------------------------


def test_a_narrator_that_never_returns_leaves_the_command_saved_untold(tmp_path: Path) -> None:
    """Issue 19, point 1: the game stopped between the two steps (SystemExit inside the narrator)
    keeps the command, untold; the save resumes to exactly the game shown and plays on."""
    path = tmp_path / "g.wyrd"
    session, console = _game(path)
    for line in BEFORE:
        console.handle(line)
    session.teller.use_llm(Raising(SystemExit(9)))
    truth = console.act("scene")
    assert truth.untold is not None
    with pytest.raises(SystemExit):
        console.tell(truth.untold)
    assert not session.unsettled
    live = view(session)
    session.close()
    resumed = Session.resume(path)
    assert view(resumed) == live
    assert resumed.save is not None
    last = resumed.save.last_live()
    assert last is not None and last.text == "scene" and "narration" not in _kinds(last.events)
    assert [e["seq"] for e in last.events] == [e.seq for e in truth.events]
    after = Console(resumed, path).handle(AFTER[0])
    assert after.events[0].seq == truth.events[-1].seq + 1  # type: ignore[operator]
    resumed.close()


KILLED = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from wyrd.oracle.narrators.base import Narrator
    from wyrd.play.engine.session import Session
    from wyrd.play.frontends.console import Console

    class Kill(Narrator):
        source = "kill"
        def narrate(self, request, dice):
            os.kill(os.getpid(), signal.SIGKILL)

    path = Path(sys.argv[1])
    session = Session.new(path, seed=21, story="hollow-fair", ruleset="abacus")
    console = Console(session, path)
    for line in sys.argv[2:-1]:
        console.handle(line)
    session.teller.use_llm(Kill())
    console.handle(sys.argv[-1])
    print("not killed")
""")


def test_a_game_killed_while_its_command_is_told_resumes_with_the_command(tmp_path: Path) -> None:
    """Issue 19, point 1: a real kill (SIGKILL) while the moments are told: the command is saved,
    untold, and the save resumes and replays exactly, then plays on."""
    path = tmp_path / "killed.wyrd"
    env = {**os.environ, "WYRD_HOME": str(tmp_path / "home"), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", KILLED, str(path), *BEFORE, "scene"], capture_output=True, text=True,
                          env=env, timeout=120, check=False)
    assert done.returncode == -9, done.stderr[-2000:]
    assert "not killed" not in done.stdout
    # The same game, not killed, committed up to the same point: what the killed one must resume to.
    twin, console = _game(tmp_path / "twin.wyrd")
    for line in BEFORE:
        console.handle(line)
    truth = console.act("scene")
    resumed = Session.resume(path)
    assert view(resumed) == view(twin)
    assert resumed.save is not None
    last = resumed.save.last_live()
    assert last is not None and last.text == "scene"
    assert list(last.events) == [e.plain() for e in truth.events]
    # Both play on alike from there (the twin's command stays untold too).
    resumed_console = Console(resumed, path)
    for line in AFTER:
        ours, theirs = resumed_console.handle(line).events, console.handle(line).events
        assert ours and [e.plain() for e in ours] == [e.plain() for e in theirs]
    resumed.close()
    twin.close()


def test_ctrl_c_while_the_moments_are_told_keeps_the_command(tmp_path: Path) -> None:
    """Issue 19, point 1: Ctrl-C during narration: the command stands, the narration gives way
    (a ``narration_failed``, "interrupted"), and the game goes on."""
    path = tmp_path / "g.wyrd"
    session, console = _game(path)
    for line in BEFORE:
        console.handle(line)
    session.teller.use_llm(Raising(KeyboardInterrupt()))
    out = console.handle("scene")
    kinds = _kinds(out.events)
    assert "narration" not in kinds and kinds[-1] == "narration_failed"
    assert "interrupted" in out.events[-1]["reason"]
    assert any("interrupted" in line.text for line in out.lines)
    session.teller.use("table")
    assert console.handle(AFTER[0]).events  # the game goes on
    live = view(session)
    session.close()
    resumed = Session.resume(path)
    assert view(resumed) == live
    resumed.close()


# -- the console's two steps for a live front-end ----------------------------------------------


class Recording(Live):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def words(self, text: str) -> None:
        self.calls.append(("words", text))

    def withdraw(self, text: str) -> None:
        self.calls.append(("withdraw", text))

    def told(self, line: Line, *, streamed: bool) -> None:
        self.calls.append(("told", (line.text, streamed)))


def test_act_gives_what_happened_and_tell_gives_the_prose_after(tmp_path: Path) -> None:
    """Issue 19, point 1: the truth Output holds no prose; the telling hands each moment to the live
    front-end as it is told and returns only what follows (the hints)."""
    session, console = _game(None)
    for line in BEFORE:
        console.handle(line)
    truth = console.act("scene")
    assert truth.untold is not None
    assert all(line.style != "narration" for line in truth.lines) and truth.lines
    live = Recording()
    rest = console.tell(truth.untold, live)
    told = [call for call in live.calls if call[0] == "told"]
    narrated = [e for e in rest.events if e.kind == "narration"]
    assert told and len(told) == len(narrated)
    assert all(streamed is False for _, (_, streamed) in told)  # the tables: nothing streamed
    assert all(line.style != "narration" for line in rest.lines)  # the prose went to the live front-end
    assert json.dumps(truth.model_dump(mode="json"))  # a front-end can still dump the truth as it is
    session.close()


# -- nothing a model or a provider says reaches a screen raw (issue 19, point 4) ---------------

HOSTILE = "\x1b[2J\x1b]0;pwned\x07bad\u202egateway\x9b31m\nretry"


def test_a_telling_that_breaks_with_a_hostile_message_shows_it_cleaned(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The words already shown are taken back, and the failure is shown cleaned."""
    session, console = _game(None)
    for line in BEFORE:
        console.handle(line)

    def breaking(moments: object, *, on_text: Any = None, on_told: Any = None) -> list[Any]:
        on_text("Rain falls on the")
        raise RuntimeError(HOSTILE)

    monkeypatch.setattr(session.teller, "tell_moments", breaking)
    truth = console.act("scene")
    assert truth.untold is not None
    live = Recording()
    rest = console.tell(truth.untold, live)
    assert rest.events[-1].kind == "narration_failed"
    assert live.calls == [("words", "Rain falls on the"), ("withdraw", "Rain falls on the")]
    shown = [line.text for line in rest.lines] + [str(call[1]) for call in live.calls]
    assert any("gateway" in text for text in shown)
    assert not any(c in text for text in shown for c in "\x1b\x07\x9b\u202e\n")
    session.close()


def test_a_model_that_cannot_be_set_up_is_reported_cleaned(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from wyrd.oracle.narrators.llm_config import NarratorConfigError
    from wyrd.play.cli.play import narrate_with_model

    def broken(config: object, on_text: object = None) -> None:
        raise NarratorConfigError(f"cannot set up openai:x: {HOSTILE}")

    monkeypatch.setattr("wyrd.oracle.narrators.llm.make_narrator", broken)
    session, _ = _game(None)
    assert not narrate_with_model(session, argparse.Namespace(model="openai:x", base_url=None))
    err = capsys.readouterr().err
    assert "gateway" in err and "the tables will tell the story" in err
    assert not any(c in err.rstrip("\n") for c in "\x1b\x07\x9b\u202e")
    session.close()
