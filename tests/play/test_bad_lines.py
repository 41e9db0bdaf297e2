"""Bad lines: whatever is typed, the console never raises, and a refusal changes nothing.

Any text (NUL, escape sequences such as ``\\x1b[31m``, 5,000-character lines, huge numbers,
SQL-looking names, half-quoted words) goes through :meth:`Console.handle` in the middle of a game.
It must not raise; if it was refused, the state is byte-identical (``model_dump_json``) and the save
holds no more commands than before; and no output line carries an escape or any other C0 control
character (nor DEL or a C1 control), so nothing typed can drive the terminal.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.engine.words import UsageError, split_line
from wyrd.play.frontends.console import Console, Output

CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")

GAME = ["pc add Ada body=6 mind=5 soul=4", "pc add Bo body=5 mind=5 soul=5 wyrd=1 connection=Ada", "scene",
        'challenge add "Barrow door" obstruction 6', "attempt door by ada", "spend ada 1"]

VERBS = ["pc", "pc add", "scene", "scene with", "challenge add", "attempt", "spend", "roll", "draw", "accept",
         "harm", "scratch", "influence", "wyrd", "contest", "sabotage", "cast ward by", "cast spell by", "option",
         "end scene recover", "end scene connection", "rest", "finale", "undo", "help", "log", "status",
         "challenges", "save", "quit", "export", "?", "try", "damage"]
NASTY = ["\x00", "\x1b[31m", "\x1b]0;title\x07", "\x1b", "\x9b", "\x7f", "\r", "\n", "\t", "\x08", "\u202e",
         "'", '"', "\\", ",", "=", "==", "body=", "=5", "Ada", "ada", "door", "Barrow door", "bo", "body",
         "mind", "soul", "threat", "6", "-1", "0", "1e9", "10" * 40, "9" * 5000, "1_0", "٣", "NaN",
         "'; DROP TABLE commands; --", "Robert'); DROP TABLE events;--", "x" * 5000, "Ada" * 2000,
         "by", "with", "via", "after", "on=door", "servant=\x1b[2J", "text=\x1b[31mred", "%s", "{seq}"]

word = st.one_of(st.sampled_from(NASTY), st.text(max_size=12))
crafted = st.tuples(st.sampled_from(VERBS), st.lists(word, max_size=8)).map(
    lambda t: " ".join([t[0], *t[1]]))
quoted = st.tuples(st.sampled_from(VERBS), st.text(max_size=40)).map(lambda t: f'{t[0]} "{t[1]}"')
# st.text() leaves out lone surrogates; they come from undecodable bytes (surrogateescape).
surrogates = st.text(alphabet=st.characters(categories=["Cs", "Cc", "Lu"]), max_size=20)
LINES = st.one_of(st.text(), st.text(alphabet=st.characters(max_codepoint=0x9f)), crafted, quoted,
                  st.tuples(st.sampled_from(VERBS), surrogates).map(" ".join))


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=where) as name:
        yield Path(name)


def new_game(folder: Path) -> Console:
    path = Path(tempfile.mkstemp(dir=folder, suffix=".wyrd")[1])
    path.unlink()
    session = Session.new(path, seed=7, ruleset="abacus")
    console = Console(session, path)
    for line in GAME:
        assert console.handle(line).events[0]["kind"] != "refused", line
    return console


def writes_outside(line: str) -> bool:
    """`export` lines whose path leaves the scratch folder (we run as whoever runs the tests)."""
    try:
        words = split_line(line.strip())
        if not words or hooks_for("abacus").verbs.find(words[0]).key != "export":
            return False
    except UsageError:
        return False
    target = words[1] if len(words) > 1 else ""
    return target.startswith(("/", "~")) or ".." in target


def check(console: Console, line: str) -> Output:
    session = console.session
    assert session.save is not None
    before = session.state.model_dump_json()
    commands = session.save.last_seq()
    out = console.handle(line)  # must not raise
    refused = bool(out.events) and out.events[0]["kind"] == "refused"
    if refused:
        assert len(out.events) == 1
        assert session.state.model_dump_json() == before
        assert session.save.last_seq() == commands
    elif not out.events:  # a view verb, a comment or a blank line: nothing changes either
        assert session.state.model_dump_json() == before
        assert session.save.last_seq() == commands
    for shown in out.lines:
        assert not CONTROL.search(shown.text), (line, shown.text)
    return out


SETTINGS = settings(max_examples=300, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@SETTINGS
@given(line=LINES)
@example(line="\x00")
@example(line="pc add \x1b[31mRed\x1b[0m body=5 mind=5 soul=5")
@example(line='pc add "Tab\there" body=5 mind=5 soul=5')
@example(line='pc add "New\nline" body=5 mind=5 soul=5')
@example(line="spend ada " + "9" * 5000)
@example(line="spend ada 99999999999999999999999999")
@example(line="x" * 5000)
@example(line='challenge add "\'; DROP TABLE commands; --" threat 3')
@example(line='cast ward by ada body 1 "\x1b]0;pwned\x07" text="\x1b[2J"')
@example(line="help \x1b[31m")
@example(line='pc "unclosed')
@example(line="export \x1b[31mred.md")
@example(line='pc add "\udc80x" body=5 mind=5 soul=5')
@example(line="spend \udcff 1")
def test_any_line_is_safe(line: str, scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if writes_outside(line):
        return
    monkeypatch.chdir(scratch)  # `export` writes here
    console = new_game(scratch)
    try:
        check(console, line)
        # and whatever it did, the game still answers and shows clean text
        check(console, "status")
        check(console, "log all")
        check(console, "pc")
    finally:
        console.session.close()


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINES, min_size=1, max_size=15))
def test_many_bad_lines_in_a_row(lines: list[str], scratch: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(scratch)
    console = new_game(scratch)
    try:
        for line in lines:
            if not writes_outside(line):
                check(console, line)
        assert console.session.save is not None
        console.session.save.close()  # one session per save (issue 16, point 1)
        resumed = Session.resume(console.session.save.path)
        assert resumed is not None
        assert resumed.state.model_dump_json() == console.session.state.model_dump_json()
        resumed.close()
    finally:
        console.session.close()


def test_undo_without_a_save_file_is_refused_not_raised() -> None:
    console = Console(Session.new(None, seed=1, ruleset="abacus"))
    out = console.handle("undo")
    assert [e.plain() for e in out.events] == [{"seq": None, "kind": "refused", "command": "undo",
                          "reason": "there is no save file to undo from", "rule": "undo"}]
    assert out.lines


def test_undecodable_bytes_on_stdin_do_not_end_the_game(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are read as U+FFFD, as from a script file: the game goes on."""
    repo = Path(__file__).resolve().parents[2]
    script = b"pc add \xff\xfe body=5 mind=5 soul=5\nspend \x80 1\npc add Ada body=5 mind=5 soul=5\n"
    for args in (["--script", "-"], []):  # a script on stdin, and stdin that is not a terminal
        save = tmp_path / f"game{len(args)}.wyrd"
        done = subprocess.run(
            [sys.executable, "-m", "wyrd", "play", "--seed", "1", "--save", str(save), "--json", *args],
            input=script, capture_output=True, cwd=repo, timeout=60,
            env={**os.environ, "WYRD_HOME": str(tmp_path / "home")},
        )
        assert done.returncode == 0, done.stderr
        assert done.stderr == b""
        lines = done.stdout.decode("utf-8").splitlines()
        kinds = [k for line in lines if (k := json.loads(line)["kind"]) != "narration"]
        assert kinds == ["session_started", "character_created", "refused", "character_created"]
