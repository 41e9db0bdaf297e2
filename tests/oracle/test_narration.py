"""Narration: every event kind can be told, a command's events group into the moments worth a
line, each challenge type and outcome has its variants, and the same seed tells the same story."""

from __future__ import annotations

import typing
from collections.abc import Callable
from typing import Any

import pytest

import wyrd.rules.abacus as A
from wyrd.oracle.facts import StoryFacts
from wyrd.oracle.narrators.base import MAJOR_MOMENTS, MomentKind, Narration, NarrationRequest, Narrator, Outcome
from wyrd.oracle.narrators.table import TableNarrator, narrate_requests, table_ids
from wyrd.oracle.tables import bundled_tables
from wyrd.play.kits.abacus.moments import moments
from wyrd.play.kits.abacus.narration import story_facts
from wyrd.rules.abacus import Ability, ChallengeSpec, ChallengeType
from wyrd.rules.abacus.events import AbacusEvent
from wyrd.rules.dice import Dice

E = dict[str, Any]
SAMPLES: dict[str, E] = {
    "character_created": {"name": "Ada", "body": 5, "mind": 5, "soul": 5, "wyrd": 1, "concept": "a curate"},
    "scene_started": {"scene": "scene-1", "number": 1, "present": ["Ada", "Bo"], "pool": 3},
    "challenge_placed": {"id": "gate", "name": "Locked gate", "type": "obstruction", "value": 5},
    "challenge_modified": {"challenge": "gate", "change": 2, "value": 7, "reason": "sabotage by Bo"},
    "roll_opened": {"challenge": "gate", "lead": "Ada", "involved": ["Ada"], "value": 5},
    "points_spent": {"character": "Ada", "ability": "body", "n": 2, "challenge": "gate"},
    "wyrd_drawn": {"character": "Ada", "n": 1, "reason": "to overcome Locked gate", "pool_after": 2,
                   "personal_after": 2},
    "challenge_rolled": {"challenge": "gate", "lead": "Ada", "die": 1, "points": 2, "total": 3, "value": 5,
                         "overcome": False},
    "challenge_resolved": {"challenge": "gate", "overcome": True, "boost": 0, "total": 6, "status": "overcome"},
    "damage": {"character": "Bo", "ability": "body", "n": 2, "points_after": 3},
    "ability_scratched": {"character": "Bo", "ability": "mind"},
    "character_defeated": {"character": "Bo", "wyrd_result": 6, "impediment": True},
    "influence_rolled": {"character": "Ada", "trait": "soul", "dice": [3, 4], "result": 4, "ties": 1, "reason": ""},
    "contest_decided": {"trait": "soul", "ranking": ["Ada", "Bo"], "winner": "Ada"},
    "points_recovered": {"character": "Ada", "ability": "body", "n": 1, "points_after": 4, "reason": "rest"},
    "recovery_refused": {"character": "Ada", "ability": "body", "rule": "abacus.recovery.scratched"},
    "scene_ended": {"scene": "scene-1", "pool_lost": 2},
    "clock_advanced": {"clock": "the-hunt", "value": 5, "change": 2, "thresholds": [5]},
    "counter_changed": {"counter": "kill-count", "value": 2, "change": 1},
    "counter_fired": {"counter": "kill-count", "value": 2, "character": "Bo", "result": 1},
    "stage_rule_added": {"rule": "bloody", "name": "Bloody", "source": "story"},
    "stage_rule_fired": {"rule": "bloody", "name": "Bloody", "subject": "Bo", "text": ""},
    "magic_cast": {"form": "charm", "casters": ["Ada"], "inspiration": "the vicar's hymn", "rule": "magic-charm-1",
                   "wyrd_bound": True},
    "servant_loose": {"servant": "servant-1", "challenge": "servant-1", "value": 4},
    "story_ended": {"results": {"Ada": "held", "Bo": "defeated"}},
}
PLAY_SAMPLES: dict[str, E] = {
    "session_started": {"story": "hollow-hill", "ruleset": "abacus", "seed": 4},
    "twist": {"character": "Ada", "result": 6, "category": "eerie", "text": "The clocks stop.",
              "table": "twist/eerie", "row": "1-5"},
    "answer": {"question": "Is the vicar lying?", "asker": "Ada", "odds": "even", "chance": 50, "tension": 0,
               "roll": 9, "answer": "yes_and", "twist": False},
    "scene_test": {"scene": "scene-1", "outcome": "interrupted", "best": 6, "results": {"Ada": 6},
                   "interrupted_by": ["Ada"]},
}
FACTS = StoryFacts(story="The Hollow Hill")


def rules_kinds() -> set[str]:
    members = typing.get_args(typing.get_args(AbacusEvent)[0])
    return {m.model_fields["kind"].default for m in members}


def test_the_samples_cover_every_event_kind_of_the_rules() -> None:
    assert set(SAMPLES) == rules_kinds()


