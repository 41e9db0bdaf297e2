"""The REPL shows the truth first, then the prose, set apart; a refused reply is taken back
(issue 19, point 1).

The real REPL runs over prompt-toolkit's pipe input and a VT100 output writing into memory;
the bytes it wrote are played into pyte, a terminal emulator, to see the screen a player
would see. The model is one of langchain-core's fake chat models (FACTS.md): one that
streams word by word, and one that fails part-way (``error_on_chunk_number``).
"""

from __future__ import annotations

import io
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("langchain_core")

import pyte
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.terminal import repl
from wyrd.play.frontends.terminal.prose import INDENT, Prose, typed_ahead_unechoed
from wyrd.play.frontends.view import Line, describe

CALM = "Fog settles over the green, and the lanterns sway on their strings."
ROWS, COLUMNS = 300, 60


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    return tmp_path


def terminal(columns: int = COLUMNS) -> tuple[Vt100_Output, io.StringIO]:
    stream = io.StringIO()
    return Vt100_Output(stream, lambda: Size(rows=ROWS, columns=columns), term="xterm", enable_cpr=False), stream


def screen_of(written: str, columns: int = COLUMNS) -> list[str]:
    """The rows a terminal shows after ``written`` (trailing blanks dropped)."""
    screen = pyte.Screen(columns, ROWS)
    pyte.Stream(screen).feed(written.replace("\n", "\r\n") if "\r\n" not in written else written)
    return [row.rstrip() for row in screen.display]


def row_of(rows: list[str], text: str) -> int:
    return next(i for i, row in enumerate(rows) if text in row)


def play_scene(tmp_path: Path, model: object) -> tuple[str, list[str], Session]:
    """The REPL plays ``scene`` with ``model`` narrating; what it wrote, the screen, the session (closed)."""
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=21, story="hollow-fair", ruleset="abacus")
    console = Console(session, path)
    console.handle("pc take all")
    session.teller.use_llm(LLMNarrator(model, first_token_timeout=5.0, total_timeout=10.0))  # type: ignore[arg-type]
    output, stream = terminal()
    with create_pipe_input() as pipe:
        pipe.send_text("scene\r\x04")
        with create_app_session(input=pipe, output=output):
            assert repl.run_repl(console, input=pipe, output=output) == 0
    session.close()
    written = stream.getvalue()
    return written, screen_of(written), session


def scene_events(tmp_path: Path) -> list[dict[str, object]]:
    session = Session.resume(tmp_path / "g.wyrd")
    assert session.save is not None
    last = [r for r in session.save.live_commands() if r.text == "scene"][-1]
    session.close()
    return list(last.events)


def test_the_result_is_shown_before_the_prose_that_streams_after_it(tmp_path: Path) -> None:
    """Issue 19, point 1: the mechanical outcome, committed, then the model's words, set apart."""
    replies = iter([AIMessage(content=CALM) for _ in range(20)])
    written, rows, _ = play_scene(tmp_path, GenericFakeChatModel(messages=replies))
    events = scene_events(tmp_path)
    truth = describe(events[0], "abacus").text  # the scene opening, committed first
    told = [e for e in events if e["kind"] == "narration"]
    assert told and any(e["text"] == CALM and "fallback" not in e for e in told)
    assert written.index(truth[:30]) < written.index("Fog")  # in the very bytes
    first_prose = row_of(rows, "Fog settles")
    assert row_of(rows, truth[:30]) < first_prose
    assert rows[first_prose].startswith(INDENT + "Fog")  # indented, apart from what happened
    assert re.search(r"\x1b\[[0-9;]*;3m[^\x1b]*Fog", written)  # in the narration style (italic)
    assert "faltered" not in written
    read = [e for e in events if e["kind"] == "interpretation"]  # a twist's reading (point 6), shown whole
    assert sum("Fog settles" in row for row in rows) == sum(e["text"] == CALM for e in [*told, *read])  # once each


