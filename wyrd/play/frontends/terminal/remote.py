"""The REPL as a seat of a shared table: ``wyrd join LINK``, and the host's own terminal.

The same prompt as at home (styles, history, the toolbar, Tab completion, the scene in the prompt),
but the game lives with the host: each line goes over the connection
(:class:`~wyrd.play.frontends.table.client.RemoteTable`) and the prompt waits for its answer; what
every seat does is printed above the prompt as it comes; the toolbar and the prompt are drawn from
the host's last ``view``; Tab asks the host. Runs in prompt-toolkit's asyncio mode, so the
connection and the prompt share one event loop.

The prose of one's own line streams as at home: the prompt is down until it is told, so its
words are written as they come (:class:`~wyrd.play.frontends.terminal.prose.Prose`) and taken
back when the host withdraws them or settles the entry's lines. Another seat's prose may come
while this seat's prompt is up; it is shown settled, whole lines above the prompt.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Awaitable, Callable
from typing import Any

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import FormattedText
from prompt_toolkit.input import Input
from prompt_toolkit.output import Output as TerminalOutput
from prompt_toolkit.patch_stdout import patch_stdout

from wyrd.play.frontends.cleaning import clean
from wyrd.play.frontends.table.client import RemoteTable, TableRefused
from wyrd.play.frontends.terminal.history import line_history
from wyrd.play.frontends.terminal.prose import INDENT, Prose, keys_terminal, typed_ahead_unechoed
from wyrd.play.frontends.terminal.style import STYLE, line_class, print_styled
from wyrd.play.frontends.terminal.wrapping import columns_of, fitted

__all__ = ["RemoteCompleter", "message_lines", "run_remote"]


def _shown(line: dict[str, Any]) -> tuple[str, str]:
    """A line of the game as the terminal shows it: in its style, the story's prose set apart, as at home."""
    style = str(line.get("style", ""))
    return line_class(style), (INDENT if style == "narration" else "") + clean(line.get("text", ""))


def message_lines(message: dict[str, Any], me: str = "") -> list[tuple[str, str]]:
    """How a message from the host reads at the terminal: (style class, text) lines."""
    kind = message.get("type")
    if kind == "log":
        by = message.get("by")
        head: list[tuple[str, str]] = []
        if by and by != me:  # what another seat did: who, and the line they typed
            mark = " (real dice)" if message.get("typed") else ""
            head = [("class:info", f"{clean(by)}: {clean(message.get('line', ''))}{mark}")]
        return head + [_shown(line) for line in message.get("lines", [])]
    if kind in ("prose_withdrawn", "prose_done", "reply"):
        return [_shown(line) for line in message.get("lines", [])]
    if kind == "refused":
        return [("class:refused", f"Refused: {clean(message.get('reason', ''))}")]
    if kind in ("notice",):
        return [("class:info", clean(message.get("text", "")))]
    if kind == "digest":
        return [("class:info", clean(t)) for t in message.get("lines", [])]
    if kind == "error":
        return [("class:error", f"The table says: {clean(message.get('reason', ''))}")]
    if kind == "welcome":
        held = ", ".join(clean(c) for c in message.get("characters", [])) or "no character yet (claim NAME)"
        return [("class:info", f"You sit at the table as {clean(message.get('name', ''))}; you hold {held}.")]
    return []


class RemoteCompleter(Completer):
    """Tab asks the host what fits (the same words as at home)."""

    def __init__(self, table: RemoteTable) -> None:
        self.table = table

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> list[Completion]:
        return []  # only the asynchronous path is used

    async def get_completions_async(self, document: Document,
                                    complete_event: CompleteEvent) -> AsyncGenerator[Completion, None]:
        try:
            items = await self.table.complete(document.text_before_cursor)
        except Exception:  # completion must never cost the game
            return
        for item in items:
            try:
                yield Completion(str(item["text"]), start_position=int(item.get("start", 0)),
                                 display=str(item.get("display") or item["text"]),
                                 display_meta=str(item.get("meta") or "") or None)
            except (KeyError, TypeError, ValueError):
                continue


