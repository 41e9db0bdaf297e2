"""Lines over a set length are refused before anything parses them (Issue 16, point 6).

The console refuses a line over ``MAX_LINE`` characters first of all (every front-end goes
through it, and the REPL asks before the ruleset's questions read the line); scripts and
standard input are read with a bounded ``readline``, so ``--script /dev/zero`` cannot grow.
No test here times anything: bench/long_lines.py prints the figures.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.formatted_text import fragment_list_to_text, to_formatted_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from wyrd.play.engine.session import Session
from wyrd.play.frontends import console as console_module
from wyrd.play.frontends.console import MAX_LINE, Console
from wyrd.play.frontends.script import bounded_lines, run_script
from wyrd.play.frontends.terminal import repl

ADA = "pc add Ada body=5 mind=5 soul=5"


@pytest.fixture
def console() -> Iterator[Console]:
    session = Session.new(None, seed=1, ruleset="abacus")
    yield Console(session)
    session.close()


def refused(output: Any) -> bool:
    return any(e.get("kind") == "refused" for e in output.events)


def test_the_limit_is_named_and_said_in_the_refusal(console: Console) -> None:
    """Issue 16, point 6: a line of MAX_LINE + 1 characters is refused, saying the limit; MAX_LINE is read."""
    assert MAX_LINE == 4096
    at_limit = console.handle(ADA + " " * (MAX_LINE - len(ADA)))
    assert not refused(at_limit)
    over = console.handle(ADA + " " * (MAX_LINE + 1 - len(ADA)))
    assert refused(over) and "4,096 characters" in over.lines[0].text
    assert "MAX_LINE" in over.lines[0].text
    assert list(console.session.state.characters) == ["Ada"]  # the refused line changed nothing


def test_a_huge_line_is_refused_without_being_parsed(console: Console, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 6: 1.6 M characters (104 s before) are refused before the session parses a word."""
    parsed: list[int] = []
    real = console.session.parse

    def counting(text: str) -> Any:
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(console.session, "parse", counting)
    line = "ask " + "likely " * 230_000
    assert len(line) > 1_600_000
    output = console.handle(line)
    assert refused(output) and parsed == []
    assert len(output.lines[0].text) < 200 and len(output.events[0].plain()["command"]) < 100  # not echoed whole
    console.handle("status")
    assert parsed == [6]


def test_the_repl_refuses_a_long_line_before_the_rulesets_questions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 6: in the REPL the limit comes before the kit's questions (ask_before) read the line."""
    session = Session.new(None, seed=1, ruleset="abacus")
    console = Console(session)
    seen: list[str] = []
    monkeypatch.setattr(repl, "print_formatted_text",
                        lambda *v, **k: seen.extend(fragment_list_to_text(to_formatted_text(x)) for x in v))
    asked: list[int] = []
    monkeypatch.setattr(repl, "_asked", lambda c, line, ask: asked.append(len(line)) or line)
    try:
        with create_pipe_input() as pipe:
            pipe.send_text(ADA + " " * MAX_LINE + "\r" + ADA + "\r\x04")
            with create_app_session(input=pipe, output=DummyOutput()):
                assert repl.run_repl(console, input=pipe, output=DummyOutput()) == 0
    finally:
        session.close()
    assert any("4,096 characters" in line for line in seen)
    assert asked == [len(ADA)]
    assert list(session.state.characters) == ["Ada"]


def test_a_script_goes_on_after_an_over_long_line(console: Console) -> None:
    """Issue 16, point 6: a script's over-long line is refused, and the next line is played."""
    text = "x" * (3 * MAX_LINE) + "\n" + ADA + "\n"
    out = io.StringIO()
    run_script(console, bounded_lines(io.StringIO(text)), as_json=False, stream=out)
    assert "4,096 characters" in out.getvalue()
    assert list(console.session.state.characters) == ["Ada"]


def test_a_line_that_never_ends_stops_the_script_with_a_message() -> None:
    """Issue 16, point 6: past the skip limit the script stops, saying why, having held one piece at a time."""

    class Endless(io.TextIOBase):
        def __init__(self) -> None:
            self.largest = 0
            self.served = 0

        def readline(self, size: int | None = -1) -> str:
            assert size is not None and 0 < size <= 1 << 16  # always bounded
            self.largest = max(self.largest, size)
            self.served += size
            return "\0" * size

    stream, warn = Endless(), io.StringIO()
    lines = list(bounded_lines(stream, "zeros", skip_limit=1 << 20, warn=warn))  # type: ignore[arg-type]
    assert [len(line) for line in lines] == [MAX_LINE + 1]
    assert "line 1 of zeros does not end" in warn.getvalue() and "stops here" in warn.getvalue()
    assert stream.served < 2 << 20


def test_script_dev_zero_stays_within_a_memory_bound(tmp_path: Path) -> None:
    """Issue 16, point 6: `wyrd play --script /dev/zero` (6 GB before) ends within 1 GiB of address space."""
    child = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))\n"
        "from wyrd.play.cli.main import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = {**os.environ, "WYRD_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", child, "play", "--script", "/dev/zero", "--ruleset", "abacus",
                           "--story", "none", "--save", str(tmp_path / "z.wyrd")],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert "4,096 characters" in done.stdout, done.stderr[-2000:]
    assert "does not end within" in done.stderr and "MemoryError" not in done.stderr
    assert "Traceback" not in done.stderr


def test_every_front_end_reads_lines_through_the_console() -> None:
    """Issue 16, point 6: the script runner and the REPL hand each line to the console, whose first step
    (Console.act, which Console.handle begins with: issue 19, point 1) holds the limit."""
    import inspect

    assert "console.handle(line)" in inspect.getsource(run_script)
    source = inspect.getsource(repl.run_repl)
    assert "overlong(text)" in source and source.index("overlong(text)") < source.index("_asked(")
    assert "_carry_out(console, line" in source and "console.act(line)" in inspect.getsource(repl._carry_out)
    assert "self.act(line)" in inspect.getsource(console_module.Console.handle)
    assert "overlong(line)" in inspect.getsource(console_module.Console.act)