@pytest.mark.parametrize("kind", sorted({*SAMPLES, *PLAY_SAMPLES}))
def test_every_event_kind_can_be_narrated(kind: str) -> None:
    event = ev(kind, **{**SAMPLES, **PLAY_SAMPLES}[kind])
    requests = moments([event], FACTS, detail=True)
    assert requests and all(event in r.events for r in requests)
    for request in requests:
        narration = TableNarrator().narrate(request, Dice.seeded(kind))
        assert narration.source == "table" and narration.text.strip()
        assert "{" not in narration.text and "}" not in narration.text and len(narration.text) < 240
        assert narration.event().model_dump() == {"kind": "narration", "text": narration.text, "source": "table",
                                                  "moment": str(request.moment)}


@pytest.mark.parametrize("kind", ["narration", "refused", "undone"])
def test_what_is_already_text_is_not_narrated(kind: str) -> None:
    fields = {"narration": {"text": "x"}, "refused": {"command": "x", "reason": "x", "rule": "x"},
              "undone": {"command": "x", "command_seq": 1}}[kind]
    assert moments([ev(kind, **fields)], detail=True) == []


def test_by_default_only_the_major_moments_are_told() -> None:
    minor = [ev(k, **SAMPLES[k]) for k in ("roll_opened", "points_spent", "stage_rule_added")]
    assert moments(minor) == []
    assert all(r.moment in MAJOR_MOMENTS for r in moments([ev(k, **v) for k, v in SAMPLES.items()]))


def ev(kind: str, **fields: Any) -> Any:
    """An Abacus game's event of ``kind`` with only the fields a test needs (typed, unchecked)."""
    from wyrd.play.engine.kits import hooks_for

    return hooks_for("abacus").events.model(kind).model_construct(**fields)


ROLLED = ev("challenge_rolled", challenge="gate", lead="Ada", die=2, points=1, total=3, value=5, overcome=False)


@pytest.mark.parametrize(("events", "outcome", "hurt"), [
    ([ev("challenge_resolved", challenge="gate", overcome=True, boost=0, total=6, status="overcome")],
     Outcome.OVERCOME, {}),
    ([ev("wyrd_drawn", character="Ada", n=2, reason="to overcome Locked gate", pool_after=1, personal_after=2),
      ev("challenge_resolved", challenge="gate", overcome=True, boost=2, total=5, status="overcome")],
     Outcome.OVERCOME_WYRD, {}),
    ([ROLLED, ev("challenge_resolved", challenge="gate", overcome=False, boost=0, total=3, status="failed"),
      ev("counter_changed", counter="kills", value=1, change=1)], Outcome.FAILED, {}),
    ([ROLLED, ev("challenge_resolved", challenge="gate", overcome=False, boost=0, total=3, status="failed"),
      ev("damage", character="Ada", ability="body", n=3, points_after=2)], Outcome.FAILED_DAMAGE, {"Ada": 3}),
    ([ROLLED, ev("challenge_resolved", challenge="gate", overcome=False, boost=0, total=3, status="failed"),
      ev("damage", character="Ada", ability="body", n=3, points_after=0),
      ev("ability_scratched", character="Ada", ability="body")], Outcome.FAILED_SCRATCH, {"Ada": 3}),
])
def test_a_resolved_challenge_is_one_moment(events: list[E], outcome: Outcome, hurt: dict[str, int]) -> None:
    facts = StoryFacts(challenges={"gate": {"id": "gate", "name": "Locked gate", "type": "obstruction",
                                            "lead": "Ada"}})
    told = [r for r in moments(events, facts) if r.moment == MomentKind.CHALLENGE_OUTCOME]
    assert len(told) == 1
    [request] = told
    assert request.detail == outcome.value and request.challenge is not None
    assert request.challenge.outcome == outcome.value and request.challenge.damage == hurt
    assert request.subject == "Ada" and request.challenge.type == ChallengeType.OBSTRUCTION
    assert table_ids(request)[0] == f"narrate/challenge/obstruction/{outcome.value}"
    folded = {e.kind for e in request.events}
    assert "damage" not in {r.moment for r in moments(events, facts)} and folded >= {"challenge_resolved"}


@pytest.mark.parametrize("ctype", list(ChallengeType))
@pytest.mark.parametrize("outcome", [o for o in Outcome if o != Outcome.BYPASSED])
def test_twelve_variants_per_challenge_type_and_outcome(ctype: ChallengeType, outcome: Outcome) -> None:
    table = bundled_tables()[f"narrate/challenge/{ctype.value}/{outcome.value}"]
    texts = [r.text for r in table.rows]
    assert len(texts) >= 12 and len(set(texts)) == len(texts)
    who = "{hurt}" if outcome in (Outcome.FAILED_DAMAGE, Outcome.FAILED_SCRATCH) else "{lead}"
    assert sum(who in t for t in texts) >= 9  # most name the character concerned
    assert all("{challenge}" in t or who in t for t in texts)
    assert any("{facet" in t for t in texts) or outcome != Outcome.OVERCOME  # {facet} or {facet.who}


