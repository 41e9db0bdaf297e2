"""How a language model narrates: a fixed set of moments from every bundled story, asked for real.

Issue 19, point 7: "``python -m bench narration --model M [--base-url U]`` plays a fixed
set of moments from every bundled story and prints the outcome-fidelity rate (the share
of replies whose told outcome matches the dice), the refusal rate by reason,
first-word and total latency, tokens per moment and the repetition rate."

**The moments.** Every bundled story of every ruleset is played to its end by bots
(those of :mod:`bench.repetition`: the ``wyrd simulate`` bots, and its own for the
Abacus; the freeform setting Wrackham plays :data:`FREEFORM_SCENES` scenes and its
finale) through real play sessions with the tables narrating, and every moment the
storyteller tells is recorded with its :class:`NarrationRequest` and the tables' text.
From each story a seeded sample of ``per_story`` moments is kept, in play order: a
third rolls that succeeded, a third rolls that failed (where the story has them), the
rest any other moment. The same seed gives the same moments on every machine.

**The asking.** Each story is one session of the project's own
:class:`~wyrd.oracle.narrators.llm.LLMNarrator`, made by
:func:`~wyrd.oracle.narrators.llm.make_narrator` (so ``init_chat_model`` and the
player's time limits), its story so far learning what it tells (the tables' words
after a failure, as in play). The narrator is woken before every moment, so its rest
after three failures never skips one. A callback on the chat model records the
model's raw reply, chunk by chunk, and the usage a server reports.

**The figures.**

- *Outcome fidelity*: the share of replies with words whose told outcome agrees with
  the dice, judged on the model's raw reply (before any refusal) by the firewall's
  public :func:`~wyrd.oracle.narrators.firewall.check`: a reply is unfaithful when the
  check refuses it for a claim against the facts (:data:`LIES`: a failure told as a
  success or the reverse, a death or an injury that did not happen, a number or points
  not in the facts). Replies refused for their voice (speaking as an assistant, to
  the players) are not lies about the outcome; they show in the refusals. This is the
  firewall's keyword reading, no better: a reply that tells no outcome at all passes.
- *Refusals by reason*: the narrator's own recorded reason for each moment it could not
  tell: ``timeout``, ``empty``, ``refused: <why>``, ``error``.
- *Latency*: seconds to the first words a player could see (the narrator's own
  measure) and to the end of the telling; median and 95th percentile.
- *Tokens per moment*: prompt and completion, as the server reported them when it did
  (the narrator stops reading after three sentences, before a server's final usage
  chunk), else estimated at four characters a token; median and 95th percentile.
- *Repetition*: within each story, the share of replies whose first five words are
  those of an earlier reply, and the share of sentences said word for word before.

Only the given base URL is used: nothing else of the network.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any

from bench.repetition import STORIES, Story, play_through
from wyrd.oracle.narrators.base import MomentKind, Narration, NarrationRequest, Narrator, Outcome
from wyrd.oracle.narrators.firewall import check, sanitize
from wyrd.play.engine.session import Session
from wyrd.rules.dice import Dice
from wyrd.sim.playthrough import session_seed

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from wyrd.oracle.narrators.llm import LLMNarrator

__all__ = [
    "FREEFORM_SCENES",
    "LIES",
    "PER_STORY",
    "Figures",
    "Moment",
    "Reply",
    "Tap",
    "ask",
    "figures",
    "judge",
    "main",
    "moments",
    "report",
    "sample",
    "server_counter",
    "settled",
]

PER_STORY = 12
FREEFORM_SCENES = 4
STEP_CAP = 400
# The firewall's reasons that are claims against the facts (its others are about voice or length).
LIES = ("tells ", "a number not in the facts", "speaks of points")
OPENING_WORDS = 5
COUNTED = {"usage": "reported by the server", "tokenizer": "counted by the server's tokenizer (the messages' text, "
           "without the chat template's few tokens)", "estimate": "estimated at 4 characters a token"}
_WORD = re.compile(r"[\w']+")
_SENTENCE = re.compile(r"[^.!?\u2026]+[.!?\u2026]*")


@dataclass(frozen=True)
class Moment:
    """One moment of a played story: its request, and what the tables told for it."""

    story: str  # "ruleset story-id"
    index: int  # its place among the story's moments
    request: NarrationRequest
    table: str


def settled(request: NarrationRequest) -> bool | None:
    """Whether the dice settled ``request`` as a success (True), a failure (False), or neither (None).

    Read as the firewall reads it: a kit's own ``success``, else an Abacus challenge's outcome
    (bypassed is neither), and a roll that fell short is a failure so far.
    """
    if request.success is not None:
        return request.success
    if request.moment == MomentKind.CHALLENGE_OUTCOME and request.detail != Outcome.BYPASSED:
        return request.detail in (Outcome.OVERCOME, Outcome.OVERCOME_WYRD)
    if request.moment == MomentKind.FALTER:
        return False
    return None


class _Recorder(Narrator):
    """Tells every moment from the session's tables (with its deck), and keeps each request and text."""

    source = "table"

    def __init__(self, session: Session, story: str) -> None:
        self.session = session
        self.story = story
        self.moments: list[Moment] = []

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        told = self.session.teller.table.narrate(request, dice)
        self.moments.append(Moment(self.story, len(self.moments), request, told.text))
        return told


