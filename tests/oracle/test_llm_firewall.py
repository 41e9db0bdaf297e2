"""The firewall: escape sequences and controls never reach the terminal; replies that contradict the
settled facts (outcome, death, injury, numbers) are refused with a reason; the length cap holds;
and a reply judged as it streams gets the same verdict as the whole reply."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wyrd.oracle.facts import ChallengeFacts, CharacterFacts
from wyrd.oracle.narrators.base import MomentKind, NarrationRequest, Outcome
from wyrd.oracle.narrators.firewall import StreamGuard, check, sanitize
from wyrd.play.kits.abacus.events import KINDS as ABACUS_KINDS

CAST = [CharacterFacts(name="Ada", concept="a curate"), CharacterFacts(name="Bo")]


def outcome(detail: Outcome, **challenge: Any) -> NarrationRequest:
    ch = ChallengeFacts(id="gate", name="Locked gate", lead="Ada", outcome=detail.value, **challenge)
    return NarrationRequest(moment=MomentKind.CHALLENGE_OUTCOME, detail=detail.value, subject="Ada",
                            characters=CAST, challenge=ch,
                            events=[ABACUS_KINDS.sketch({"kind": "challenge_resolved", "challenge": "gate",
                                                                 "total": 6, "status": "x"})])


OVERCOME = outcome(Outcome.OVERCOME)
FAILED = outcome(Outcome.FAILED_DAMAGE, damage={"Ada": 2})
SCENE = NarrationRequest(moment=MomentKind.SCENE_OPENING, characters=CAST, location="the Seven Wells",
                         denizens=["the Drowned Dead"], tone=["Keep the gore offstage."])
DEFEAT = NarrationRequest(moment=MomentKind.DEFEAT, detail="defeated", subject="Bo", characters=CAST,
                          events=[ABACUS_KINDS.sketch({"kind": "character_defeated", "character": "Bo"})])


@pytest.mark.parametrize(("raw", "clean"), [
    ("The \x1b[31mred\x1b[0m door.", "The red door."),
    ("A \x1b]0;pwned\x07title.", "A title."),
    ("A \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ here.", "A link here."),
    ("Eight-bit \x9b2Jclear.", "Eight-bit clear."),
    ("DCS \x1bPq#0;2;0;0;0\x1b\\gone.", "DCS gone."),
    ("Bell\x07 and back\x08space\x7f.", "Bell and backspace."),
    ("Bidi \u202eevil\u202c and \u2066iso\u2069.", "Bidi evil and iso."),
    ("Lines\nand\ttabs\r\n  collapse.", "Lines and tabs collapse."),
    ("**Bold** and `code`.", "Bold and code."),
    ("Cut off \x1b]0;never ends", "Cut off"),
    ("Tag\U000e0041 chars.", "Tag chars."),
])
def test_sanitize_strips_what_a_terminal_would_obey(raw: str, clean: str) -> None:
    assert sanitize(raw) == clean


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
@settings(max_examples=300)
def test_sanitized_text_has_no_control_or_bidi_character(raw: str) -> None:
    out = sanitize(raw)
    assert not re.search("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]", out)
    assert out == out.strip() and "  " not in out


def test_escape_sequences_split_across_chunks_are_held_back_then_dropped() -> None:
    guard = StreamGuard(SCENE)
    shown = [guard.feed(c) for c in ["Mist ", "on \x1b", "[3", "1mthe ", "water \x1b]0;ti", "tle\x07now. "]]
    verdict = guard.finish()
    assert verdict.ok and verdict.text == "Mist on the water now."
    assert "".join(shown) + guard.rest(verdict) == verdict.text
    assert not any("\x1b" in s or "[3" in s or "ti" in s.split() for s in shown)


@pytest.mark.parametrize(("request_", "text", "why"), [
    (FAILED, "Ada triumphs over the locked gate.", "tells a failure as a success: 'triumphs'"),
    (FAILED, "Ada manages to force it open, bruised.", "tells a failure as a success: 'manages to'"),
    (OVERCOME, "Ada fails, and the gate holds.", "tells a success as a failure: 'fails'"),
    (OVERCOME, "Ada falls short of the lock.", "tells a success as a failure: 'falls short'"),
    (OVERCOME, "The gate swings open, and Bo lies dead beside it.", "tells a death that did not happen: 'dead'"),
    (OVERCOME, "Ada is wounded, but the gate opens.", "tells an injury that did not happen: 'wounded'"),
    (FAILED, "Three times Ada throws herself at the gate.", "a number not in the facts: 'three'"),
    (FAILED, "Ada loses 7 points.", "a number not in the facts: '7'"),
    (SCENE, "Sure! Here is the scene.", "speaks as an assistant, not as the narrator"),
    (SCENE, "Fog rises. Tone notes: keep the gore offstage.", "echoes the prompt: 'tone notes'"),
])
def test_contradictions_are_refused_with_the_reason(request_: NarrationRequest, text: str, why: str) -> None:
    verdict = check(text, request_)
    assert not verdict.ok and verdict.reason == why


@pytest.mark.parametrize(("request_", "text"), [
    (OVERCOME, "Ada puts her shoulder to the gate and it gives."),
    (FAILED, "The gate holds, and Ada's shoulder takes the blow; she does not succeed."),
    (FAILED, "Ada loses two points of Body to the iron."),  # 2 is in the facts
    (outcome(Outcome.OVERCOME_WYRD), "Ada falters, then something older than her pushes the gate open."),
    (OVERCOME, "No one dies here tonight; the gate swings wide."),
    (OVERCOME, "Ada never fails at locks, and this one opens for her."),
    (SCENE, "Fog over the Seven Wells; somewhere the Drowned Dead are singing."),
    (SCENE, "One lamp burns in the window."),
    (DEFEAT, "Bo falls and lies still, as if dead."),
])
def test_replies_true_to_the_facts_pass(request_: NarrationRequest, text: str) -> None:
    verdict = check(text, request_)
    assert verdict.ok, verdict.reason
    assert verdict.text == text


def test_a_reply_is_cut_to_three_sentences() -> None:
    verdict = check("Fog. It rolls in! Who calls? Nobody answers. The mere is still", SCENE)
    assert verdict.ok and verdict.text == "Fog. It rolls in! Who calls?"
    assert check("One lamp. Then dark.", SCENE, max_sentences=1).text == "One lamp."


def test_the_length_cap_cuts_after_a_full_sentence_or_refuses() -> None:
    sentence = "The fog rolls in over the black water of the mere. "
    verdict = check(sentence * 3, SCENE, max_chars=120)
    assert verdict.ok and verdict.text == (sentence * 2).strip()
    refused = check("word " * 40, SCENE, max_chars=60)
    assert not refused.ok and "longer than 60" in refused.reason
    assert not check(" \x1b[0m\n", SCENE).ok


def test_a_refused_word_is_never_shown_while_streaming() -> None:
    guard = StreamGuard(FAILED)
    words = ["Ada", "heaves", "at", "the", "gate", "and", "triumphs", "over", "it", "at", "last."]
    shown = "".join(guard.feed(w + " ") for w in words)
    assert guard.rejected is not None and "triumphs" not in shown and shown == "Ada heaves at the gate and"
    assert not guard.finish().ok


def test_a_reply_past_the_cap_stops_the_stream() -> None:
    guard = StreamGuard(SCENE, max_chars=50)
    for _ in range(30):
        guard.feed("Fog and more and more fog. ")
        if guard.full:
            break
    assert guard.full and len(guard.shown) <= 50
    assert guard.finish().text == "Fog and more and more fog."


@given(st.lists(st.integers(min_value=0, max_value=80), max_size=8),
       st.sampled_from(["Ada triumphs over the gate.", "The \x1b[1mgate\x1b[0m holds, and Ada is hurt.",
                        "Bo lies dead. Nobody weeps.", "Mist. " * 30]))
def test_streaming_in_any_pieces_gives_the_whole_replys_verdict(cuts: list[int], text: str) -> None:
    bounds = sorted({0, len(text), *(min(c, len(text)) for c in cuts)})
    pieces = [text[a:b] for a, b in itertools.pairwise(bounds)]
    guard = StreamGuard(FAILED, max_chars=120)
    shown = "".join(guard.feed(p) for p in pieces)
    streamed, whole = guard.finish(), check(text, FAILED, max_chars=120)
    assert streamed.ok == whole.ok
    if streamed.ok:
        assert streamed.text == whole.text
        assert (shown + guard.rest(streamed)).startswith(streamed.text)
