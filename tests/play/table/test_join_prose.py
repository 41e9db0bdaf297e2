"""``wyrd join`` tells a model's prose as at home: streamed, then settled or taken back.

Issue 20, point 3 (the terminal REPL as a seat, as at home) with issue 19, point 1 (the truth
first; a reply refused part-way is withdrawn from the screen). The real ``play_remote`` runs over
prompt-toolkit's pipe input against a real host on loopback; what it writes goes into a VT100
output in memory and is played into pyte to see the screen a player would see. The models are
langchain-core's fakes (FACTS.md): one streaming word by word, one failing part-way.
"""

from __future__ import annotations

import asyncio
import io
import re
from pathlib import Path

import pytest

pytest.importorskip("langchain_core")

import pyte
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output.vt100 import Vt100_Output

from tests.play.table.tablekit import open_table, serving
from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.engine.session import Session
from wyrd.play.frontends.table.client import RemoteTable, parse_link
from wyrd.play.frontends.terminal.prose import INDENT
from wyrd.play.frontends.terminal.remote import play_remote

CALM = "Fog settles over the green, and the lanterns sway on their strings."
ROWS, COLUMNS = 400, 100


def _join_and_open_a_scene(tmp_path: Path, model: object) -> tuple[str, list[str], list[dict[str, object]]]:
    """Bea joins a table narrated by ``model``, takes every character and opens a scene.

    Returns what her terminal was sent, the screen it shows, and the game's events as saved.
    """
    server, tokens = open_table(tmp_path / "g.wyrd")
    llm = LLMNarrator(model, first_token_timeout=5.0, total_timeout=10.0)  # type: ignore[arg-type]
    server.run(lambda: server.engine.session.teller.use_llm(llm))
    stream = io.StringIO()
    output = Vt100_Output(stream, lambda: Size(rows=ROWS, columns=COLUMNS), term="xterm", enable_cpr=False)
    with serving(server) as port:
        table = RemoteTable(parse_link(f"http://127.0.0.1:{port}/#invite={tokens['invite']}"), name="Bea",
                            on_message=lambda message: None)

        async def run() -> int:
            with create_pipe_input() as pipe:
                pipe.send_text("pc take all\rscene\r\x04")
                return await play_remote(table, input=pipe, output=output, history=False)

        assert asyncio.run(run()) == 0
    session = Session.resume(tmp_path / "g.wyrd")
    assert session.save is not None
    events = [event for record in session.save.live_commands() for event in record.events]
    session.close()
    written = stream.getvalue()
    screen = pyte.Screen(COLUMNS, ROWS)
    pyte.Stream(screen).feed(written.replace("\n", "\r\n"))
    return written, [row.rstrip() for row in screen.display], events


def test_a_seat_s_own_prose_streams_then_stands_once(tmp_path: Path) -> None:
    """Issue 20, point 3: a seat's own line is narrated word by word as at home, and each reply stands once."""
    replies = iter([AIMessage(content=CALM) for _ in range(20)])
    written, rows, events = _join_and_open_a_scene(tmp_path, GenericFakeChatModel(messages=replies))
    told = [e for e in events if e["kind"] == "narration" and e["text"] == CALM and "fallback" not in e]
    assert told
    # written piece by piece as the model spoke (a word in a write of its own), ...
    assert re.search(r"\x1b\[[0-9;]*m lanterns\x1b", written)
    # ... then taken back (a carriage return and an erase to the end of the screen) for the settled lines
    assert re.search(r"strings\.(\x1b\[[0-9;?]*[A-Za-z])*\r(\x1b\[[0-9;?]*[A-Za-z])*\x1b\[J", written)
    read = [e for e in events if e["kind"] == "interpretation" and e["text"] == CALM]
    assert sum("Fog settles" in row for row in rows) == len(told) + len(read)  # each shown once
    assert all(row in (INDENT + CALM, "One reading: " + CALM) for row in rows if "Fog" in row)  # whole


def test_a_reply_refused_part_way_is_taken_back_from_the_seat_s_screen(tmp_path: Path) -> None:
    """Issue 19, point 1, at a remote seat: the streamed words of a failed reply are erased, the tables speak."""
    # "Fog settles over the green, and the la", then an error
    written, rows, events = _join_and_open_a_scene(tmp_path, FakeListChatModel(responses=[CALM],
                                                                               error_on_chunk_number=38))
    told = [e for e in events if e["kind"] == "narration"]
    assert told and all(e.get("fallback") for e in told)
    assert "Fog settles" in re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", written)  # it was shown...
    assert not any("Fog" in row for row in rows)  # ... and is there no more
    for event in told:
        assert any(str(event["text"])[:20] in row for row in rows)  # the tables' words instead
