"""Influence rolls, contests and sabotage (rules/abacus/influence.py)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from wyrd.rules.abacus import (
    Ability,
    GameState,
    add_challenge,
    attempt,
    contest,
    create_character,
    enlist,
    finale,
    influence,
    roll,
    sabotage,
    spend,
    start_scene,
)
from wyrd.rules.abacus.events import ChallengeModified, ContestDecided, InfluenceRolled, RollOpened
from wyrd.rules.abacus.influence import TraitRoll, rank, roll_trait
from wyrd.rules.dice import Dice
from wyrd.rules.odds import influence_odds

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL


def test_dice_equal_to_the_score(new) -> None:
    """Seed 000: the pool holds one die per point of the trait."""
    t = new("Cora", faces=[1, 2, 3, 4, 5, 2, 1])
    events = t.do(influence, SOUL, ["Cora"])
    assert t.of(InfluenceRolled, events)[0].dice == [1, 2, 3, 4, 5, 2, 1]
    assert t.faces_left == 0


def test_score_not_current_points(new) -> None:
    """Seed 000: influence rolls always use the initial ability value, even after
    points were spent (Mind 6 with 3 spent still rolls 6 dice)."""
    t = new("Cora", scene=["Cora"])
    t.do(add_challenge, "Riddle", "logic", 5)
    t.do(attempt, "riddle", "Cora")
    t.do(spend, "Cora", 4)  # Mind 5, 1 left
    t.faces(1)
    t.do(roll)
    t.faces(2, 2, 3, 2, 2)
    events = t.do(influence, MIND, ["Cora"])
    assert len(t.of(InfluenceRolled, events)[0].dice) == 5
    assert t.char("Cora").points[MIND] == 1


def test_result_is_the_highest_die(new) -> None:
    """Seed 000: only the best die counts as the result."""
    t = new("Ada", faces=[2, 5, 3, 5, 1])
    rolled = t.of(InfluenceRolled, t.do(influence, BODY, ["Ada"]))[0]
    assert rolled.result == 5
    assert rolled.ties == 2


def test_ties_broken_by_count(new) -> None:
    """Seed 000: equal results are split by how many dice show that best face."""
    t = new("Ada", "Bram", faces=[5, 1, 2, 3, 4, 5, 5, 1, 1, 1, 1, 1])
    # Ada (Body 5): 5,1,2,3,4 -> 5 once; Bram (Body 7): 5,5,1,1,1,1,1 -> 5 twice
    events = t.do(influence, BODY, ["Ada", "Bram"])
    decided = t.of(ContestDecided, events)[0]
    assert decided.ranking == ["Bram", "Ada"] and decided.winner == "Bram"
    assert decided.rerolls == 0


def test_dead_heat_rerolled_until_settled(new) -> None:
    """RULES.md [ours]: a dead heat (same result, same count) is re-rolled, as many
    times as it takes."""
    t = new("Ada", "Cora")  # Mind 5 each
    t.faces(6, 1, 1, 1, 1,  6, 2, 2, 2, 2,  # both 6 once: a dead heat
            3, 3,  # re-roll: still level
            2, 5)  # re-roll: Cora higher
    events = t.do(influence, MIND, ["Ada", "Cora"])
    decided = t.of(ContestDecided, events)[0]
    assert decided.ranking == ["Cora", "Ada"]
    assert decided.rerolls == 2
    assert t.faces_left == 0


def test_trait_zero_counts_as_one() -> None:
    """Seed 000: an influence roll with a trait at 0 has a result of 1 (no dice)."""
    dice = Dice.scripted([])
    rolled = roll_trait(dice, "Ada", 0, "wyrd roll")
    assert rolled == TraitRoll(character="Ada", dice=(), result=1, ties=1)
    assert dice.history == []


def test_rank_lowest_first() -> None:
    """[ours, influence.rank] a story may single out the lowest result instead."""
    rolls = [TraitRoll(character="A", dice=(6,), result=6, ties=1),
             TraitRoll(character="B", dice=(2, 2), result=2, ties=2),
             TraitRoll(character="C", dice=(2,), result=2, ties=1)]
    assert rank(rolls, Dice.scripted([])).order == ("A", "B", "C")
    assert rank(rolls, Dice.scripted([]), lowest=True).order == ("C", "B", "A")


def test_influence_needs_someone(new) -> None:
    """[ours, influence.influence] an influence roll is made by at least one character."""
    new("Ada").refuse("abacus.influence.who", influence, BODY, [])


def test_influence_between_scenes(new) -> None:
    """Seed 000: an outcome between scenes is always decided by an influence roll."""
    t = new("Ada", faces=[1, 2, 3, 4, 5])
    assert t.state.scene is None
    assert t.of(InfluenceRolled, t.do(influence, MIND, ["Ada"]))[0].result == 5


def test_influence_refused_after_the_story(new) -> None:
    """Seed 000: the story ends with the final Wyrd roll; nothing is rolled after it."""
    t = new("Ada")
    t.do(finale)
    t.refuse("abacus.finale.ended", influence, MIND, ["Ada"])


def test_exact_odds_of_a_six_through_the_engine() -> None:
    """Seed 000: the result is the highest of the dice; with three dice P(a 6) is
    91/216, counted over all 216 outcomes of a real influence roll, and every
    result's chance matches wyrd.rules.odds."""
    results: Counter[int] = Counter()
    for faces in itertools.product(range(1, 7), repeat=3):
        dice = Dice.scripted(faces)
        state = enlist(GameState(), dice, create_character("Bram", 9, 3, 3)).state
        out = influence(state, dice, MIND, ["Bram"])
        results[next(e for e in out.events if isinstance(e, InfluenceRolled)).result] += 1
    assert Fraction(results[6], 216) == Fraction(91, 216) == influence_odds(3).p_any_six
    for face in range(1, 7):
        assert Fraction(results[face], 216) == influence_odds(3).p_result(face)


