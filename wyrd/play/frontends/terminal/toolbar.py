"""The REPL's bottom toolbar: the table at a glance, as the ruleset's kit draws it.

A kit gives its toolbar either as styled pieces (``PlayHooks.toolbar_pieces``: the Abacus's
pool, open roll and every character's points, with the odds of an open roll on a second
line) or as one plain line (``PlayHooks.toolbar``). Each piece's style names a class of the
toolbar's palette (``pool``, ``roll``, ``name``, ``low`` ...: see :mod:`.style`). Pure: it
reads a state and returns formatted text.
"""

from __future__ import annotations

from typing import Any

from prompt_toolkit.formatted_text import FormattedText

from wyrd.play.engine.kits import PlayHooks

__all__ = ["toolbar_text"]


def _class(style: str) -> str:
    return "" if style in ("", "plain") else f"class:toolbar.{style}"


def toolbar_text(hooks: PlayHooks, state: Any) -> FormattedText:
    """The toolbar of ``state``, drawn by its ruleset's ``hooks``."""
    if hooks.toolbar_pieces is None:
        return FormattedText([("class:toolbar", " " + hooks.toolbar(state))])
    pieces = hooks.toolbar_pieces(state)
    return FormattedText([("", " "), *((_class(str(p.style)), str(p.text)) for p in pieces)])
