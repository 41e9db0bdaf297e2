"""``wyrd host``: open a table for a new or saved game, print the invitation, serve until stopped.

The game is made (or resumed) in the server's worker thread, the only thread that ever touches it.
uvicorn serves the app on a socket bound here (``--bind``, 127.0.0.1 unless told otherwise; port 0
picks a free one), so the invitation names the real port. The page is served as soon as uvicorn is
up, and the game is made right after (issue 21, point 2); the invitation is printed once it is made,
so a table that cannot open invites nobody. At a terminal, the host's own seat is a process of its
own (:mod:`wyrd.play.frontends.terminal.hostseat`), served over a socket pair before uvicorn starts
(:mod:`~wyrd.play.frontends.table.direct`); otherwise (a service, a test) the table serves until
SIGINT or SIGTERM.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wyrd.play.frontends.table.server import Limits, TableServer

if TYPE_CHECKING:
    import uvicorn

    from wyrd.play.frontends.table.engine import TableEngine
    from wyrd.play.frontends.table.seats import SeatBook

__all__ = ["SHOWN_WITHIN", "HostOptions", "make_engine", "open_socket", "serve", "table_book"]

#: Seconds the web server waits at most for the host's own prompt to be drawn before it starts.
SHOWN_WITHIN = 5.0


@dataclass
class HostOptions:
    """What ``wyrd host`` was asked for."""

    save: Path
    story: str | None = None
    ruleset: str = ""
    seed: int = 0
    resume: bool = False
    content: Sequence[Path] = ()
    bind: str = "127.0.0.1"
    port: int = 0
    name: str = "Host"
    origins: tuple[str, ...] = ()
    limits: Limits = field(default_factory=Limits)


@contextmanager
def table_book(options: HostOptions, tokens: dict[str, str]) -> Iterator[SeatBook]:
    """The table's record of seats, opened (made, for a new table) with ``tokens["invite"]`` read from it.

    First of all, so the invitation is known before the game is made. If the block fails (the game
    could not be made), a record made here is taken away again: a table that never opened keeps none.
    """
    from wyrd.play.frontends.table.seats import SeatBook, book_path

    path = book_path(options.save)
    fresh = not path.exists()
    book = SeatBook(path)
    try:
        tokens["invite"] = book.invite()
        yield book
    except BaseException:
        book.close()
        if fresh:
            for suffix in ("", "-wal", "-shm"):
                path.with_name(path.name + suffix).unlink(missing_ok=True)
        raise


def make_engine(options: HostOptions, tokens: dict[str, str],
                book: SeatBook | None = None) -> Callable[[], TableEngine]:
    """What the worker thread runs first: the session, its console, the seats' record, the engine.

    ``tokens`` receives the invitation's token and the host seat's (fresh at every start); ``book``
    is the record if :func:`table_book` opened it already."""
    def build() -> TableEngine:
        if book is not None:
            return _engine(options, tokens, book)
        with table_book(options, tokens) as opened:
            return _engine(options, tokens, opened)

    return build


def _engine(options: HostOptions, tokens: dict[str, str], book: SeatBook) -> TableEngine:
    from wyrd.play.engine.session import Session
    from wyrd.play.frontends.console import Console
    from wyrd.play.frontends.table.engine import TableEngine

    if options.resume:
        session = Session.resume(options.save, content=options.content)
    else:
        session = Session.new(options.save, seed=options.seed, story=options.story, ruleset=options.ruleset,
                              content=options.content)
    _seat, tokens["host"] = book.host_seat(options.name)
    return TableEngine(Console(session, options.save), book)


def open_socket(bind: str, port: int) -> socket.socket:
    """A listening socket on ``bind``:``port`` (0: a free port)."""
    family = socket.AF_INET6 if ":" in bind else socket.AF_INET
    # Named TCP, so that asyncio sets TCP_NODELAY on each connection it accepts (it does only for a socket
    # whose protocol says TCP): else a frame sent right after another waits for the seat's delayed ACK,
    # about 40 ms (a welcome's view, a line's narration after its entry).
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((bind, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def serve(server: TableServer, sock: socket.socket, *, opened: Callable[[], object] | None = None,
                repl: Callable[[], Awaitable[object]] | None = None, seat: socket.socket | None = None) -> None:
    """Serve ``server`` on ``sock`` until stopped; with ``repl`` (an async function), until it ends.

    The page is served from the moment uvicorn is up; the engine is made in the worker right after,
    so that its making does not hold up the server's start. Once it is made, ``opened`` is called
    (the invitation), then ``repl``. If it cannot be made, the server stops and its error is raised.

    With ``seat`` (the host's end of a socket pair whose other end is the host's own seat's process),
    the host's seat comes first: the game is made, the seat is served over ``seat`` as soon as
    ``repl`` tells it to join, and uvicorn starts once the seat says its prompt is drawn, so that the
    host's first prompt waits for neither the web server's libraries nor a handshake.
    """
    if seat is not None and repl is not None:
        await _serve_seated(server, sock, opened, repl, seat)
        return
    web, serving = _web(server, sock)
    while not web.started and not serving.done():
        await asyncio.sleep(0.001)
    if serving.done():  # stopped (SIGINT, SIGTERM) before it served: no game is made
        serving.result()
        return
    making = asyncio.ensure_future(server.ready())
    try:
        await asyncio.wait({making, serving}, return_when=asyncio.FIRST_COMPLETED)
        if not making.done():  # stopped before the game was made: nobody was invited
            return
        making.result()  # the error that kept the game from being made, if any
        if opened is not None:
            opened()
        if repl is not None:
            await _until_either(asyncio.ensure_future(repl()), serving)
        else:
            await serving
    finally:
        web.should_exit = True
        await serving
        if not making.done():
            making.cancel()  # the worker goes on making it; the server's close waits for it


def _web(server: TableServer, sock: socket.socket) -> tuple[uvicorn.Server, asyncio.Future[Any]]:
    """uvicorn serving ``server`` on ``sock``, started."""
    from wyrd.play.frontends.table.libraries import server_imported
    from wyrd.play.frontends.table.protocol import MAX_MESSAGE

    server_imported()  # (the worker is idle: before the game is made, or once the host's seat is shown it)
    import uvicorn

    config = uvicorn.Config(server.asgi, log_level="warning", access_log=False, lifespan="off",
                            ws_max_size=MAX_MESSAGE, ws_per_message_deflate=False, server_header=False)
    web = uvicorn.Server(config)
    return web, asyncio.ensure_future(web.serve(sockets=[sock]))


async def _until_either(seat: asyncio.Future[Any], serving: asyncio.Future[Any]) -> None:
    """The host's seat ends the table; a server stopped first (a signal it took) ends the seat."""
    await asyncio.wait({seat, serving}, return_when=asyncio.FIRST_COMPLETED)
    if not seat.done():
        seat.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await seat  # what the seat raised, if it did


async def _serve_seated(server: TableServer, sock: socket.socket, opened: Callable[[], object] | None,
                        repl: Callable[[], Awaitable[object]], link: socket.socket) -> None:
    """:func:`serve` with the host's own seat over ``link``, served before the web server starts.

    Until uvicorn starts, nothing takes SIGINT but Python: Ctrl-C (or SIGTERM, which the host turns
    into one) raises KeyboardInterrupt here, and the table closes as it would have.
    """
    from wyrd.play.frontends.table.direct import open_side

    await server.ready()  # the error that kept the game from being made, if any
    if opened is not None:
        opened()
    reader, writer = await open_side(link)
    shown = asyncio.Event()
    direct = asyncio.ensure_future(server.seat_directly(reader, writer, shown))
    seat = asyncio.ensure_future(repl())
    serving: asyncio.Future[Any] | None = None
    web = None
    try:
        # The others' page once the host's prompt is up: the server's libraries load after it is drawn,
        # not while (on a busy machine the two would share a processor). A seat that never says so
        # (it failed as it drew) holds the others up no longer than SHOWN_WITHIN.
        waiting = asyncio.ensure_future(shown.wait())
        await asyncio.wait({waiting, seat, direct}, timeout=SHOWN_WITHIN, return_when=asyncio.FIRST_COMPLETED)
        waiting.cancel()
        if seat.done():
            await seat
            return
        web, serving = _web(server, sock)
        await _until_either(seat, serving)
    finally:
        if not seat.done():
            seat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await seat  # its goodbye, while the table still hears it go
        if web is not None and serving is not None:
            web.should_exit = True
            await serving
        writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(direct, 5)
