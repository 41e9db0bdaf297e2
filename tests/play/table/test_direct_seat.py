"""The host's own seat over a socket pair: served as any seat, and before the web server starts.

Issue 21, point 2: the host's first prompt waits for neither the web server's libraries nor a
WebSocket handshake. Issue 20, points 1 and 5: the host's seat is a seat like the others (the same
hello, token and frames), and the table is served to the others once the host's seat is shown it.
"""

from __future__ import annotations

import asyncio
import json
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

import wyrd.play.frontends.table.host as host
from tests.play.table.tablekit import Seat, open_table, table_client
from wyrd.play.frontends.table.client import Invitation, RemoteTable
from wyrd.play.frontends.table.direct import SeatSide, open_side
from wyrd.play.frontends.table.server import TableServer


def _seat(token: str) -> tuple[RemoteTable, list[dict[str, Any]]]:
    seen: list[dict[str, Any]] = []
    table = RemoteTable(Invitation("", "", None, None), on_message=seen.append, seat=token)
    return table, seen


async def _until(seen: list[dict[str, Any]], kind: str) -> None:
    while not any(m["type"] == kind for m in seen):
        await asyncio.sleep(0.01)


async def _direct(server: TableServer, token: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]], bool]:
    """A seat over a socket pair: what it was sent on joining, its line's answer, and whether ``shown``
    was set once it said its prompt was drawn; then it leaves."""
    theirs, ours = socket.socketpair()
    reader, writer = await open_side(theirs)
    shown = asyncio.Event()
    served = asyncio.ensure_future(server.seat_directly(reader, writer, shown))
    table, seen = _seat(token)
    side = SeatSide(*await open_side(ours))
    table.direct = side
    running = asyncio.ensure_future(table.run())
    await asyncio.wait_for(_until(seen, "seats"), 30)
    assert not shown.is_set()
    side.prompt_shown()  # as the host's seat says once its prompt is drawn
    await asyncio.wait_for(shown.wait(), 30)
    joined = list(seen)
    answer = await asyncio.wait_for(table.line("pc take all"), 30)
    await table.close()
    await asyncio.wait_for(running, 30)
    await asyncio.wait_for(served, 30)  # the table's end sees the seat go
    return joined, [answer], shown.is_set()


def test_a_seat_over_a_socket_pair_is_sent_what_a_websocket_seat_is(tmp_path: Path) -> None:
    """The same welcome as over a WebSocket (its kinds of frames, name, seat), a line carried out, and
    the seat seen leaving."""
    server, tokens = open_table(tmp_path / "g.wyrd", story="harrow-mere", ruleset="lots")
    host_token = tokens["host"]
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        over_ws = Seat(ws)
        over_ws.ws.send_text(json.dumps({"type": "hello", "invite": tokens["invite"], "name": "Bea"}))
        frames = [over_ws.read()]
        while frames[-1]["type"] != "seats":
            frames.append(over_ws.read())
        joined, (answer,), shown = asyncio.run(_direct(server, host_token))
        assert [m["type"] for m in joined] == [m["type"] for m in frames]
        assert joined[0]["name"] == "Host" and frames[0]["name"] == "Bea"
        assert shown
        assert answer["type"] == "log" and answer["by"] == "Host"
        assert over_ws.read_until("log")["line"] == "pc take all"  # the others see the host's line
        assert not server.connections - {c for c in server.connections if c.seat and c.seat.name == "Bea"}


def test_a_seat_whose_table_closes_its_end_leaves_without_reconnecting(tmp_path: Path) -> None:
    """The table's end closed (the table is closing): the seat's connection ends, no "reconnecting"."""
    async def play() -> list[dict[str, Any]]:
        theirs, ours = socket.socketpair()
        table, seen = _seat("token")
        table.direct = SeatSide(*await open_side(ours))
        theirs.close()
        await asyncio.wait_for(table.run(), 30)
        return seen

    assert asyncio.run(play()) == []


def test_a_seat_refused_over_a_socket_pair_is_told_why(tmp_path: Path) -> None:
    from wyrd.play.frontends.table.client import TableRefused

    server, _ = open_table(tmp_path / "g.wyrd")

    async def play() -> None:
        theirs, ours = socket.socketpair()
        reader, writer = await open_side(theirs)
        served = asyncio.ensure_future(server.seat_directly(reader, writer))
        table, _ = _seat("not-a-seat")
        table.direct = SeatSide(*await open_side(ours))
        try:
            await asyncio.wait_for(table.run(), 30)
        finally:
            await asyncio.wait_for(served, 30)

    try:
        with pytest.raises(TableRefused):
            asyncio.run(play())
    finally:
        server.close()


def test_the_host_seat_is_shown_its_table_before_the_web_server_starts(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve`` with the host's seat: the game made, the seat joined, its prompt drawn, then uvicorn
    started; the page is served to the others while the host plays, and the host's seat leaving ends
    the table."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    token = tokens["host"]
    sock = host.open_socket("127.0.0.1", 0)
    port = sock.getsockname()[1]
    at_start: list[list[bool]] = []
    web = host._web

    said: list[bool] = []

    def started(table_server: TableServer, listening: socket.socket) -> Any:
        at_start.append([c.seat is not None and bool(said) for c in table_server.connections])
        return web(table_server, listening)

    monkeypatch.setattr(host, "_web", started)
    link, theirs = socket.socketpair()
    opened: list[bool] = []
    page: list[int] = []

    async def repl() -> None:  # the host's seat, as its own process plays it
        table, seen = _seat(token)
        side = SeatSide(*await open_side(theirs))
        table.direct = side
        running = asyncio.ensure_future(table.run())
        await asyncio.wait_for(_until(seen, "seats"), 30)
        await asyncio.sleep(0.2)
        assert not at_start  # joined, but its prompt not yet drawn: no web server yet
        said.append(True)
        side.prompt_shown()
        while not at_start:
            await asyncio.sleep(0.01)
        answer = await asyncio.to_thread(lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30))
        page.append(answer.status)
        assert (await table.line("pc take all"))["type"] == "log"
        await table.close()
        await running

    try:
        asyncio.run(host.serve(server, sock, opened=lambda: opened.append(True), repl=repl, seat=link))
    finally:
        server.close()
        link.close()
    assert opened == [True]
    assert at_start == [[True]]  # the host's seat only, joined, its prompt drawn
    assert page == [200]