# -- contests ----------------------------------------------------------------------


def test_contest_highest_wins(new) -> None:
    """Seed 000: when two characters clash, each makes an influence roll of the
    relevant ability; the highest value wins."""
    t = new("Ada", "Bram", faces=[3, 3, 3, 3, 3, 6, 1, 1, 1, 1, 1, 1])
    events = t.do(contest, BODY, "Ada", "Bram")
    assert t.of(ContestDecided, events)[0].winner == "Bram"


def test_contest_needs_two(new) -> None:
    """Seed 000: a contest is between two characters."""
    new("Ada").refuse("abacus.contest.two", contest, BODY, "Ada", "ada")


# -- sabotage ----------------------------------------------------------------------


def test_sabotage_plus_one_per_six(duo) -> None:
    """Seed 000: someone working against the party adds 1 to a challenge for each 6
    on their influence roll."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.faces(6, 6, 1, 6)  # Bram's Mind 4
    events = duo.do(sabotage, "Bram", "cipher", MIND)
    assert duo.of(ChallengeModified, events) == [
        ChallengeModified(challenge="cipher", change=3, value=8, reason="sabotage by Bram")]
    assert duo.scene.challenges["cipher"].sabotage == 3
    opened = duo.of(RollOpened, duo.do(attempt, "cipher", "Ada"))[0]
    assert opened.value == 8


def test_sabotage_without_sixes_changes_nothing(duo) -> None:
    """Seed 000: the increase is the number of 6s; none, no increase."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.faces(5, 5, 1, 2)
    events = duo.do(sabotage, "Bram", "cipher", MIND)
    assert duo.of(ChallengeModified, events) == []
    assert duo.scene.challenges["cipher"].sabotage == 0


def test_sabotage_before_the_roll_only(duo) -> None:
    """[ours, influence.sabotage] the value can be raised only before the die is rolled."""
    duo.do(add_challenge, "Cipher", "logic", 3)
    duo.do(attempt, "cipher", "Ada")
    duo.faces(1)
    duo.do(roll)
    duo.refuse("abacus.sabotage.before-roll", sabotage, "Bram", "cipher", MIND)


def test_sabotage_open_challenge_only(duo) -> None:
    """[ours, influence.sabotage] a settled challenge can't be made harder."""
    duo.do(add_challenge, "Cipher", "logic", 2)
    duo.do(attempt, "cipher", "Ada")
    duo.faces(6)
    duo.do(roll)
    duo.refuse("abacus.sabotage.open-challenge", sabotage, "Bram", "cipher", MIND)


@pytest.mark.parametrize("mind", [3, 4, 5])
def test_sabotage_expected_rise(mind: int) -> None:
    """Seed 000: the rise is the count of 6s, so it averages score/6 (exact, over
    every outcome of a scripted roll through the engine for a small score)."""
    total = 0
    outcomes = 0
    for faces in itertools.product(range(1, 7), repeat=mind):
        dice = Dice.scripted(faces)
        state = enlist(GameState(), dice, create_character("Ada", 5, mind, 10 - mind)).state
        state = start_scene(state, dice, ["Ada"]).state
        state = add_challenge(state, dice, "C", "logic", 4).state
        state = sabotage(state, dice, "Ada", "c", MIND).state
        assert state.scene is not None
        total += state.scene.challenges["c"].sabotage
        outcomes += 1
    assert Fraction(total, outcomes) == Fraction(mind, 6)