def _label(story: Story) -> str:
    return f"{story.ruleset} {story.story}"


def moments(story: Story, seed: int = 1) -> list[Moment]:
    """Every moment told in one bot playthrough of ``story`` (seeded by ``seed``), in order."""
    session = Session.new(None, seed=session_seed(seed, 0), ruleset=story.ruleset)
    recorder = _Recorder(session, _label(story))
    session.teller.use_llm(recorder)  # asked first for every moment; it tells it from the tables
    try:
        play_through(session, story, random.Random(f"narration:{seed}"), STEP_CAP, scenes=FREEFORM_SCENES)
    finally:
        session.close()
    return recorder.moments


def sample(found: Sequence[Moment], per_story: int = PER_STORY, seed: int = 1) -> list[Moment]:
    """``per_story`` of ``found`` (one story's moments), seeded, in play order.

    A third are rolls that succeeded and a third rolls that failed, as far as the story has
    them; the rest are drawn from every moment left.
    """
    rng = random.Random(f"narration:{seed}:{found[0].story if found else ''}")
    wins = [m for m in found if settled(m.request) is True]
    losses = [m for m in found if settled(m.request) is False]
    third = per_story // 3
    chosen = rng.sample(wins, min(third, len(wins))) + rng.sample(losses, min(third, len(losses)))
    left = [m for m in found if m not in chosen]
    chosen += rng.sample(left, min(per_story - len(chosen), len(left)))
    return sorted(chosen, key=lambda m: m.index)


def _interleave(groups: Sequence[Sequence[Moment]], limit: int | None) -> list[Moment]:
    """At most ``limit`` moments taken a story at a time in turn, then put back in story and play order."""
    if limit is None:
        return [m for group in groups for m in group]
    taken: list[Moment] = []
    for rank in range(max((len(g) for g in groups), default=0)):
        taken += [g[rank] for g in groups if rank < len(g)]
    kept = {id(m) for m in taken[:limit]}
    return [m for group in groups for m in group if id(m) in kept]


# --- listening to the model ------------------------------------------------------------------------------------
@dataclass
class _Run:
    text: list[str] = field(default_factory=list)
    usage: dict[str, int] = field(default_factory=dict)


