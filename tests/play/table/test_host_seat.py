"""``wyrd host`` at a terminal: the host's own seat, a process of its own beside the table's server.

Issue 21, point 2 (the host's first prompt waits for the longer of the server's start and the
seat's loading, not for both) and issue 20, point 1 (the host plays at the terminal it opened the
table from). Each test runs the real command in a pseudo-terminal, as a host types at it.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
ESCAPES = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]")


class Terminal:
    """A command run in a pseudo-terminal: what it wrote (escapes taken out), keys sent to it."""

    def __init__(self, *args: str, home: Path, ignoring: tuple[signal.Signals, ...] = ()) -> None:
        main, child = pty.openpty()
        env = {**os.environ, "WYRD_HOME": str(home), "WYRD_MODEL": "table", "TERM": "xterm-256color"}

        def started() -> None:  # as a shell starts a job in the background: interrupts ignored
            for ignored in ignoring:
                signal.signal(ignored, signal.SIG_IGN)

        self.proc = subprocess.Popen([sys.executable, "-m", "wyrd", *args], stdin=child, stdout=child, stderr=child,
                                     env=env, cwd=ROOT, close_fds=True, preexec_fn=started if ignoring else None)
        os.close(child)
        self.main = main
        self.raw = b""

    @property
    def text(self) -> str:
        return ESCAPES.sub("", self.raw.decode("utf-8", "replace")).replace("\r", "")

    def _read(self, wait: float) -> bool:
        if not select.select([self.main], [], [], wait)[0]:
            return True
        try:
            got = os.read(self.main, 65536)
        except OSError:  # every process holding the terminal has ended
            return False
        if not got:
            return False
        self.raw += got
        if b"\x1b[6n" in self.raw:  # where the cursor is, as a terminal answers
            os.write(self.main, b"\x1b[1;1R")
            self.raw = self.raw.replace(b"\x1b[6n", b"")
        return True

    def until(self, pattern: str, timeout: float = 60) -> None:
        """Read until ``pattern`` shows (a regular expression over the text)."""
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            if time.monotonic() > deadline or not self._read(0.1):
                raise AssertionError(f"{pattern!r} never showed; the terminal showed:\n{self.text[-2000:]}")

    def type(self, keys: str) -> None:
        os.write(self.main, keys.encode())

    def end(self, timeout: float = 60) -> int:
        """Read everything until the command ends; its exit status."""
        deadline = time.monotonic() + timeout
        while self.proc.poll() is None and time.monotonic() < deadline:
            self._read(0.1)
        while self._read(0.2) and select.select([self.main], [], [], 0)[0]:
            pass
        code = self.proc.wait(5)
        os.close(self.main)
        return code

    def seat(self) -> int:
        """The pid of the host's seat: the one child process of the host."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        assert len(children) == 1, children
        return int(children[0])


def _gone(pid: int, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0]
        except FileNotFoundError:
            return True
        if state == "Z":  # ended, and its parent has not waited for it yet
            return True
        time.sleep(0.05)
    return False


pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc to find the seat")


def test_the_host_plays_at_its_own_terminal_then_ctrl_d_closes_the_table(tmp_path: Path) -> None:
    """The invitation first, then the seat's welcome and prompt; a line goes through the table; Ctrl-D,
    typed as the line's answer is being shown, is kept for the prompt (the terminal's line editing is
    off from the line sent on), leaves the seat and closes the table, with no farewell meant for a
    seat leaving a table that goes on."""
    host = Terminal("host", "--story", "hollow-fair", "--seed", "5", "--save", str(tmp_path / "g.wyrd"),
                    "--port", "0", "--no-qr", home=tmp_path)
    host.until(r"wyrd>")
    text = host.text
    assert text.index("The table is open") < text.index("You sit at the table as Host") < text.index("wyrd>")
    seat = host.seat()
    host.type("pc take all\r")
    host.until(r"Host holds Ivy")
    host.type("\x04")
    assert host.end() == 0
    assert "The table is closed. Everything is saved in" in host.text.rsplit("Host holds Ivy", 1)[1]
    assert "it goes on" not in host.text
    assert "Traceback" not in host.text
    assert _gone(seat)


@pytest.mark.parametrize(("stop", "ignoring"), [(signal.SIGTERM, ()), (signal.SIGINT, ()),
                                                (signal.SIGINT, (signal.SIGINT,))],
                         ids=["SIGTERM", "SIGINT", "SIGINT-in-a-background-job"])
def test_a_host_stopped_by_a_signal_closes_the_table_and_its_seat_leaves(
        stop: signal.Signals, ignoring: tuple[signal.Signals, ...], tmp_path: Path) -> None:
    """A service manager's SIGTERM, or an interrupt sent to the host's process alone (even one started
    in the background, which Python leaves ignoring interrupts but the server takes): the table closes
    as with Ctrl-D (exit 0, said last), and the seat's process ends with it."""
    host = Terminal("host", "--story", "harrow-mere", "--seed", "5", "--save", str(tmp_path / "g.wyrd"),
                    "--port", "0", "--no-qr", home=tmp_path, ignoring=ignoring)
    host.until(r"wyrd>")
    seat = host.seat()
    host.proc.send_signal(stop)
    assert host.end() == 0
    # (fitted to the terminal: the path may begin a row of its own)
    assert " ".join(host.text.split()).endswith(f"The table is closed. Everything is saved in {tmp_path / 'g.wyrd'}.")
    assert "Traceback" not in host.text
    assert _gone(seat)


def test_a_table_that_cannot_open_says_why_and_its_seat_ends_without_a_word(tmp_path: Path) -> None:
    host = Terminal("host", "--story", "no-such-story", "--save", str(tmp_path / "g.wyrd"), "--port", "0",
                    home=tmp_path)
    assert host.end() == 1
    assert host.text.startswith("wyrd: there is no story 'no-such-story'")
    assert len(host.text.strip().splitlines()) == 1  # and not a word from the seat


def test_a_host_serving_only_closes_the_table_on_sigterm(tmp_path: Path) -> None:
    """``--no-repl`` (a host run by a service manager): SIGTERM closes the table and says so, exit 0."""
    proc = subprocess.Popen([sys.executable, "-m", "wyrd", "host", "--story", "salt-tithe", "--save",
                             str(tmp_path / "g.wyrd"), "--port", "0", "--no-repl", "--no-qr"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                            env={**os.environ, "WYRD_HOME": str(tmp_path), "PYTHONUNBUFFERED": "1"}, cwd=ROOT)
    assert proc.stdout is not None
    assert any("#invite=" in line for line in proc.stdout)  # reads up to the invitation
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert out.strip().endswith("The table is closed. Everything is saved in " + str(tmp_path / "g.wyrd") + ".")


def test_a_seat_whose_process_ended_as_it_loaded_is_not_told_and_the_table_closes() -> None:
    """The host's word to a seat already gone is dropped (no broken pipe raised at the host), and
    the table sees the seat ended, as after Ctrl-D."""
    import socket

    from wyrd.play.frontends.terminal.hostseat import HostSeat

    read, write = os.pipe()
    link, theirs = socket.socketpair()
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    os.close(read)
    theirs.close()
    seat = HostSeat(process, os.fdopen(write, "w", encoding="utf-8"), link)
    process.wait(30)
    seat.seat("token", 0, Path("g.wyrd"))
    assert seat.ended()
    seat.close()
    assert seat.pipe.closed
    assert link.fileno() == -1  # the host's end of the seat's link is closed with it
