"""Setting up and ending a story (rules/abacus/story.py), and the event contract."""

from __future__ import annotations

import json

import pytest
from pydantic import TypeAdapter

from wyrd.rules.abacus import (
    DEFEATED,
    FREED,
    HELD,
    AbacusEvent,
    Ability,
    ChallengeSpec,
    ChallengeType,
    Clock,
    Counter,
    Denizen,
    Needs,
    StageRule,
    add_challenge,
    add_character,
    attempt,
    cast,
    draw,
    end_scene,
    finale,
    harm,
    influence,
    install,
    rest,
    roll,
    scratch_out,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import InfluenceRolled, StoryEnded
from wyrd.rulesets import find_ruleset

BODY = Ability.BODY


def test_finale_six_held_lower_freed(new) -> None:
    """Seed 000: the story closes with everyone rolling their Wyrd once more; a 6
    keeps them in the Vale's grip, anything less lets them go."""
    t = new("Ada", "Bram", "Cora", faces=[6, 2, 5, 5], wyrd=1)
    t.state.characters["Bram"].wyrd = 2
    events = t.do(finale)
    assert {e.character: e.dice for e in t.of(InfluenceRolled, events)} == {
        "Ada": [6], "Bram": [2, 5], "Cora": [5]}
    assert [e.reason for e in t.of(InfluenceRolled, events)] == ["finale"] * 3
    assert t.of(StoryEnded, events) == [StoryEnded(results={"Ada": HELD, "Bram": FREED,
                                                            "Cora": FREED})]
    assert t.state.ended
    assert t.state.results == {"Ada": HELD, "Bram": FREED, "Cora": FREED}


def test_finale_with_no_wyrd_frees(new) -> None:
    """Seed 000: a trait of 0 counts as a 1, which is lower than 6: freed."""
    t = new("Ada")
    t.do(finale)
    assert t.state.results == {"Ada": FREED}


def test_finale_defeated_listed(new) -> None:
    """[ours, story.finale] a defeated character rolled at defeat and is listed as defeated."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(scratch_out, "Bram", BODY)
    t.do(scratch_out, "Bram", BODY)
    t.do(end_scene)
    events = t.do(finale)
    assert [e.character for e in t.of(InfluenceRolled, events)] == ["Ada"]
    assert t.state.results == {"Ada": FREED, "Bram": DEFEATED}


def test_finale_between_scenes(duo) -> None:
    """[ours, story.finale] the final roll closes the story after its last scene."""
    duo.refuse("abacus.finale.between-scenes", finale)


def test_finale_counts_on_clocks(new) -> None:
    """Seed 000: the final Wyrd roll may itself influence the climax (it is a Wyrd
    roll like the others, so clocks count it)."""
    t = new("Ada", faces=[6], wyrd=1)
    t.do(install, clocks=[Clock(id="c", name="C")])
    t.do(finale)
    assert t.state.clocks["c"].value == 1


@pytest.mark.parametrize("act", [
    lambda t: t.refuse("abacus.finale.ended", finale),
    lambda t: t.refuse("abacus.finale.ended", start_scene, ["Ada"]),
    lambda t: t.refuse("abacus.finale.ended", add_character, "Dot", 5, 5, 5),
    lambda t: t.refuse("abacus.finale.ended", wyrd, ["Ada"]),
    lambda t: t.refuse("abacus.finale.ended", influence, BODY, ["Ada"]),
    lambda t: t.refuse("abacus.finale.ended", rest, "Ada", BODY),
    lambda t: t.refuse("abacus.finale.ended", install, counters=[Counter(id="k", name="K")]),
    lambda t: t.refuse("abacus.finale.ended", harm, "Ada", BODY, 1),
    lambda t: t.refuse("abacus.finale.ended", cast, "ward", [], "x"),
    lambda t: t.refuse("abacus.finale.ended", add_challenge, "Door", "obstruction", 3),
    lambda t: t.refuse("abacus.scene.between-scenes", end_scene),
    lambda t: t.refuse("abacus.roll.none-open", roll),
])
def test_nothing_after_the_story(new, act) -> None:
    """Seed 000: the final Wyrd roll ends the story; every further action is refused."""
    t = new("Ada", faces=[3], wyrd=1)
    t.do(finale)
    act(t)


def test_install_brings_in_story_content(new) -> None:
    """Seed 000: each story has overarching stage rules, denizens and challenges."""
    t = new("Ada")
    clock = Clock(id="beast", name="Beast")
    events = t.do(
        install,
        rules=[StageRule(id="fog", name="Fog")],
        clocks=[clock],
        counters=[Counter(id="kills", name="Kill Count", value=2)],
        denizens=[Denizen(id="hound", name="Hound", needs=Needs.ANY)],
        catalogue=[ChallengeSpec(id="teeth", name="Teeth", type=ChallengeType.THREAT, value=5)],
        connections=True,
    )
    s = t.state
    assert set(s.stage_rules) == {"fog"} and s.clocks["beast"] == clock
    assert s.clocks["beast"] is not clock
    assert s.counters["kills"].value == 2
    assert s.denizens["hound"].needs == Needs.ANY
    assert s.catalogue["teeth"].value == 5
    assert s.connections
    assert [e.kind for e in events] == ["stage_rule_added"]


def test_install_rule_ids_stay_unique(new) -> None:
    """[ours, scenes.add_rule] a rule added twice gets a fresh id."""
    t = new("Ada")
    t.do(install, rules=[StageRule(id="fog", name="Fog")])
    t.do(install, rules=[StageRule(id="fog", name="Fog")])
    assert set(t.state.stage_rules) == {"fog", "fog-2"}


def test_ruleset_registered() -> None:
    """RULES.md: the Wyrd Abacus is the ruleset ``abacus`` following seed 000."""
    ruleset = find_ruleset("abacus")
    assert ruleset.seed == "000_e418bfdb0e315e34.txt"
    assert ruleset.load().__name__ == "wyrd.rules.abacus"


# -- the event contract ----------------------------------------------------------------

CONTRACT = {
    "character_created": {"name", "body", "mind", "soul", "wyrd"},
    "scene_started": {"scene", "present", "pool"},
    "challenge_placed": {"id", "name", "type", "value"},
    "points_spent": {"character", "ability", "n", "challenge", "wyrd_cost"},
    "wyrd_drawn": {"character", "n", "reason", "pool_after", "personal_after"},
    "challenge_rolled": {"challenge", "lead", "die", "points", "total", "value", "overcome"},
    "challenge_resolved": {"challenge", "overcome", "boost", "total"},
    "damage": {"character", "ability", "n", "points_after"},
    "ability_scratched": {"character", "ability"},
    "character_defeated": {"character"},
    "influence_rolled": {"character", "trait", "dice", "result"},
    "points_recovered": {"character", "ability", "n"},
    "scene_ended": {"scene", "pool_lost"},
    "clock_advanced": {"clock", "value"},
    "story_ended": {"results"},
}


def test_events_follow_the_design_contract(new) -> None:
    """DESIGN.md: event kinds and their fields are a contract; every event
    round-trips through JSON as a typed event."""
    t = new("Ada", "Bram", scene=None, wyrd=1)
    t.do(install, clocks=[Clock(id="c", name="C")])
    t.do(start_scene, ["Ada"])
    t.do(add_challenge, "Door", "obstruction", 4)
    t.do(attempt, "door", "Ada")
    t.do(spend, "Ada", 1)
    t.faces(1)
    t.do(roll)
    t.do(draw, "Ada", 2)  # Ada: 3 Wyrd
    t.do(harm, "Ada", BODY, 1)
    t.do(scratch_out, "Ada", Ability.SOUL)
    t.faces(5, 5, 2)
    t.do(end_scene)
    t.faces(6, 6, 1, 3)
    t.do(finale)
    adapter = TypeAdapter(AbacusEvent)
    seen = set()
    for event in t.events:
        data = json.loads(event.model_dump_json())
        kind = data["kind"]
        seen.add(kind)
        assert CONTRACT.get(kind, set()) <= set(data), kind
        assert adapter.validate_python(data) == event
    assert {"character_created", "scene_started", "challenge_placed", "points_spent",
            "wyrd_drawn", "challenge_rolled", "challenge_resolved", "damage", "ability_scratched",
            "influence_rolled", "points_recovered", "scene_ended", "clock_advanced",
            "story_ended"} <= seen
