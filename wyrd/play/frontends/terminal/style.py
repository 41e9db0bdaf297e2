"""The REPL's colours: one prompt-toolkit style for the printed lines, the prompt and the toolbar.

:class:`wyrd.play.frontends.view.Line` names a style (``good``, ``bad``, ``wyrd``, ...); the REPL prints each
line as ``class:NAME`` and this style gives the class its look. ANSI colour names are used so the
player's terminal theme (light or dark) decides the exact shades.
"""

from __future__ import annotations

import functools
from typing import Any

from prompt_toolkit import print_formatted_text
from prompt_toolkit.application.current import get_app_or_none, get_app_session
from prompt_toolkit.formatted_text import FormattedText, StyleAndTextTuples, to_formatted_text
from prompt_toolkit.output import Output
from prompt_toolkit.renderer import print_formatted_text as print_fragments
from prompt_toolkit.styles import BaseStyle, Style, default_pygments_style, default_ui_style, merge_styles

__all__ = ["LINE_STYLES", "STYLE", "line_class", "print_styled"]

# The style names wyrd.play.frontends.view gives its lines, plus "error" for the REPL's own failures.
LINE_STYLES: dict[str, str] = {
    "plain": "",
    "info": "",
    "hint": "ansicyan",
    "scene": "ansimagenta bold",
    "challenge": "ansiyellow",
    "spend": "ansiblue",
    "wyrd": "ansimagenta",
    "good": "ansigreen bold",
    "bad": "ansired bold",
    "refused": "ansired",
    "narration": "italic",
    "error": "ansired reverse",
}

_PROMPT_AND_TOOLBAR: dict[str, str] = {
    "prompt": "bold",
    "question": "ansicyan bold",
    # prompt-toolkit draws the toolbar in "reverse" by default; ours is a calm bar instead
    "bottom-toolbar": "noreverse bg:#303030 #d0d0d0",
    "bottom-toolbar.text": "",
    "toolbar.pool": "#ffd75f bold",
    "toolbar.roll": "#87d7ff",
    "toolbar.name": "bold",
    "toolbar.points": "",
    "toolbar.low": "#ff8787",
    "toolbar.scratched": "#ff5f5f bold",
    "toolbar.defeated": "#808080 strike",
    "toolbar.wyrd": "#d787ff",
    "toolbar.odds": "#87d7af",
    "toolbar.sep": "#808080",
}

STYLE = Style.from_dict({**LINE_STYLES, **_PROMPT_AND_TOOLBAR})


def line_class(style: str) -> str:
    """The prompt-toolkit class for a line's style name (unknown names print plain)."""
    return f"class:{style}" if style in LINE_STYLES else "class:plain"


@functools.cache
def _merged() -> BaseStyle:
    """:data:`STYLE` over prompt-toolkit's defaults, as ``print_formatted_text`` merges them at each call."""
    return merge_styles([default_ui_style(), default_pygments_style(), STYLE])


def _fragments(value: Any) -> StyleAndTextTuples:
    # as print_formatted_text reads a value: a plain list (not FormattedText) is printed as text
    if isinstance(value, list) and not isinstance(value, FormattedText):
        return to_formatted_text(f"{value}")
    return to_formatted_text(value, auto_convert=True)


def print_styled(*values: Any, sep: str = " ", end: str = "\n", style: BaseStyle | None = None,
                 output: Output | None = None) -> None:
    """prompt-toolkit's ``print_formatted_text``, with :data:`STYLE` merged into its defaults once.

    ``print_formatted_text`` merges its default styles (304 rules) with the style given and
    parses them all again at every call: about a millisecond, where the text itself costs a
    few hundredths of one; a resumed game printed six such calls before its first prompt, and
    prose streamed from a model one a piece (bench/RESULTS.md, issue 21, point 2). The bytes
    written are the same. Another style, or an application running (whose screen the text
    must go above), is left to ``print_formatted_text`` itself.
    """
    if style is not STYLE or get_app_or_none() is not None:
        print_formatted_text(*values, sep=sep, end=end, style=style, output=output)
        return
    terminal = output if output is not None else get_app_session().output
    fragments: StyleAndTextTuples = []
    for i, value in enumerate(values):
        fragments.extend(_fragments(value))
        if sep and i != len(values) - 1:
            fragments.extend(_fragments(sep))
    fragments.extend(_fragments(end))
    print_fragments(terminal, fragments, _merged(), color_depth=terminal.get_default_color_depth())
