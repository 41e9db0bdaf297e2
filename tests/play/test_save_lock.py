"""One writer per save (issue 16, point 1): a session holds its save locked for its whole life.

Two real processes: a game being played refuses a second `play --save`/`resume` at once, naming
what holds it, while `log` and `export` still read it; the lock goes when the process does.
"""

from __future__ import annotations

import fcntl
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from wyrd.play.engine import savelock
from wyrd.play.engine.savefile import SaveFile, SaveLocked

META = {"game": "t"}


def _wyrd(*args: str, home: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "WYRD_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "wyrd", *args], input=stdin, capture_output=True, text=True,
                          env=env, timeout=120, check=False)


@pytest.fixture
def playing(tmp_path: Path) -> object:
    """A `wyrd play --save` process in the middle of its game (waiting for its next line)."""
    path = tmp_path / "g.wyrd"
    env = {**os.environ, "WYRD_HOME": str(tmp_path)}
    child = subprocess.Popen([sys.executable, "-m", "wyrd", "play", "--save", str(path), "--seed", "3",
                              "--ruleset", "abacus", "--script", "-", "--json"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert child.stdin is not None and child.stdout is not None
    child.stdin.write("pc add Ada body=5 mind=5 soul=5\n")
    child.stdin.flush()
    shown: list[str] = []
    while "character_created" not in shown:  # the start, then Ada: both saved before shown
        shown.append(json.loads(child.stdout.readline())["kind"])
    yield child, path
    child.stdin.close()
    child.wait(timeout=60)


def test_a_second_session_is_refused_at_once_naming_the_holder(playing: object, tmp_path: Path) -> None:
    """Issue 16, point 1: `resume` and `play --save` on a save being played are refused."""
    child, path = playing  # type: ignore[misc]
    for args in (["resume", str(path), "--script", "-"], ["play", "--save", str(path), "--script", "-"]):
        out = _wyrd(*args, home=tmp_path, stdin="pc add Bram body=6 mind=5 soul=4\n")
        assert out.returncode == 1
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
        assert "being played by `wyrd play`" in out.stderr and f"process {child.pid}" in out.stderr
    # log and export read the game as it stands, unlocked, and change nothing
    log = _wyrd("log", str(path), home=tmp_path)
    assert log.returncode == 0 and "Ada" in log.stdout and "Bram" not in log.stdout
    export = _wyrd("export", str(path), home=tmp_path)
    assert export.returncode == 0 and "Ada" in export.stdout
    # the game goes on, alone
    child.stdin.write("pc add Cai body=5 mind=5 soul=5\n")
    child.stdin.flush()
    assert json.loads(child.stdout.readline())["kind"] in ("character_created", "narration")


def test_the_lock_goes_with_the_process(playing: object, tmp_path: Path) -> None:
    child, path = playing  # type: ignore[misc]
    child.kill()
    child.wait(timeout=60)
    out = _wyrd("resume", str(path), "--script", "-", "--json", home=tmp_path,
                stdin="pc add Bram body=6 mind=5 soul=4\n")
    assert out.returncode == 0, out.stderr
    assert "character_created" in [json.loads(line)["kind"] for line in out.stdout.splitlines()]


def test_in_one_process_a_second_writer_is_refused_and_a_reader_is_not(tmp_path: Path) -> None:
    path = tmp_path / "g.wyrd"
    with SaveFile.create(path, meta=META, holder="wyrd play") as save:
        save.append("one", {}, [], [{"kind": "k"}])
        with pytest.raises(SaveLocked, match="being played by `wyrd play`"):
            SaveFile.open(path)
        with SaveFile.open(path, readonly=True) as reader:
            assert [r.text for r in reader.live_commands()] == ["one"]
            save.append("two", {}, [], [])
            # one read transaction for the reader's life: it sees the moment it opened
            assert [r.text for r in reader.live_commands()] == ["one"]
    with SaveFile.open(path) as again:  # closed: free again
        assert again.last_seq() == 2


def test_flock_and_sqlite_locks_do_not_interfere(tmp_path: Path) -> None:
    """On Linux an flock on the save does not block SQLite's POSIX locks, in this or another process."""
    path = tmp_path / "g.wyrd"
    SaveFile.create(path, meta=META).close()
    fd = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        with sqlite3.connect(path, isolation_level=None, timeout=0) as conn:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO meta VALUES ('x', '1')")
            conn.execute("COMMIT")
        code = ("import sqlite3,sys; c=sqlite3.connect(sys.argv[1],isolation_level=None,timeout=0);"
                "c.execute('BEGIN IMMEDIATE'); c.execute(\"INSERT INTO meta VALUES ('y','2')\");"
                "c.execute('COMMIT'); print(c.execute('SELECT count(*) FROM meta').fetchone()[0])")
        out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=True)
        assert int(out.stdout) >= 2
    finally:
        os.close(fd)


def test_the_holder_named_is_cleaned_of_escapes() -> None:
    text = savelock.describe({"command": "\x1b[2J\x1b]0;OWNED\x07wyrd", "pid": 1, "host": "h\x1b", "since": "x"})
    assert "\x1b" not in text and "\x07" not in text and "wyrd" in text
    assert savelock.describe("junk") == "another Wyrd session"
