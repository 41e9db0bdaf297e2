"""The LLM narrator: settled facts in, a model's prose out, through the firewall, or the tables instead.

:class:`LLMNarrator` implements :class:`~wyrd.oracle.narrators.base.Narrator` on any
langchain chat model: one made by ``init_chat_model("provider:model", ...)`` from a
model string, or a ready one (tests pass langchain-core's fake chat models). For
each moment it picks the moment's prompt (:mod:`prompts`), fills it with the facts
as a few short lines, what they settle, the story's tone and the story so far
(:class:`~wyrd.oracle.narrators.llm_facts.StoryMemory`: lines of fact the play layer
adds, never the model's own replies), and streams the reply.

Streaming runs the model's sync ``stream`` in a daemon worker thread that hands
chunks over a queue; the caller's thread waits with a deadline, so the
first-words budget and the total budget hold whatever the provider does, and the
``on_text`` callback runs in the caller's thread (the REPL prints there). A worker
still streaming when its moment is over (a timeout, a refusal, Ctrl-C) is told to
stop and ends at its next chunk; :meth:`LLMNarrator.close` (and, failing that, the
interpreter's exit) stops them all and waits a little for each. A daemon thread still
inside the model's code when the interpreter finalizes is killed there, and through
native frames that catch everything (pydantic-core's validators calling back into
Python) that abort the whole process ("FATAL: exception not rethrown"). Every
chunk goes through the :class:`~wyrd.oracle.narrators.firewall.StreamGuard`, so what
``on_text`` shows has been cleaned and checked; joined, the pieces are the final
text, unless the reply ran past the character cap and was cut back to its last
full sentence (then the final text is a prefix of what was shown). Once a reply
has said three sentences the narrator stops reading it.

Any failure raises :class:`NarrationFailed` with its kind and a reason: ``timeout``
(no first words in time, no end in time: the deadline is checked on every chunk,
whatever it holds, so a stream of invisible chunks cannot run past it), ``empty``,
``refused`` (the firewall), ``error`` (the provider's, before or mid-stream: the
partial text is dropped), ``budget`` (the token budget spent), ``interrupted`` or
``resting``. The recorded reason starts with its kind (``"timeout: no words within
3 s"``). :func:`narrate_with_fallback` and :class:`FallbackNarrator` turn that into a
table narration that records the reason (``source="table"``, ``fallback_reason``; its
event has ``"fallback"``).

After :data:`REST_AFTER` failures in a row the narrator rests: the next
:data:`REST_MOMENTS` moments go straight to the tables, without asking the model
(a stalled server costs one budget, not one per moment). The failure that starts the
rest says so once (:attr:`FallbackNarration.notice`); :meth:`LLMNarrator.wake`
(``narrator llm``) ends the rest. Every string that came from the model or the
provider is cleaned (:func:`wyrd.play.frontends.view.clean` rules: no escape
sequences, controls or bidi overrides) before it is stored or shown.

Tokens: the usage a provider reports on its chunks (``usage_metadata``) when it
does, else an estimate of a token per four characters of prompt and reply.

langchain is imported only when a model string is turned into a model (through
:func:`wyrd.oracle.narrators.llm_config.build_chat_model`) and when a prompt is first
built; importing this module costs nothing of it.
"""

from __future__ import annotations

import atexit
import math
import queue
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wyrd.oracle.events import Narrated
from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
from wyrd.oracle.narrators.firewall import DEFAULT_LANGUAGE, DEFAULT_MAX_CHARS, StreamGuard, sanitize
from wyrd.oracle.narrators.llm_config import NarratorConfig, build_chat_model, split_model
from wyrd.oracle.narrators.llm_facts import StoryMemory, render_facts, settled, tone
from wyrd.prompts import PromptSet, chat_prompt, prompt_set
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage
    from langchain_core.prompts import ChatPromptTemplate

__all__ = ["REST_AFTER", "REST_MOMENTS", "FallbackNarration", "FallbackNarrator", "LLMNarrator", "LLMStats",
           "NarrationFailed", "make_narrator", "narrate_with_fallback"]

