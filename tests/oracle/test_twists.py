"""Twists from Wyrd rolls: 6 -> threat / eerie / tie for that character, a best of 1-2 -> one mundane
or friendly intrusion, 3-5 -> nothing; the story's entries before the generic tables."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import wyrd.rules.abacus as A
import wyrd.rules.abacus.events as AE
from wyrd.oracle.tables import ContentError, bundled_tables
from wyrd.oracle.text import fill
from wyrd.oracle.twists import Category, category_table, draw_twist, story_categories, twists
from wyrd.rules.dice import Dice


def wyrd(character: str, result: int, reason: str = "called") -> Any:
    return AE.InfluenceRolled.model_construct(character=character, trait="wyrd", dice=[result], result=result,
                                             ties=1, reason=reason)


@pytest.mark.parametrize(("face", "category"), [(1, "threat"), (2, "threat"), (3, "eerie"), (4, "eerie"),
                                                (5, "tie"), (6, "tie")])
def test_a_six_brings_each_twist_category(face: int, category: str) -> None:
    [twist] = twists(wyrd("Ada", 6), Dice.scripted([face, 42]), context={"location": "the mill"})
    assert twist.kind == "twist" and twist.character == "Ada" and twist.result == 6
    assert twist.category == category and twist.table == f"twist/{category}" and twist.row == "41-45"
    written = bundled_tables()[f"twist/{category}"].rows[8].text
    expected = fill(written, {"character": "Ada", "location": "the mill"})
    assert twist.text == expected and "{" not in expected


@pytest.mark.parametrize(("face", "category"), [(1, "mundane"), (3, "mundane"), (4, "friendly"), (6, "friendly")])
def test_a_best_of_one_or_two_brings_an_intrusion(face: int, category: str) -> None:
    [twist] = twists([wyrd("Ada", 2), wyrd("Bo", 1)], Dice.scripted([face, 100]))
    assert twist.category == category and twist.character == "Bo" and twist.result == 1
    assert twist.row == "96-100"


@pytest.mark.parametrize("result", [3, 4, 5])
def test_three_to_five_bring_nothing(result: int) -> None:
    assert twists(wyrd("Ada", result), Dice.scripted([])) == []


def test_one_roll_several_characters() -> None:
    events = [wyrd("Ada", 6), wyrd("Bo", 1), wyrd("Cy", 6)]
    out = twists(events, Dice.scripted([1, 1, 6, 1]))
    assert [(t.character, t.category) for t in out] == [("Ada", "threat"), ("Cy", "tie")]  # best is 6
    low = twists([wyrd("Ada", 2), wyrd("Bo", 2)], Dice.scripted([6, 1]))
    assert [(t.character, t.category) for t in low] == [("Ada", "friendly")]  # one intrusion, first lowest


def test_separate_rolls_in_one_command_are_separate() -> None:
    events = [wyrd("Ada", 1, "called"), AE.SceneEnded.model_construct(), wyrd("Ada", 2, "scene end")]
    out = twists(events, Dice.scripted([1, 1, 1, 1]))
    assert len(out) == 2


@pytest.mark.parametrize("reason", ["defeat", "finale"])
def test_defeat_and_finale_rolls_bring_no_twists(reason: str) -> None:
    assert twists(wyrd("Ada", 6, reason), Dice.scripted([])) == []


def test_the_scene_test_intrusion_is_always_mundane() -> None:
    [twist] = twists([wyrd("Ada", 1, "scene test")], Dice.scripted([1]))  # no category die
    assert twist.category == "mundane"


def test_the_story_tables_come_first() -> None:
    story = {"new_threat": ["The Hound of {character} howls."], "friendly": ["Mrs Pike waves."]}
    [twist] = twists(wyrd("Ada", 6), Dice.scripted([2, 1]), story_tables=story, story="hollow-hill")
    assert twist.text == "The Hound of Ada howls." and twist.table == "hollow-hill/twists/threat"
    assert twist.row == "1"
    [generic] = twists(wyrd("Ada", 6), Dice.scripted([3, 1]), story_tables=story)  # eerie: none in the story
    assert generic.table == "twist/eerie"


def test_story_weights_change_the_die() -> None:
    only_threats = category_table(True, {"threat": 1, "eerie": 0})
    assert only_threats.dice.weighted and only_threats.exact() == {"threat": 1}
    with pytest.raises(ValueError, match="no category"):
        category_table(False, {"mundane": 0})
    [twist] = twists(wyrd("Ada", 6), Dice.scripted([1, 1]), weights={"threat": 4, "eerie": 1, "tie": 1})
    assert twist.category == "threat"
    odd = category_table(True, {"threat": 5, "eerie": 1, "tie": 1})
    assert odd.dice.weighted and odd.total == 7
    with pytest.raises(ValueError, match="not a category for a 6"):
        category_table(True, {"mundane": 6})


def test_bad_story_entries_are_errors_not_ignored() -> None:
    with pytest.raises(ValueError, match="not a twist category"):
        story_categories({"spooky": ["x"]})
    with pytest.raises(ValueError, match="list of texts"):
        story_categories({"threat": "one text"})
    with pytest.raises(ContentError):
        draw_twist("Ada", Category.THREAT, Dice.scripted([1]), story_tables={"threat": ["bad {Brace"]})


def test_per_character_context() -> None:
    story = {"tie": ["{character} remembers {connection}."]}
    [twist] = twists(wyrd("Bo", 6), Dice.scripted([6, 1]), story_tables=story,
                     characters={"Bo": {"connection": "Ada"}})
    assert twist.text == "Bo remembers Ada."


@given(st.integers(0, 10**9))
def test_same_seed_same_twists(seed: int) -> None:
    events = [wyrd("Ada", 6), wyrd("Bo", 6)]
    assert twists(events, Dice.seeded(seed)) == twists(events, Dice.seeded(seed))


def test_twists_from_a_real_wyrd_roll() -> None:
    state = A.GameState()
    dice = Dice.scripted([6, 6])
    state = A.add_character(state, dice, "Ada", 5, 5, 5, wyrd=1).state
    state = A.add_character(state, dice, "Bo", 5, 5, 5, wyrd=1).state
    outcome = A.wyrd(state, dice, ["Ada", "Bo"])
    events = list(outcome.events)
    out = twists(events, Dice.seeded(3))
    assert [t.character for t in out] == ["Ada", "Bo"]