class Tap:
    """What a chat model said, run by run: its raw chunks and the usage it reported.

    :meth:`attach` adds a langchain callback handler to a chat model (made at the first
    attach, so importing this module imports nothing of langchain). The model streams in
    the narrator's worker thread: a lock keeps the runs whole.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._runs: dict[Any, _Run] = {}
        self._order: list[Any] = []
        self._handler: Any = None

    def attach(self, model: BaseChatModel) -> None:
        """Listen to ``model`` (beside any callbacks it has)."""
        if self._handler is None:
            self._handler = _handler(self)
        callbacks = model.callbacks
        if isinstance(callbacks, list):
            if self._handler not in callbacks:
                callbacks.append(self._handler)
        else:  # none, or a callback manager: the handler alone is what the bench needs
            model.callbacks = [self._handler]

    def started(self, run_id: Any) -> None:
        with self._lock:
            self._runs[run_id] = _Run()
            self._order.append(run_id)

    def chunk(self, run_id: Any, text: str, usage: dict[str, int] | None) -> None:
        with self._lock:
            run = self._runs.get(run_id)
            if run is None:
                return
            if text:
                run.text.append(text)
            if usage:
                for key in ("input_tokens", "output_tokens"):
                    run.usage[key] = run.usage.get(key, 0) + int(usage.get(key, 0) or 0)

    def mark(self) -> int:
        """Where the runs stand now: :meth:`since` this mark reads the next run."""
        with self._lock:
            return len(self._order)

    def since(self, mark: int) -> tuple[str, dict[str, int]]:
        """The raw text and usage of the first run started after ``mark`` ("" and {} if none was)."""
        with self._lock:
            if len(self._order) <= mark:
                return "", {}
            run = self._runs[self._order[mark]]
            return "".join(run.text), dict(run.usage)


def _handler(tap: Tap) -> Any:
    from langchain_core.callbacks import BaseCallbackHandler

    class Handler(BaseCallbackHandler):
        def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: Any, **kwargs: Any) -> None:
            tap.started(run_id)

        def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: Any, **kwargs: Any) -> None:
            tap.started(run_id)

        def on_llm_new_token(self, token: Any, *, chunk: Any = None, run_id: Any, **kwargs: Any) -> None:
            message = getattr(chunk, "message", None)
            text = message.text if message is not None else token
            usage = getattr(message, "usage_metadata", None)
            tap.chunk(run_id, str(text or "") if isinstance(text, str) else "", usage)

    return Handler()


# --- asking ------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Reply:
    """What became of one moment put to the model."""

    story: str
    moment: str
    detail: str
    settled: bool | None
    raw: str  # what the model sent, as sent (the part the narrator read)
    told: str  # what the narrator told ("" when it failed)
    failure: str  # the narrator's recorded reason ("" when told): "timeout: ...", "refused: ..."
    lie: str | None  # None: no words to judge; "": faithful; else the firewall's reason against the facts
    first_words: float | None
    total: float
    prompt_tokens: int
    completion_tokens: int
    counted: str  # how the tokens were counted: "usage" (the server's report), "tokenizer" or "estimate"

    @property
    def kind(self) -> str:
        """The failure's kind, with a refusal's reason up to its quoted word: ``refused: tells a ...``."""
        if not self.failure:
            return ""
        head, _, rest = self.failure.partition(": ")
        return f"refused: {rest.split(': ')[0]}" if head == "refused" else head


def judge(raw: str, request: NarrationRequest) -> str | None:
    """None if ``raw`` holds no words; "" if its told outcome agrees with the dice; else the firewall's reason."""
    if not sanitize(raw):
        return None
    verdict = check(raw, request)
    return verdict.reason if not verdict.ok and verdict.reason.startswith(LIES) else ""


def ask(chosen: Sequence[Moment], make: Callable[[str], LLMNarrator], tap: Tap, *,
        count: Callable[[str], int | None] | None = None,
        on_reply: Callable[[Reply], object] | None = None) -> list[Reply]:
    """Put each of ``chosen`` to a narrator, one narrator (one story so far) for each story.

    ``make(story)`` gives a story's narrator; ``tap`` is attached to its model. Tokens are the
    server's usage when it reports it, else ``count(text)`` (the server's tokenizer, asked once
    every moment has been told, so that counting never waits behind a reply or delays one), else
    estimated at :data:`~wyrd.oracle.narrators.llm.CHARS_PER_TOKEN` characters a token;
    ``on_reply`` sees each reply as it comes, with its tokens as reported or estimated.
    """
    from wyrd.oracle.narrators.llm import NarrationFailed
    from wyrd.play.engine.kits import hooks_for
    from wyrd.play.engine.narration import recall

    replies: list[Reply] = []
    prompts: list[list[str]] = []
    narrator: LLMNarrator | None = None
    story = None
    dice = Dice.seeded("narration")
    for moment in chosen:
        if narrator is None or moment.story != story:
            story, narrator = moment.story, make(moment.story)
            tap.attach(narrator.model)
        request = moment.request
        narrator.wake()  # every moment asked: a rest would skip the next ones unmeasured
        _, messages = narrator.messages(request)
        prompt = [str(m.content) for m in messages]
        mark = tap.mark()
        start = time.monotonic()
        try:
            told, failure = narrator.narrate(request, dice).text, ""
        except NarrationFailed as failed:
            told, failure = "", failed.reason
        total = time.monotonic() - start
        # The story so far grows by the moment's facts, in its ruleset's words, as in play.
        for line in recall(hooks_for(moment.story.split()[0]), request.events):
            narrator.memory.add(line)
        raw, usage = tap.since(mark)
        if usage.get("input_tokens"):
            tokens, counted = (usage["input_tokens"], usage.get("output_tokens", 0)), "usage"
        else:
            tokens, counted = _count(prompt, raw, None)
        reply = Reply(
            story=moment.story, moment=str(request.moment), detail=request.detail or "", settled=settled(request),
            raw=raw, told=told, failure=failure, lie=judge(raw, request),
            first_words=narrator.stats.first_words_s, total=total,
            prompt_tokens=tokens[0], completion_tokens=tokens[1], counted=counted)
        replies.append(reply)
        prompts.append(prompt)
        if on_reply is not None:
            on_reply(reply)
    if count is None:
        return replies
    return [reply if reply.counted != "estimate" else _recount(reply, prompt, count)
            for reply, prompt in zip(replies, prompts, strict=True)]


