"""How long until the player can type, each beside the import floor measured in the same run.

The floor is a bare script that imports what any prompt of ours needs (prompt-toolkit's
``PromptSession``, pydantic's ``BaseModel``, sqlite3, json and PyYAML), makes a ``PromptSession`` and
shows a prompt in the same kind of pseudo-terminal. Beside it, measured round by round in turn so the
machine's load moves them alike:

- ``wyrd play`` (a new game of a bundled story: The Hollow Fair, and one story of each other ruleset)
  to its first prompt, in a data folder a game of the story was played in before (the story's reading
  kept, as it is for a player after their first game), and, for reference, The Hollow Fair in an empty
  one (a first start on the machine);
- ``wyrd resume`` of a saved game, quit as a player quits it, to its first prompt, and, for reference,
  of the same game as a killed process leaves it (no closing snapshot: its commands are replayed);
- ``wyrd join LINK`` to its first prompt, against a ``wyrd host`` already running;
- ``wyrd host --no-repl`` to the first page served (the first ``GET /`` answered with its HTML), and
  in the same start, for reference, to its invitation and to the first view a seat that joins by it at
  once is sent (the page is a shell: that view is what fills it);
- ``wyrd host`` at a terminal, as a host opens a table for others and plays at it too: to its own
  prompt, under the invitation and its QR code.

Each figure is the median of several runs, printed as a difference from the floor and a ratio to it,
with issue 21's target (the floor + 0.1 s) met or not. Wyrd's modules are compiled to bytecode first,
as an installed package's are: with ``PYTHONDONTWRITEBYTECODE`` set, every start would compile them again.
"""

from __future__ import annotations

import compileall
import json
import os
import pty
import re
import select
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["FLOOR_SCRIPT", "PROMPT", "TARGET", "first_page", "first_prompt", "in_pty", "in_terminal",
           "measure", "run", "wall"]

# Prefer the wyrd beside this Python (the project's venv) to whatever else is on PATH.
_BESIDE = Path(sys.executable).with_name("wyrd")
WYRD = str(_BESIDE) if _BESIDE.exists() else shutil.which("wyrd") or "wyrd"
# The prompt is "wyrd> " (or "scene N> " in a scene), but prompt-toolkit draws it with colour codes and
# moves the cursor over the trailing space instead of printing it: look for it with escapes taken out.
PROMPT = re.compile(rb"(?:wyrd|scene \d+)>")
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")
STORY = "hollow-fair"
#: A story of each other ruleset, each played to its first prompt too: every ruleset is held to the target.
OTHERS = {"wolden": "the-drowned-bell", "feat": "lantern-at-gull-reach", "lots": "harrow-mere"}
#: Issue 21, point 2: each first prompt (and the host's first page) within 0.1 s of the floor.
TARGET = 0.1

#: The floor: the imports every prompt of ours needs, a PromptSession, and a prompt shown.
FLOOR_SCRIPT = """\
import json, sqlite3
import yaml
from pydantic import BaseModel
from prompt_toolkit import PromptSession
PromptSession().prompt("wyrd> ")
"""


def wall(argv: list[str], runs: int = 7) -> float:
    """Median wall time of a command that runs to its end, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def in_pty(argv: list[str], env: dict[str, str], marker: re.Pattern[bytes] = PROMPT) -> float:
    """Seconds from launching ``argv`` in a pseudo-terminal until ``marker`` shows in its output."""
    elapsed, seen = in_terminal(argv, env, until=lambda seen: marker.search(ESCAPES.sub(b"", seen)) is not None)
    if not marker.search(ESCAPES.sub(b"", seen)):
        raise RuntimeError(f"{argv[1:3]}: no prompt seen; the terminal showed {seen[-300:]!r}")
    return elapsed


def in_terminal(argv: list[str], env: dict[str, str], *, until: Callable[[bytes], bool] | None = None,
                timeout: float = 30, cwd: Path | None = None) -> tuple[float, bytes]:
    """Run ``argv`` in a pseudo-terminal until ``until(what it showed)`` holds (None: until it exits),
    answering a cursor-position request as a terminal would; then stop it.

    Returns the seconds from its launch to that moment, and what it showed.
    """
    main, child = pty.openpty()
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, env=env, close_fds=True, cwd=cwd)
    os.close(child)
    seen = b""
    deadline = start + timeout
    try:
        while time.perf_counter() < deadline and not (until(seen) if until is not None else proc.poll() is not None):
            ready, _, _ = select.select([main], [], [], 0.05)
            if ready:
                try:
                    seen += os.read(main, 65536)
                except OSError:  # the program closed the terminal
                    break
                if b"\x1b[6n" in seen:
                    os.write(main, b"\x1b[1;1R")
                    seen = seen.replace(b"\x1b[6n", b"")
        elapsed = time.perf_counter() - start
        while until is None and select.select([main], [], [], 0)[0]:  # what it wrote as it ended
            try:
                seen += os.read(main, 65536)
            except OSError:
                break
    finally:
        proc.kill()
        proc.wait()
        os.close(main)
    return elapsed, seen


def _env(home: str) -> dict[str, str]:
    return dict(os.environ, WYRD_HOME=home, TERM="xterm-256color", WYRD_MODEL="table")


def first_prompt(runs: int = 7) -> float:
    """Median time from launching ``wyrd play`` (a new game of a bundled story) to its prompt."""
    times = []
    for i in range(runs):
        with tempfile.TemporaryDirectory() as home:
            times.append(in_pty([WYRD, "play", "--story", STORY, "--seed", str(i), "--save", f"{home}/b.wyrd"],
                                _env(home)))
    return statistics.median(times)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _page(port: int) -> bool:
    """True once ``GET /`` on ``port`` answers with the table's HTML."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as reply:
            return reply.status == 200 and b"<html" in reply.read().lower()
    except OSError:
        return False


