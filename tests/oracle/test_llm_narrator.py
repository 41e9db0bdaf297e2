"""The LLM narrator with langchain-core's fake chat models: it streams, it keeps its time and token
budgets, and every failure (an error before or during the stream, slowness, a reply the firewall
refuses, a spent budget) falls back to the table narrator with the reason recorded."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import (
    FakeListChatModel,
    FakeMessagesListChatModel,
    GenericFakeChatModel,
)
from langchain_core.messages import AIMessage

from wyrd.oracle.facts import StoryFacts
from wyrd.oracle.narrators.base import MomentKind, Narration, NarrationRequest
from wyrd.oracle.narrators.llm import (
    FallbackNarration,
    FallbackNarrator,
    LLMNarrator,
    NarrationFailed,
    narrate_with_fallback,
)
from wyrd.oracle.narrators.table import TableNarrator, narrate_requests
from wyrd.play.kits.abacus.events import KINDS as ABACUS_KINDS
from wyrd.play.kits.abacus.moments import moments
from wyrd.rules.dice import Dice

EVENTS: list[Any] = [ABACUS_KINDS.sketch(e) for e in [
    {"kind": "challenge_placed", "id": "gate", "name": "Locked gate", "type": "obstruction", "value": 5},
    {"kind": "roll_opened", "challenge": "gate", "lead": "Ada", "involved": ["Ada"], "value": 5},
    {"kind": "challenge_rolled", "challenge": "gate", "lead": "Ada", "die": 1, "points": 2, "total": 3, "value": 5,
     "overcome": False},
    {"kind": "challenge_resolved", "challenge": "gate", "overcome": False, "boost": 0, "total": 3,
     "status": "failed"},
    {"kind": "damage", "character": "Ada", "ability": "body", "n": 2, "points_after": 3},
]]
FACTS = StoryFacts(story="The Hollow Hill", tone=["Folk horror; keep the gore offstage."])
FAILED = next(r for r in moments(EVENTS, FACTS) if r.moment == MomentKind.CHALLENGE_OUTCOME)
GOOD = "The gate holds fast, and Ada's shoulder takes the blow."


def generic(*replies: str) -> GenericFakeChatModel:
    return GenericFakeChatModel(messages=iter(replies))


def told(narrator: LLMNarrator, request: NarrationRequest = FAILED) -> FallbackNarration:
    out = narrate_with_fallback(narrator, TableNarrator(), request, Dice.seeded(1))
    assert isinstance(out, FallbackNarration), f"expected a fallback, got {out!r}"
    return out


def test_chunks_reach_on_text_in_order_and_join_to_the_narration() -> None:
    pieces: list[str] = []
    narrator = LLMNarrator(generic(GOOD), on_text=pieces.append, name="fake:generic")
    narration = narrator.narrate(FAILED, Dice.seeded(1))
    assert narration.text == GOOD and "".join(pieces) == GOOD and len(pieces) > 5
    assert narration.source == "fake:generic" and narration.moment == MomentKind.CHALLENGE_OUTCOME
    assert narration.trace == ("prompt/challenge_outcome",)
    assert narration.event().model_dump() == {"kind": "narration", "text": GOOD, "source": "fake:generic",
                                 "moment": "challenge_outcome"}
    assert narrator.stats.told == 1 and narrator.stats.first_words_s is not None


def test_an_error_before_the_first_chunk_falls_back_with_the_reason() -> None:
    narrator = LLMNarrator(FakeListChatModel(responses=[GOOD], error_on_chunk_number=0))
    out = told(narrator)
    assert out.source == "table" and out.text and out.shown == ""
    assert out.fallback_reason.startswith("error: the model failed: FakeListChatModelError")
    assert out.event().fallback == out.fallback_reason
    assert narrator.stats.failed == 1 and narrator.stats.last_failure == out.fallback_reason


def test_an_error_mid_stream_drops_the_partial_text() -> None:
    pieces: list[str] = []
    narrator = LLMNarrator(FakeListChatModel(responses=[GOOD], error_on_chunk_number=20), on_text=pieces.append)
    out = told(narrator)
    assert "FakeListChatModelError" in out.fallback_reason
    assert out.shown == "".join(pieces) == "The gate holds" and out.shown not in out.text
    with pytest.raises(NarrationFailed) as failed:
        LLMNarrator(FakeListChatModel(responses=[GOOD], error_on_chunk_number=20)).narrate(FAILED, Dice.seeded(1))
    assert failed.value.shown == "The gate holds"


def test_a_slow_first_token_falls_back_within_the_budget() -> None:
    budget = 0.3
    narrator = LLMNarrator(FakeListChatModel(responses=[GOOD], sleep=5.0), first_token_timeout=budget)
    start = time.monotonic()
    out = told(narrator)
    elapsed = time.monotonic() - start
    assert out.fallback_reason == "timeout: no words within 0.3 s"
    assert budget <= elapsed < 3 * budget


def test_a_reply_that_never_ends_falls_back_at_the_total_budget() -> None:
    narrator = LLMNarrator(FakeListChatModel(responses=[GOOD * 5], sleep=0.02), first_token_timeout=1.0,
                           total_timeout=0.4)
    start = time.monotonic()
    out = told(narrator)
    assert out.fallback_reason == "timeout: the reply was not finished within 0.4 s"
    assert time.monotonic() - start < 1.2


def test_a_rambling_reply_is_not_read_past_its_third_sentence() -> None:
    ramble = "The gate holds. Ada stumbles back. The iron is cold. " + "It goes on and on. " * 100
    pieces: list[str] = []
    narrator = LLMNarrator(FakeListChatModel(responses=[ramble], sleep=0.002), on_text=pieces.append)
    start = time.monotonic()
    narration = narrator.narrate(FAILED, Dice.seeded(1))
    assert narration.text == "The gate holds. Ada stumbles back. The iron is cold." == "".join(pieces)
    assert time.monotonic() - start < len(ramble) * 0.002 / 2  # the rest was never waited for


def test_a_reply_that_contradicts_the_dice_falls_back_and_says_why() -> None:
    pieces: list[str] = []
    narrator = LLMNarrator(generic("Ada heaves and triumphs over the gate at last."), on_text=pieces.append)
    out = told(narrator)
    assert out.fallback_reason == "refused: tells a failure as a success: 'triumphs'"
    assert "triumphs" not in "".join(pieces)


def test_escape_sequences_are_stripped_and_the_reply_accepted() -> None:
    pieces: list[str] = []
    narrator = LLMNarrator(generic("The gate \x1b[5;31mholds\x1b[0m \x1b]0;owned\x07fast."), on_text=pieces.append)
    narration = narrator.narrate(FAILED, Dice.seeded(1))
    assert narration.text == "The gate holds fast." == "".join(pieces)
    assert not isinstance(narration, FallbackNarration)


def test_a_spent_token_budget_falls_back_without_calling_the_model() -> None:
    model = generic(GOOD, GOOD)
    narrator = LLMNarrator(model)
    narrator.narrate(FAILED, Dice.seeded(1))
    used = narrator.tokens_used
    narrator.token_budget = used + 10  # less than another prompt
    assert narrator.tokens_left == 10
    out = told(narrator)
    assert out.fallback_reason.startswith("budget: token budget exhausted")
    assert f"of {used + 10})" in out.fallback_reason
    assert narrator.tokens_used == used  # nothing sent, nothing spent
    assert next(model.messages) == GOOD  # the second reply was never asked for


def test_the_budget_also_stops_a_reply_mid_stream() -> None:
    narrator = LLMNarrator(generic("Mist " * 400 + "."), max_chars=5000)
    prompt_tokens = len("".join(str(m.content) for m in narrator.messages(FAILED)[1])) // 4
    narrator.token_budget = prompt_tokens + 50
    out = told(narrator)
    assert out.fallback_reason.startswith("budget: token budget exhausted")
    assert narrator.tokens_used <= prompt_tokens + 60


def test_usage_reported_by_the_provider_is_counted_instead_of_the_estimate() -> None:
    reply = AIMessage(content=GOOD, usage_metadata={"input_tokens": 300, "output_tokens": 14, "total_tokens": 314})
    narrator = LLMNarrator(FakeMessagesListChatModel(responses=[reply]))
    assert narrator.narrate(FAILED, Dice.seeded(1)).text == GOOD
    assert narrator.tokens_used == 314 and narrator.stats.tokens_reported == 314


def test_a_callback_that_breaks_is_a_fallback_not_a_crash() -> None:
    def broken(_: str) -> None:
        raise OSError("terminal gone")

    out = told(LLMNarrator(generic(GOOD), on_text=broken))
    assert out.fallback_reason.startswith("error: narrator error: OSError")


def test_ctrl_c_while_a_model_speaks_lets_the_tables_tell_it() -> None:
    def interrupt(_: str) -> None:
        raise KeyboardInterrupt

    out = told(LLMNarrator(generic(GOOD), on_text=interrupt))
    assert out.fallback_reason == "interrupted: by the player"


def test_status_says_what_was_told_and_spent() -> None:
    narrator = LLMNarrator(generic(GOOD, "Ada triumphs."), name="fake:m", token_budget=100_000)
    narrator.narrate(FAILED, Dice.seeded(1))
    told(narrator)
    line = narrator.status()
    assert line.startswith("fake:m: 1 told, 1 by the tables; ") and "of 100,000 tokens (estimated)" in line
    assert line.endswith("last fallback: refused: tells a failure as a success: 'triumphs'")


def test_the_model_s_reply_is_never_fed_back_as_the_story_so_far() -> None:
    """Issue 19, point 5: the story so far is facts the play layer adds, never the model's earlier prose."""
    narrator = LLMNarrator(generic(GOOD, "Ada retreats from the gate, nursing her shoulder."))
    narrator.narrate(FAILED, Dice.seeded(1))
    narrate_with_fallback(narrator, TableNarrator(), FAILED, Dice.seeded(1))
    assert narrator.memory.lines == []
    _, messages = narrator.messages(FAILED)
    assert GOOD not in str(messages[1].content) and "retreats" not in str(messages[1].content)
    narrator.memory.add("Scene: The Barrow Gate.")
    assert "Scene: The Barrow Gate." in str(narrator.messages(FAILED)[1][1].content)


def test_the_fallback_narrator_plugs_into_narrate_requests() -> None:
    llm = LLMNarrator(generic(GOOD, "Ada triumphs.", GOOD, GOOD))
    settled: list[Narration] = []
    told = narrate_requests(FallbackNarrator(llm, TableNarrator(), on_told=settled.append), moments(EVENTS, FACTS),
                            Dice.seeded(1))
    stored = [n.event().model_dump() for n in told]
    assert [n.event().model_dump() for n in settled] == stored
    assert [e["kind"] for e in stored] == ["narration"] * len(stored) and len(stored) == 2
    assert stored[0]["source"] == llm.source and "fallback" not in stored[0]
    assert stored[1]["source"] == "table" and stored[1]["fallback"].startswith("refused:")
