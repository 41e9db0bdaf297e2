"""Whole lines fitted to the terminal: broken between words, never inside one.

A terminal left to itself breaks a long line at its last column, wherever that falls in a word
("the le" on one row, "ad loses 2 Mind" on the next). The REPL and a seat at a shared table
print every line that is not prose through :func:`fitted` first: the line is broken at spaces
and each row after the first starts with the line's own indent (an item of a list: under its
first word), so the item stays apart from its neighbours. Rows stop one column short of the
terminal's width, as the prose does (:mod:`.prose`): a row filled to the last column leaves
the terminal's own wrap pending.
Wide characters count as two columns, combining marks as none.

What a player may copy is never split by a break of ours, since a terminal copies its own
wraps as one line and ours as two: a command in backticks (```wyrd resume FILE```) is kept
whole, and so is a word wider than a row (a path, a link); either goes on a row of its own
if it does not fit, and the terminal wraps it. Output that is not a terminal (a pipe, a file,
prompt-toolkit's stand-ins) has no width, and its lines are printed as they are.

Only the standard library is loaded here (prompt-toolkit when a terminal's width is asked of
it): the host's process, which has no prompt, fits its invitation with it too (:func:`stream_columns`).
"""

from __future__ import annotations

import re
import shutil
import unicodedata
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from prompt_toolkit.output import Output as TerminalOutput

__all__ = ["NARROWEST", "cells", "columns_of", "fitted", "stream_columns", "usable"]

#: A terminal narrower than this still gets a few words a row.
NARROWEST = 10
# A word, or a run of text holding commands in backticks (spaces and all) with what touches them.
_WORDS = re.compile(r"(?:[^\s`]*`[^`]*`)+[^\s`]*|\S+")
_BULLET = re.compile(r"(?:[-*•] )?")


def usable(columns: int) -> int:
    """The columns a row may fill on a terminal ``columns`` wide (one short of its edge)."""
    return max(columns - 1, NARROWEST)


def cells(text: str) -> int:
    """The columns ``text`` takes on a terminal: two for a wide character, none for a combining mark."""
    if text.isascii():
        return len(text)
    return sum(0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def columns_of(output: TerminalOutput | None) -> int | None:
    """The columns a row may fill on ``output`` (None: the application's terminal, as printing uses);
    None when it is not a terminal."""
    from prompt_toolkit.application.current import get_app_session
    from prompt_toolkit.output import DummyOutput
    from prompt_toolkit.output.plain_text import PlainTextOutput

    terminal = output if output is not None else get_app_session().output
    if isinstance(terminal, (DummyOutput, PlainTextOutput)):
        return None
    return usable(terminal.get_size().columns)


def stream_columns(stream: TextIO) -> int | None:
    """The columns a row may fill when printing to ``stream``; None when it is not a terminal."""
    try:
        if not stream.isatty():
            return None
    except (AttributeError, ValueError):  # closed, or a stand-in without isatty
        return None
    return usable(shutil.get_terminal_size().columns)


def fitted(text: str, width: int | None) -> str:
    """``text`` broken between words into rows of at most ``width`` columns, each row after the first
    indented as the first is, or under an item's first word (None: not a terminal, ``text`` as it is).

    A word or a command in backticks wider than a row is kept whole, on a row of its own.
    Text that fits is returned as it is; so is each of its own lines that fits.
    """
    if width is None:
        return text
    if "\n" in text:
        return "\n".join(fitted(part, width) for part in text.split("\n"))
    if cells(text) <= width:
        return text
    lead = text[: len(text) - len(text.lstrip(" "))]
    # an item of a list ("  - a check...") goes on under its first word, not under its dash
    bullet = _BULLET.match(text, len(lead))
    hanging = lead + " " * (len(bullet.group()) if bullet is not None else 0)
    # an indent this deep would leave the rows after it no room: they start at the edge
    indent = hanging if len(hanging) * 2 <= width else ""
    rows: list[str] = []
    row, used, fresh = lead, len(lead), True  # fresh: nothing but the indent on the row yet
    for word in _WORDS.findall(text):
        size = cells(word)
        if fresh:
            row += word
            used += size
            fresh = False
        elif used + 1 + size <= width:
            row += " " + word
            used += 1 + size
        else:
            rows.append(row)
            row, used = indent + word, len(indent) + size
    rows.append(row)
    return "\n".join(rows)