def test_the_story_end_gives_a_finale_and_a_postscript_each() -> None:
    events = [ev("influence_rolled", character="Ada", trait="wyrd", dice=[6], result=6, ties=1, reason="finale"),
              ev("story_ended", results={"Ada": "held", "Bo": "defeated"})]
    told = moments(events)
    assert [(r.moment, r.detail, r.subject) for r in told] == [
        (MomentKind.FINALE, None, None), (MomentKind.POSTSCRIPT, "held", "Ada"),
        (MomentKind.POSTSCRIPT, "defeated", "Bo")]
    text = TableNarrator().narrate(told[1], Dice.seeded(1)).text
    assert "Ada" in text


def test_scene_openings_use_the_story_seeds_and_location() -> None:
    facts = StoryFacts(seeds=["Rooks wheel over {location}.", "The bell is silent."], location="the barrow")
    [request] = moments([ev("scene_started", scene="s1", number=1, present=["Ada"], pool=2)], facts)
    narration = TableNarrator().narrate(request, Dice.scripted([1]))
    assert narration.text == "Rooks wheel over the barrow." and narration.trace == ("story/seeds#1",)
    bare = moments([ev("scene_started", scene="s1", number=1, present=["Ada"], pool=2)],
                   StoryFacts(tables={"location": ["the ford"]}))[0]
    assert "{" not in TableNarrator().narrate(bare, Dice.seeded(2)).text


def test_a_stage_rule_tells_its_own_text() -> None:
    [request] = moments([ev("stage_rule_fired", rule="r", name="Bloody", subject="Bo",
                            text="{character} bleeds for it too.")])
    assert TableNarrator().narrate(request, Dice.scripted([])).text == "Bo bleeds for it too."


def test_a_deck_narrator_does_not_repeat_itself() -> None:
    narrator = TableNarrator(deck_state={})
    [request] = moments([ev("twist", character="Ada", category="threat", text="x", result=6)])
    texts = [narrator.narrate(request, Dice.seeded(i)).text for i in range(4)]
    assert len(set(texts)) == 4


class Broken(Narrator):
    source = "broken"

    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        raise TimeoutError("the model is asleep")


def test_a_failing_narrator_falls_back_to_tables() -> None:
    events = [ev("scene_ended", scene="s1", pool_lost=1)]
    [stored] = narrate_requests(Broken(), moments(events), Dice.seeded(1), fallback=TableNarrator())
    assert stored.event().kind == "narration" and stored.source == "table"
    with pytest.raises(TimeoutError):
        narrate_requests(Broken(), moments(events), Dice.seeded(1))


def play(seed: int) -> list[str]:
    """A short game through the rules core, narrated after every command."""
    state = A.GameState()
    dice = Dice.seeded(seed)
    narrator = TableNarrator()
    told: list[str] = []

    def do(action: Callable[..., Any], *args: Any, **kwargs: Any) -> None:
        nonlocal state
        before = state
        outcome = action(state, dice, *args, **kwargs)
        state = outcome.state
        events = list(outcome.events)
        facts = story_facts(state, before, story="The Hollow Hill")
        telling = Dice.seeded(f"{seed}:{len(told)}")
        told.extend(n.text for n in narrate_requests(narrator, moments(events, facts), telling))

    do(A.add_character, "Ada", 5, 5, 5, wyrd=1, facets={Ability.BODY: ["wiry", "clumsy"]})
    do(A.add_character, "Bo", 6, 5, 4)
    do(A.start_scene, ["Ada", "Bo"])
    do(A.place_spec, ChallengeSpec(id="gate", name="Locked gate", type=ChallengeType.OBSTRUCTION, value=12))
    do(A.attempt, "gate", "Ada")
    do(A.roll)
    if state.pending is not None:
        do(A.accept)
    do(A.wyrd, ["Ada", "Bo"])
    do(A.end_scene)
    do(A.finale)
    return told


def test_a_seeded_run_tells_the_same_story_twice() -> None:
    first = play(11)
    assert first == play(11)
    assert any("locked gate" in line for line in first) and len(first) >= 8
    assert play(12) != first


def test_facts_from_the_state_know_the_lead_of_a_roll_just_resolved() -> None:
    state = A.GameState()
    dice = Dice.scripted([1, 1])
    for name in ("Ada", "Bo"):
        state = A.add_character(state, dice, name, 5, 5, 5).state
    state = A.start_scene(state, dice, ["Ada", "Bo"]).state
    state = A.place_spec(state, dice, ChallengeSpec(id="gate", name="Locked gate", type="threat", value=8)).state
    state = A.attempt(state, dice, "gate", "Bo").state
    before = state
    outcome = A.roll(state, Dice.scripted([1]))
    facts = story_facts(outcome.state, before)
    assert facts.challenges["gate"].lead == "Bo"
    [told] = [r for r in moments(list(outcome.events), facts)
              if r.moment == MomentKind.CHALLENGE_OUTCOME]
    assert told.detail == Outcome.FAILED_DAMAGE and told.subject == "Bo"