def _recount(reply: Reply, prompt: Sequence[str], count: Callable[[str], int | None]) -> Reply:
    tokens, counted = _count(prompt, reply.raw, count)
    return replace(reply, prompt_tokens=tokens[0], completion_tokens=tokens[1], counted=counted)


def _count(prompt: Sequence[str], raw: str, count: Callable[[str], int | None] | None) -> tuple[tuple[int, int], str]:
    """The prompt's and the reply's tokens, by ``count`` when it answers for both, else estimated."""
    from wyrd.oracle.narrators.llm import CHARS_PER_TOKEN

    if count is not None:
        parts = [count(text) for text in prompt]
        reply = count(raw) if raw else 0
        if reply is not None and None not in parts:
            return (sum(p or 0 for p in parts), reply), "tokenizer"
    return (math.ceil(sum(map(len, prompt)) / CHARS_PER_TOKEN), math.ceil(len(raw) / CHARS_PER_TOKEN)), "estimate"


def server_counter(base_url: str, timeout: float = 30.0, probe: float = 5.0) -> Callable[[str], int | None] | None:
    """Counting tokens with the server's own tokenizer, if it offers llama-cpp-python's ``/extras/tokenize/count``.

    None when it does not answer within ``probe`` seconds (a hosted API, Ollama ...). Only
    ``base_url``'s own host is asked.
    """
    import urllib.error
    import urllib.request

    root = re.sub(r"/v1/?$", "", base_url.rstrip("/"))

    def ask_count(text: str, seconds: float) -> int | None:
        body = json.dumps({"input": text}).encode()
        asking = urllib.request.Request(f"{root}/extras/tokenize/count", data=body,
                                        headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(asking, timeout=seconds) as answer:
                found = json.loads(answer.read()).get("count")
        except (OSError, ValueError, urllib.error.URLError):
            return None
        return found if isinstance(found, int) else None

    if ask_count("a", probe) is None:
        return None
    return lambda text: ask_count(text, timeout)


# --- the figures --------------------------------------------------------------------------------------------------
def _spread(values: Iterable[float]) -> dict[str, float] | None:
    """Median and 95th percentile (nearest rank) of ``values``, or None when there are none."""
    ordered = sorted(values)
    if not ordered:
        return None
    p95 = ordered[max(math.ceil(0.95 * len(ordered)) - 1, 0)]
    return {"median": statistics.median(ordered), "p95": p95, "n": len(ordered)}


def _words(text: str) -> list[str]:
    return _WORD.findall(sanitize(text).lower())


@dataclass(frozen=True)
class Figures:
    """The evaluation's figures over a set of replies."""

    moments: int
    told: int
    judged: int  # replies with words to judge
    faithful: int
    lies: dict[str, int]  # the firewall's reasons against the facts, counted
    failures: dict[str, int]  # by kind (refusals by their reason)
    first_words: dict[str, float] | None
    total: dict[str, float] | None
    prompt_tokens: dict[str, float] | None
    completion_tokens: dict[str, float] | None
    counted: dict[str, int]  # how the moments' tokens were counted (usage, tokenizer, estimate): moments
    with_openings: int  # replies of at least one word (the repetition's denominator)
    repeated_openings: int  # of them, opening with the first five words of an earlier reply of the story
    sentences: int
    repeated_sentences: int
    by_settled: dict[str, tuple[int, int]]  # "success"/"failure"/"other": (faithful, judged)

    @property
    def fidelity(self) -> float | None:
        return self.faithful / self.judged if self.judged else None


def figures(replies: Sequence[Reply]) -> Figures:
    """The figures of ``replies`` (see the module docstring)."""
    judged = [r for r in replies if r.lie is not None]
    lies = Counter(r.lie.split(": ")[0] for r in judged if r.lie)
    failures = Counter(r.kind for r in replies if r.failure)
    openings: dict[str, set[tuple[str, ...]]] = {}
    said: dict[str, set[str]] = {}
    with_openings = repeated_openings = sentences = repeated_sentences = 0
    for reply in replies:
        words = _words(reply.raw)
        if words:
            with_openings += 1
            opening = tuple(words[:OPENING_WORDS])
            seen = openings.setdefault(reply.story, set())
            repeated_openings += opening in seen
            seen.add(opening)
        story_said = said.setdefault(reply.story, set())
        for match in _SENTENCE.finditer(sanitize(reply.raw)):
            sentence = " ".join(_WORD.findall(match.group(0).lower()))
            if sentence:
                sentences += 1
                repeated_sentences += sentence in story_said
                story_said.add(sentence)
    by_settled: dict[str, tuple[int, int]] = {}
    for name, value in (("success", True), ("failure", False), ("other", None)):
        group = [r for r in judged if r.settled is value]
        by_settled[name] = (sum(1 for r in group if not r.lie), len(group))
    return Figures(
        moments=len(replies), told=sum(1 for r in replies if not r.failure), judged=len(judged),
        faithful=sum(1 for r in judged if not r.lie), lies=dict(lies.most_common()),
        failures=dict(failures.most_common()),
        first_words=_spread(r.first_words for r in replies if r.first_words is not None),
        total=_spread(r.total for r in replies),
        prompt_tokens=_spread(r.prompt_tokens for r in replies),
        completion_tokens=_spread(r.completion_tokens for r in replies if r.raw),
        counted=dict(Counter(r.counted for r in replies).most_common()), with_openings=with_openings,
        repeated_openings=repeated_openings, sentences=sentences, repeated_sentences=repeated_sentences,
        by_settled=by_settled)


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole} ({100 * part / whole:.1f}%)" if whole else f"{part}/0"


