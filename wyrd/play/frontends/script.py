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

from wyrd.play.frontends.console import MAX_LINE, Console, Output
from wyrd.play.frontends.view import json_line

__all__ = ["MAX_SKIP", "bounded_lines", "read_lines", "run_script", "write_output"]

#: How far past :data:`~wyrd.play.frontends.console.MAX_LINE` an over-long script line is skipped
#: looking for its end before the script stops.
MAX_SKIP = 1 << 20
_PIECE = 1 << 16


def bounded_lines(stream: TextIO, name: str = "the script", *, skip_limit: int = MAX_SKIP,
                  warn: TextIO | None = None) -> Iterator[str]:
    """The lines of ``stream``, each read with a bounded ``readline``: memory never grows with a line.

    A line over :data:`~wyrd.play.frontends.console.MAX_LINE` characters is yielded cut to one
    character more than that, so the console refuses it ("at most 4,096 characters") and play goes
    on with the next line; the rest of it is read and dropped in pieces. A line that has not ended
    after ``skip_limit`` characters more (``/dev/zero``, a file of one endless line) stops the
    script, with a message on ``warn`` (standard error).
    """
    number = 0
    while True:
        line = stream.readline(MAX_LINE + 1)
        if not line:
            return
        number += 1
        if line.endswith("\n") or len(line) <= MAX_LINE:
            yield line.rstrip("\n")
            continue
        yield line  # over the limit: the console refuses it
        skipped = 0
        while True:
            rest = stream.readline(_PIECE)
            skipped += len(rest)
            if not rest or rest.endswith("\n"):
                break
            if skipped > skip_limit:
                print(f"wyrd: line {number} of {name} does not end within {skip_limit:,} characters; "
                      "the script stops here.", file=warn if warn is not None else sys.stderr, flush=True)
                return


def read_lines(source: str) -> Iterator[str]:
    """The lines of the file ``source`` (``-``: standard input); a bad byte reads as a replacement
    character rather than ending the game. Lines are read bounded (:func:`bounded_lines`)."""
    if source == "-" and hasattr(sys.stdin, "reconfigure"):
        sys.stdin.reconfigure(errors="replace")  # as for a file
    stream: TextIO = sys.stdin if source == "-" else open(source, encoding="utf-8", errors="replace")  # noqa: SIM115
    with stream:
        yield from bounded_lines(stream, "standard input" if source == "-" else source)


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
