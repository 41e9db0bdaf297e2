"""The REPL's bottom toolbar: the table at a glance, as the ruleset's kit draws it.

A kit gives its toolbar either as styled pieces (``PlayHooks.toolbar_pieces``: the Abacus's
pool, open roll and every character's points, with the odds of an open roll on a second
line) or as one plain line (``PlayHooks.toolbar``). Each piece's style names a class of the
toolbar's palette (``pool``, ``roll``, ``name``, ``low`` ...: see :mod:`.style`). Pure: it
reads a state and returns formatted text.

The bar is fitted to the terminal's width (issue 18, point 10): the kit's items (what lies
between its `` | `` separators: the scene, each character) are laid out in order, and an
item that would run past the edge begins a new line of the bar, so a table of four fits
80 columns on two lines; an item wider than the whole bar is cut short with an ellipsis.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wyrd.play.engine.kits import PlayHooks

if TYPE_CHECKING:
    from prompt_toolkit.formatted_text import FormattedText

__all__ = ["WIDTH", "toolbar_lines", "toolbar_text"]

#: The width a bar is fitted to when the terminal's is not known.
WIDTH = 80

_SEP = " | "

Piece = tuple[str, str]  # (style class, text)
Item = list[Piece]


def _class(style: str) -> str:
    return "" if style in ("", "plain") else f"class:toolbar.{style}"


def _rows(hooks: PlayHooks, state: Any) -> list[list[Item]]:
    """The rows the kit drew (a second row: the odds), each as its items, separators dropped."""
    if hooks.toolbar_pieces is None:
        return [[[("class:toolbar", item)] for item in line.split(_SEP)]
                for line in hooks.toolbar(state).split("\n")]
    rows: list[list[Item]] = [[[]]]
    for piece in hooks.toolbar_pieces(state):
        text, style = str(piece.text), str(piece.style)
        if text.startswith("\n"):
            rows.append([[]])
            text = text[1:].lstrip()
        if style == "sep" or text == _SEP:
            rows[-1].append([])
        elif text:
            rows[-1][-1].append((_class(style), text))
    return rows


def _size(item: Item) -> int:
    return sum(len(text) for _, text in item)


def _cut(item: Item, room: int) -> Item:
    """``item`` in at most ``room`` columns: cut short with an ellipsis if it is wider."""
    if _size(item) <= room:
        return item
    out: Item = []
    left = room - 1
    for style, text in item:
        if left <= 0:
            break
        out.append((style, text[:left]))
        left -= len(text[:left])
    return [*out, (out[-1][0] if out else "", "…")]


def toolbar_lines(hooks: PlayHooks, state: Any, width: int = WIDTH) -> list[Item]:
    """The bar's lines, each at most ``width`` columns (a leading space included)."""
    room = max(width - 1, 8)
    lines: list[Item] = []
    for row in _rows(hooks, state):
        line: Item = []
        used = 0
        sep = ("class:toolbar.sep" if hooks.toolbar_pieces is not None else "class:toolbar", _SEP)
        for item in (_cut(i, room) for i in row if _size(i)):
            if line and used + len(_SEP) + _size(item) > room:
                lines.append(line)
                line, used = [], 0
            if line:
                line.append(sep)
                used += len(_SEP)
            line += item
            used += _size(item)
        if line:
            lines.append(line)
    return lines


def toolbar_text(hooks: PlayHooks, state: Any, width: int = WIDTH) -> FormattedText:
    """The toolbar of ``state``, drawn by its ruleset's ``hooks`` and fitted to ``width`` columns."""
    # Imported here: the shared table's host draws the bar's lines (toolbar_lines) with no terminal,
    # and prompt-toolkit would cost it about 30 ms before its first page (bench/RESULTS.md, issue 21).
    from prompt_toolkit.formatted_text import FormattedText

    out: list[Piece] = []
    for i, line in enumerate(toolbar_lines(hooks, state, width)):
        out += [("", "\n " if i else " "), *line]
    return FormattedText(out or [("class:toolbar", " ")])
