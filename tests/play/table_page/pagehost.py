"""A host's side of the table played by the tests, for the page alone (issue 20, points 2, 5 and 7).

:class:`MockTable` serves the page's static files from disk at http://table.test/ with the host's
Content-Security-Policy, and answers its WebSocket itself (Playwright's ``route_web_socket``), so a
test says exactly what the page is sent and reads everything the page sent.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["CSP", "ORIGIN", "STATIC", "MockTable", "sent_message"]

STATIC = Path(__file__).resolve().parents[3] / "wyrd" / "play" / "frontends" / "table" / "static"
# The policy the host sends with the page: nothing inline, nothing from elsewhere.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
ORIGIN = "http://table.test"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".png": "image/png"}


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


def sent_message(table: MockTable, kind: str, count: int = 1) -> dict[str, Any]:
    """The count-th message of a kind the page sent, once it has arrived: each round trip to the page
    lets Playwright hand on what the page sent meanwhile (a condition, never a timer)."""
    for _ in range(1000):
        if len(table.of_type(kind)) >= count:
            return table.of_type(kind)[count - 1]
        table.page.evaluate("0")
    raise AssertionError(f"the page sent no {kind!r} message {count}: {table.sent}")