def _host(home: str, port: int, save: Path) -> subprocess.Popen[str]:
    return subprocess.Popen([WYRD, "host", "--story", STORY, "--seed", "3", "--save", str(save), "--port", str(port),
                             "--no-repl", "--no-qr"], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=_env(home))


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


def first_page(home: str, opening: list[tuple[float, float]] | None = None) -> float:
    """Seconds from launching ``wyrd host --no-repl`` to the first page it serves.

    With ``opening``, the same start goes on: the seconds to its invitation and to the first view a
    seat joining by it at once is sent are appended there."""
    from websockets.sync.client import connect  # before the clock starts

    port = _free_port()
    start = time.perf_counter()
    proc = _host(home, port, Path(home) / "host.wyrd")
    invited: list[tuple[float, str]] = []  # when the invitation was printed, and its link
    reading = threading.Thread(target=_invitation, args=(proc, start, invited), daemon=True)
    reading.start()
    try:
        while not _page(port):
            if proc.poll() is not None or time.perf_counter() > start + 30:
                raise RuntimeError("wyrd host served no page")
            time.sleep(0.002)
        page = time.perf_counter() - start
        if opening is not None:
            reading.join(30)
            at, link = invited[0]
            with connect(f"ws://127.0.0.1:{port}/ws", open_timeout=30) as ws:
                ws.send(json.dumps({"type": "hello", "invite": link.split("#invite=")[1], "name": "Bench"}))
                while json.loads(ws.recv(timeout=30))["type"] != "view":
                    pass
            opening.append((at, time.perf_counter() - start))
        return page
    finally:
        _stop(proc)
        reading.join(5)


def _invitation(proc: subprocess.Popen[str], start: float, invited: list[tuple[float, str]]) -> None:
    """Read the host's output until its invitation; note when it came (seconds after ``start``)."""
    assert proc.stdout is not None
    for line in proc.stdout:
        if "#invite=" in line:
            invited.append((time.perf_counter() - start, line.strip()))
            return


@contextmanager
def _hosting(home: str) -> Iterator[str]:
    """A ``wyrd host`` running headless for the length of the block; yields its invitation link."""
    proc = _host(home, _free_port(), Path(home) / "joined.wyrd")
    try:
        assert proc.stdout is not None
        link = next(line.strip() for line in proc.stdout if "#invite=" in line)
        yield link
    finally:
        _stop(proc)


def _saved_game(home: str) -> Path:
    """A saved game of the bundled story, a few commands in and closed, to resume."""
    save = Path(home) / "resumed.wyrd"
    script = Path(__file__).with_name("hollow_fair.txt").read_text(encoding="utf-8").splitlines()[:40]
    subprocess.run([WYRD, "play", "--story", STORY, "--seed", "21", "--save", str(save), "--script", "-"],
                   input="\n".join(line for line in script if not line.startswith("story")) + "\n", text=True,
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=_env(home))
    return save


def _killed_game(saved: Path) -> Path:
    """The same game as a process killed after its last command leaves it: no snapshot taken on
    closing, so a resume replays its commands."""
    import sqlite3
    from contextlib import closing

    killed = saved.with_name("killed.wyrd")
    shutil.copy(saved, killed)
    with closing(sqlite3.connect(killed)) as conn, conn:
        conn.execute("DELETE FROM snapshots")
    return killed