def _seconds(spread: dict[str, float] | None) -> str:
    return "none" if spread is None else f"median {spread['median']:.2f} s, p95 {spread['p95']:.2f} s"


def _tokens(spread: dict[str, float] | None) -> str:
    return "none" if spread is None else f"median {spread['median']:g}, p95 {spread['p95']:g}"


def report(fig: Figures) -> list[str]:
    """The figures as lines to print."""
    out = [f"moments asked: {fig.moments}; told by the model: {_share(fig.told, fig.moments)}",
           f"outcome fidelity (raw replies with words, judged by the firewall's check): "
           f"{_share(fig.faithful, fig.judged)}"]
    out += [f"  {name} rolls: {_share(good, n)}" for name, (good, n) in fig.by_settled.items() if n]
    out += [f"  against the facts: {reason}: {n}" for reason, n in fig.lies.items()]
    out.append(f"not told (the tables told it instead): {_share(fig.moments - fig.told, fig.moments)}")
    out += [f"  {kind}: {_share(n, fig.moments)}" for kind, n in fig.failures.items()]
    out += [f"first words: {_seconds(fig.first_words)}" + (f" ({fig.first_words['n']:g} replies)"
                                                           if fig.first_words else ""),
            f"whole telling: {_seconds(fig.total)}",
            f"tokens per moment, prompt: {_tokens(fig.prompt_tokens)}; completion: {_tokens(fig.completion_tokens)} "
            f"({', '.join(f'{COUNTED[how]}: {n}' for how, n in fig.counted.items())})",
            f"repetition: replies opening with an earlier reply's first {OPENING_WORDS} words (same story): "
            f"{_share(fig.repeated_openings, fig.with_openings)}; sentences said before (same story): "
            f"{_share(fig.repeated_sentences, fig.sentences)}"]
    return out


