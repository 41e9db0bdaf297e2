"""Crash safety: ``wyrd play --script - --json`` killed with SIGKILL loses nothing it showed.

The game runs as a real process fed one command at a time on its standard input. After each
command a sync line (an unknown verb, always refused, never saved) marks where that command's
output ends, so the test knows what has been printed. At a chosen point the process is killed,
sometimes right after a command whose output has not been read yet. Then, whatever the process
printed (read to the end of the pipe after the kill) must be in the save's live events with the
same seq and content, the save must pass its integrity check, and play must go on from it.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

import pytest

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

REPO = Path(__file__).resolve().parents[2]

GAME = [
    "pc add Ada body=6 mind=5 soul=4",
    "pc add Bo body=5 mind=5 soul=5 wyrd=1 connection=Ada",
    "pc add Bo body=9 mind=9 soul=9",
    "scene",
    'challenge add "Barrow door" obstruction 6',
    'challenge add "The dark" foreboding 5 after barrow-door',
    "attempt door by ada",
    "status",
    "spend ada 2",
    "spend bo 1",
    "roll 1",
    "draw ada 2",
    "attempt dark by bo",
    "spend bo 2",
    "roll",
    "accept",
    "draw bo 1",
    "influence mind",
    "wyrd",
    "harm bo body 2",
    "cast charm by ada mind 1 \"the old rhyme\" for=threat",
    "end scene",
    "rest ada body",
    "scene",
    'challenge add "Hound" pursuit 4',
    "attempt hound by bo",
    "roll",
    "accept",
    "end scene",
    "finale",
]


def start(save: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "WYRD_HOME": str(save.parent / "home"), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen(
        [sys.executable, "-m", "wyrd", "play", "--seed", "1", "--save", str(save), "--script", "-", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO, env=env,
    )


def send(stream: IO[str], text: str) -> None:
    stream.write(text + "\n")
    stream.flush()


def read_until_sync(proc: subprocess.Popen[str], marker: str) -> list[dict[str, Any]]:
    """The events printed before the refusal of ``marker``."""
    assert proc.stdout is not None
    events: list[dict[str, Any]] = []
    while True:
        text = proc.stdout.readline()
        assert text, f"the game ended early: {proc.stderr.read() if proc.stderr else ''}"
        event = json.loads(text)
        if event.get("kind") == "refused" and event.get("command") == marker:
            return events
        events.append(event)


def kill(proc: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """SIGKILL the game, then read whatever it had printed (whole lines only)."""
    os.kill(proc.pid, signal.SIGKILL)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    complete = out.split("\n")[:-1]  # a last line without its newline may be cut short
    return [e for e in map(json.loads, complete) if not (e["kind"] == "refused" and e["command"].startswith("sync-"))]


def live_events(save: Path) -> dict[int, dict[str, Any]]:
    session = Session.resume(save)
    try:
        assert session.save is not None
        return {e["seq"]: e for r in session.save.live_commands() for e in r.events}
    finally:
        session.close()


# (how many commands run and are read, whether one more is sent and not read, rng seed)
KILL_POINTS = [(0, False, 1), (1, True, 2), (5, False, 3), (9, True, 4), (14, True, 5), (len(GAME), False, 6)]


@pytest.mark.parametrize(("read", "unread", "seed"), KILL_POINTS)
def test_sigkill_loses_nothing_shown(tmp_path: Path, read: int, unread: bool, seed: int) -> None:
    save = tmp_path / "game.wyrd"
    proc = start(save)
    assert proc.stdin is not None
    shown: list[dict[str, Any]] = []
    try:
        send(proc.stdin, "sync-0")
        shown += read_until_sync(proc, "sync-0")  # the session has started: session_started is out
        assert [e["kind"] for e in shown] == ["session_started"]
        for i, command in enumerate(GAME[:read], start=1):
            send(proc.stdin, command)
            send(proc.stdin, f"sync-{i}")
            shown += read_until_sync(proc, f"sync-{i}")
        if unread:
            # A command (and, at random, a few more) written but never read: kill at once.
            rng = random.Random(seed)
            for command in GAME[read : read + 1 + rng.randrange(3)]:
                send(proc.stdin, command)
    finally:
        shown += kill(proc)

    saved = live_events(save)
    printed = [e for e in shown if e["seq"] is not None]
    assert printed, "the game printed nothing"
    for event in printed:
        assert saved.get(event["seq"]) == event
    # Nothing was saved that a command read to its end did not show (unread ones may be either).
    if not unread:
        assert sorted(saved) == [e["seq"] for e in printed]

    # The save is sound, and play goes on from it, twice.
    session = Session.resume(save)
    assert session.save is not None
    assert session.save.integrity_check() == []
    before = session.state.model_dump(mode="json")
    out = Console(session, save).handle("pc add Zed body=3 mind=3 soul=9")
    session.close()
    if session.state.ended:
        assert out.events[0]["rule"] == "abacus.finale.ended"
        assert session.state.model_dump(mode="json") == before
    else:
        assert [e["kind"] for e in out.events if e["kind"] != "narration"] == ["character_created"]
        assert out.events[0]["seq"] == max(saved) + 1
    again = Session.resume(save)
    try:
        assert again.save is not None and again.save.integrity_check() == []
        assert ("Zed" in again.state.characters) == (not session.state.ended)
    finally:
        again.close()


def test_play_is_runnable_as_a_module() -> None:
    source = (REPO / "wyrd" / "__main__.py").read_text(encoding="utf-8")
    assert 'if __name__ == "__main__":' in source
