"""The narration at the shared table: the truth first, then the prose, streamed to every seat.

Issue 20, point 2 ("the story log as it grows, narration streamed as it is written") and issue 19,
point 1 (the truth comes first), at the table: every seat is sent the committed entry before any
prose, the same prose, a reply refused part-way taken back with the tables' line in its place, and
a seat that catches up from the save holds the very entries the others ended with.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage
from starlette.testclient import TestClient

from tests.play.table.tablekit import Seat, open_table, table_client
from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.frontends.table.server import TableServer

CALM = "Fog settles over the green, and the lanterns sway on their strings."


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    return tmp_path


def _narrate_with(server: TableServer, model: object) -> None:
    llm = LLMNarrator(model, first_token_timeout=5.0, total_timeout=10.0)  # type: ignore[arg-type]
    server.run(lambda: server.engine.session.teller.use_llm(llm))


@contextmanager
def _bea_and_cal(tmp_path: Path) -> Iterator[tuple[TableServer, TestClient, dict[str, str], Seat, Seat]]:
    """Bea and Cal at a new table, Bea holding every character and Cal caught up with her."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a, \
            client.websocket_connect("/ws") as b:
        bea, cal = Seat(a), Seat(b)
        bea.hello(invite=tokens["invite"], name="Bea")
        cal.hello(invite=tokens["invite"], name="Cal")
        cal.catch_up(bea.send("pc take all")["n"])
        yield server, client, tokens, bea, cal


def _scene(tmp_path: Path, model: object | None) -> tuple[Seat, Seat, Seat, int]:
    """Bea and Cal at a table; Bea takes the characters and opens a scene (``model`` narrating, if
    any); then Dot joins and is sent the whole log from the save. Returns the three seats and the
    scene's entry number."""
    with _bea_and_cal(tmp_path) as (server, client, tokens, bea, cal):
        if model is not None:
            _narrate_with(server, model)
        scene = bea.send("scene")
        cal.catch_up(scene["n"])
        with client.websocket_connect("/ws") as c:
            dot = Seat(c)
            dot.hello(invite=tokens["invite"], name="Dot")
            return bea, cal, dot, int(scene["n"])


def _order(seat: Seat, n: int) -> list[str]:
    """What ``seat`` was sent about entry ``n``, in order: log, prose, prose_withdrawn, prose_done."""
    return [m["type"] for m in seat.seen if m.get("n") == n and m["type"] in
            ("log", "prose", "prose_withdrawn", "prose_done")]


def _prose(seat: Seat, n: int) -> list[dict[str, Any]]:
    return [m for m in seat.seen if m.get("n") == n and m["type"].startswith("prose")]


def test_every_seat_sees_the_truth_before_any_prose_and_the_same_prose(tmp_path: Path) -> None:
    """Issue 20, point 2 and issue 19, point 1: the entry (what happened, committed) reaches both seats
    before the first word of the model's prose; both are sent the same words, and the same lines at
    the end; the entry itself holds no narration."""
    replies = iter([AIMessage(content=CALM) for _ in range(20)])
    bea, cal, _, n = _scene(tmp_path, GenericFakeChatModel(messages=replies))
    for seat in (bea, cal):
        order = _order(seat, n)
        assert order[0] == "log" and order[-1] == "prose_done" and order.count("prose_done") == 1
        assert "prose" in order  # streamed, word by word
        entry = next(m for m in seat.seen if m["type"] == "log" and m["n"] == n)
        assert entry["lines"][0]["style"] != "narration"
    assert _prose(bea, n) == _prose(cal, n)
    chunks = "".join(m["chunk"] for m in _prose(bea, n) if m["type"] == "prose")
    assert "Fog settles over the green" in chunks
    done = _prose(bea, n)[-1]
    assert any(line["text"] == CALM and line["style"] == "narration" for line in done["lines"])
    assert any(e["kind"] == "narration" for e in done["events"])


def test_a_reply_refused_part_way_is_withdrawn_and_the_tables_line_takes_its_place(tmp_path: Path) -> None:
    """Issue 20, point 2 and issue 19, point 1: a model's reply that breaks off mid-stream is taken back
    at every seat (prose_withdrawn), with the tables' narration in its place."""
    bea, cal, _, n = _scene(tmp_path, FakeListChatModel(responses=[CALM], error_on_chunk_number=38))
    assert _prose(bea, n) == _prose(cal, n)
    order = _order(bea, n)
    assert order.index("prose") < order.index("prose_withdrawn") < order.index("prose_done")
    withdrawn = next(m for m in _prose(bea, n) if m["type"] == "prose_withdrawn")
    assert withdrawn["lines"] and all("Fog" not in line["text"] for line in withdrawn["lines"])
    entry = bea.log[-1]  # the seat's log, with its narration joined to it as the page shows it
    assert not any("Fog" in line["text"] for line in entry["lines"])
    assert withdrawn["lines"][0] in entry["lines"]


@pytest.mark.parametrize("model", ["stream", "withdrawn", "tables"])
def test_a_seat_that_catches_up_holds_the_same_log_as_those_who_watched(tmp_path: Path, model: str) -> None:
    """Issue 20, point 5: a seat sent the log from the save (the narration saved in the command's second
    transaction) ends with entries equal, line for line and event for event, to those of the seats
    that were sent the truth and then its prose."""
    made: object | None = None
    if model == "stream":
        made = GenericFakeChatModel(messages=iter([AIMessage(content=CALM) for _ in range(20)]))
    elif model == "withdrawn":
        made = FakeListChatModel(responses=[CALM], error_on_chunk_number=38)
    bea, cal, dot, _ = _scene(tmp_path, made)
    assert bea.log == cal.log == dot.log
    assert any(line["style"] == "narration" for line in dot.log[-1]["lines"])
    assert not any(m["type"].startswith("prose") for m in dot.seen)  # caught up whole, from the save


def test_with_the_tables_alone_nothing_streams_and_the_lines_come_right_after_the_entry(tmp_path: Path) -> None:
    """Issue 20, point 2: without a model there is nothing to stream; the tables' narration comes in the
    entry's prose_done, sent with the entry (before any later entry)."""
    bea, cal, _, n = _scene(tmp_path, None)
    for seat in (bea, cal):
        assert _order(seat, n) == ["log", "prose_done"]
        done = _prose(seat, n)[0]
        assert done["lines"] and all(line["style"] == "narration" for line in done["lines"])
        after = [m["type"] for m in seat.seen[seat.seen.index(done) - 3:seat.seen.index(done)]]
        assert "log" in after or "view" in after  # right after the entry and its view


def test_a_model_gone_to_rest_is_announced_to_every_seat_once(tmp_path: Path) -> None:
    """Issue 19, point 4 ("after three consecutive failures the narrator rests ... and says so once"), at the
    table: every seat is sent the notice once, after the entry whose telling sent the model to rest."""
    with _bea_and_cal(tmp_path) as (server, _, _, bea, cal):
        _narrate_with(server, FakeListChatModel(responses=[CALM], error_on_chunk_number=0))
        for line in ("scene", "inspire", "inspire", "inspire", "inspire", "inspire"):
            cal.catch_up(bea.send(line)["n"])
        cal.catch_up(bea.send("inspire")["n"])  # the entry after: any notice of the ones before is read by now
        for seat in (bea, cal):
            notices = [m["text"] for m in seat.seen if m["type"] == "notice" and "in a row" in m["text"]]
            assert len(notices) == 1 and notices[0].startswith("The language model failed 3 times in a row")