class _OwnProse:
    """The words of a model's reply to this seat's own line, written as they come.

    Only while this seat waits for its line to be told (its prompt is down, nothing else is
    written below the words); anything else shown meanwhile takes the words back first, and the
    entry's settled lines (``prose_withdrawn``, ``prose_done``) always take their place.
    """

    def __init__(self, output: TerminalOutput | None) -> None:
        self.prose = Prose(output)
        self.waiting = 0  # the entry of this seat's line whose prose is awaited (0: none)
        self.streamed = False

    def take(self, message: dict[str, Any]) -> bool:
        """True if ``message`` is a piece of a model's reply: the awaited one is written, another's dropped
        (its settled lines follow in ``prose_done``)."""
        if message.get("type") != "prose":
            return False
        if self.waiting and message.get("n") == self.waiting:
            self.prose.words(str(message.get("chunk", "")))
            self.streamed = True
        return True

    def clear(self) -> None:
        """Take back the words written so far (lines are about to be shown in their place or below)."""
        if self.streamed:
            self.prose.erase()
            self.streamed = False


def _toolbar(table: RemoteTable) -> Callable[[], FormattedText]:
    def draw() -> FormattedText:
        rows = table.view.get("toolbar") or []
        out: list[tuple[str, str]] = []
        try:
            for i, row in enumerate(rows):
                out.append(("", "\n " if i else " "))
                out += [(str(cls), clean(text)) for cls, text in row]
        except (TypeError, ValueError):
            out = []
        if not table.connected.is_set():
            out.append(("class:toolbar.low", "  (reconnecting)"))
        return FormattedText(out or [("class:toolbar", " ")])

    return draw


def run_remote(table: RemoteTable, *, input: Input | None = None, output: TerminalOutput | None = None,
               history: bool = True, table_closes: Callable[[], Awaitable[object]] | None = None,
               seated: Callable[[], Awaitable[bool]] | None = None, drawn: Callable[[], object] | None = None) -> int:
    """Play as a seat of ``table`` until Ctrl-D; the exit status (1 if the host refused the seat)."""
    return asyncio.run(play_remote(table, input=input, output=output, history=history, table_closes=table_closes,
                                   seated=seated, drawn=drawn))


