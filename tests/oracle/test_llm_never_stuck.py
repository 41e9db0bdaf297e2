"""Issue 19, point 4, "Never stuck": the deadline holds on every chunk whatever it holds, cleaning is
done a chunk at a time, the recorded reason is the true one, three failures in a row send the model
to rest (said once; `narrator llm` wakes it), and nothing a model or a provider says reaches a screen
with an escape sequence in it. langchain-core's fake chat models throughout; the clock is a fake one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage

import wyrd.oracle.narrators.firewall as firewall
from tests.oracle.test_llm_narrator import FAILED, GOOD, generic, told
from wyrd.oracle.narrators.firewall import StreamGuard, check, sanitize
from wyrd.oracle.narrators.llm import REST_AFTER, REST_MOMENTS, FallbackNarration, LLMNarrator, NarrationFailed
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.rules.dice import Dice

ESCAPES = "\x1b[0m " * 400


class FakeClock:
    """A clock that moves on by ``step`` seconds each time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def test_a_stream_of_escape_chunks_cannot_run_past_the_deadline() -> None:
    """Issue 19, point 4: 90 s of `\\x1b[0m` chunks used to cost 695 s and be recorded as an empty reply."""
    pieces: list[str] = []
    clock = FakeClock(1.0)
    narrator = LLMNarrator(generic(ESCAPES + GOOD), first_token_timeout=3.0, total_timeout=20.0,
                           on_text=pieces.append, clock=clock)
    out = told(narrator)
    assert out.fallback_reason == "timeout: no words within 3 s"  # escape sequences are not first words
    assert pieces == [] and clock.reads < 10  # a few chunks read, not the 800 of the stream


def test_a_deadline_of_zero_is_kept_even_when_chunks_keep_coming() -> None:
    narrator = LLMNarrator(generic(GOOD), first_token_timeout=0.0, total_timeout=0.0, clock=FakeClock(0.001))
    assert told(narrator).fallback_reason == "timeout: no words within 0 s"


def test_an_escape_only_reply_within_the_deadline_is_recorded_as_empty() -> None:
    narrator = LLMNarrator(generic(ESCAPES), clock=FakeClock(0.0))
    assert told(narrator).fallback_reason == "empty: an empty reply"


def test_a_refusal_and_an_error_say_so() -> None:
    assert told(LLMNarrator(generic("Ada heaves and triumphs over the gate at last."))).fallback_reason.startswith(
        "refused: ")
    failing = LLMNarrator(FakeListChatModel(responses=[GOOD], error_on_chunk_number=0))
    assert told(failing).fallback_reason.startswith("error: the model failed: ")


def _raising(message: str) -> Iterator[AIMessage]:
    raise RuntimeError(message)
    yield AIMessage(content="")  # a generator that fails when first asked


