"""The question oracle (DESIGN.md): d100 against 90/70/50/30/10, exceptional fifths rounded down,
doubles up to tension + 1 bring a twist; the scene test; the two-word inspiration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wyrd.oracle.question import (
    ODDS,
    AnswerKind,
    SceneOutcome,
    answer_for,
    answer_twist,
    ask,
    inspire,
    is_twist,
    question_odds,
    scene_test,
    scene_test_odds,
)
from wyrd.rules.dice import Dice

F = Fraction


def test_even_odds_with_no_tension() -> None:
    odds = question_odds("even", 0)
    assert odds.yes == F(50, 100) and odds.answers[AnswerKind.YES_AND] == F(10, 100)
    assert odds.answers[AnswerKind.YES] == F(40, 100)
    assert odds.answers[AnswerKind.NO_BUT] == F(10, 100) and odds.no == F(50, 100)
    assert odds.twist == F(1, 100) and odds.twist_faces == (11,)
    assert (odds.yes_and_max, odds.yes_max, odds.no_but_min) == (10, 50, 91)


@pytest.mark.parametrize(("word", "chance", "fifth_yes", "fifth_no"), [
    ("certain", 90, 18, 2), ("likely", 70, 14, 6), ("even", 50, 10, 10), ("unlikely", 30, 6, 14),
    ("impossible", 10, 2, 18),
])
def test_the_five_odds(word: str, chance: int, fifth_yes: int, fifth_no: int) -> None:
    odds = question_odds(word)
    assert odds.odds == chance == ODDS[word]
    assert odds.answers == {
        AnswerKind.YES_AND: F(fifth_yes, 100), AnswerKind.YES: F(chance - fifth_yes, 100),
        AnswerKind.NO: F(100 - chance - fifth_no, 100), AnswerKind.NO_BUT: F(fifth_no, 100),
    }
    assert sum(odds.answers.values()) == 1


@pytest.mark.parametrize("word", list(ODDS))
@pytest.mark.parametrize("tension", [0, 1, 3, 8, 12])
def test_exhaustive_over_all_hundred_faces(word: str, tension: int) -> None:
    """Every face asked through ``ask`` (scripted dice) adds up to the exact odds shown before."""
    odds = question_odds(word, tension)
    counts = dict.fromkeys(AnswerKind, 0)
    twists = []
    for face in range(1, 101):
        answer = ask("Is the vicar lying?", word, tension, Dice.scripted([face]))
        assert answer.roll == face and answer.answer == answer_for(face, odds.odds)
        counts[answer.answer] += 1
        if answer.twist:
            twists.append(face)
        expected = (AnswerKind.YES_AND if face <= odds.yes_and_max else AnswerKind.YES if face <= odds.odds
                    else AnswerKind.NO_BUT if face >= odds.no_but_min else AnswerKind.NO)
        assert answer.answer == expected
    assert {k: F(n, 100) for k, n in counts.items()} == odds.answers
    assert twists == [11 * d for d in range(1, min(tension + 1, 9) + 1)]
    assert F(len(twists), 100) == odds.twist


def test_fifths_round_down_for_a_number_given_instead_of_a_word() -> None:
    odds = question_odds(33)
    assert odds.word == "33" and odds.yes_and_max == 6 and odds.no_but_min == 88  # 33/5 = 6.6; 67/5 = 13.4
    assert odds.answers[AnswerKind.NO_BUT] == F(13, 100)
    assert question_odds("70").word == "likely"


@pytest.mark.parametrize("bad", ["sure", 0, 100, -5, "", "maybe"])
def test_bad_odds_are_refused(bad: object) -> None:
    with pytest.raises(ValueError):
        question_odds(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        question_odds("even", -1)


def test_a_twist_is_a_double_at_most_tension_plus_one() -> None:
    assert is_twist(11, 0) and not is_twist(22, 0) and is_twist(22, 1) and is_twist(99, 8)
    assert not is_twist(100, 50) and not is_twist(12, 5)


def test_answer_event_and_twist_for_the_asker() -> None:
    answer = ask(" Is anyone home? ", "likely", 0, Dice.scripted([11]))
    assert answer.answer == AnswerKind.YES_AND and answer.twist and answer.label == "Yes, and..."
    assert answer.event("Ada").model_dump() == {"kind": "answer", "question": "Is anyone home?", "asker": "Ada",
                                                "odds": "likely", "chance": 70, "tension": 0, "roll": 11,
                                                "answer": "yes_and", "twist": True}
    twist = answer_twist(answer, "Ada", Dice.scripted([5, 1]))  # d6 5: a personal tie; d100 1: its first row
    assert twist is not None and twist.category == "tie" and twist.character == "Ada"
    assert answer_twist(ask("?", "even", 0, Dice.scripted([12])), "Ada", Dice.scripted([])) is None


@pytest.mark.parametrize(("results", "outcome", "by"), [
    ({"Ada": 6, "Bo": 1}, SceneOutcome.INTERRUPTED, ["Ada"]),
    ({"Ada": 6, "Bo": 6}, SceneOutcome.INTERRUPTED, ["Ada", "Bo"]),
    ({"Ada": 2, "Bo": 1}, SceneOutcome.ALTERED, []),
    ({"Ada": 3, "Bo": 1}, SceneOutcome.EXPECTED, []),
    ({"Ada": 5}, SceneOutcome.EXPECTED, []),
])
def test_scene_test(results: dict[str, int], outcome: SceneOutcome, by: list[str]) -> None:
    test = scene_test(results)
    assert test.outcome == outcome and test.interrupted_by == by
    assert test.intrusion == ("mundane" if outcome == SceneOutcome.ALTERED else None)
    assert test.event("scene-1").outcome == outcome.value
    with pytest.raises(ValueError):
        scene_test({})


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 2), min_size=1, max_size=3))
def test_scene_test_odds_match_enumeration(pools: list[int]) -> None:
    wyrd = {f"c{i}": n for i, n in enumerate(pools)}
    counts = dict.fromkeys(SceneOutcome, 0)
    per_character = [list(itertools.product(range(1, 7), repeat=n)) if n else [()] for n in pools]
    total = 0
    for combo in itertools.product(*per_character):
        results = {f"c{i}": max(faces, default=1) for i, faces in enumerate(combo)}
        counts[scene_test(results).outcome] += 1
        total += 1
    assert scene_test_odds(wyrd) == {k: F(n, total) for k, n in counts.items()}


def test_inspire_gives_an_action_and_a_theme() -> None:
    words = inspire(Dice.scripted([1, 100]))
    assert (words.action, words.theme, words.text) == ("Abandon", "loss", "Abandon loss")
    assert words.rows == ("meaning/action#1", "meaning/theme#100")
    again = inspire(Dice.seeded(7))
    assert again == inspire(Dice.seeded(7))
