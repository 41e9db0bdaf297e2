"""The real table for the page's tests (issue 20, point 8): ``wyrd host`` and ``wyrd join`` as
people start them, each in its own process, and a browser seat driven in headless Chromium.

Nothing here waits on a clock: a process is read line by line until it says what is awaited, and the
browser is waited on with Playwright's conditions.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import IO, Any

__all__ = ["BrowserSeat", "Host", "JoinSeat", "numbered_log"]


def _wyrd(*args: str, home: Path, stdin: int | IO[Any] | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    env = {**os.environ, "WYRD_HOME": str(home), "PYTHONUNBUFFERED": "1", "NO_COLOR": "1"}
    return subprocess.Popen([sys.executable, "-m", "wyrd", *args], stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, encoding="utf-8", env=env)


class Host:
    """``wyrd host`` on a free port of 127.0.0.1, serving without a prompt (its input is no terminal)."""

    def __init__(self, home: Path, *args: str, port: int = 0, resume: bool = False) -> None:
        self.home = home
        self.save = home / "table.wyrd"
        where = ["--resume", str(self.save)] if resume else ["--save", str(self.save)]
        self.process = _wyrd("host", *args, *where, "--port", str(port), "--no-qr", home=home)
        self.said: list[str] = []
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.said.append(line)
            if "#invite=" in line:
                self.link = line.strip()
                break
        else:
            raise AssertionError("wyrd host printed no invitation:\n" + "".join(self.said))
        self.origin = self.link.split("/#")[0]
        self.port = int(self.origin.rsplit(":", 1)[1])

    def kill(self) -> None:
        """SIGKILL: no goodbye to anyone, nothing flushed that was not already committed."""
        self.process.kill()
        self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()

    def again(self) -> Host:
        """The same table opened again with ``--resume``, on the same port."""
        return Host(self.home, port=self.port, resume=True)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


class JoinSeat:
    """``wyrd join LINK --name NAME``: the terminal seat, its lines typed into its input."""

    def __init__(self, home: Path, link: str, name: str) -> None:
        self.process = _wyrd("join", link, "--name", name, home=home, stdin=subprocess.PIPE)
        self.out: list[str] = []

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def leave(self) -> list[str]:
        """End its input (Ctrl-D) and read everything it showed, one stripped line each."""
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.close()
        text = self.process.stdout.read()
        self.process.wait(timeout=30)
        self.process.stdout.close()
        return [line.strip() for line in text.splitlines() if line.strip()]


class BrowserSeat:
    """One player's page, in its own browser context (its own storage), joined by the invitation."""

    def __init__(self, browser: Any, link: str, name: str, *, width: int = 1100, height: int = 800,
                 phone: bool = False) -> None:
        from playwright.sync_api import expect

        self.context = browser.new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                                           has_touch=phone)
        self.page = self.context.new_page()
        self.dialogs: list[str] = []
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("websocket", lambda ws: self.requests.append(ws.url))
        self.page.on("dialog", lambda d: (self.dialogs.append(d.message), d.dismiss()))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.goto(link)
        self.page.get_by_label("Your name at the table").fill(name)
        self.page.get_by_role("button", name="Join the table").click()
        expect(self.page.locator("#connection")).to_have_attribute("data-state", "open")

    def type(self, line: str) -> None:
        box = self.page.locator("#command")
        box.fill(line)
        box.press("Enter")

    def wait_for_entries(self, count: int) -> None:
        """Until the log holds ``count`` numbered entries, the last of them told whole (its narration
        comes after it: issue 19, point 1)."""
        self.page.wait_for_function(
            """n => {
                const entries = document.querySelectorAll('#log > li.entry[data-n]');
                if (entries.length < n) return false;
                const log = document.querySelector('#log');
                return Number(log.dataset.told || 0) >= Number(entries[entries.length - 1].dataset.n);
            }""", arg=count)

    def log(self) -> list[str]:
        return numbered_log(self.page)

    def close(self) -> None:
        self.context.close()


def numbered_log(page: Any) -> list[str]:
    """The log's numbered entries (what every seat is sent), each as its number and its text."""
    return list(page.locator("#log > li.entry[data-n]").evaluate_all(
        "items => items.map(i => i.dataset.n + ' ' + i.innerText)"))
