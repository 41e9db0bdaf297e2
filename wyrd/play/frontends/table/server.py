"""The table's server: the page, its assets and the seats' WebSocket, on Starlette; and the host's own
seat over a local stream (:meth:`TableServer.seat_directly`), served the same way before Starlette is
even loaded (it is imported where the app is first asked for, :attr:`TableServer.asgi`).

One worker thread owns the game (:class:`~wyrd.play.frontends.table.engine.TableEngine`, its
session, its save and the seats' record: SQLite connections stay in the thread that made them), so
lines are carried out one at a time, in the order they came. What a line led to is handed back to
the event loop with ``call_soon_threadsafe`` from that same thread, so every seat's queue gets the
entries in the order they were committed. Each connection has its own send queue and sender task:
a seat that stops reading never holds up the others, and one more than
:data:`~wyrd.play.frontends.table.protocol.QUEUE_LIMIT` messages behind is dropped (it reconnects
and is sent what it missed, from the save).

Nobody gets in who was not invited (issue 20, point 7): the invitation and seat tokens are checked
in constant time, an address that sends :data:`~.protocol.MAX_WRONG_TOKENS` wrong ones is refused
for a while, a browser's ``Origin`` must be the host's own, and frames, rates and connections are
bounded, each refusal saying which limit it met. Every HTTP answer carries a strict
Content-Security-Policy (no inline script or style, nothing from elsewhere).

The page is a fixed shell that its WebSocket fills, so it is served before the game is made
(issue 21, point 2): :meth:`TableServer.start` queues the engine's making first in the worker, and
a seat that connects sooner waits for it before its hello is read, so it is never refused for being
early and is sent exactly what it would have been sent later.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlsplit

from wyrd.play.frontends.table import protocol as p
from wyrd.play.frontends.table.outcome import Outcome
from wyrd.play.frontends.table.seats import Seat

if TYPE_CHECKING:
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    # The engine's modules (the session, the rules, pydantic) load in the worker, after the page is up.
    from wyrd.play.frontends.table.engine import TableEngine

__all__ = ["CSP", "STATIC", "Limits", "SeatSocket", "TableServer", "post_webhook"]

STATIC = Path(__file__).with_name("static")

CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
       "connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
_HEADERS = [(b"content-security-policy", CSP.encode()), (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"no-referrer"), (b"x-frame-options", b"DENY"),
            (b"cache-control", b"no-store")]


class Limits:
    """The server's limits (the protocol's by default; tests may lower them)."""

    def __init__(self, *, connections: int = p.MAX_CONNECTIONS, rate: float = p.RATE, burst: int = p.BURST,
                 wrong_tokens: int = p.MAX_WRONG_TOKENS, window: float = p.WRONG_TOKEN_WINDOW,
                 queue: int = p.QUEUE_LIMIT, message: int = p.MAX_MESSAGE) -> None:
        self.connections, self.rate, self.burst = connections, rate, burst
        self.wrong_tokens, self.window, self.queue, self.message = wrong_tokens, window, queue, message


class _Headers:
    """ASGI middleware: the security headers on every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *_HEADERS]
            await send(message)

        await self.app(scope, receive, sending)


