"""The narration at the table: told to every seat as it is written, after the truth.

Issue 20, point 2 (narration streamed as it is written) and issue 19, point 1 (the truth
first): the engine commits a line and sends its log entry (what happened) to every seat; then,
still in the worker, :class:`TableLive` tells its moments and hands every seat

- ``{"type": "prose", "n": N, "chunk": ...}``, a model's words as they come;
- ``{"type": "prose_withdrawn", "n": N, "lines": [...]}`` when a reply is refused or breaks
  off part-way: the words streamed since the last ``prose_withdrawn`` are taken back and
  ``lines`` shown in their place (the moments settled since, then the tables' line);
- ``{"type": "prose_done", "n": N, "lines": [...], "events": [...]}`` once, at the end: the
  narration's lines not yet sent in a ``prose_withdrawn``, which replace whatever was streamed,
  and the narration's events, as saved.

So the lines of every ``prose_withdrawn`` and the ``prose_done`` of entry N, in order, are its
narration lines: what a seat that reconnects reads in the entry itself, from the save.
With the tables alone nothing streams: the lines come in ``prose_done`` right after the entry.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from wyrd.play.engine.reply import Untold
from wyrd.play.frontends.console import Console, Live
from wyrd.play.frontends.view import Line, clean

__all__ = ["Emit", "TableLive", "tell"]

#: Hands messages to every seat, in order (the server's delivery, from the worker thread).
Emit = Callable[[list[dict[str, Any]]], None]


def _lines(lines: list[Line]) -> list[dict[str, str]]:
    return [{"text": line.text, "style": line.style} for line in lines]


class TableLive(Live):
    """The console's live front-end at a table: each piece of the telling, to every seat."""

    def __init__(self, n: int, emit: Emit) -> None:
        self.n = n
        self.emit = emit
        self.settled: list[Line] = []  # moments settled and not yet sent
        self.sent = 0  # the narration lines sent so far (in prose_withdrawn messages)
        self.withdrawn = False  # the moment being settled was taken back

    def words(self, text: str) -> None:
        self.emit([{"type": "prose", "n": self.n, "chunk": clean(text)}])

    def withdraw(self, text: str) -> None:
        self.withdrawn = True

    def told(self, line: Line, *, streamed: bool) -> None:
        self.settled.append(line)
        if self.withdrawn:
            self.withdrawn = False
            self._send("prose_withdrawn")

    def _send(self, kind: str, events: list[Any] | None = None) -> None:
        lines, self.settled = self.settled, []
        self.sent += len(lines)
        message: dict[str, Any] = {"type": kind, "n": self.n, "lines": _lines(lines)}
        if events is not None:
            message["events"] = events
        self.emit([message])


def tell(console: Console, entry: dict[str, Any], untold: Untold | None, emit: Emit,
         read_back: Callable[[], dict[str, Any]]) -> None:
    """Tell ``entry``'s moments to every seat (``untold`` None: it has none; ``prose_done`` still ends it).

    ``read_back`` gives the entry as the save holds it once told: ``prose_done`` carries its lines and
    events past what was sent, so a seat that was there holds what a seat catching up is sent.
    """
    live = TableLive(int(entry["n"]), emit)
    notice = ""
    if untold is not None:
        with contextlib.suppress(Exception):  # narration only adds prose: the command stands, untold
            notice = console.tell(untold, live).notice
    whole = read_back()
    lines = whole["lines"][len(entry["lines"]) + live.sent:]
    live.settled = [Line(text=line["text"], style=line["style"]) for line in lines]
    live._send("prose_done", whole["events"][len(entry["events"]):])
    if notice:  # a model gone to rest says so to every seat, once; it is not part of the saved entry
        emit([{"type": "notice", "text": notice}])
