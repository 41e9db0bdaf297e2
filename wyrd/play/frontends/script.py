"""Scripted play: commands read from a file or standard input, the output written as text or JSON.

``wyrd play --script FILE`` (``-`` for standard input, and standard input whenever it is no
terminal) and ``--json``. Each line goes to the :class:`~wyrd.play.frontends.console.Console`;
its output is written to a stream as the lines people read, or with ``as_json`` as one JSON
object per event (:func:`wyrd.play.frontends.view.json_line`). Nothing here knows a terminal:
like the REPL, a network front-end would use the console and the view the same way.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TextIO

from wyrd.play.frontends.console import Console, Output
from wyrd.play.frontends.view import json_line

__all__ = ["read_lines", "run_script", "write_output"]


def read_lines(source: str) -> Iterator[str]:
    """The lines of the file ``source`` (``-``: standard input); a bad byte reads as a replacement
    character rather than ending the game."""
    if source == "-" and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # as for a file
    stream: TextIO = sys.stdin if source == "-" else open(source, encoding="utf-8", errors="replace")  # noqa: SIM115
    with stream:
        yield from (line.rstrip("\n") for line in stream)


def write_output(output: Output, as_json: bool, stream: TextIO | None = None) -> None:
    """Write ``output``: its events as JSON lines, or its lines' text; flushed, so a pipe sees each at once."""
    out = stream if stream is not None else sys.stdout
    texts = [json_line(e.plain()) for e in output.events] if as_json else [line.text for line in output.lines]
    for text in texts:
        print(text, file=out, flush=True)


def run_script(console: Console, lines: Iterable[str], as_json: bool, stream: TextIO | None = None) -> int:
    """Carry out ``lines`` until they run out or one quits; the exit status (0)."""
    write_output(console.opening(), as_json, stream)  # with --json: a new session's session_started
    for line in lines:
        output = console.handle(line)
        write_output(output, as_json, stream)
        if output.quit:
            break
    return 0
