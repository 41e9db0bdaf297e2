"""The host's own seat at a terminal: a process of its own beside the table's server.

``wyrd host`` at a terminal starts it first thing (:meth:`HostSeat.start`), so prompt-toolkit and the
table's client load on the machine's other core while the host's process starts the server and
makes the game (issue 21, point 2: the host's first prompt waits for the longer of the two, not
for both). The seat makes its prompt, then waits on a pipe for the host's word
(:meth:`HostSeat.seat`): where the table is and the host's seat token, sent once the game is made
and the invitation printed, so its own lines come after the invitation. It plays as that seat
until Ctrl-D, as ``wyrd join`` does, and the host closes the table when it ends
(:meth:`HostSeat.ended`). The pipe closed with no word (the game could not be made, or the host
was stopped first): it ends without a word. The pipe closed later: the table is closing, and the
seat leaves with it.

The token goes through the pipe, never the command line or the environment. Where a pipe cannot
be handed to a child (not POSIX), :meth:`HostSeat.start` gives None and the host plays its seat in
its own process, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
from typing import IO

__all__ = ["HostSeat", "main"]


class HostSeat:
    """The host's end of its own seat's process: its pipe and the process."""

    def __init__(self, process: subprocess.Popen[bytes], pipe: IO[str]) -> None:
        self.process, self.pipe = process, pipe

    @classmethod
    def start(cls) -> HostSeat | None:
        """The seat's process, started now and loading while the table opens (None: not on this system)."""
        if os.name != "posix":
            return None
        read, write = os.pipe()
        try:
            process = subprocess.Popen([sys.executable, "-m", __name__, str(read)], pass_fds=(read,))
        except OSError:  # no interpreter to start: the host plays its seat in its own process
            os.close(write)
            return None
        finally:
            os.close(read)
        return cls(process, os.fdopen(write, "w", encoding="utf-8"))

    def seat(self, ws: str, base: str, token: str, last: int) -> None:
        """Tell the seat where the table is, the host's token, and the log entry after which to show it.

        The pipe stays open: its closing (:meth:`leave`, or this process's end) tells the seat that
        the table is closing.
        """
        # A seat whose process has already ended (it failed as it loaded) is not told: the table closes.
        with contextlib.suppress(OSError):
            self.pipe.write(json.dumps({"ws": ws, "base": base, "token": token, "last": last}) + "\n")
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


def main(argv: list[str]) -> int:
    """The seat's process: load, wait for the host's word on pipe ``argv[0]``, then play the seat."""
    try:
        return _play(int(argv[0]))
    except KeyboardInterrupt:  # the table's process was stopped the same way, and closes the table
        return 130


def _play(fd: int) -> int:
    from wyrd.play.frontends.table.libraries import websockets_imported

    websockets_imported()
    from wyrd.play.frontends.table.client import Invitation, RemoteTable
    from wyrd.play.frontends.terminal.remote import run_remote

    table = RemoteTable(Invitation("", "", None, None), on_message=lambda message: None)

    async def seated() -> bool:
        word = await _pipe(fd, line=True)
        if not word:
            return False
        where = json.loads(word)
        table.invitation = Invitation(where["ws"], where["base"], None, where["token"])
        table.seat, table.last = where["token"], int(where["last"])
        return True

    try:
        return run_remote(table, seated=seated, table_closes=lambda: _pipe(fd, line=False))
    finally:
        os.close(fd)


async def _pipe(fd: int, *, line: bool) -> bytes:
    """What comes down the pipe: its first line (``line``), or nothing, once the host's end is closed
    (the table is closing, or its process ended); empty if it closed before."""
    loop = asyncio.get_running_loop()
    got = bytearray()
    done: asyncio.Future[bytes] = loop.create_future()

    def readable() -> None:
        chunk = os.read(fd, 4096)
        got.extend(chunk)
        if done.done():
            return
        if not chunk:
            done.set_result(b"" if line else bytes(got))
        elif line and b"\n" in got:
            done.set_result(bytes(got.split(b"\n", 1)[0]))

    loop.add_reader(fd, readable)
    try:
        return await done
    finally:
        loop.remove_reader(fd)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