CHARS_PER_TOKEN = 4
REST_AFTER = 3  # failures in a row before the narrator rests
REST_MOMENTS = 10  # moments the tables tell alone while it rests (counted, so no timer is involved)
# What a reason may never carry to a screen: escape sequences, controls, bidi overrides (as view.clean).
_UNSAFE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x9b[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.?"
    r"|[\x00-\x08\x0e-\x1f\x7f-\x9f]"
    r"|[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_END = object()
OnText = Callable[[str], object]
STOP_WAIT = 2.0  # seconds close() waits for each stream still running to end
# Every narrator with a worker, for the interpreter's exit (weakly: a narrator dropped is forgotten).
_NARRATORS: weakref.WeakSet[LLMNarrator] = weakref.WeakSet()
_exit_hook = threading.Lock()
_hooked = False


def _close_all() -> None:
    """At the interpreter's exit: stop every stream still running before the interpreter finalizes."""
    for narrator in list(_NARRATORS):
        narrator.close(timeout=STOP_WAIT)


def _hook_exit() -> None:
    global _hooked
    with _exit_hook:
        if not _hooked:
            atexit.register(_close_all)
            _hooked = True


def _safe(text: object, limit: int = 300) -> str:
    """``text`` (a provider's error, a model's words) fit to store and show on one line."""
    return " ".join(_UNSAFE.sub("", str(text)).split())[:limit]


class NarrationFailed(Exception):
    """The LLM narrator could not tell a moment.

    ``kind`` is what went wrong (timeout, empty, refused, error, budget, interrupted,
    resting), ``reason`` the recorded reason (starting with the kind, cleaned),
    ``shown`` what was already shown.
    """

    def __init__(self, kind: str, detail: str = "", *, shown: str = "") -> None:
        self.kind = kind
        self.reason = _safe(f"{kind}: {detail}" if detail else kind)
        super().__init__(self.reason)
        self.shown = shown
        self.notice = ""  # set when this failure sends the narrator to rest


class FallbackNarration(Narration):
    """A table narration told in place of a failed LLM one; the event records why."""

    fallback_reason: str
    shown: str = ""  # what the LLM had already shown live before it failed (the REPL may withdraw it)
    notice: str = ""  # said once, when this failure sends the model to rest

    def event(self) -> Narrated:
        return super().event().model_copy(update={"fallback": self.fallback_reason})


@dataclass
class LLMStats:
    """What the narrator has done so far in a session, for ``status``."""

    told: int = 0
    failed: int = 0
    tokens_used: int = 0
    tokens_reported: int = 0  # the part of tokens_used that the provider reported (the rest is estimated)
    last_failure: str = ""
    first_words_s: float | None = None  # of the last reply
    failures_in_row: int = 0
    resting: int = 0  # moments still to be told by the tables alone


def _pump(model: BaseChatModel, messages: Sequence[BaseMessage], out: queue.Queue[Any], stop: threading.Event) -> None:
    """Stream ``messages`` through ``model`` into ``out`` (chunks, then _END or the exception)."""
    try:
        stream: Iterator[Any] = model.stream(list(messages))
        try:
            for chunk in stream:
                out.put(chunk)
                if stop.is_set():
                    break
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                close()
    except BaseException as exc:  # handed to the caller's thread, which decides
        out.put(exc)
    else:
        out.put(_END)


def _usage(chunk: Any) -> int:
    usage = getattr(chunk, "usage_metadata", None)
    return int(usage.get("total_tokens", 0)) if usage else 0


class LLMNarrator(Narrator):
    """Tells moments with a chat model, streamed, firewalled, within time and token budgets.

    Args:
        model: ``"provider:model"`` (``openai:gpt-4o-mini``, ``ollama:llama3.2``, or a bare name
            with ``base_url``), or a ready langchain chat model.
        base_url: an OpenAI-compatible server (or the provider's own endpoint).
        api_key: else the provider's usual variable is read by its package.
        temperature: the model's temperature (when made from a string).
        first_token_timeout: seconds to wait for the first words.
        total_timeout: seconds for the whole reply.
        max_chars: the length cap (see :mod:`wyrd.oracle.narrators.firewall`).
        token_budget: tokens for the narrator's lifetime (a session); None for no limit.
        on_text: called with each piece of text as it may be shown.
        name: the ``source`` of its narrations (default: the model string or the model's name).
        memory: the story so far (a new one by default), lines of fact that the play layer adds.
        prompts: the prompt set (the bundled one by default).
        clock: the deadlines' clock, in seconds (tests pass a fake one).
        language: the table's language; a reply in another is refused (a request's own wins).

    Raises:
        NarratorConfigError: ``model`` is a string that can't be made into a model.
    """

    def __init__(self, model: str | BaseChatModel, *, base_url: str | None = None, api_key: str | None = None,
                 temperature: float = 0.7, first_token_timeout: float = 3.0, total_timeout: float = 20.0,
                 max_chars: int = DEFAULT_MAX_CHARS, token_budget: int | None = None,
                 on_text: OnText | None = None, name: str | None = None, memory: StoryMemory | None = None,
                 prompts: PromptSet | None = None, clock: Callable[[], float] = time.monotonic,
                 language: str = DEFAULT_LANGUAGE) -> None:
        if isinstance(model, str):
            config = NarratorConfig(model=model, base_url=base_url, api_key=api_key, temperature=temperature,
                                    total_timeout=total_timeout, max_chars=max_chars)
            self.model: BaseChatModel = build_chat_model(config)
            self.source = name or split_model(model, base_url)[1]
        else:
            self.model = model
            self.source = name or str(getattr(model, "model_name", None) or getattr(model, "model", None)
                                      or type(model).__name__)
        self.first_token_timeout = first_token_timeout
        self.total_timeout = total_timeout
        self.max_chars = max_chars
        self.language = language
        self.token_budget = token_budget
        self.on_text = on_text
        self.memory = memory if memory is not None else StoryMemory()
        self.prompts = prompts or prompt_set()
        self.stats = LLMStats()
        self.clock = clock
        self._notice = ""  # said once by the front-end after the failure that began a rest
        self._templates: dict[str, ChatPromptTemplate] = {}
        self._workers: list[tuple[threading.Thread, threading.Event]] = []  # streams not known to have ended

    def close(self, timeout: float = STOP_WAIT) -> bool:
        """Stop every stream still running and wait up to ``timeout`` seconds for each to end.

        True if none is left running. Quitting calls it, so the interpreter never finalizes
        with a worker inside the model's code.
        """
        for _worker, stop in self._workers:
            stop.set()
        for worker, _ in self._workers:
            worker.join(timeout)
        self._workers = [(w, s) for w, s in self._workers if w.is_alive()]
        return not self._workers

    @property
    def streaming(self) -> int:
        """How many of this narrator's stream workers are still running."""
        self._workers = [(w, s) for w, s in self._workers if w.is_alive()]
        return len(self._workers)

    @property
    def tokens_used(self) -> int:
        """Tokens spent so far (reported by the provider where it does, else estimated)."""
        return self.stats.tokens_used

    @property
    def tokens_left(self) -> int | None:
        return None if self.token_budget is None else max(self.token_budget - self.tokens_used, 0)

    def status(self) -> str:
        """One line for the ``status`` verb: model, moments told, fallbacks, tokens."""
        stats = self.stats
        budget = f" of {self.token_budget:,}" if self.token_budget is not None else ""
        line = f"{self.source}: {stats.told} told, {stats.failed} by the tables; {stats.tokens_used:,}{budget} tokens"
        guessed = stats.tokens_used - stats.tokens_reported
        if guessed and not stats.tokens_reported:
            line += " (estimated)"
        elif guessed:
            line += f" ({guessed:,} estimated)"
        if stats.resting:
            plural = "s" if stats.resting != 1 else ""
            line += f"; resting for {stats.resting} more moment{plural} (narrator llm wakes it)"
        return _safe(line + (f"; last fallback: {stats.last_failure}" if stats.last_failure else ""), 500)

    def wake(self) -> None:
        """End a rest: the next moment asks the model again."""
        self.stats.resting = self.stats.failures_in_row = 0
        self._notice = ""

    def take_notice(self) -> str:
        """The notice of a rest begun since last asked, once (then empty)."""
        notice, self._notice = self._notice, ""
        return notice

    @property
    def notice(self) -> str:
        """What a player is told when the narrator starts to rest."""
        return (f"The language model failed {REST_AFTER} times in a row; the tables tell the next {REST_MOMENTS} "
                "moments (narrator llm asks it again sooner).")

    def values(self, request: NarrationRequest) -> dict[str, str]:
        """What the prompt's placeholders are filled with for ``request``."""
        return {"facts": render_facts(request), "settled": settled(request), "summary": self.memory.summary(),
                "tone": tone(request), "moment": str(request.moment),
                "detail": request.detail or "-", "subject": request.subject or "the characters"}

    def messages(self, request: NarrationRequest) -> tuple[str, list[BaseMessage]]:
        """The prompt's id and the chat messages for ``request``."""
        spec = self.prompts.for_moment(str(request.moment))
        if spec.id not in self._templates:
            self._templates[spec.id] = chat_prompt(spec, self.prompts)
        return spec.id, self._templates[spec.id].format_messages(**self.values(request))

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        """Tell ``request`` with the model (``dice`` is unused: a model rolls nothing).

        Raises:
            NarrationFailed: the moment could not be told; the caller tells it from the tables.
        """
        if self.stats.resting:
            self.stats.resting -= 1
            self.stats.failed += 1
            raise NarrationFailed("resting", f"after {REST_AFTER} failures in a row")
        on_text = self.on_text
        if request.aside:  # a reading is shown whole, after the dice, never word by word
            self.on_text = None
        try:
            prompt_id, messages = self.messages(request)
            text = self._tell(request, messages)
        except NarrationFailed as failure:
            self._failed(failure)
            raise
        except KeyboardInterrupt:  # Ctrl-C while a model is slow: the tables tell this moment instead
            interrupted = NarrationFailed("interrupted", "by the player")
            self._failed(interrupted)
            raise interrupted from None
        except Exception as exc:  # a prompt or callback problem: still only a fallback, never a crash
            broken = NarrationFailed("error", f"narrator error: {type(exc).__name__}: {exc}")
            self._failed(broken)
            raise broken from exc
        finally:
            self.on_text = on_text
        self.stats.told += 1
        self.stats.failures_in_row = 0
        return Narration(text=text, source=self.source, moment=request.moment, trace=(f"prompt/{prompt_id}",))

    def refused_after(self, reason: str) -> None:
        """The last reply, told whole, was then refused by the caller's own checks (a reading that reads a
        no as a yes): it counts as failed, not told, and toward a rest like any other refusal."""
        self.stats.told = max(0, self.stats.told - 1)
        self._failed(NarrationFailed("refused", reason))

    def _failed(self, failure: NarrationFailed) -> None:
        self.stats.failed += 1
        self.stats.last_failure = failure.reason
        self.stats.failures_in_row += 1
        if self.stats.failures_in_row >= REST_AFTER:
            self.stats.failures_in_row = 0
            self.stats.resting = REST_MOMENTS
            failure.notice = self._notice = self.notice

    def _budget_check(self, spent: int) -> None:
        if self.token_budget is not None and self.tokens_used + spent > self.token_budget:
            spent += self.tokens_used
            raise NarrationFailed("budget", f"token budget exhausted ({spent} of {self.token_budget})")

    def _tell(self, request: NarrationRequest, messages: Sequence[BaseMessage]) -> str:
        prompt_tokens = math.ceil(sum(len(str(m.content)) for m in messages) / CHARS_PER_TOKEN)
        self._budget_check(prompt_tokens)
        guard = StreamGuard(request, max_chars=self.max_chars, language=self.language)
        out: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        worker = threading.Thread(target=_pump, args=(self.model, messages, out, stop), daemon=True,
                                  name="wyrd-llm-narrator")
        clock = self.clock
        start = clock()
        reply_chars = reported = 0
        self.stats.first_words_s = None
        self._workers = [(w, s) for w, s in self._workers if w.is_alive()]
        self._workers.append((worker, stop))
        _NARRATORS.add(self)
        _hook_exit()
        worker.start()
        try:
            while True:
                waiting = self.stats.first_words_s is None
                limit = min(self.first_token_timeout, self.total_timeout) if waiting else self.total_timeout
                what = "no words" if waiting else "the reply was not finished"
                try:
                    item = out.get(timeout=max(start + limit - clock(), 0.0))
                except queue.Empty:
                    raise NarrationFailed("timeout", f"{what} within {limit:g} s", shown=guard.shown) from None
                if item is _END:
                    break
                if isinstance(item, BaseException):
                    raise NarrationFailed("error", f"the model failed: {type(item).__name__}: {item}",
                                          shown=guard.shown) from item
                # Every chunk, whatever it holds: a stream of invisible pieces never runs past the deadline.
                if clock() - start > limit:
                    raise NarrationFailed("timeout", f"{what} within {limit:g} s", shown=guard.shown)
                reported += _usage(item)
                piece = str(getattr(item, "text", "") or "")
                if not piece:
                    continue
                reply_chars += len(piece)
                self._budget_check(max(reported, prompt_tokens + math.ceil(reply_chars / CHARS_PER_TOKEN)))
                shown = guard.feed(piece)
                if waiting and (shown or sanitize(piece)):  # words a player can see, not escape sequences
                    self.stats.first_words_s = clock() - start
                if shown and self.on_text is not None:
                    self.on_text(shown)
                if guard.rejected is not None:
                    raise NarrationFailed("refused", guard.rejected.reason, shown=guard.shown)
                if guard.full:
                    break
        finally:
            stop.set()
            estimate = prompt_tokens + math.ceil(reply_chars / CHARS_PER_TOKEN)
            self.stats.tokens_used += reported or estimate
            self.stats.tokens_reported += reported
        verdict = guard.finish()
        if not verdict.ok:
            kind = "empty" if not verdict.text else "refused"
            raise NarrationFailed(kind, verdict.reason, shown=guard.shown)
        rest = guard.rest(verdict)
        if rest and self.on_text is not None:
            self.on_text(rest)
        return verdict.text


def narrate_with_fallback(llm: Narrator, table: Narrator, request: NarrationRequest, dice: Dice) -> Narration:
    """``llm``'s narration of ``request``, or ``table``'s with the reason it fell back.

    The fallback is a :class:`FallbackNarration` (``source`` is the table's, its event
    carries ``"fallback": reason``).
    """
    try:
        return llm.narrate(request, dice)
    except NarrationFailed as failure:
        reason, shown, notice = failure.reason, failure.shown, failure.notice
    except Exception as exc:  # any narrator, any error: the tables still tell the moment
        reason, shown, notice = NarrationFailed("error", f"narrator error: {type(exc).__name__}: {exc}").reason, "", ""
    told = table.narrate(request, dice)
    return FallbackNarration(**told.model_dump(), fallback_reason=reason, shown=shown, notice=notice)


class FallbackNarrator(Narrator):
    """An LLM narrator with the table narrator behind it: never raises, records every fallback.

    ``Storyteller(FallbackNarrator(llm, table))`` needs no other change in the play layer.
    ``on_told`` is called with each narration as soon as it is settled, so a REPL that
    printed the LLM's words live can end the line, or withdraw them when the
    narration is a :class:`FallbackNarration` whose ``shown`` is not empty.
    """

    def __init__(self, llm: Narrator, table: Narrator, *, on_told: Callable[[Narration], object] | None = None) -> None:
        self.llm = llm
        self.table = table
        self.on_told = on_told
        self.source = llm.source

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        narration = narrate_with_fallback(self.llm, self.table, request, dice)
        if self.on_told is not None:
            self.on_told(narration)
        return narration


def make_narrator(config: NarratorConfig, *, on_text: OnText | None = None) -> LLMNarrator | None:
    """The LLM narrator ``config`` asks for, or None when no model is configured.

    Raises:
        NarratorConfigError: see :func:`~wyrd.oracle.narrators.llm_config.build_chat_model`.
    """
    if not config.model:
        return None
    return LLMNarrator(build_chat_model(config), name=split_model(config.model, config.base_url)[1],
                       first_token_timeout=config.first_token_timeout, total_timeout=config.total_timeout,
                       max_chars=config.max_chars, token_budget=config.token_budget, on_text=on_text,
                       language=config.language)
