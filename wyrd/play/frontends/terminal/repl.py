"""The interactive loop: a prompt-toolkit prompt in front of a :class:`~wyrd.play.frontends.console.Console`.

Each line goes to the console; its lines are printed in their styles (:mod:`.style`).
The prompt shows the scene, the bottom toolbar the table at a glance (:mod:`.toolbar`),
Tab completes commands (:mod:`.completion`), and the history is kept in the player's
data folder. The loop is never ended by a bad line: Ctrl-C clears the line, an error
while handling a line is shown and play goes on, and Ctrl-D (or ``quit``) leaves politely,
saying where the game is saved. Every command is saved as it happens, so leaving costs nothing.
What a command did is printed first, committed; its prose follows, set apart, a model's words
as they come, and a reply refused part-way is taken back from the screen (:mod:`.prose`).
Ctrl-C while a line is carried out stops it either before its command is saved or after the
game shown has taken it up, never between (issue 16, point 2); the prompt then shows the game
as saved.

Hot-seat help: before a line is carried out, the ruleset may ask the players choices in turn
(``PlayHooks.ask_before``: the Abacus asks each character who faced a challenge which ability
to recover at a bare ``end scene``); the line sent holds the answers, so the save records what
was chosen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import WordCompleter
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output as TerminalOutput

from wyrd.play.engine.words import UsageError, resolve
from wyrd.play.frontends.console import Console, farewell, overlong
from wyrd.play.frontends.terminal.completion import WyrdCompleter
from wyrd.play.frontends.terminal.history import line_history
from wyrd.play.frontends.terminal.prose import Prose, keys_terminal, typed_ahead_unechoed
from wyrd.play.frontends.terminal.style import STYLE, line_class
from wyrd.play.frontends.terminal.style import print_styled as print_formatted_text
from wyrd.play.frontends.terminal.toolbar import toolbar_text
from wyrd.play.frontends.terminal.wrapping import columns_of, fitted
from wyrd.play.frontends.view import Line, clean

__all__ = ["Ask", "make_session", "prompt_message", "run_repl", "show_lines"]

# Reading a line failing this many times in a row means the terminal is gone: stop.
MAX_READ_ERRORS = 3

# Asks the players one question: (question, what is asked for, options, default) -> choice, None to cancel.
Ask = Callable[[str, str, Sequence[str], str], str | None]


def _print(*values: Any, **kwargs: Any) -> None:
    print_formatted_text(*values, **kwargs)  # looked up at each call: tests read what is printed


def show_lines(lines: Sequence[Line], output: TerminalOutput | None = None) -> None:
    """Print ``lines``, each in its style and fitted to the terminal (:mod:`.wrapping`); prose set apart
    (:mod:`.prose`).

    The lines between two pieces of prose go out in one call, one value a line: each call
    merges prompt-toolkit's default styles with ours again, about a millisecond, where the
    lines themselves cost a few hundredths of one (bench/RESULTS.md, issue 21, point 2).
    """
    run: list[FormattedText] = []
    width = columns_of(output) if lines else None
    for line in lines:
        if line.style == "narration":
            _print_run(run, output)
            Prose(output, write=_print).show(line)
            continue
        run.append(FormattedText([(line_class(line.style), fitted(line.text, width))]))
    _print_run(run, output)


def _print_run(run: list[FormattedText], output: TerminalOutput | None) -> None:
    """Print the lines of ``run``, one value a line, and empty it."""
    if run:
        print_formatted_text(*run, sep="\n", style=STYLE, output=output)
        run.clear()


def _carry_out(console: Console, line: str, output: TerminalOutput | None, fd: int | None = None) -> bool:
    """Carry out ``line``: what happened first, committed; then its prose as it is told. True: play ends.

    ``fd``: the terminal the keys come from (its echo is held while the prose is told).
    """
    truth = console.act(line)
    show_lines(truth.lines, output)
    if truth.untold is not None:
        prose = Prose(output, write=_print)
        with typed_ahead_unechoed(fd):
            try:
                rest = console.tell(truth.untold, prose)
            finally:
                prose.end()
        show_lines(rest.lines, output)
    return truth.quit


def prompt_message(state: Any) -> FormattedText:
    """``scene N> `` during a scene, ``wyrd> `` between scenes."""
    scene = getattr(state, "scene", None)
    text = f"scene {scene.number}> " if scene is not None and hasattr(scene, "number") else "wyrd> "
    return FormattedText([("class:prompt", text)])


def make_session(
    console: Console, input: Input | None = None, output: TerminalOutput | None = None,
) -> PromptSession[str]:
    """The prompt for ``console``: completion, toolbar, style and history, reading live state."""

    def state() -> Any:
        return console.session.state

    def message() -> FormattedText:
        try:
            return prompt_message(state())
        except Exception:  # drawing must never end the game
            return FormattedText([("class:prompt", "wyrd> ")])

    def toolbar() -> FormattedText:
        try:
            return toolbar_text(console.session.kit, state(), get_app().output.get_size().columns)
        except Exception as exc:
            return FormattedText([("class:toolbar.low", f" (toolbar: {type(exc).__name__})")])

    return PromptSession(
        message,
        history=line_history(),
        completer=WyrdCompleter(lambda: console.session),
        complete_while_typing=True,
        bottom_toolbar=toolbar,
        style=STYLE,
        input=input,
        output=output,
    )


# -- choices asked in turn ----------------------------------------------------------------


def _asker(session: PromptSession[str], output: TerminalOutput | None) -> Ask:
    """Ask at the terminal, on the same input and output as ``session``."""

    def ask(question: str, what: str, options: Sequence[str], default: str) -> str | None:
        words = list(options)
        label = f"{clean(question)} ({', '.join(map(clean, words))}) [{clean(default)}]: "
        asking: PromptSession[str] = PromptSession(
            FormattedText([("class:question", label)]),
            completer=WordCompleter(words, ignore_case=True),
            complete_while_typing=True,
            history=InMemoryHistory(),
            style=STYLE,
            input=session.app.input,
            output=session.app.output,
        )
        while True:
            try:
                answer = asking.prompt().strip()
            except (KeyboardInterrupt, EOFError):
                return None
            if not answer:
                return default
            try:
                return resolve(answer, words, what)
            except UsageError as exc:
                show_lines([Line(text=str(exc), style="refused")], output)

    return ask


def _asked(console: Console, line: str, ask: Ask) -> str | None:
    """``line`` with the choices the ruleset asks of the players first (None: cancelled)."""
    before = console.session.kit.ask_before
    return line if before is None else before(line, console.session.state, ask)


# -- the loop -----------------------------------------------------------------------------


def _farewell(console: Console) -> list[Line]:
    return [farewell(console.path)]


def _error(exc: BaseException, doing: str) -> Line:
    text = f"Error while {doing} ({type(exc).__name__}: {clean(exc)}); the game goes on."
    return Line(text=text, style="error")


def _settle(console: Console, output: TerminalOutput | None) -> None:
    """After Ctrl-C, the prompt and the toolbar show the game as saved (the session reads it again if need be)."""
    try:
        console.session.settle()
    except KeyboardInterrupt:
        pass  # a second Ctrl-C: the next line settles it
    except Exception as exc:
        show_lines([_error(exc, "reading the game again from the save")], output)


def run_repl(
    console: Console, *, input: Input | None = None, output: TerminalOutput | None = None,
) -> int:
    """Play at the terminal until Ctrl-D or ``quit``.

    Returns the exit status: 0, or 1 if reading from the terminal keeps failing.
    """
    session = make_session(console, input, output)
    ask = _asker(session, output)
    keys = keys_terminal() if input is None else None
    try:
        show_lines(console.opening().lines, output)
    except Exception as exc:
        show_lines([_error(exc, "opening the game")], output)
    read_errors = 0
    while True:
        try:
            text = session.prompt()
        except KeyboardInterrupt:
            continue  # Ctrl-C: the line is dropped, nothing was run
        except EOFError:
            show_lines(_farewell(console), output)
            return 0
        except Exception as exc:
            read_errors += 1
            show_lines([_error(exc, "reading the line")], output)
            if read_errors >= MAX_READ_ERRORS:
                show_lines(_farewell(console), output)
                return 1
            continue
        read_errors = 0
        too_long = overlong(text)  # before the ruleset's questions read the line
        if too_long is not None:
            show_lines(too_long.lines, output)
            continue
        try:
            line = _asked(console, text, ask)
            if line is None:
                show_lines([Line(text="The scene goes on.", style="info")], output)
                continue
            ends = _carry_out(console, line, output, keys)
        except KeyboardInterrupt:
            show_lines([Line(text="Interrupted; `log` shows what was saved.", style="info")],
                       output)
            _settle(console, output)
            continue
        except Exception as exc:
            show_lines([_error(exc, "carrying out that line")], output)
            continue
        if ends:
            return 0
