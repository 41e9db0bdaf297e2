"""The REPL's colours: one prompt-toolkit style for the printed lines, the prompt and the toolbar.

:class:`wyrd.play.frontends.view.Line` names a style (``good``, ``bad``, ``wyrd``, ...); the REPL prints each
line as ``class:NAME`` and this style gives the class its look. ANSI colour names are used so the
player's terminal theme (light or dark) decides the exact shades.
"""

from __future__ import annotations

from prompt_toolkit.styles import Style

__all__ = ["LINE_STYLES", "STYLE", "line_class"]

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
