"""Helpers for the shared table's tests: a table on a temporary save, seats over Starlette's TestClient."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient, WebSocketTestSession

from wyrd.play.frontends.table.host import HostOptions, make_engine
from wyrd.play.frontends.table.server import Limits, TableServer

__all__ = ["Seat", "open_table", "table_client"]


def open_table(save: Path, *, story: str | None = "hollow-fair", ruleset: str = "abacus", seed: int = 21,
               resume: bool = False, limits: Limits | None = None, **kw: Any) -> tuple[TableServer, dict[str, str]]:
    tokens: dict[str, str] = {}
    options = HostOptions(save=save, story=story, ruleset=ruleset, seed=seed, resume=resume)
    # Scripts send as fast as the host answers: no rate limit unless a test sets one.
    limits = limits or Limits(rate=1e9, burst=10**9)
    server = TableServer(make_engine(options, tokens), limits=limits, **kw)
    server.start().result()  # the game made (and the tokens known) before the test goes on
    return server, tokens


@contextmanager
def table_client(server: TableServer) -> Iterator[TestClient]:
    try:
        with TestClient(server.asgi) as client:
            yield client
    finally:
        server.close()


class Seat:
    """One seat over a TestClient WebSocket: sends lines, reads until each one's answer."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self.seen: list[dict[str, Any]] = []
        self.welcome: dict[str, Any] = {}
        self.view: dict[str, Any] = {}
        self.count = 0
        self.view_after = -1  # the last entry read before the last view
        self.told = 0  # the last entry whose narration is over (prose_done read, or sent whole)
        self.prose: list[dict[str, Any]] = []  # prose, prose_withdrawn and prose_done, in order

    def read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.receive_text())
        self.seen.append(message)
        if message["type"] == "log":
            self.log.append(message)
        elif message["type"] in ("prose", "prose_withdrawn", "prose_done"):
            self.prose.append(message)
            # As the page shows it: an entry's narration joins it when settled, as the save reads back.
            entry = next((e for e in reversed(self.log) if e["n"] == message["n"]), None)
            if entry is not None and message["type"] != "prose":
                entry["lines"] = entry["lines"] + message["lines"]
                entry["events"] = entry["events"] + message.get("events", [])
            if message["type"] == "prose_done":
                self.told = max(self.told, message["n"])
        elif message["type"] == "view":
            self.view = message["panels"]
            self.view_after = self.log[-1]["n"] if self.log else 0
        elif message["type"] == "welcome":
            self.welcome = message
        return message

    def read_until(self, kind: str) -> dict[str, Any]:
        while True:
            message = self.read()
            if message["type"] == kind:
                return message

    def hello(self, **hello: Any) -> dict[str, Any]:
        self.ws.send_text(json.dumps({"type": "hello", **hello}))
        first = self.read()
        if first["type"] == "welcome":
            self.read_until("view")
            self.told = max(self.told, int(first.get("last", 0)))  # entries sent on joining are whole
        return first

    def send(self, text: str, line_id: str | None = None) -> dict[str, Any]:
        """Send a line; its answer to this seat (its log entry, refused, reply or duplicate)."""
        self.count += 1
        line_id = line_id or f"{id(self)}-{self.count}"
        self.ws.send_text(json.dumps({"type": "line", "id": line_id, "text": text}))
        while True:
            message = self.read()
            if message.get("id") == line_id and message["type"] in ("log", "refused", "reply", "duplicate"):
                if message["type"] == "log":
                    self.read_until("view")
                    while self.told < message["n"]:
                        self.read()
                return message

    def view_moves(self) -> list[dict[str, Any]]:
        """The moves of the last view read."""
        moves: list[dict[str, Any]] = next(m for m in reversed(self.seen) if m["type"] == "view")["moves"]
        return moves

    def catch_up(self, n: int) -> None:
        """Read until this seat has been sent entry ``n`` and the view after it."""
        while not self.log or self.log[-1]["n"] < n or self.view_after < n or self.told < n:
            self.read()


@contextmanager
def serving(server: TableServer) -> Iterator[int]:
    """``server`` on a real uvicorn in a thread of its own, on a free loopback port (yields the port)."""
    import asyncio
    import threading

    import uvicorn

    from wyrd.play.frontends.table.host import open_socket
    from wyrd.play.frontends.table.protocol import MAX_MESSAGE

    sock = open_socket("127.0.0.1", 0)
    config = uvicorn.Config(server.asgi, log_level="critical", access_log=False, lifespan="off",
                            ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False)
    web = uvicorn.Server(config)
    ready = threading.Event()

    def run() -> None:
        async def main() -> None:
            task = asyncio.ensure_future(web.serve(sockets=[sock]))
            while not web.started and not task.done():
                await asyncio.sleep(0.01)
            ready.set()
            await task

        asyncio.run(main())

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    ready.wait(30)
    try:
        yield int(sock.getsockname()[1])
    finally:
        web.should_exit = True
        thread.join(30)
        server.close()
