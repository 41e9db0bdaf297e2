"""Crash safety, measured: kill ``wyrd play`` with SIGKILL at random moments and check the save.

Each round starts a real ``wyrd play --script - --json`` process, pours a long
scripted session into it (ordinary play, undos, Wyrd rolls with narration) and
kills it after a random delay, so the kill lands anywhere: while a command is
read, between the rules and the commit, inside a commit, during narration or an
undo. Then it checks that

* every event the process had printed is in the save, with the same seq and content;
* the save passes SQLite's integrity check and the session's own (no gap in the
  sequence, every command's dice and events complete, undo records consistent);
* the session resumes, play goes on, and the save resumes again.

``python -m bench crash`` runs 100 rounds; the test suite runs a few.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["CrashReport", "run", "run_rounds", "session_lines"]

REPO = Path(__file__).resolve().parents[1]

_PLAY = [
    "scene",
    'challenge add "Gate" obstruction 5',
    "attempt gate by ada",
    "spend ada 1",
    "roll",
    "draw ada 1",
    "accept",
    "wyrd",
    "undo",
    "ask \"Is anyone watching?\" likely",
    "end scene",
    "rest ada body",
]


def session_lines(rng: random.Random, length: int) -> list[str]:
    """A long session of ordinary play, with undos sprinkled in."""
    lines = ["pc add Ada body=6 mind=5 soul=4", "pc add Bo body=5 mind=5 soul=5 wyrd=1"]
    while len(lines) < length:
        lines += _PLAY
        if rng.random() < 0.3:
            lines.append("undo")
    return lines[:length]


@dataclass
class CrashReport:
    rounds: int = 0
    events_checked: int = 0
    commands_saved: int = 0
    kill_after_ms: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        delays = sorted(self.kill_after_ms)
        middle = delays[len(delays) // 2] if delays else 0.0
        return [
            f"crash rounds: {self.rounds}, SIGKILL after {delays[0] if delays else 0:.0f}-"
            f"{delays[-1] if delays else 0:.0f} ms (median {middle:.0f} ms)",
            f"printed events found in the save: {self.events_checked} checked, "
            f"{self.commands_saved} commands saved in all",
            f"failures: {len(self.failures)}" + "".join(f"\n  {f}" for f in self.failures[:10]),
        ]


def _printed(text: str) -> list[dict[str, Any]]:
    out = []
    for line in text.splitlines():
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # the line the kill cut short was never shown whole
        if isinstance(event, dict):
            out.append(event)
    return out


def crash_once(folder: Path, rng: random.Random, round_no: int, report: CrashReport) -> None:
    from wyrd.play.engine.session import Session
    from wyrd.play.frontends.console import Console

    save = folder / f"crash-{round_no}.wyrd"
    env = {**os.environ, "WYRD_HOME": str(folder / "home"), "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "wyrd", "play", "--story", "none", "--seed", str(round_no), "--save", str(save),
         "--script", "-", "--json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=REPO, env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    script = "\n".join(session_lines(rng, rng.randint(20, 200))) + "\n"
    proc.stdin.write(script.encode())
    proc.stdin.flush()
    # Start-up takes a few hundred ms; the kill lands anywhere from before the first
    # command to deep inside the session.
    delay = rng.uniform(0.05, 1.5)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    out, _ = proc.communicate()
    report.kill_after_ms.append(delay * 1000)
    report.rounds += 1
    shown = [e for e in _printed(out.decode("utf-8", "replace")) if e.get("seq") is not None]
    if not save.exists():
        if shown:
            report.failures.append(f"round {round_no}: events were shown but there is no save")
        return
    try:
        session = Session.resume(save)
    except Exception as exc:  # the point of the harness: any failure to resume is a finding
        report.failures.append(f"round {round_no}: does not resume: {exc}")
        return
    try:
        assert session.save is not None
        problems = session.save.integrity_check()
        if problems:
            report.failures.append(f"round {round_no}: integrity: {problems[:3]}")
        saved = {e["seq"]: e for r in session.save.all_commands() for e in r.events}
        report.commands_saved += session.save.last_seq()
        for event in shown:
            report.events_checked += 1
            if saved.get(event["seq"]) != event:
                report.failures.append(f"round {round_no}: shown event {event['seq']} is not in the save as shown")
                break
        Console(session, save).handle("wyrd")
    finally:
        session.close()
    try:
        Session.resume(save).close()
    except Exception as exc:
        report.failures.append(f"round {round_no}: does not resume after going on: {exc}")


def run_rounds(rounds: int, seed: int = 1) -> CrashReport:
    rng = random.Random(seed)
    report = CrashReport()
    with tempfile.TemporaryDirectory() as folder:
        for round_no in range(rounds):
            crash_once(Path(folder), rng, round_no, report)
    return report


def run(rounds: int = 100) -> list[str]:
    return run_rounds(rounds).lines()
