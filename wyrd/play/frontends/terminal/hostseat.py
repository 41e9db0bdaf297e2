"""The host's own seat at a terminal: a process of its own beside the table's server.

``wyrd host`` at a terminal starts it first thing (:meth:`HostSeat.start`), so prompt-toolkit and the
table's client load on the machine's other core while the host's process makes the game (issue 21,
point 2: the host's first prompt waits for the longer of the two, not for both). The seat makes its
prompt, then waits on a pipe for the host's words, a JSON object a line: the invitation, as soon as
the table's record gives it (:meth:`HostSeat.invited`: the seat draws its QR code while the game is
made), then, once the game is made, the host's seat token and the save (:meth:`HostSeat.seat`). It
prints the invitation and plays as that
seat until Ctrl-D, as ``wyrd join`` does, and the host closes the table when it ends
(:meth:`HostSeat.ended`). The pipe closed before the second word (the game could not be made, or
the host was stopped first): it ends without a word. The pipe closed later: the table is closing,
and the seat leaves with it.

The seat talks to the table over a socket pair made with the pipe (:attr:`HostSeat.link` is the
host's end), not through the web server: the host's process serves it before uvicorn starts, and
starts uvicorn once the seat says its prompt is drawn (:mod:`wyrd.play.frontends.table.direct`).
The token goes through the pipe, never the command line or the environment. Where a pipe cannot be
handed to a child (not POSIX), :meth:`HostSeat.start` gives None and the host plays its seat in its
own process, over a WebSocket.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

__all__ = ["HostSeat", "main"]


class HostSeat:
    """The host's end of its own seat's process: its pipe and the process."""

    def __init__(self, process: subprocess.Popen[bytes], pipe: IO[str], link: socket.socket) -> None:
        self.process, self.pipe, self.link = process, pipe, link

    @classmethod
    def start(cls) -> HostSeat | None:
        """The seat's process, started now and loading while the table opens (None: not on this system)."""
        if os.name != "posix":
            return None
        read, write = os.pipe()
        link, theirs = socket.socketpair()
        try:
            process = subprocess.Popen([sys.executable, "-m", __name__, str(read), str(theirs.fileno())],
                                       pass_fds=(read, theirs.fileno()))
        except OSError:  # no interpreter to start: the host plays its seat in its own process
            os.close(write)
            link.close()
            return None
        finally:
            os.close(read)
            theirs.close()
        return cls(process, os.fdopen(write, "w", encoding="utf-8"), link)

    def invited(self, link: str, *, qr: bool) -> None:
        """Give the seat the invitation as soon as it is known (from the worker making the game), so
        that it draws the QR code (``qr``) while the game is made."""
        self._say({"link": link, "qr": qr})

    def seat(self, token: str, last: int, save: Path) -> None:
        """Tell the seat the table is open: the host's token, the log entry after which to show it,
        and the save (the seat prints the invitation, then joins over :attr:`link`).

        The pipe stays open: its closing (:meth:`leave`, or this process's end) tells the seat that
        the table is closing.
        """
        self._say({"token": token, "last": last, "save": str(save)})

    def _say(self, word: dict[str, object]) -> None:
        # A seat whose process has already ended (it failed as it loaded) is not told: the table closes.
        with contextlib.suppress(OSError):
            self.pipe.write(json.dumps(word) + "\n")
            self.pipe.flush()

    def leave(self) -> None:
        """Tell the seat the table is closing (or, before :meth:`seat`, that there is none): it leaves."""
        if not self.pipe.closed:
            with contextlib.suppress(OSError):  # what a seat already gone never read
                self.pipe.close()

    def ended(self) -> bool:
        """Whether the seat's process has ended (the host left the prompt)."""
        return self.process.poll() is not None

    def close(self, wait: float = 10.0) -> None:
        """:meth:`leave`, and wait for the seat's process to end (stopped past ``wait`` s)."""
        self.leave()
        try:
            self.process.wait(wait)
        except subprocess.TimeoutExpired:
            self.process.terminate()
            self.process.wait()
        self.link.close()


def main(argv: list[str]) -> int:
    """The seat's process: load, wait for the host's word on pipe ``argv[0]``, then play the seat."""
    try:
        return _play(int(argv[0]), int(argv[1]))
    except KeyboardInterrupt:  # the table's process was stopped the same way, and closes the table
        return 130


def _play(fd: int, link: int) -> int:
    from wyrd.play.frontends.table.client import Invitation, RemoteTable
    from wyrd.play.frontends.table.direct import SeatSide, open_side
    from wyrd.play.frontends.table.invitation import announce, qr_text
    from wyrd.play.frontends.terminal.remote import run_remote

    table = RemoteTable(Invitation("", "", None, None), on_message=lambda message: None)
    # The host's words, a JSON object a line, read in the seat's own loop; and what reads them.
    pipes: list[tuple[asyncio.StreamReader, asyncio.ReadTransport]] = []

    async def seated() -> bool:
        pipe = asyncio.StreamReader()
        transport, _ = await asyncio.get_running_loop().connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(pipe), os.fdopen(fd, "rb", buffering=0))
        pipes.append((pipe, transport))
        invited = await _word(pipe)
        drawn = qr_text(invited["link"]) if invited and invited["qr"] else None
        where = await _word(pipe) if invited else None
        if invited is None or where is None:
            return False
        announce(invited["link"], Path(where["save"]), qr=invited["qr"], drawn=drawn)
        table.direct = SeatSide(*await open_side(socket.socket(fileno=link)))
        table.seat, table.last = where["token"], int(where["last"])
        return True

    async def table_closes() -> None:  # the pipe closed: the table is closing, or the host's process ended
        pipe, transport = pipes[0]
        try:
            await pipe.read()
        finally:  # or the seat left first
            transport.close()

    def drawn() -> None:  # the host's process starts its web server once the host's prompt is up
        if isinstance(table.direct, SeatSide):
            table.direct.prompt_shown()

    return run_remote(table, seated=seated, table_closes=table_closes, drawn=drawn)


async def _word(pipe: asyncio.StreamReader) -> dict[str, Any] | None:
    """The host's next word; None if the pipe closed first."""
    line = await pipe.readline()
    word: dict[str, Any] | None = json.loads(line) if line.endswith(b"\n") else None
    return word


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
