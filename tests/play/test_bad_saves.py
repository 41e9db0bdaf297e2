"""Bad saves through the CLI: refused in one line, no traceback, and not a byte of them changed.

``wyrd resume`` (and ``wyrd log`` / ``wyrd export``, which read a save without replaying it) are
given a text file, an empty file, another program's SQLite database, a save from a newer Wyrd,
and a save whose events were edited by hand so that replay no longer matches.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session

REPO = Path(__file__).resolve().parents[2]


def text_file(path: Path) -> None:
    path.write_text("pc add Ada body=5 mind=5 soul=5\nscene\n", encoding="utf-8")


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def foreign_db(path: Path) -> None:
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE commands (seq INTEGER PRIMARY KEY, text TEXT)")
        conn.execute("INSERT INTO commands VALUES (1, 'not ours')")
        conn.commit()


def played(path: Path) -> None:
    """A real save of a short game."""
    session = Session.new(path, seed=5, ruleset="abacus")
    for line in ["pc add Ada body=6 mind=5 soul=4", "scene", 'challenge add "Door" obstruction 5',
                 "attempt door", "spend ada 2", "roll"]:
        assert session.execute(line).changed, line
    session.close()


def newer_schema(path: Path) -> None:
    played(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("PRAGMA user_version = 99")
        conn.commit()


def edited_events(path: Path) -> None:
    """Change the Body Ada spent in a saved event: replay no longer tells the same story."""
    played(path)
    with closing(sqlite3.connect(path)) as conn:
        command, idx, data = conn.execute(
            "SELECT command, idx, data FROM events WHERE kind = 'points_spent'").fetchone()
        event = json.loads(data)
        event["points_after"] += 1
        conn.execute("UPDATE events SET data = ? WHERE command = ? AND idx = ?", (json.dumps(event), command, idx))
        conn.commit()


def edited_dice(path: Path) -> None:
    """Change a recorded die: the replayed roll differs from the saved one."""
    played(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE dice SET faces = '[7]' WHERE idx = 0")
        conn.commit()


def edit(path: Path, sql: str) -> None:
    played(path)
    with closing(sqlite3.connect(path)) as conn:
        conn.execute(sql)
        conn.commit()


def truncated(path: Path) -> None:
    played(path)
    path.write_bytes(path.read_bytes()[:1500])


BAD: dict[str, Callable[[Path], None]] = {
    "text file": text_file,
    "empty file": empty_file,
    "foreign SQLite database": foreign_db,
    "newer schema": newer_schema,
    "edited events": edited_events,
    "edited dice": edited_dice,
    "truncated save": truncated,
    "command not an object": lambda p: edit(p, "UPDATE commands SET parsed = '[]' WHERE seq = 2"),
    "command of an unknown verb": lambda p: edit(p, """UPDATE commands SET parsed = '{"verb": "nope", "args": {}}'
                                                   WHERE seq = 2"""),
    "event not JSON": lambda p: edit(p, "UPDATE events SET data = '{' WHERE command = 3"),
    "seed not a number": lambda p: edit(p, """UPDATE meta SET value = '"abc"' WHERE key = 'seed'"""),
    "meta not JSON": lambda p: edit(p, "UPDATE meta SET value = 'x' WHERE key = 'seed'"),
    "another game": lambda p: edit(p, """UPDATE meta SET value = '"chess"' WHERE key = 'game'"""),
}
# Files no command can read. The others are saves whose damage only replay notices, or that only
# some readers notice: `log` and `export` never replay the rules, and only `export` reads the meta.
UNREADABLE = {"text file", "empty file", "foreign SQLite database", "newer schema", "truncated save"}


def make(kind: str, tmp_path: Path) -> tuple[Path, bytes]:
    path = tmp_path / "bad.wyrd"
    BAD[kind](path)
    assert not Path(f"{path}-wal").exists()  # everything is in the main file
    return path, path.read_bytes()


def assert_unchanged(path: Path, before: bytes) -> None:
    """Not a byte of the file changed, and nothing waits in a write-ahead log to change it.

    (SQLite may leave an empty ``-wal`` and a ``-shm`` index beside a WAL save it opened to read.)
    """
    assert path.read_bytes() == before
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0


def assert_one_line(err: str) -> None:
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err.startswith("wyrd: ")
    assert "Traceback" not in err and "Error:" not in err


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize("kind", list(BAD))
def test_resume_refuses_in_one_line(kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, before = make(kind, tmp_path)
    script = tmp_path / "more.txt"
    script.write_text("pc add Bo body=5 mind=5 soul=5\n", encoding="utf-8")
    code = main(["resume", str(path), "--script", str(script), "--json"])
    out, err = capsys.readouterr()
    assert code != 0
    assert out == ""
    assert_one_line(err)
    assert str(path) in err
    assert_unchanged(path, before)


@pytest.mark.parametrize("kind", list(BAD))
@pytest.mark.parametrize("command", [["log"], ["log", "--all"], ["export", "--md"]])
def test_log_and_export_read_or_refuse_in_one_line(kind: str, command: list[str], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    path, before = make(kind, tmp_path)
    code = main([command[0], str(path), *command[1:]])
    out, err = capsys.readouterr()
    if code == 0:
        assert kind not in UNREADABLE
        assert err == "" and out
    else:
        assert out == ""
        assert_one_line(err)
    assert_unchanged(path, before)


def test_a_missing_file_is_refused_in_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["resume", str(tmp_path / "nowhere.wyrd")])
    _, err = capsys.readouterr()
    assert code != 0
    assert_one_line(err)
    assert not (tmp_path / "nowhere.wyrd").exists()


@pytest.mark.parametrize("kind", ["text file", "newer schema", "edited events"])
def test_the_real_command_exits_non_zero_without_a_traceback(kind: str, tmp_path: Path) -> None:
    path, before = make(kind, tmp_path)
    done = subprocess.run([sys.executable, "-m", "wyrd", "resume", str(path), "--script", "-", "--json"],
                          input="pc\n", capture_output=True, text=True, cwd=REPO, timeout=60,
                          env={"WYRD_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1
    assert done.stdout == ""
    assert_one_line(done.stderr)
    assert_unchanged(path, before)


def test_a_good_save_still_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The control: the same save, unedited, resumes and plays on."""
    path = tmp_path / "good.wyrd"
    played(path)
    script = tmp_path / "more.txt"
    script.write_text("pc add Bo body=5 mind=5 soul=5\n", encoding="utf-8")
    assert main(["resume", str(path), "--script", str(script), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert [k for line in out.splitlines() if (k := json.loads(line)["kind"]) != "narration"] == ["character_created"]


@pytest.mark.parametrize("kind", ["another game", "seed not a number", "event not JSON"])
def test_a_refused_resume_never_names_its_holder(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16: a bad save is refused unwritten, even when the clock has moved on since it was made.

    The lock's holder (with the time it was taken) is written only once the game is found sound,
    so a refusal in another second than the save's last holder still leaves every byte as it was.
    """
    from wyrd.play.engine import savelock

    path, before = make(kind, tmp_path)
    later = savelock.holder

    def another_second(command: str | None = None) -> dict[str, object]:
        return {**later(command), "since": "2099-01-01 00:00:00"}

    monkeypatch.setattr(savelock, "holder", another_second)
    assert main(["resume", str(path), "--script", str(tmp_path / "none.txt")]) != 0
    capsys.readouterr()
    assert_unchanged(path, before)
