"""Kills at chosen points, never after a timer (issue 16, point 7).

The child is a ``python -c`` that wraps one step of the save file (moving a new save into
place, a command's commit, an undo's commit, the game taken back after an undo, a snapshot) so that its
Nth call ends in ``SIGKILL`` to itself, then runs ``wyrd play --script FILE --json`` through
the CLI's entry function. No hook exists in the code for this: the wrapping is the test's own.
After the kill the save resumes (or, killed while being created, there is either no save or a
whole one), passes its integrity check, and holds every event that was printed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine.paths import list_saves, newest_save
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session

SCRIPT = ["pc add Ada body=6 mind=5 soul=4", "scene with Ada", 'challenge add "Gate" obstruction 2',
          "attempt gate by Ada", "roll", "undo", "roll", "wyrd", "end scene", "pc add Bo body=5 mind=5 soul=5",
          "undo", "scene with Ada"]

# The child: wrap SaveFile.<step> so that its Nth call kills the process, before or after the
# real step, then play the script through the CLI. SNAPSHOT_EVERY is small so snapshots happen.
CHILD = """
import os, signal, sys
import wyrd.play.engine.history as history_module
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.cli.main import main

step, when, nth, save, script = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
history_module.SNAPSHOT_EVERY = 3
owner = history_module.History if step == "_take_back" else SaveFile
real = getattr(owner, step)
calls = [0]

def wrapped(*args, **kwargs):
    calls[0] += 1
    if calls[0] == nth and when == "before":
        os.kill(os.getpid(), signal.SIGKILL)
    result = real(*args, **kwargs)
    if calls[0] == nth and when == "after":
        os.kill(os.getpid(), signal.SIGKILL)
    return result

setattr(owner, step, staticmethod(wrapped) if step == "_placing" else wrapped)
sys.exit(main(["play", "--save", save, "--seed", "4", "--ruleset", "abacus", "--script", script, "--json"]))
"""


def _kill_at(tmp_path: Path, step: str, when: str, nth: int) -> tuple[Path, list[dict[str, Any]]]:
    home = tmp_path / "home"
    save = home / "saves" / "g.wyrd"
    save.parent.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "script.txt"
    script.write_text("\n".join(SCRIPT) + "\n", encoding="utf-8")
    env = {**os.environ, "WYRD_HOME": str(home), "PYTHONUNBUFFERED": "1"}
    out = subprocess.run([sys.executable, "-c", CHILD, step, when, str(nth), str(save), str(script)],
                         capture_output=True, text=True, env=env, timeout=120, check=False)
    assert out.returncode == -signal.SIGKILL, (out.returncode, out.stderr[-2000:])
    lines = out.stdout.split("\n")[:-1]  # a last line without its newline may be cut short
    return save, [json.loads(line) for line in lines]


def _sound(save: Path, printed: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """Resume the save, check it, and return its live events; every printed event is among them."""
    session = Session.resume(save)
    try:
        assert session.save is not None and session.save.integrity_check() == []
        # every event ever saved: one printed and later undone is in the audit trail
        saved = {e["seq"]: e for r in session.save.all_commands() for e in r.events}
        for event in printed:
            if event.get("seq") is not None and event["kind"] != "undone":
                assert saved.get(event["seq"]) == event
        # play goes on
        reply = session.execute("pc add Zed body=3 mind=3 soul=9")
        assert reply.refused is None, reply.reason
    finally:
        session.close()
    return saved


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_kill_while_a_save_is_created_leaves_none_or_a_whole_one(tmp_path: Path, when: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, points 4 and 7: before the move there is no save (only a hidden leftover that is
    never offered); after it, a whole save that resumes."""
    save, printed = _kill_at(tmp_path, "_placing", when, 1)
    assert printed == []
    monkeypatch.setenv("WYRD_HOME", str(save.parent.parent))
    if when == "before":
        assert not save.exists()
        assert [p.name for p in save.parent.iterdir()] == [f".g.wyrd.part-{p}" for p in
                                                           [p.name.rsplit("-", 1)[1] for p in save.parent.iterdir()]]
        assert list_saves() == [] and newest_save() is None
        SaveFile.create(save, meta={}).close()  # the name is free
    else:
        assert newest_save() == save
        with SaveFile.open(save) as opened:
            assert opened.integrity_check() == [] and opened.last_seq() == 0
        _sound(save, printed)


@pytest.mark.parametrize(("step", "when", "nth"), [
    ("append", "before", 4),   # inside a commit, before it is made: the command is lost, never shown
    ("append", "after", 1),    # the session's start committed, the process gone before it knew
    ("append", "after", 5),    # COMMIT returned, the caller never learnt it
    ("append", "after", 10),
    ("save_snapshot", "after", 1),
    ("undo", "after", 1),      # the undo committed, the state not yet rebuilt
    ("undo", "before", 2),
    ("_take_back", "before", 1),  # inside undo: the game in memory never taken back
])
def test_a_kill_at_a_chosen_step_loses_nothing_shown(tmp_path: Path, step: str, when: str, nth: int) -> None:
    save, printed = _kill_at(tmp_path, step, when, nth)
    saved = _sound(save, printed)
    shown = [e["seq"] for e in printed if e.get("seq") is not None and e["kind"] != "undone"]
    assert set(shown) <= set(saved)
    if step == "append" and when == "after":
        with SaveFile.open(save, readonly=True) as opened:  # the unshown command was saved all the same
            assert opened.last_seq() >= nth
    if step == "undo" and when == "after":
        with SaveFile.open(save, readonly=True) as opened:
            undo = [r for r in opened.all_commands() if r.undoes is not None]
            assert undo and all(r.status == "undone" for r in opened.all_commands() if r.seq == undo[0].undoes)
