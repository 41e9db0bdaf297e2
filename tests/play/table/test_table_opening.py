"""A table serves its page before its game is made, and a seat that comes early waits for the game.

Issue 21, point 2 (the host's first page within 0.1 s of the import floor), without giving up any of
issue 20's: a seat that connects while the game is still being made is neither refused nor sent a
half-made game, and gets exactly the frames of a seat that connects once it is made (point 5). And
what a seat is sent reaches it at once: no frame waits on TCP's delayed acknowledgement.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.play.table.tablekit import Seat, open_table, table_client
from wyrd.play.cli.main import main
from wyrd.play.frontends.table.engine import TableEngine
from wyrd.play.frontends.table.host import HostOptions, make_engine
from wyrd.play.frontends.table.server import Limits, TableServer

ROOT = Path(__file__).resolve().parents[3]


def _held(make: Callable[[], TableEngine]) -> tuple[Callable[[], TableEngine], threading.Event]:
    """``make`` held back until the event is set: the game still being made for as long as a test wants."""
    go = threading.Event()

    def made() -> TableEngine:
        assert go.wait(30)
        return make()

    return made, go


def _played(save: Path) -> tuple[str, str]:
    """A table played a few lines in and closed: the invitation and a seat's token, to open it again."""
    server, tokens = open_table(save)
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        bea = Seat(ws)
        seat = bea.hello(invite=tokens["invite"], name="Bea")["seat"]
        for line in ("pc take all", "scene"):
            assert bea.send(line)["type"] == "log"
    return tokens["invite"], str(seat)


def _frames(ws: Any, hello: dict[str, Any]) -> list[dict[str, Any]]:
    """What a seat is sent after its hello, up to the seats' list that ends a welcome."""
    ws.send_text(json.dumps({"type": "hello", **hello}))
    frames = [json.loads(ws.receive_text())]
    while frames[-1]["type"] != "seats":
        frames.append(json.loads(ws.receive_text()))
    return frames


def test_the_page_is_served_while_the_game_is_still_being_made(tmp_path: Path) -> None:
    """Issue 21, point 2: the page is a fixed shell, so it is served before the game exists; the
    health check, which tells the game's last entry, waits for it."""
    tokens: dict[str, str] = {}
    made, go = _held(make_engine(HostOptions(save=tmp_path / "g.wyrd", story="hollow-fair", ruleset="abacus",
                                             seed=21), tokens))
    server = TableServer(made)
    making = server.start()
    with table_client(server) as client:
        page = client.get("/")
        assert page.status_code == 200 and b"<html" in page.content.lower()
        assert page.headers["content-type"] == "text/html; charset=utf-8"
        assert not making.done() and not (tmp_path / "g.wyrd").exists()  # nothing of the game yet
        go.set()
        assert client.get("/healthz").json()["last"] == server.engine.last > 0


def test_a_seat_that_comes_before_the_game_is_made_gets_what_a_later_one_gets(tmp_path: Path) -> None:
    """Issue 21, point 2 with issue 20, point 5: a table opened again (`wyrd host --resume`) serves at
    once; a seat that reconnects and says hello while the game is still being made waits, and is sent
    exactly the frames a seat sent the same hello once the game is made is sent."""
    invite, seat = _played(tmp_path / "g.wyrd")
    frames: dict[str, list[list[dict[str, Any]]]] = {}
    for when in ("early", "late"):
        (tmp_path / when).mkdir()
        for part in tmp_path.glob("g.wyrd*"):  # each opening from the same saved table
            shutil.copy(part, tmp_path / when)
        made, go = _held(make_engine(HostOptions(save=tmp_path / when / "g.wyrd", resume=True), {}))
        server = TableServer(made, limits=Limits(rate=1e9, burst=10**9))
        with table_client(server) as client:
            if when == "late":
                go.set()
                server.start().result()
            with client.websocket_connect("/ws") as back, client.websocket_connect("/ws") as new:
                if when == "early":
                    back.send_text(json.dumps({"type": "hello", "seat": seat, "after": 0}))
                    assert not server.start().done()  # connected and said hello before the game is made
                    go.set()
                    got = [json.loads(back.receive_text())]
                    while got[-1]["type"] != "seats":
                        got.append(json.loads(back.receive_text()))
                else:
                    got = _frames(back, {"seat": seat, "after": 0})
                joined = _frames(new, {"invite": invite, "name": "Cal"})
        frames[when] = [got, joined]
    early, late = frames["early"], frames["late"]
    assert [m["type"] for m in early[0]][:2] == ["welcome", "log"] and early[0][-2]["type"] == "view"
    assert early[0] == late[0]
    # A new seat's token is its own; all else it is sent is the same.
    def tokenless(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [{**f, "seat": None} if f["type"] == "welcome" else f for f in frames]

    assert early[1][0]["seat"] != late[1][0]["seat"]
    assert tokenless(early[1]) == tokenless(late[1])


def test_a_table_whose_game_cannot_be_made_invites_nobody(tmp_path: Path, capsys: Any) -> None:
    """Issue 21, point 2: the server is up before the game is made, but a game that cannot be made is
    said as before (the reason, exit code 1) and no invitation is printed."""
    assert main(["host", "--story", "no-such-story", "--save", str(tmp_path / "g.wyrd"), "--port", "0",
                 "--no-repl", "--no-qr"]) == 1
    out, err = capsys.readouterr()
    assert "#invite=" not in out and "The table is closed" not in out
    assert err.startswith("wyrd: there is no story 'no-such-story'")
    assert not (tmp_path / "g.wyrd").exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("g.wyrd")) == []  # nor its table's record


