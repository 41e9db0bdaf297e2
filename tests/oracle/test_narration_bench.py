"""The narration bench's figures, on langchain-core's fake chat models (Issue 19, point 7).

``python -m bench narration`` asks a real model; here its core runs on three moments of a
real playthrough with replies known in advance (one faithful, one telling a failed roll as
a success, one failing), so the figures it prints cannot drift from what they claim.
"""

from __future__ import annotations

import math
import socket

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage

from bench.narration import Moment, Tap, ask, figures, judge, moments, report, sample, server_counter, settled
from bench.repetition import Story
from wyrd.oracle.narrators.llm import LLMNarrator

HOLLOW_FAIR = Story("abacus", "hollow-fair")
FAITHFUL = "The lanterns sway in the wind. The crowd parts around the stalls."
LIE = "The lanterns sway in the wind. She succeeds with ease, and the fair cheers."


@pytest.fixture(scope="module")
def played() -> list[Moment]:
    return moments(HOLLOW_FAIR)


def test_the_sample_is_fixed_and_holds_successes_and_failures(played: list[Moment]) -> None:
    """Issue 19, point 7: "a fixed set of moments", seeded, with rolls that succeeded and rolls that failed."""
    chosen = sample(played, 12)
    assert [m.index for m in chosen] == [m.index for m in sample(moments(HOLLOW_FAIR), 12)]
    assert len(chosen) == 12 and [m.index for m in chosen] == sorted(m.index for m in chosen)
    outcomes = [settled(m.request) for m in chosen]
    assert outcomes.count(True) >= 4 and outcomes.count(False) >= 4


def test_the_judge_reads_the_raw_reply_with_the_firewall(played: list[Moment]) -> None:
    """A success told for a failed roll is a lie; imagery is faithful; no words is not judged."""
    failure = next(m for m in played if settled(m.request) is False)
    assert judge(LIE, failure.request) == "tells a failure as a success: 'succeeds'"
    assert judge(FAITHFUL, failure.request) == ""
    assert judge("\x1b[0m\u200b", failure.request) is None


def test_the_figures_of_a_faithful_a_lying_and_a_failing_reply(played: list[Moment]) -> None:
    """Issue 19, point 7: fidelity, refusals by reason, latency, tokens and repetition, computed right."""
    success = next(m for m in played if settled(m.request) is True)
    failure = next(m for m in played if settled(m.request) is False)
    first, second = sorted((success, failure), key=lambda m: m.index)
    said = {success.index: FAITHFUL, failure.index: LIE}
    elsewhere = Moment("abacus elsewhere", 0, success.request, success.table)
    models = {
        first.story: GenericFakeChatModel(messages=iter([AIMessage(said[first.index]),
                                                         AIMessage(said[second.index])])),
        elsewhere.story: FakeListChatModel(responses=["never seen"], error_on_chunk_number=0),
    }

    def make(story: str) -> LLMNarrator:
        return LLMNarrator(models[story], first_token_timeout=30.0, total_timeout=60.0)

    prompt = sum(len(str(m.content)) for m in make(first.story).messages(first.request)[1])
    replies = ask([first, second, elsewhere], make, Tap())

    assert [r.failure for r in replies] == [
        "" if first is success else "refused: tells a failure as a success: 'succeeds'",
        "" if second is success else "refused: tells a failure as a success: 'succeeds'",
        "error: the model failed: FakeListChatModelError:",
    ]
    told = replies[[first, second].index(success)]
    assert told.told == told.raw == FAITHFUL and told.lie == ""
    lied = replies[[first, second].index(failure)]
    assert lied.told == "" and lied.raw.startswith("The lanterns sway in the wind. She succeeds ")
    assert replies[2].raw == "" and replies[2].lie is None and replies[2].first_words is None
    assert replies[0].prompt_tokens == math.ceil(prompt / 4) and {r.counted for r in replies} == {"estimate"}
    assert told.completion_tokens == math.ceil(len(FAITHFUL) / 4)

    fig = figures(replies)
    assert (fig.moments, fig.told, fig.judged, fig.faithful, fig.fidelity) == (3, 1, 2, 1, 0.5)
    assert fig.lies == {"tells a failure as a success": 1}
    assert fig.failures == {"refused: tells a failure as a success": 1, "error": 1}
    assert fig.by_settled == {"success": (1, 1), "failure": (0, 1), "other": (0, 0)}
    assert fig.first_words is not None and fig.first_words["n"] == 2
    assert fig.total is not None and fig.total["n"] == 3 and fig.counted == {"estimate": 3}
    # the lie opens with the faithful reply's first five words, and says its first sentence again
    assert (fig.repeated_openings, fig.with_openings) == (1, 2)
    assert (fig.repeated_sentences, fig.sentences) == (1, 4)
    lines = report(fig)
    assert any("outcome fidelity" in line and "1/2 (50.0%)" in line for line in lines)
    assert any(line.strip() == "error: 1/3 (33.3%)" for line in lines)


def test_tokens_are_counted_by_a_tokenizer_when_the_server_reports_no_usage(played: list[Moment]) -> None:
    """Issue 19, point 7: tokens per moment, from the server's usage when given, else counted."""
    moment = played[0]

    def make(story: str) -> LLMNarrator:
        return LLMNarrator(GenericFakeChatModel(messages=iter([AIMessage(FAITHFUL)])), first_token_timeout=30.0,
                           total_timeout=60.0)

    prompt = [str(m.content) for m in make(moment.story).messages(moment.request)[1]]
    [reply] = ask([moment], make, Tap(), count=lambda text: len(text.split()))
    assert reply.counted == "tokenizer"
    assert reply.prompt_tokens == sum(len(p.split()) for p in prompt)
    assert reply.completion_tokens == len(FAITHFUL.split())


def test_no_tokenizer_is_used_where_the_server_offers_none() -> None:
    """Only the given address is asked; one that does not answer leaves the tokens estimated."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    assert server_counter(f"http://127.0.0.1:{port}/v1", probe=2.0) is None
