"""A seat's connection over a local stream: the host's own seat, with no HTTP between it and the table.

The host's own seat runs in a process of its own (:mod:`wyrd.play.frontends.terminal.hostseat`),
started by the host's process with one end of a socket pair. Over it go the same frames a seat's
WebSocket carries (:mod:`~wyrd.play.frontends.table.protocol`), one JSON text a line: compact JSON
has no line breaks of its own. So the host's seat is shown its table as soon as the game is made,
before the web server's libraries are loaded (issue 21, point 2), and the server serves it exactly
as any other seat: the same hello, the same tokens, the same limits.

:class:`TableSide` is the table's end, shaped as the few parts of Starlette's ``WebSocket`` the
server uses; :class:`SeatSide` the seat's end, shaped as the parts of a websockets client
connection the seat uses. A closed stream is the connection's end: the table is closing, or the
seat left. Only asyncio is imported here.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import AsyncIterator, Mapping
from types import MappingProxyType
from typing import Any

__all__ = ["LIMIT", "SeatSide", "TableSide", "open_side"]

#: The longest line either end reads: a seat's messages are bounded far lower by the server, but what
#: the table sends on joining (the recap, the view) has no bound of its own, as over a WebSocket.
LIMIT = 64 * 1024 * 1024


async def open_side(sock: socket.socket) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """``sock`` (one end of a socket pair) as asyncio's reader and writer, in the running loop."""
    return await asyncio.open_connection(sock=sock, limit=LIMIT)


class _Side:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    async def _line(self) -> str | None:
        """The next frame; None once the other end has closed (or sent what cannot be a frame)."""
        try:
            line = await self.reader.readline()
        except (OSError, ValueError):  # reset, or a line past LIMIT
            return None
        if not line.endswith(b"\n"):
            return None
        return line[:-1].decode("utf-8", "replace")

    async def _write(self, text: str) -> None:
        self.writer.write(text.encode("utf-8") + b"\n")
        await self.writer.drain()

    async def _close(self) -> None:
        if self.writer.is_closing():
            return
        self.writer.close()
        with contextlib.suppress(OSError):
            await self.writer.wait_closed()


class TableSide(_Side):
    """The table's end of the host's seat's connection, as the server reads a WebSocket.

    An empty line from the seat is no message: it says the seat's prompt is on the screen, and sets
    ``shown``.
    """

    client = None  # no address: the seat is in this machine's own process
    headers: Mapping[str, str] = MappingProxyType({})  # no Origin: not a browser; its token lets it in

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 shown: asyncio.Event | None = None) -> None:
        super().__init__(reader, writer)
        self.shown = shown or asyncio.Event()

    async def accept(self) -> None:
        """Nothing to accept: the stream is open from the start."""

    async def receive(self) -> dict[str, Any]:
        while (text := await self._line()) == "":
            self.shown.set()
        if text is None:
            return {"type": "websocket.disconnect", "code": 1000}
        return {"type": "websocket.receive", "text": text}

    async def send_text(self, data: str) -> None:
        await self._write(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._close()


class SeatSide(_Side):
    """The seat's end: frames sent, frames read until the table's end closes."""

    async def send(self, message: str) -> None:
        await self._write(message)

    def prompt_shown(self) -> None:
        """Tell the table this seat's prompt is on the screen (the host's process then starts its web
        server, which would otherwise take the processor from the prompt's first drawing)."""
        if not self.writer.is_closing():
            self.writer.write(b"\n")

    async def __aiter__(self) -> AsyncIterator[str]:
        while (text := await self._line()) is not None:
            yield text

    async def close(self) -> None:
        await self._close()