def test_the_invitation_is_known_before_the_game_is_made_and_a_record_made_for_a_game_that_fails_goes(
        tmp_path: Path) -> None:
    """Issue 21, point 2: the table's record is opened first, so the host's seat can draw the
    invitation's QR code while the game is made. A new table whose game cannot be made keeps no
    record; a saved table's record is left as it was whatever happens."""
    from wyrd.play.frontends.table.host import table_book

    tokens: dict[str, str] = {}
    with pytest.raises(Exception, match="no-such-story"):
        make_engine(HostOptions(save=tmp_path / "g.wyrd", story="no-such-story", ruleset="abacus"), tokens)()
    assert len(tokens["invite"]) >= 32  # known before the game was tried
    assert list(tmp_path.iterdir()) == []
    invite, _seat = _played(tmp_path / "kept.wyrd")
    kept: dict[str, str] = {}
    with pytest.raises(RuntimeError), table_book(HostOptions(save=tmp_path / "kept.wyrd", resume=True), kept):
        raise RuntimeError("the game could not be made")
    assert kept["invite"] == invite and (tmp_path / "kept.wyrd.table").exists()


def test_the_host_serves_without_importing_the_game() -> None:
    """Issue 21, point 2: what `wyrd host` needs to serve its page (the command line, the server, the
    table's protocol) imports none of the game's modules, pydantic, prompt-toolkit or anyio's event
    loop backend; those load in the worker once the page is served, or at a terminal seat's start."""
    code = ("import sys, wyrd.play.cli.main as m; m.build_parser('host'); "
            "import wyrd.play.cli.table, wyrd.play.frontends.table.host, wyrd.play.frontends.table.server; "
            "print(sorted(k for k in sys.modules if k.split('.')[0] in ('pydantic', 'yaml', 'prompt_toolkit') "
            "or k.startswith(('wyrd.play.engine.session', 'wyrd.play.engine.history', 'wyrd.play.engine.reply', "
            "'wyrd.play.frontends.console', 'wyrd.rules.', "
            "'wyrd.play.frontends.table.engine', 'anyio._backends'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    assert out.stdout.strip() == "[]"


def test_each_connection_the_host_accepts_sends_small_frames_at_once() -> None:
    """Issue 20, point 8 (a line's entry at every seat within 50 ms): the host's listening socket says it
    is TCP, so the event loop sets TCP_NODELAY on every connection it accepts; without it a frame sent
    right after another (a welcome's view, an entry's view) waited about 40 ms for the seat's delayed ACK."""
    import asyncio
    import socket

    from wyrd.play.frontends.table.host import open_socket

    async def accepted() -> int:
        got: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        class Probe(asyncio.Protocol):
            def connection_made(self, transport: asyncio.BaseTransport) -> None:
                sock = transport.get_extra_info("socket")
                got.set_result(sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
                transport.close()

        listening = open_socket("127.0.0.1", 0)
        server = await asyncio.get_running_loop().create_server(Probe, sock=listening)
        _reader, writer = await asyncio.open_connection("127.0.0.1", listening.getsockname()[1])
        try:
            return await asyncio.wait_for(got, 30)
        finally:
            writer.close()
            server.close()

    assert asyncio.run(accepted()) != 0
