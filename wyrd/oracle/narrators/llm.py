"""The LLM narrator: settled facts in, a model's prose out, through the firewall, or the tables instead.

:class:`LLMNarrator` implements :class:`~wyrd.oracle.narrators.base.Narrator` on any
langchain chat model: one made by ``init_chat_model("provider:model", ...)`` from a
model string, or a ready one (tests pass langchain-core's fake chat models). For
each moment it picks the moment's prompt (:mod:`prompts`), fills it with the facts
as JSON, what they settle, the story's tone notes and the story so far
(:class:`~wyrd.oracle.narrators.llm_facts.StoryMemory`), and streams the reply.

Streaming runs the model's sync ``stream`` in a daemon worker thread that hands
chunks over a queue; the caller's thread waits with a deadline, so the
first-words budget and the total budget hold whatever the provider does, and the
``on_text`` callback runs in the caller's thread (the REPL prints there). Every
chunk goes through the :class:`~wyrd.oracle.narrators.firewall.StreamGuard`, so what
``on_text`` shows has been cleaned and checked; joined, the pieces are the final
text, unless the reply ran past the character cap and was cut back to its last
full sentence (then the final text is a prefix of what was shown). Once a reply
has said three sentences the narrator stops reading it.

Any failure raises :class:`NarrationFailed` with a reason: the provider's error,
before or mid-stream (the partial text is dropped), no first words in time, no end
in time, a firewall refusal, the token budget spent. :func:`narrate_with_fallback`
and :class:`FallbackNarrator` turn that into a table narration that records the
reason (``source="table"``, ``fallback_reason``; its event has ``"fallback"``).

Tokens: the usage a provider reports on its chunks (``usage_metadata``) when it
does, else an estimate of a token per four characters of prompt and reply.

langchain is imported only when a model string is turned into a model (through
:func:`wyrd.oracle.narrators.llm_config.build_chat_model`) and when a prompt is first
built; importing this module costs nothing of it.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from wyrd.oracle.events import Narrated
from wyrd.oracle.narrators.base import Narration, NarrationRequest, Narrator
from wyrd.oracle.narrators.firewall import DEFAULT_MAX_CHARS, StreamGuard
from wyrd.oracle.narrators.llm_config import NarratorConfig, build_chat_model, split_model
from wyrd.oracle.narrators.llm_facts import StoryMemory, render_facts, settled
from wyrd.prompts import PromptSet, chat_prompt, prompt_set
from wyrd.rules.dice import Dice

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import BaseMessage
    from langchain_core.prompts import ChatPromptTemplate

__all__ = ["FallbackNarration", "FallbackNarrator", "LLMNarrator", "LLMStats", "NarrationFailed", "make_narrator",
           "narrate_with_fallback"]

CHARS_PER_TOKEN = 4
_END = object()
OnText = Callable[[str], object]


class NarrationFailed(Exception):
    """The LLM narrator could not tell a moment; ``reason`` says why, ``shown`` what was already shown."""

    def __init__(self, reason: str, *, shown: str = "") -> None:
        super().__init__(reason)
        self.reason = reason
        self.shown = shown


class FallbackNarration(Narration):
    """A table narration told in place of a failed LLM one; the event records why."""

    fallback_reason: str
    shown: str = ""  # what the LLM had already shown live before it failed (the REPL may withdraw it)

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
        memory: the story so far (a new one by default).
        prompts: the prompt set (the bundled one by default).

    Raises:
        NarratorConfigError: ``model`` is a string that can't be made into a model.
    """

    def __init__(self, model: str | BaseChatModel, *, base_url: str | None = None, api_key: str | None = None,
                 temperature: float = 0.7, first_token_timeout: float = 3.0, total_timeout: float = 20.0,
                 max_chars: int = DEFAULT_MAX_CHARS, token_budget: int | None = None,
                 on_text: OnText | None = None, name: str | None = None, memory: StoryMemory | None = None,
                 prompts: PromptSet | None = None) -> None:
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
        self.token_budget = token_budget
        self.on_text = on_text
        self.memory = memory if memory is not None else StoryMemory()
        self.prompts = prompts or prompt_set()
        self.stats = LLMStats()
        self._templates: dict[str, ChatPromptTemplate] = {}

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
        return line + (f"; last fallback: {stats.last_failure}" if stats.last_failure else "")

    def values(self, request: NarrationRequest) -> dict[str, str]:
        """What the prompt's placeholders are filled with for ``request``."""
        tone = "; ".join(t.strip() for t in request.tone if t.strip())
        return {"facts": render_facts(request), "settled": settled(request), "summary": self.memory.summary(),
                "tone": tone or "none given: third person, plain and grounded", "moment": str(request.moment),
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
        try:
            prompt_id, messages = self.messages(request)
            text = self._tell(request, messages)
        except NarrationFailed as failure:
            self.stats.failed += 1
            self.stats.last_failure = failure.reason
            raise
        except KeyboardInterrupt:  # Ctrl-C while a model is slow: the tables tell this moment instead
            self.stats.failed += 1
            self.stats.last_failure = "interrupted by the player"
            raise NarrationFailed(self.stats.last_failure) from None
        except Exception as exc:  # a prompt or callback problem: still only a fallback, never a crash
            self.stats.failed += 1
            self.stats.last_failure = reason = f"narrator error: {type(exc).__name__}: {exc}"
            raise NarrationFailed(reason) from exc
        self.stats.told += 1
        self.memory.remember(request, text)
        return Narration(text=text, source=self.source, moment=request.moment, trace=(f"prompt/{prompt_id}",))

    def _budget_check(self, spent: int) -> None:
        if self.token_budget is not None and self.tokens_used + spent > self.token_budget:
            raise NarrationFailed(f"token budget exhausted ({self.tokens_used + spent} of {self.token_budget})")

    def _tell(self, request: NarrationRequest, messages: Sequence[BaseMessage]) -> str:
        prompt_tokens = math.ceil(sum(len(str(m.content)) for m in messages) / CHARS_PER_TOKEN)
        self._budget_check(prompt_tokens)
        guard = StreamGuard(request, max_chars=self.max_chars)
        out: queue.Queue[Any] = queue.Queue()
        stop = threading.Event()
        worker = threading.Thread(target=_pump, args=(self.model, messages, out, stop), daemon=True,
                                  name="wyrd-llm-narrator")
        start = time.monotonic()
        reply_chars = reported = 0
        self.stats.first_words_s = None
        worker.start()
        try:
            while True:
                waiting = self.stats.first_words_s is None
                limit = min(self.first_token_timeout, self.total_timeout) if waiting else self.total_timeout
                try:
                    item = out.get(timeout=max(start + limit - time.monotonic(), 0.0))
                except queue.Empty:
                    what = "no words" if waiting else "the reply was not finished"
                    raise NarrationFailed(f"{what} within {limit:g} s", shown=guard.shown) from None
                if item is _END:
                    break
                if isinstance(item, BaseException):
                    raise NarrationFailed(f"the model failed: {type(item).__name__}: {item}"[:300],
                                          shown=guard.shown) from item
                reported += _usage(item)
                piece = str(getattr(item, "text", "") or "")
                if not piece:
                    continue
                if waiting:
                    self.stats.first_words_s = time.monotonic() - start
                reply_chars += len(piece)
                self._budget_check(max(reported, prompt_tokens + math.ceil(reply_chars / CHARS_PER_TOKEN)))
                shown = guard.feed(piece)
                if shown and self.on_text is not None:
                    self.on_text(shown)
                if guard.rejected is not None:
                    raise NarrationFailed(f"firewall: {guard.rejected.reason}", shown=guard.shown)
                if guard.full:
                    break
        finally:
            stop.set()
            estimate = prompt_tokens + math.ceil(reply_chars / CHARS_PER_TOKEN)
            self.stats.tokens_used += reported or estimate
            self.stats.tokens_reported += reported
        verdict = guard.finish()
        if not verdict.ok:
            raise NarrationFailed(f"firewall: {verdict.reason}", shown=guard.shown)
        rest = guard.rest(verdict)
        if rest and self.on_text is not None:
            self.on_text(rest)
        return verdict.text


def narrate_with_fallback(llm: Narrator, table: Narrator, request: NarrationRequest, dice: Dice) -> Narration:
    """``llm``'s narration of ``request``, or ``table``'s with the reason it fell back.

    The fallback is a :class:`FallbackNarration` (``source`` is the table's, its event
    carries ``"fallback": reason``); an :class:`LLMNarrator`'s memory learns either text.
    """
    try:
        return llm.narrate(request, dice)
    except NarrationFailed as failure:
        reason, shown = failure.reason, failure.shown
    except Exception as exc:  # any narrator, any error: the tables still tell the moment
        reason, shown = f"narrator error: {type(exc).__name__}: {exc}", ""
    told = table.narrate(request, dice)
    if isinstance(llm, LLMNarrator):
        llm.memory.remember(request, told.text)
    return FallbackNarration(**told.model_dump(), fallback_reason=reason, shown=shown)


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
                       max_chars=config.max_chars, token_budget=config.token_budget, on_text=on_text)
