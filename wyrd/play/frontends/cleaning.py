"""Text from outside made safe to print: every front-end's last step before a screen.

Names, inspirations, narration, story text and a host's messages may carry escape
sequences or control characters; :func:`clean` takes them out. It lives apart from
:mod:`wyrd.play.frontends.view` (which re-exports it) so that a front-end showing only what
a host sends (``wyrd join``) imports neither pydantic nor the engine to clean it.
"""

from __future__ import annotations

import re

__all__ = ["clean"]

_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
    # bidi overrides can make a line read differently from what it says
    r"|[\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def clean(text: object) -> str:
    """Text safe to print on one line: escape sequences and control characters removed,
    tabs and line breaks turned into spaces."""
    return _CONTROL.sub("", str(text)).replace("\t", " ").replace("\n", " ")
