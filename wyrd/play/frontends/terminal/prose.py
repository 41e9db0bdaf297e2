"""The story's prose at the terminal: set apart, streamed as it comes, taken back when refused.

Issue 19, point 1: the truth comes first. The REPL prints what a command did, committed,
and only then its prose: indented and in the ``narration`` style (italic), a model's words
as they come (:class:`Prose` is the console's :class:`~wyrd.play.frontends.console.Live`).
A reply refused or broken off part-way is withdrawn from the screen and the tables'
narration is printed in its place, so no half-told sentence stays behind.

To erase exactly what it wrote, :class:`Prose` wraps the words itself, at a column short
of the terminal's width (a row filled to the last column would leave the terminal's own
wrap pending, and the count of rows in doubt), counting each row it starts; taking a
reply back is a carriage return, the cursor up that many rows and an erase to the end
of the screen. Wide characters count as two columns (prompt-toolkit's ``get_cwidth``).
"""

from __future__ import annotations

import contextlib
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application.current import get_app_session
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.output import Output as TerminalOutput
from prompt_toolkit.utils import get_cwidth

from wyrd.play.frontends.cleaning import clean
from wyrd.play.frontends.live import Live
from wyrd.play.frontends.terminal.style import STYLE, line_class, print_styled
from wyrd.play.frontends.terminal.wrapping import columns_of, fitted, usable

if TYPE_CHECKING:
    from wyrd.play.frontends.view import Line

__all__ = ["INDENT", "Prose", "keys_terminal", "typed_ahead_unechoed"]

INDENT = "  "  # prose stands apart from what happened
_TOKENS = re.compile(r"\s+|\S+")

Printer = Callable[..., Any]  # print_styled (prompt-toolkit's print_formatted_text), or a stand-in


class Prose(Live):
    """Prose on a terminal, live: what the REPL hands :meth:`Console.tell <wyrd.play.frontends.console.Console.tell>`.

    Args:
        output: the terminal (None: the application's, as ``print_formatted_text`` uses).
        write: prints formatted text (``print_formatted_text``'s signature).
        columns: the width to wrap at (None: the terminal's, asked at each piece).
    """

    def __init__(self, output: TerminalOutput | None = None, *, write: Printer | None = None,
                 columns: int | None = None) -> None:
        self._output = output
        self._write: Printer = write if write is not None else print_styled
        self._columns = columns
        self.rows = 0  # rows begun below the first one of the prose being written
        self.column = 0  # where the cursor stands on its row (0: nothing written there yet)
        self._space = False  # a space is owed before the next word

    @property
    def output(self) -> TerminalOutput:
        return self._output if self._output is not None else get_app_session().output

    def _width(self) -> int:
        return usable(self._columns if self._columns is not None else self.output.get_size().columns)

    def _emit(self, text: str, style: str = "narration") -> None:
        if text:
            self._write(FormattedText([(line_class(style), text)]), style=STYLE, output=self._output, end="")

    def _laid_out(self, text: str) -> str:
        """``text`` as it goes on screen from where the cursor stands, wrapped and indented; counts its rows."""
        width = self._width()
        out: list[str] = []

        def new_row() -> None:
            out.append("\n" + INDENT)
            self.rows += 1
            self.column = len(INDENT)

        for token in _TOKENS.findall(text):
            if token.isspace():
                self._space = self.column > 0
                continue
            if self.column == 0:
                out.append(INDENT)
                self.column = len(INDENT)
            elif self._space:
                if self.column + 1 + get_cwidth(token) > width:
                    new_row()
                else:
                    out.append(" ")
                    self.column += 1
            self._space = False
            for char in token:  # a word wider than a row (or carried on from the last piece) breaks
                wide = get_cwidth(char)
                if self.column + wide > width:
                    new_row()
                out.append(char)
                self.column += wide
        return "".join(out)

    def write(self, text: str) -> None:
        """Show ``text`` as prose, going on from what was written before (cleaned again: no escape ever)."""
        self._emit(self._laid_out(clean(text)))

    def end(self) -> None:
        """End the prose being written: the next begins on a row of its own."""
        if self.column > 0:
            self._emit("\n")
        self.rows = self.column = 0
        self._space = False

    def erase(self) -> None:
        """Take back every row of the prose being written; the cursor goes back to where it began."""
        if self.column == 0 and self.rows == 0:
            return
        out = self.output
        out.write_raw("\r")
        if self.rows:
            out.cursor_up(self.rows)
        out.erase_down()
        out.reset_attributes()
        out.flush()
        self.rows = self.column = 0
        self._space = False

    def show(self, line: Line) -> None:
        """One whole line: prose is wrapped and set apart, anything else fitted to the terminal."""
        self.end()
        if line.style == "narration":
            self.write(line.text)
            self.end()
        else:
            width = usable(self._columns) if self._columns is not None else columns_of(self._output)
            self._emit(fitted(line.text, width) + "\n", line.style)

    # -- what the console hands a live front-end ----------------------------------------

    def words(self, text: str) -> None:
        self.write(text)

    def withdraw(self, text: str) -> None:
        self.erase()

    def told(self, line: Line, *, streamed: bool) -> None:
        if streamed:
            self.end()
        else:
            self.show(line)


@contextlib.contextmanager
def typed_ahead_unechoed(fd: int | None) -> Iterator[None]:
    """While prose is told, keys typed ahead are kept for the next prompt but not echoed.

    The terminal's own echo (``^C``, a line typed ahead and its Enter) would move the cursor
    under the prose, and a reply taken back must erase exactly the rows it wrote. Line
    editing is off too, so a Ctrl-D typed ahead reaches the prompt; Ctrl-C still interrupts.
    """
    saved = None
    if fd is not None:
        try:
            import termios

            saved = termios.tcgetattr(fd)
        except Exception:  # no termios (Windows), or no terminal after all (termios.error)
            saved = None
    if saved is None or fd is None:
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~(termios.ECHO | termios.ICANON)  # the local flags; ISIG stays: Ctrl-C still interrupts
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def keys_terminal() -> int | None:
    """Standard input's descriptor when it is a terminal (None otherwise): whose echo to hold."""
    try:
        return sys.stdin.fileno() if sys.stdin.isatty() else None
    except (AttributeError, OSError, ValueError):
        return None
