"""The REPL's printing with its style merged once (issue 21, point 2): the same bytes as prompt-toolkit's.

``print_formatted_text`` merges its default styles with ours and parses them all at each call;
:func:`~wyrd.play.frontends.terminal.style.print_styled` merges them once, and must write
exactly what prompt-toolkit's own would, for every style of line, separator and ending.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from prompt_toolkit import print_formatted_text
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output.vt100 import Vt100_Output
from prompt_toolkit.styles import Style

from wyrd.play.frontends.terminal import prose, repl
from wyrd.play.frontends.terminal.style import LINE_STYLES, STYLE, line_class, print_styled
from wyrd.play.frontends.view import Line


def written(printer: Callable[..., None], *values: Any, **kwargs: Any) -> str:
    out = io.StringIO()
    printer(*values, output=Vt100_Output(out, lambda: Size(24, 80), term="xterm-256color"), **kwargs)
    return out.getvalue()


def test_the_same_bytes_as_prompt_toolkit_for_every_line_style() -> None:
    lines = [FormattedText([(line_class(name), f"{name} line\twith a tab\r")]) for name in [*LINE_STYLES, "nope"]]
    for kwargs in ({}, {"sep": "\n"}, {"end": ""}, {"sep": "", "end": "!\n"}):
        mine = written(print_styled, *lines, style=STYLE, **kwargs)
        theirs = written(print_formatted_text, *lines, style=STYLE, **kwargs)
        assert mine == theirs, kwargs
    assert written(print_styled, "plain text", ["a", "list"], style=STYLE) == \
        written(print_formatted_text, "plain text", ["a", "list"], style=STYLE)


def test_another_style_is_printed_by_prompt_toolkit_itself() -> None:
    other = Style.from_dict({"good": "ansiblue"})
    line = FormattedText([("class:good", "blue")])
    assert written(print_styled, line, style=other) == written(print_formatted_text, line, style=other)
    assert written(print_styled, line, style=other) != written(print_styled, line, style=STYLE)


def test_the_repl_and_the_prose_print_through_it() -> None:
    assert repl.print_formatted_text is print_styled
    assert prose.Prose()._write is print_styled
    out = io.StringIO()
    terminal = Vt100_Output(out, lambda: Size(24, 80), term="xterm-256color")
    repl.show_lines([Line(text="overcome!", style="good"), Line(text="told", style="narration")], terminal)
    assert "overcome!" in out.getvalue() and "told" in out.getvalue()
