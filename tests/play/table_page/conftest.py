"""Headless Chromium for the shared table's page (issue 20, points 2, 7 and 8).

The browser is Debian's Chromium at /usr/bin/chromium, driven with Playwright for Python and never a
browser Playwright downloads; .ci/run installs it, so these tests run in CI. Elsewhere, without it or
without the playwright package, they are skipped with the reason (set WYRD_REQUIRE_BROWSER=1, as CI does,
to make that a failure instead).

Two ways to serve the page: :class:`MockTable` serves the static files from disk and plays the host's
side of the WebSocket itself (Playwright's ``route_web_socket``), for what the page alone must do; the
tests of a whole game start the real host instead (test_table_play.py).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
# As on this project's machines (no GPU, no outside network, no sandbox as root); Playwright adds an
# empty user data dir of its own for every launch.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]

STATIC = Path(__file__).resolve().parents[3] / "wyrd" / "play" / "frontends" / "table" / "static"
# The policy the host sends with the page: nothing inline, nothing from elsewhere.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ORIGIN = "http://table.test"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return "Chromium is not installed at /usr/bin/chromium (.ci/run installs Debian's chromium)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent != here:
            continue
        item.add_marker(pytest.mark.browser)
        # Where the browser is required (CI), a missing one fails the tests instead of skipping them.
        if reason is not None and not os.environ.get("WYRD_REQUIRE_BROWSER"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        yield launched
        launched.close()


class MockTable:
    """The page served from disk at http://table.test/, with a host's side of the WebSocket played here.

    ``sent`` holds every message the page sent (parsed), over every connection; ``socket`` is the
    latest connection, to answer on. ``on_hello`` answers a hello (default: a welcome).
    """

    def __init__(self, page: Any) -> None:
        self.page = page
        self.sent: list[dict[str, Any]] = []
        self.sockets: list[Any] = []
        self.errors: list[str] = []
        self.on_hello: Callable[[MockTable, dict[str, Any]], None] = lambda table, hello: table.welcome()
        page.route(f"{ORIGIN}/**", self._serve)
        page.route_web_socket(f"{ORIGIN.replace('http', 'ws')}/ws", self._connect)
        page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(str(e)))

    def _serve(self, route: Any) -> None:
        path = route.request.url.removeprefix(ORIGIN).split("#")[0].split("?")[0]
        name = "index.html" if path in ("", "/") else path.removeprefix("/static/")
        file = (STATIC / name).resolve()
        if STATIC not in file.parents or not file.is_file():
            route.fulfill(status=404, body="not here")
            return
        route.fulfill(status=200, body=file.read_bytes(),
                      headers={"content-type": TYPES.get(file.suffix, "application/octet-stream"),
                               "content-security-policy": CSP, "x-content-type-options": "nosniff"})

    def _connect(self, ws: Any) -> None:
        self.sockets.append(ws)

        def message(raw: str | bytes) -> None:
            msg = json.loads(raw)
            self.sent.append(msg)
            if msg.get("type") == "hello":
                self.on_hello(self, msg)

        ws.on_message(message)

    @property
    def socket(self) -> Any:
        return self.sockets[-1]

    def send(self, **msg: Any) -> None:
        self.socket.send(json.dumps(msg))

    def welcome(self, name: str = "Bea", seat: str = "seat-token-1", **more: Any) -> None:
        self.send(type="welcome", seat=seat, name=name, host=False, characters=[],
                  table={"story": "The Hollow Fair", "ruleset": "abacus"}, **more)

    def entry(self, n: int, by: str = "Bea", line: str = "scene", *texts: str, **more: Any) -> None:
        self.send(type="log", n=n, by=by, id=None, line=line,
                  lines=[{"text": t, "style": "info"} for t in (texts or (f"entry {n}",))], events=[], **more)

    def view(self, **panels: Any) -> None:
        self.send(type="view", panels=panels)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]

    def open(self, fragment: str = "#invite=invite-token", name: str = "Bea") -> None:
        """Load the page with an invitation and join under ``name``; wait until it is at the table."""
        from playwright.sync_api import expect

        self.page.goto(f"{ORIGIN}/{fragment}")
        if "invite=" in fragment:
            self.page.get_by_label("Your name at the table").fill(name)
            self.page.get_by_role("button", name="Join the table").click()
        expect(self.page.locator("#command")).to_be_enabled()


@pytest.fixture
def table(browser: Any) -> Iterator[MockTable]:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    mock = MockTable(page)
    yield mock
    context.close()