def post_webhook(url: str, content: str, *, timeout: float = 10.0) -> bool:
    """POST ``{"content": content}`` (Discord's webhook JSON) to ``url``; False if it failed."""
    import urllib.request  # with http.client and email's parser: only a table with a webhook needs them

    body = json.dumps({"content": content[:1900]}).encode()
    request = urllib.request.Request(url, data=body, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "wyrd-table"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:  # http(s) only: commands.py checks
            return 200 <= int(answer.status) < 300
    except (OSError, ValueError):
        return False


class SeatSocket(Protocol):
    """What the server uses of a seat's connection: Starlette's ``WebSocket``, or the host's own seat's
    stream (:class:`~wyrd.play.frontends.table.direct.TableSide`)."""

    @property
    def client(self) -> Any: ...
    @property
    def headers(self) -> Mapping[str, str]: ...
    async def accept(self) -> None: ...
    async def receive(self) -> Any: ...
    async def send_text(self, data: str) -> None: ...
    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


class _Gone(Exception):
    """The seat's connection closed."""


class _Connection:
    """One seat's connection: its seat once it has said hello, its queue of frames, what it was sent."""

    def __init__(self, ws: SeatSocket, address: str, clock: Callable[[], float], limits: Limits) -> None:
        self.ws = ws
        self.address = address
        self.seat: Seat | None = None
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.sent = 0  # the last log entry queued for it
        self.dropped = False
        self.clock = clock
        self.allowance = float(limits.burst)
        self.stamp = clock()
        self.limits = limits

    def allowed(self) -> bool:
        """One more message within the rate (a token bucket)."""
        now = self.clock()
        self.allowance = min(float(self.limits.burst), self.allowance + (now - self.stamp) * self.limits.rate)
        self.stamp = now
        if self.allowance < 1.0:
            return False
        self.allowance -= 1.0
        return True


class TableServer:
    """The page and the seats' WebSocket for one table, around an engine made in its worker thread."""

    def __init__(self, make_engine: Callable[[], TableEngine], *, static: Path = STATIC,
                 limits: Limits | None = None, origins: tuple[str, ...] = (),
                 clock: Callable[[], float] = time.monotonic,
                 webhook: Callable[[str, str], object] = post_webhook) -> None:
        self.limits = limits or Limits()
        self.static = static
        self.origins = origins
        self.clock = clock
        self.webhook = webhook
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="wyrd-table")
        self._make_engine = make_engine
        self._engine: Future[TableEngine] | None = None
        self.connections: set[_Connection] = set()
        self.online: frozenset[int] = frozenset()
        self.wrong: dict[str, deque[float]] = {}
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Future[None]] = set()

    @cached_property
    def asgi(self) -> ASGIApp:
        """The page, its assets and the seats' WebSocket, as an ASGI app (Starlette, loaded here: the
        host's own seat is served before it, :meth:`seat_directly`)."""
        from starlette.applications import Starlette
        from starlette.routing import Mount, Route, WebSocketRoute
        from starlette.staticfiles import StaticFiles

        return _Headers(Starlette(routes=[
            Route("/", self._page), Route("/healthz", self._health),
            Mount("/static", app=StaticFiles(directory=self.static, check_dir=False), name="static"),
            WebSocketRoute("/ws", self._socket)]))

    def start(self) -> Future[TableEngine]:
        """The engine being made in the worker: its making is queued there first, once."""
        if self._engine is None:
            self._engine = self.executor.submit(self._make_engine)
        return self._engine

    def failure(self) -> BaseException | None:
        """What the engine's making raised, if it was started and failed."""
        made = self._engine
        return made.exception() if made is not None and made.done() and not made.cancelled() else None

    @property
    def engine(self) -> TableEngine:
        """The engine, once made (from outside the event loop: waits for it; raises what its making did)."""
        return self.start().result()

    async def ready(self) -> TableEngine:
        """The engine, waited for without holding up the event loop."""
        return await asyncio.wrap_future(self.start())

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` in the worker thread and wait (from outside the event loop)."""
        self.start()
        return self.executor.submit(fn, *args).result()

    def close(self) -> None:
        """Stop the worker and close the game (its save and the seats' record), if it was made."""
        def closing(engine: TableEngine) -> None:
            engine.book.close()
            engine.session.close()

        made = self._engine
        if made is not None and not made.cancel():
            with contextlib.suppress(Exception):
                self.executor.submit(closing, made.result()).result()
        self.executor.shutdown(wait=True)

    # -- HTTP ------------------------------------------------------------------------------

    async def _page(self, request: Request) -> Response:
        # A few kilobytes read here, not a FileResponse: that hands the file to a thread through anyio,
        # whose event loop backend would be imported first (about 20 ms before the first page).
        from starlette.responses import PlainTextResponse, Response

        try:
            page = (self.static / "index.html").read_bytes()
        except OSError:
            return PlainTextResponse("The table's page is missing from this installation.", status_code=503)
        return Response(page, media_type="text/html; charset=utf-8")

    async def _health(self, request: Request) -> Response:
        from starlette.responses import JSONResponse

        engine = await self.ready()
        return JSONResponse({"ok": True, "last": engine.last, "connections": len(self.connections)})

    # -- the worker and the loop ---------------------------------------------------------------

    async def _work(self, fn: Callable[[], Outcome], conn: _Connection) -> None:
        """Run ``fn`` in the worker; deliver what it led to from there, in the order of the work."""
        loop = asyncio.get_running_loop()
        self.loop = loop

        def job() -> None:
            try:
                outcome = fn()
            except Exception as exc:  # a bug in one line must not end the table
                outcome = Outcome(private=[{"type": "refused", "id": None,
                                            "reason": f"the host failed on that line ({type(exc).__name__})"}])
            seats = self.engine.seats_message(set(self.online) | ({outcome.seat.id} if outcome.seat else set())) \
                if outcome.seats_changed or outcome.seat is not None else None
            loop.call_soon_threadsafe(self._deliver, conn, outcome, seats)
            if outcome.telling is not None:  # the narration, after the truth, still in the worker
                def emit(messages: list[dict[str, Any]]) -> None:
                    loop.call_soon_threadsafe(self._deliver, conn, Outcome(broadcast=messages), None)

                with contextlib.suppress(Exception):  # narration only adds prose: the table goes on
                    outcome.telling(emit)

        await loop.run_in_executor(self.executor, job)

    def _queue(self, conn: _Connection, frame: str, n: int | None = None) -> None:
        if conn.dropped:
            return
        if conn.queue.qsize() >= self.limits.queue:
            self._drop(conn, "too far behind: reconnect to catch up")
            return
        conn.queue.put_nowait(frame)
        if n is not None:
            conn.sent = max(conn.sent, n)

    def _drop(self, conn: _Connection, reason: str) -> None:
        conn.dropped = True
        while not conn.queue.empty():
            conn.queue.get_nowait()
        conn.queue.put_nowait(None)
        self.connections.discard(conn)
        self._seen_online()
        closing = asyncio.ensure_future(self._close(conn, 1013, reason))
        self._tasks.add(closing)
        closing.add_done_callback(self._tasks.discard)

    async def _close(self, conn: _Connection, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(code=code, reason=reason[:120]), 5)

    def _seen_online(self) -> None:
        self.online = frozenset(c.seat.id for c in self.connections if c.seat is not None)

    def _deliver(self, conn: _Connection, outcome: Outcome, seats: dict[str, Any] | None) -> None:
        if outcome.error is not None:
            self._queue(conn, p.dumps({"type": "error", "reason": outcome.error, "code": outcome.code}))
            conn.queue.put_nowait(None)
            return
        if outcome.seat is not None:  # joined: from here on it is sent what everyone is
            conn.seat = outcome.seat
            self._seen_online()
        for message in outcome.private:
            self._queue(conn, p.dumps(message), message.get("n") if message.get("type") == "log" else None)
        for message in outcome.broadcast:
            frame = p.dumps(message)
            n = message.get("n") if message.get("type") == "log" else None
            for other in list(self.connections):
                if other.seat is not None:
                    self._queue(other, frame, n)
        if seats is not None:
            frame = p.dumps(seats)
            for other in list(self.connections):
                if other.seat is not None:
                    self._queue(other, frame)
        for seat_id in outcome.drop:
            for other in list(self.connections):
                if other.seat is not None and other.seat.id == seat_id:
                    self._queue(other, p.dumps({"type": "error", "reason": "the host revoked this seat",
                                                     "code": "revoked"}))
                    other.queue.put_nowait(None)
        if outcome.webhook is not None:
            threading.Thread(target=self.webhook, args=outcome.webhook, daemon=True).start()

    # -- the WebSocket ---------------------------------------------------------------------------

    def _origin_ok(self, ws: SeatSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser (wyrd join): the token is what lets it in
        if origin in self.origins:
            return True
        return urlsplit(origin).netloc.casefold() == ws.headers.get("host", "").casefold()

    def _locked_out(self, address: str) -> bool:
        now = self.clock()
        tries = self.wrong.get(address)
        if tries is None:
            return False
        while tries and now - tries[0] > self.limits.window:
            tries.popleft()
        return len(tries) >= self.limits.wrong_tokens

    async def _refuse(self, ws: SeatSocket, reason: str, code: int = 1008, why: str = "") -> None:
        with contextlib.suppress(Exception):
            await ws.send_text(p.dumps({"type": "error", "reason": reason, "code": why}))
            await ws.close(code=code, reason=reason[:120])

    async def seat_directly(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                            shown: asyncio.Event | None = None) -> None:
        """Serve one seat over a local stream (the host's own seat's process) until it closes, as a
        WebSocket's seat is served; ``shown`` is set once the seat says its prompt is on the screen."""
        from wyrd.play.frontends.table.direct import TableSide

        await self._socket(TableSide(reader, writer, shown), address="this machine")

    async def _socket(self, ws: SeatSocket, address: str = "") -> None:
        await ws.accept()
        address = address or (ws.client.host if ws.client else "?")
        if not self._origin_ok(ws):
            await self._refuse(ws, "this page's origin may not join the table", why="origin")
            return
        if len(self.connections) >= self.limits.connections:
            await self._refuse(ws, f"the table is full (at most {self.limits.connections} connections)", 1013,
                               why="full")
            return
        conn = _Connection(ws, address, self.clock, self.limits)
        self.connections.add(conn)
        sender = asyncio.ensure_future(self._sender(conn))
        try:
            await self._serve(conn)
        except _Gone:
            pass
        finally:
            self.connections.discard(conn)
            self._seen_online()
            if not conn.dropped:
                conn.queue.put_nowait(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(sender, 5)
            if conn.seat is not None:
                seat, sent = conn.seat, conn.sent
                await self._work(lambda: self._left(seat.id, sent), conn)

    def _left(self, seat_id: int, sent: int) -> Outcome:
        self.engine.left(seat_id, sent)
        return Outcome(seats_changed=True)

    async def _sender(self, conn: _Connection) -> None:
        while True:
            frame = await conn.queue.get()
            if frame is None:
                break
            try:
                await conn.ws.send_text(frame)
            except Exception:
                break
        if not conn.dropped:
            with contextlib.suppress(Exception):
                await conn.ws.close()

    async def _receive(self, conn: _Connection) -> str | None:
        message = await conn.ws.receive()
        if message["type"] == "websocket.disconnect":
            raise _Gone(message.get("code", 1000))
        text = message.get("text")
        if text is None:
            raise p.ProtocolError("messages are JSON text frames")
        if len(text.encode("utf-8", "surrogatepass")) > self.limits.message:
            raise p.ProtocolError(f"a message may be at most {self.limits.message:,} bytes")
        return str(text)

    async def _serve(self, conn: _Connection) -> None:
        try:
            await self.ready()
        except Exception:  # the host's terminal says why; the process ends
            await self._refuse(conn.ws, "the table did not open: the host's terminal says why", 1011,
                               why="closed")
            return
        while conn.seat is None:
            try:
                hello = p.parse(await self._wait(self._receive(conn)) or "")
            except p.ProtocolError as exc:
                await self._refuse(conn.ws, str(exc), why="too_big" if "at most" in str(exc) else "malformed")
                return
            except TimeoutError:
                await self._refuse(conn.ws, "say hello first (no hello came)", why="hello")
                return
            if not isinstance(hello, p.Hello):
                await self._refuse(conn.ws, "say hello first: {\"type\": \"hello\", ...}", why="hello")
                return
            if self._locked_out(conn.address):
                await self._refuse(conn.ws, "too many wrong tokens from your address: wait a minute and try again",
                                   why="locked")
                return
            await self._work(lambda h=hello: self._join(h, conn.address), conn)  # type: ignore[misc]
            await asyncio.sleep(0)
            if conn.seat is None:
                return
        seat = conn.seat
        while not conn.dropped:
            try:
                message = p.parse(await self._receive(conn) or "")
            except p.ProtocolError as exc:
                self._queue(conn, p.dumps({"type": "refused", "id": None, "reason": str(exc)}))
                continue
            if not conn.allowed():
                self._queue(conn, p.dumps({"type": "error", "code": "rate", "reason":
                                           f"too many messages (at most {self.limits.rate:g} a second)"}))
                conn.queue.put_nowait(None)
                return
            if isinstance(message, p.LineMessage):
                await self._work(lambda m=message: self.engine.line(seat, m.id, m.text), conn)  # type: ignore[misc]
            elif isinstance(message, p.Complete):
                await self._work(lambda m=message: self._complete(m), conn)  # type: ignore[misc]
            else:
                self._queue(conn, p.dumps({"type": "refused", "id": None, "reason": "you have said hello already"}))

    def _join(self, hello: p.Hello, address: str) -> Outcome:
        outcome = self.engine.join(hello)
        if outcome.seat is None:
            # A wrong token counts against the address before the refusal is sent, so that a client
            # reconnecting at once is already held to the count.
            tried = self.clock()
            assert self.loop is not None
            self.loop.call_soon_threadsafe(lambda: self.wrong.setdefault(address, deque()).append(tried))
        return outcome

    def _complete(self, message: p.Complete) -> Outcome:
        return Outcome(private=[{"type": "completions", "id": message.id,
                                 "items": self.engine.complete(message.text)}])

    @staticmethod
    async def _wait(receiving: Awaitable[str | None]) -> str | None:
        return await asyncio.wait_for(receiving, 60)