def measure(runs: int = 7) -> dict[str, float]:
    """Median seconds of each figure, the rounds interleaved: floor, play (every ruleset), resume, join, host.

    ``play`` and ``resume`` start in a data folder an earlier start of the story has used (as a
    player's is after their first game: the story's reading kept, :mod:`wyrd.stories.yamlkept`);
    ``first`` is ``play`` in an empty one, the first start on a machine; ``killed`` is ``resume`` of
    the game with no closing snapshot.
    """
    names = ("bare", "floor", "play", *OTHERS, "resume", "first", "killed", "join", "host", "seated")
    times: dict[str, list[float]] = {name: [] for name in names}
    opening: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as base, _hosting(base) as link:
        floor = Path(base) / "floor.py"
        floor.write_text(FLOOR_SCRIPT, encoding="utf-8")
        saved = _saved_game(base)  # which also keeps the story's reading in `base`, as a first game does
        killed = _killed_game(saved)
        played = _env(base)
        for story in OTHERS.values():  # a game of each played before in `base`, its readings kept
            in_pty([WYRD, "play", "--story", story, "--seed", "0", "--save", f"{base}/{story}.wyrd"], played)

        def other(story: str) -> Callable[[str, int], float]:
            return lambda home, i: in_pty([WYRD, "play", "--story", story, "--seed", str(i), "--save",
                                           f"{home}/b.wyrd"], played)

        rounds: dict[str, Callable[[str, int], float]] = {
            "bare": lambda home, i: _wall_once([sys.executable, "-c", "pass"]),
            "floor": lambda home, i: in_pty([sys.executable, str(floor)], _env(home)),
            "play": lambda home, i: in_pty([WYRD, "play", "--story", STORY, "--seed", str(i), "--save",
                                            f"{home}/b.wyrd"], played),
            **{ruleset: other(story) for ruleset, story in OTHERS.items()},
            "resume": lambda home, i: in_pty([WYRD, "resume", str(shutil.copy(saved, f"{home}/r.wyrd"))], played),
            "first": lambda home, i: in_pty([WYRD, "play", "--story", STORY, "--seed", str(i), "--save",
                                             f"{home}/b.wyrd"], _env(home)),
            "killed": lambda home, i: in_pty([WYRD, "resume", str(shutil.copy(killed, f"{home}/k.wyrd"))], played),
            "join": lambda home, i: in_pty([WYRD, "join", link, "--name", f"Seat{i}"], _env(home)),
            "host": lambda home, i: first_page(home, opening),
            "seated": lambda home, i: in_pty([WYRD, "host", "--story", STORY, "--seed", str(i), "--save",
                                              f"{home}/h.wyrd", "--port", str(_free_port())], played),
        }
        for i in range(runs):
            for name, once in rounds.items():
                with tempfile.TemporaryDirectory() as home:
                    times[name].append(once(home, i))
    times["invited"], times["view"] = [o[0] for o in opening], [o[1] for o in opening]
    return {name: statistics.median(values) for name, values in times.items()}


def _wall_once(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


LABELS = {"play": f"wyrd play --story {STORY} to its first prompt",
          **{ruleset: f"wyrd play --story {story} to its first prompt" for ruleset, story in OTHERS.items()},
          "resume": "wyrd resume FILE to its first prompt",
          "join": "wyrd join LINK to its first prompt", "host": "wyrd host --no-repl to its first page",
          "seated": "wyrd host to the host's own prompt"}


def run() -> list[str]:
    import wyrd

    compileall.compile_dir(Path(wyrd.__file__).parent, quiet=1)
    version = wall([WYRD, "--version"])
    got = measure()
    bare, floor = got["bare"], got["floor"]
    lines = [
        f"{'bare python -c pass':<50} {bare * 1000:7.1f} ms",
        f"{'wyrd --version':<50} {version * 1000:7.1f} ms  (+{(version - bare) * 1000:.1f} ms over bare)",
        f"{'the floor (PromptSession, BaseModel, sqlite3,':<50} {floor * 1000:7.1f} ms  "
        f"(+{(floor - bare) * 1000:.1f} ms over bare)",
        "  json, yaml imported; a prompt shown in a pty)",
    ]
    for name, label in LABELS.items():
        took = got[name]
        verdict = "met" if took - floor <= TARGET else "missed"
        lines.append(f"{label:<50} {took * 1000:7.1f} ms  (floor {(took - floor) * 1000:+.0f} ms, "
                     f"{took / floor:.2f}x the floor; target floor +{TARGET * 1000:.0f} ms: {verdict})")
    for name, label in (("first", "  wyrd play, a first start (no reading kept)"),
                        ("killed", "  wyrd resume, the game killed (all replayed)"),
                        ("invited", "  wyrd host to its invitation"),
                        ("view", "  and to a seat's first view, joining then")):
        lines.append(f"{label:<50} {got[name] * 1000:7.1f} ms  (floor {(got[name] - floor) * 1000:+.0f} ms)")
    return lines