async def play_remote(table: RemoteTable, *, input: Input | None = None, output: TerminalOutput | None = None,
                      history: bool = True, table_closes: Callable[[], Awaitable[object]] | None = None,
                      seated: Callable[[], Awaitable[bool]] | None = None,
                      drawn: Callable[[], object] | None = None) -> int:
    """:func:`run_remote` inside a running event loop.

    With ``seated`` (the host's own seat), the prompt is made first, then ``seated()`` is awaited
    before the table is joined: it tells ``table`` where the table is once it is open (False: there
    is none, and the seat ends without a word). With ``table_closes``, the seat leaves as soon as
    that returns (the table is closing), and says no farewell: the table does not go on without it.
    ``drawn`` is called once, when the prompt is first on the screen.
    """
    session: PromptSession[str] = PromptSession(
        lambda: FormattedText([("class:prompt", str(table.view.get("prompt") or "wyrd> "))]),
        history=line_history() if history else None, completer=RemoteCompleter(table), complete_while_typing=False,
        bottom_toolbar=_toolbar(table), style=STYLE, input=input, output=output)
    if drawn is not None:
        def first_drawn(_: object) -> None:
            session.app.after_render -= first_drawn
            drawn()

        session.app.after_render += first_drawn
    if seated is not None and not await seated():
        return 0
    me = {"name": ""}

    hints: dict[str, Any] = {"due": 0, "lines": []}
    told: dict[str, Any] = {"n": 0, "event": asyncio.Event()}
    own = _OwnProse(output)

    def show(message: dict[str, Any]) -> None:
        if own.take(message):
            return
        kind = message.get("type")
        if kind == "welcome":
            me["name"] = str(message.get("name", ""))
            told["n"] = max(told["n"], int(message.get("last", 0)))  # entries sent on joining are whole
        lines = message_lines(message, me["name"])
        if kind == "log" and message.get("again"):
            lines = []  # shown before the connection dropped; its narration follows in prose_done
        elif kind == "log" and message.get("by") == me["name"]:
            hints["due"] = int(message.get("n", 0))  # as at home: after one's own command, the odds and what is due
            own.waiting = hints["due"]  # its prose may come before this seat's wait for it begins
        elif kind == "view":
            hints["lines"] = [("class:hint", clean(t)) for t in message.get("panels", {}).get("hints", [])]
        elif kind == "prose_done":
            if hints["due"] and message.get("n") == hints["due"]:  # after the prose, as at home
                hints["due"] = 0
                lines = lines + hints["lines"]
            told["n"] = max(told["n"], int(message.get("n", 0)))
            told["event"].set()
        if lines or kind in ("prose_withdrawn", "prose_done"):
            own.clear()
        width = columns_of(output) if lines else None
        for style, text in lines:
            print_styled(FormattedText([(style, fitted(text, width))]), style=STYLE, output=output)

    table.on_message = show
    connection = asyncio.ensure_future(table.run())

    def leave(_: object) -> None:
        connection.cancel()
        if session.app.is_running:
            session.app.exit(exception=EOFError())

    closing = asyncio.ensure_future(table_closes()) if table_closes is not None else None
    if closing is not None:
        closing.add_done_callback(leave)
    waiting = asyncio.ensure_future(table.connected.wait())
    await asyncio.wait({connection, waiting}, return_when=asyncio.FIRST_COMPLETED)
    if connection.cancelled():
        waiting.cancel()
        return 0
    if connection.done():
        waiting.cancel()
        try:
            connection.result()
        except TableRefused as exc:
            show({"type": "error", "reason": str(exc)})
            return 1
        return 0
    status = 0
    keys = keys_terminal() if input is None else None
    with patch_stdout(raw=True):
        while not connection.done():
            try:
                text = await session.prompt_async()
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if not text.strip():
                continue
            if text.strip().casefold() in ("quit", "exit"):
                break
            # From the line sent until its answer and prose are shown: keys typed meanwhile (a Ctrl-D
            # among them) are kept for the prompt, not taken by the terminal's line editing.
            with typed_ahead_unechoed(keys):
                answer = asyncio.ensure_future(table.line(text))
                await asyncio.wait({answer, connection}, return_when=asyncio.FIRST_COMPLETED)
                if connection.done() and not answer.done():
                    answer.cancel()
                elif answer.done() and not answer.cancelled() and answer.exception() is None \
                        and answer.result().get("type") == "log":
                    # The prompt comes back once the line's prose is told, as at home.
                    n = int(answer.result().get("n", 0))
                    while told["n"] < n and not connection.done():
                        told["event"].clear()
                        waiting_told = asyncio.ensure_future(told["event"].wait())
                        await asyncio.wait({waiting_told, connection}, timeout=120,
                                           return_when=asyncio.FIRST_COMPLETED)
                        if not waiting_told.done():
                            waiting_told.cancel()
                            break
                    own.clear()  # words left unsettled (the wait gave up) are not left on screen
                    own.waiting = 0
        if connection.done() and not connection.cancelled() and connection.exception() is not None:
            status = 1
    if closing is None:
        leaving = "You leave the table; it goes on. `wyrd join` with the same link takes your seat again."
        print_styled(FormattedText([("class:info", fitted(leaving, columns_of(output)))]), style=STYLE, output=output)
    else:
        closing.cancel()
    await table.close()
    with contextlib.suppress(BaseException):
        await asyncio.wait_for(connection, 5)
    return status