def _show(reply: Reply) -> str:
    outcome = {True: "success", False: "failure", None: "-"}[reply.settled]
    verdict = ("no words" if reply.lie is None else "faithful" if not reply.lie else f"LIE ({reply.lie})")
    first = "-" if reply.first_words is None else f"{reply.first_words:.1f}"
    said = " ".join(sanitize(reply.raw).split())[:160]
    fate = reply.failure or "told"
    return (f"  [{reply.story}] {reply.moment}/{reply.detail or '-'} ({outcome}) {first}/{reply.total:.1f} s, "
            f"{reply.prompt_tokens}+{reply.completion_tokens} tokens ({reply.counted}): {verdict}; {fate}"
            f"\n    {said!r}")


# --- the command line --------------------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    from wyrd.oracle.narrators.llm_config import NarratorConfig

    defaults = NarratorConfig()
    parser = argparse.ArgumentParser(prog="python -m bench narration", description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True, help="provider:model, or a bare name with --base-url")
    parser.add_argument("--base-url", help="an OpenAI-compatible server (the only address used)")
    parser.add_argument("--api-key", help="default: WYRD_API_KEY, the provider's own variable, or 'none' "
                                          "with --base-url")
    parser.add_argument("--per-story", type=int, default=PER_STORY, help=f"moments a story (default {PER_STORY})")
    parser.add_argument("--limit", type=int, help="at most this many moments in all, a story at a time in turn")
    parser.add_argument("--seed", type=int, default=1, help="the playthroughs' and the sample's seed")
    parser.add_argument("--first-timeout", type=float, default=defaults.first_token_timeout,
                        help=f"seconds to the first words (default {defaults.first_token_timeout:g}, the player's)")
    parser.add_argument("--total-timeout", type=float, default=defaults.total_timeout,
                        help=f"seconds for a reply (default {defaults.total_timeout:g})")
    parser.add_argument("--temperature", type=float, default=defaults.temperature)
    parser.add_argument("--story", action="append", help="only this story id (may be repeated)")
    parser.add_argument("--replies", action="store_true", help="print every reply as it comes")
    parser.add_argument("--json", action="store_true", help="print the figures and every reply as JSON")
    return parser


def main(argv: Sequence[str]) -> int:
    """``python -m bench narration --model M [--base-url U] ...``: ask the model, print the figures."""
    import os

    from wyrd.oracle.narrators.llm import make_narrator
    from wyrd.oracle.narrators.llm_config import NarratorConfig, NarratorConfigError

    args = _parser().parse_args(list(argv))
    stories = [s for s in STORIES if not args.story or s.story in args.story]
    if not stories:
        print(f"no bundled story is called {', '.join(args.story)}", file=sys.stderr)
        return 2
    api_key = args.api_key or os.environ.get("WYRD_API_KEY") or ("none" if args.base_url else None)
    try:
        config = NarratorConfig(model=args.model, base_url=args.base_url, api_key=api_key,
                                temperature=args.temperature, first_token_timeout=args.first_timeout,
                                total_timeout=args.total_timeout)
        make_narrator(config)  # a bad setting is told now, before the stories are played
    except (NarratorConfigError, ValueError) as exc:
        print(f"narration: {exc}", file=sys.stderr)
        return 2

    def make(story: str) -> LLMNarrator:
        narrator = make_narrator(config)
        assert narrator is not None
        if getattr(narrator.model, "stream_usage", True) is None:  # an OpenAI-compatible server: ask for usage
            narrator.model.stream_usage = True  # type: ignore[attr-defined]
        return narrator

    groups = [sample(moments(story, args.seed), args.per_story, args.seed) for story in stories]
    chosen = _interleave(groups, args.limit)
    log = sys.stderr if args.json else sys.stdout
    told = len({m.story for m in chosen})
    print(f"model {args.model}" + (f" at {args.base_url}" if args.base_url else "")
          + f"; {len(chosen)} moments from {told} stories (seed {args.seed}); first words within "
          f"{args.first_timeout:g} s, a reply within {args.total_timeout:g} s", file=log, flush=True)
    count = server_counter(args.base_url) if args.base_url else None
    replies = ask(chosen, make, Tap(), count=count,
                  on_reply=(lambda r: print(_show(r), file=log, flush=True)) if args.replies else None)
    fig = figures(replies)
    if args.json:
        print(json.dumps({"model": args.model, "base_url": args.base_url, "seed": args.seed,
                          "figures": {**asdict(fig), "fidelity": fig.fidelity},
                          "replies": [asdict(r) for r in replies]}, indent=1, ensure_ascii=True))
    else:
        for line in report(fig):
            print(line)
    return 0