def test_a_reply_that_fails_part_way_is_taken_back_and_the_tables_speak(tmp_path: Path) -> None:
    """Issue 19, point 1: "Ada is  (the narrator faltered...)" stayed on screen; now the streamed words
    are erased and the tables' narration is shown in their place."""
    # "Fog settles over the green, and the la", then an error (the first words wait for their language)
    model = FakeListChatModel(responses=[CALM], error_on_chunk_number=38)
    written, rows, _ = play_scene(tmp_path, model)
    told = [e for e in scene_events(tmp_path) if e["kind"] == "narration"]
    assert told and all(e.get("fallback") for e in told)
    assert "Fog settles" in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", written)  # it was shown...
    assert not any("Fog" in row for row in rows)  # ... and is there no more
    for event in told:
        assert any(str(event["text"])[:20] in row for row in rows)  # the tables' words instead
    assert "faltered" not in written


# -- the prose's own layout ---------------------------------------------------------------------


def _prose(columns: int) -> tuple[Prose, Vt100_Output, io.StringIO]:
    output, stream = terminal(columns)
    return Prose(output, columns=columns), output, stream


@pytest.mark.parametrize("columns", [20, 33, 80])
def test_withdrawn_prose_is_erased_row_for_row_however_it_wrapped(columns: int) -> None:
    """Issue 19, point 1: the rows erased are exactly the rows written, wrapping at the terminal's width
    (long words, wide characters and pieces that end mid-word included)."""
    prose, _, stream = _prose(columns)
    prose.show(Line(text="Ada rolls 5.", style="good"))
    pieces = ["The lan", "terns ", "sway; ", "a " * 30, "Überlongwordthatcannotfitanywhereatall ",
              "雨が降る村の広場で ", "and so on to the end."]
    for piece in pieces:
        prose.words(piece)
    assert prose.rows >= 2
    shown = screen_of(stream.getvalue(), columns)
    assert all(row.startswith(INDENT) for row in shown[1:prose.rows + 2])
    assert all(len(row) < columns for row in shown)  # never the last column: the terminal never wraps itself
    prose.withdraw("".join(pieces))
    prose.show(Line(text="Tables speak.", style="narration"))
    rows = screen_of(stream.getvalue(), columns)
    assert rows[0] == "Ada rolls 5."
    assert rows[1] == INDENT + "Tables speak."
    assert not any(row.strip() for row in rows[2:])


def test_prose_that_is_kept_ends_its_row() -> None:
    prose, _, stream = _prose(40)
    for piece in ["Rain ", "on the ", "green."]:
        prose.words(piece)
    prose.told(Line(text="Rain on the green.", style="narration"), streamed=True)
    prose.show(Line(text="Next.", style="info"))
    assert screen_of(stream.getvalue(), 40)[:2] == [INDENT + "Rain on the green.", "Next."]


def test_words_are_cleaned_again_before_the_terminal_sees_them() -> None:
    """Issue 19, point 4: nothing a model says reaches the terminal with an escape sequence in it."""
    prose, _, stream = _prose(40)
    prose.words("Rain\x1b]0;owned\x07 \x1b[2Jfalls\u202e.")
    written = stream.getvalue()
    assert "owned" not in written and "\x1b[2J" not in written and "\u202e" not in written
    assert screen_of(written, 40)[0] == INDENT + "Rain falls."




def test_keys_typed_while_the_prose_is_told_are_kept_but_not_echoed() -> None:
    """Issue 19, point 1: the terminal's echo (``^C``, a line typed ahead) would move the cursor under the
    prose and spoil the erasing of a reply taken back; Ctrl-C must still interrupt."""
    termios = pytest.importorskip("termios")
    main, follower = os.openpty()
    try:
        before = termios.tcgetattr(follower)
        with typed_ahead_unechoed(follower):
            during = termios.tcgetattr(follower)[3]
            assert not during & termios.ECHO and not during & termios.ICANON and during & termios.ISIG
        assert termios.tcgetattr(follower) == before
        with typed_ahead_unechoed(None):
            pass  # no terminal: nothing to do
    finally:
        os.close(main)
        os.close(follower)
