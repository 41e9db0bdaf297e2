"""Nobody gets in who was not invited, and no one message or client can stop the table (issue 20, point 7)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from tests.play.table.tablekit import Seat, open_table, serving, table_client
from wyrd.play.frontends.table.protocol import MAX_MESSAGE
from wyrd.play.frontends.table.seats import TOKEN_BYTES, new_token
from wyrd.play.frontends.table.server import CSP, Limits


class Clock:
    """A clock the test moves by hand: no test waits on a timer."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_tokens_carry_at_least_128_random_bits() -> None:
    """Issue 20, point 7: tokens of at least 128 random bits."""
    assert TOKEN_BYTES * 8 >= 128
    tokens = {new_token() for _ in range(100)}
    assert len(tokens) == 100 and all(len(t) >= 22 for t in tokens)


def test_a_wrong_token_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    """Issue 20, point 7: a wrong invitation or seat token is refused, saying so, and the connection closes."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client:
        with client.websocket_connect("/ws") as ws:
            answer = Seat(ws).hello(invite=tokens["invite"][:-1] + "x", name="Eve")
            assert answer == {"type": "error", "code": "invite",
                              "reason": "wrong invitation token: ask the host for the link again"}
            with pytest.raises(WebSocketDisconnect):
                ws.receive_text()
        with client.websocket_connect("/ws") as ws:
            assert "not known here" in Seat(ws).hello(seat=new_token())["reason"]


def test_guessing_tokens_is_rate_limited_per_address(tmp_path: Path) -> None:
    """Issue 20, point 7: an address that sent too many wrong tokens is refused even the right one, until
    the window has passed (the clock is the test's)."""
    clock = Clock()
    server, tokens = open_table(tmp_path / "g.wyrd", limits=Limits(wrong_tokens=5, window=60, rate=1e9, burst=10**9),
                                clock=clock)
    with table_client(server) as client:
        for _ in range(5):
            with client.websocket_connect("/ws") as ws:
                assert Seat(ws).hello(invite=new_token(), name="Eve")["type"] == "error"
        with client.websocket_connect("/ws") as ws:
            answer = Seat(ws).hello(invite=tokens["invite"], name="Bea")
            assert answer["reason"].startswith("too many wrong tokens from your address")
        clock.now += 61
        with client.websocket_connect("/ws") as ws:
            assert Seat(ws).hello(invite=tokens["invite"], name="Bea")["type"] == "welcome"


@pytest.mark.parametrize(("frame", "reason"), [
    ("not json", "a message must be one JSON object"),
    ("[1, 2]", "a message must be one JSON object"),
    ('{"type": "shout"}', "unknown message type 'shout'"),
    ('{"type": "line", "id": 7, "text": "scene"}', "'id' must be text"),
    ('{"type": "line", "id": "x", "text": "' + "a" * (MAX_MESSAGE + 10) + '"}', f"at most {MAX_MESSAGE:,} bytes"),
])
def test_malformed_and_oversized_frames_are_refused_and_the_seat_plays_on(tmp_path: Path, frame: str,
                                                                           reason: str) -> None:
    """Issue 20, point 7: a frame that is not the protocol's, or too big, is refused with the reason; the
    game is unchanged and the seat's next line is carried out."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        bea = Seat(ws)
        bea.hello(invite=tokens["invite"], name="Bea")
        last = server.engine.last
        ws.send_text(frame)
        answer = bea.read_until("refused")
        assert reason in answer["reason"]
        assert server.engine.last == last
        ws.send_bytes(b"\x00\x01")
        assert bea.read_until("refused")["reason"] == "messages are JSON text frames"
        assert bea.send("pc take all")["type"] == "log"


def test_a_frame_before_hello_must_be_hello(tmp_path: Path) -> None:
    """Issue 20, point 7: anything but a hello first closes the connection, saying why."""
    server, _ = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        ws.send_text(json.dumps({"type": "line", "id": "1", "text": "scene"}))
        assert json.loads(ws.receive_text())["reason"].startswith("say hello first")


def test_a_flood_is_cut_off(tmp_path: Path) -> None:
    """Issue 20, point 7: more messages than the rate allows end the connection with the reason."""
    server, tokens = open_table(tmp_path / "g.wyrd", limits=Limits(rate=1, burst=3), clock=Clock())
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        bea = Seat(ws)
        bea.hello(invite=tokens["invite"], name="Bea")
        for i in range(4):
            ws.send_text(json.dumps({"type": "complete", "id": str(i), "text": "s"}))
        assert bea.read_until("error")["reason"] == "too many messages (at most 1 a second)"


def test_a_browser_from_another_origin_is_refused(tmp_path: Path) -> None:
    """Issue 20, point 7: the WebSocket checks its Origin: a page elsewhere cannot use a player's browser."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client:
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            assert json.loads(ws.receive_text()) == {"type": "error", "code": "origin",
                                                     "reason": "this page's origin may not join the table"}
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert Seat(ws).hello(invite=tokens["invite"], name="Bea")["type"] == "welcome"


def test_every_answer_carries_a_strict_content_security_policy(tmp_path: Path) -> None:
    """Issue 20, point 7: a strict CSP (no inline script or style, nothing from elsewhere) on the page."""
    static = tmp_path / "static"
    static.mkdir()
    (static / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    server, _ = open_table(tmp_path / "g.wyrd", static=static)
    with table_client(server) as client:
        for path in ("/", "/healthz"):
            answer = client.get(path)
            assert answer.status_code == 200
            assert answer.headers["content-security-policy"] == CSP
            assert answer.headers["x-content-type-options"] == "nosniff"
    assert "'unsafe-inline'" not in CSP and "script-src 'self'" in CSP and "default-src 'none'" in CSP


def test_a_full_table_refuses_more_connections_and_goes_on_serving(tmp_path: Path) -> None:
    """Issue 20, points 7 and 8: 200 connections at once on a real server: those past the limit are
    refused with the reason, and the table still serves its seats."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    server, tokens = open_table(tmp_path / "g.wyrd")
    with serving(server) as port:
        url = f"ws://127.0.0.1:{port}/ws"

        async def crowd() -> tuple[list[Any], list[str]]:
            sockets = await asyncio.gather(*(connect(url, open_timeout=30) for _ in range(200)),
                                           return_exceptions=True)
            async def first(ws: Any) -> str | None:
                try:
                    return str(json.loads(await asyncio.wait_for(ws.recv(), 2))["reason"])
                except TimeoutError:
                    return None  # admitted, waiting for its hello
                except ConnectionClosed as exc:  # the reason came with the close frame only
                    return exc.rcvd.reason if exc.rcvd is not None else "closed"

            answers = await asyncio.gather(*(first(ws) for ws in sockets if not isinstance(ws, BaseException)))
            refused = [a for a in answers if a is not None]
            # While full, the server still answers (the page and its health).
            import urllib.request

            def health() -> Any:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
                    return json.loads(answer.read())

            first = await asyncio.to_thread(health)
            for ws in sockets:
                if not isinstance(ws, BaseException):
                    await ws.close()
            return [first], refused

        (first,), refused = asyncio.run(crowd())
        assert len(refused) == 200 - 64
        assert set(refused) == {"the table is full (at most 64 connections)"}
        assert first["ok"] is True and first["connections"] == 64
        # Once the crowd has gone (the host counts each close as its handler ends, which may come just after
        # the client's close returns), a seat plays as before.
        import time
        import urllib.request

        for _ in range(400):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as answer:
                if json.loads(answer.read())["connections"] == 0:
                    break
            time.sleep(0.05)

        async def play() -> dict[str, Any]:
            async with connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "invite": tokens["invite"], "name": "Bea"}))
                while json.loads(await ws.recv())["type"] != "view":
                    pass
                await ws.send(json.dumps({"type": "line", "id": "a", "text": "pc take all"}))
                while True:
                    message = json.loads(await ws.recv())
                    if message.get("id") == "a":
                        return message  # type: ignore[no-any-return]

        assert asyncio.run(play())["type"] == "log"


def test_a_seat_that_stops_reading_is_dropped_not_waited_for(tmp_path: Path) -> None:
    """Issue 20, points 7 and 8: each seat has its own bounded send queue; one whose client stops reading
    fills it and is dropped, while every other seat goes on being served."""
    from wyrd.play.frontends.table.outcome import Outcome
    from wyrd.play.frontends.table.server import _Connection

    server, _ = open_table(tmp_path / "g.wyrd", limits=Limits(queue=10, rate=1e9, burst=10**9))

    class Stuck:
        """A WebSocket whose client never reads: every send waits forever."""

        sent = 0

        async def send_text(self, frame: str) -> None:
            Stuck.sent += 1
            await asyncio.Event().wait()

        async def close(self, code: int = 1000, reason: str = "") -> None:
            await asyncio.Event().wait()

    class Reading:
        frames: list[str] = []  # noqa: RUF012

        async def send_text(self, frame: str) -> None:
            self.frames.append(frame)

        async def close(self, code: int = 1000, reason: str = "") -> None:
            return None

    async def run() -> tuple[_Connection, _Connection]:
        from wyrd.play.frontends.table.seats import Seat as SeatRow

        senders = []
        stuck = _Connection(Stuck(), "a", Clock(), server.limits)  # type: ignore[arg-type]
        reading = _Connection(Reading(), "b", Clock(), server.limits)  # type: ignore[arg-type]
        for i, conn in enumerate((stuck, reading)):
            conn.seat = SeatRow(i + 10, f"s{i}", False, False, 0, None)
            server.connections.add(conn)
            senders.append(asyncio.ensure_future(server._sender(conn)))
        for n in range(1, 31):
            server._deliver(reading, Outcome(broadcast=[{"type": "log", "n": n}]), None)
            await asyncio.sleep(0)
        return stuck, reading

    stuck, reading = asyncio.run(run())
    server.close()
    assert stuck.dropped and stuck not in server.connections
    assert Stuck.sent == 1  # the one send it never finished
    assert not reading.dropped and [json.loads(f)["n"] for f in Reading.frames] == list(range(1, 31))