def test_a_providers_error_is_cleaned_before_it_is_recorded_or_shown(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 19, point 4: `status` printed a provider's error with its escape sequences raw."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    hostile = "\x1b[2J\x1b]0;pwned\x07bad\u202egateway\x9b31m\nretry"
    narrator = LLMNarrator(GenericFakeChatModel(messages=_raising(hostile)), name="fake\x1b[31m:m")
    out = told(narrator)
    assert out.fallback_reason == "error: the model failed: RuntimeError: badgateway retry"
    assert narrator.status() == sanitize(narrator.status()) and "\x1b" not in narrator.status()
    session = Session.new(None, seed=1, ruleset="abacus")
    session.teller.use_llm(narrator)
    line = next(x.text for x in Console(session).handle("status").lines if x.text.startswith("Narrator:"))
    assert line == sanitize(line) and "pwned" not in line and "gateway" in line


def test_three_failures_in_a_row_send_the_model_to_rest_and_it_says_so_once() -> None:
    replies = iter(["Ada triumphs over the gate."] * REST_AFTER + [GOOD] * 3)
    narrator = LLMNarrator(GenericFakeChatModel(messages=replies))
    fails = [told(narrator) for _ in range(REST_AFTER)]
    assert [bool(f.notice) for f in fails] == [False] * (REST_AFTER - 1) + [True]
    assert narrator.take_notice() == fails[-1].notice and narrator.take_notice() == ""
    rested = [told(narrator) for _ in range(REST_MOMENTS)]
    assert all(r.fallback_reason.startswith("resting: ") and not r.notice for r in rested)
    assert "resting" not in narrator.status()
    assert next(replies) == GOOD  # the model was not asked while it rested
    assert narrator.narrate(FAILED, Dice.seeded(1)).text == GOOD  # and is asked again after


def test_a_success_breaks_the_run_of_failures() -> None:
    bad = "Ada triumphs over the gate."
    narrator = LLMNarrator(GenericFakeChatModel(messages=iter([bad, bad, GOOD, bad, bad, GOOD])))
    for _ in range(2):
        told(narrator), told(narrator)
        narrator.narrate(FAILED, Dice.seeded(1))
    assert narrator.stats.resting == 0 and narrator.take_notice() == ""


def test_narrator_llm_wakes_a_resting_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    narrator = LLMNarrator(FakeListChatModel(responses=[GOOD], error_on_chunk_number=0))
    session = Session.new(None, seed=3, story="the-milestones", ruleset="abacus")
    session.teller.use_llm(narrator)
    console = Console(session)
    lines = [x.text for cmd in ("pc take all", "scene", "status") for x in console.handle(cmd).lines]
    notices = [x for x in lines if "failed 3 times in a row" in x]
    assert len(notices) == 1 and "narrator llm" in notices[0]
    assert narrator.stats.resting > 0 and any("resting for" in x.text for x in console.handle("status").lines)
    console.handle("narrator llm")
    assert narrator.stats.resting == 0 and narrator.stats.failures_in_row == 0


@pytest.mark.parametrize("reply", [
    "The gate \x1b[5;31mholds\x1b[0m \x1b]0;owned\x07fast. Ada\u200b\u202e stumbles\x1b(B back.",
    "  Fog\t\tlies\n\non the \x9b1mmoor\x9b0m.  It\u2028stays. ",
    "Rain. \x1b]8;;http://x\x1b\\a link\x1b]8;;\x1b\\ fades \x1b",
])
def test_cleaning_a_chunk_at_a_time_gives_the_whole_replys_cleaning(reply: str) -> None:
    """Issue 19, point 4: split anywhere (even inside an escape sequence), the reply reads the same."""
    whole = check(reply, FAILED)
    for size in (1, 2, 3, 7):
        chunks = [reply[i:i + size] for i in range(0, len(reply), size)]
        assert check(chunks, FAILED) == whole, size
    assert whole.text == sanitize(reply) or not whole.ok


def test_a_chunk_is_cleaned_once_not_the_whole_reply_again(monkeypatch: pytest.MonkeyPatch) -> None:
    cleaned: list[int] = []
    real = firewall.sanitize
    monkeypatch.setattr(firewall, "sanitize", lambda text, **kw: cleaned.append(len(text)) or real(text, **kw))
    guard = StreamGuard(FAILED)
    for _ in range(2000):
        assert guard.feed("\x1b[0m\x07") == ""
    assert cleaned == []  # the old guard cleaned 2000 ever longer replies here
    assert guard.feed("The gate holds. ") == "The gate holds."


def test_an_escape_sequence_that_never_ends_stops_the_reading() -> None:
    guard = StreamGuard(FAILED)
    guard.feed("The gate holds. \x1b]0;")
    for _ in range(300):
        guard.feed("xxxxx")
    assert guard.full and guard.finish().text == "The gate holds."


def test_a_failure_carries_its_kind() -> None:
    with pytest.raises(NarrationFailed) as failed:
        LLMNarrator(generic(ESCAPES), clock=FakeClock(0.0)).narrate(FAILED, Dice.seeded(1))
    assert failed.value.kind == "empty"
    assert isinstance(told(LLMNarrator(generic(ESCAPES), clock=FakeClock(0.0))), FallbackNarration)
