"""Thaeborn outcomes decided as seed 004 decides them (issue 17, items 5, 6, 7 and 16).

Each test quotes the sentence of ``seed/004_06c27bdc2e65ccea.readable.txt`` it follows, or
names the README rules note where the text is silent and the choice is ours.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wyrd.rules.lots import (
    Change,
    Discipline,
    Mod,
    Result,
    Stat,
    add_character,
    attack,
    attack_odds,
    cast_lots,
    check,
    check_odds,
    damage_of,
    defend,
    rest,
    retry,
)
from wyrd.rules.lots.events import ActionLost, CheckCast, Incapacitated, MettleTested, PainTaken
from wyrd.rules.lots.turn import first_reading

PROWESS = Discipline.PROWESS


# --- 5. Only players roll ------------------------------------------------------------------------


def test_an_npc_does_not_roll_for_its_attack(table) -> None:
    """Seed 004, Only players roll: "When you are defending against an attack from an NPC, you Cast
    Lots ...; the NPC does not roll for their attack." The blow is the player's `defend`."""
    error = table.refuse("lots.npc.roll", attack, "Orc", "Ada", effort=2)
    assert "defend" in error.message


def test_there_is_no_npc_roll_for_defence(table) -> None:
    """Seed 004, Only players roll: "When you perform an attack on an NPC, you Cast Lots ...; there
    is no NPC roll for defense." So the same blow can't be cast twice with different odds."""
    error = table.refuse("lots.npc.roll", defend, "Orc", "Ada", effort=2)
    assert "attack" in error.message


def test_npcs_cast_no_lots_of_their_own(table) -> None:
    """Seed 004: "Only players roll - usually": no NPC check, second try or cast of lots; the
    world's secret cast (the GM's "something should remain random") is still there."""
    table.refuse("lots.npc.roll", check, "Orc", 5, discipline=PROWESS)
    table.refuse("lots.npc.roll", cast_lots, "Orc")
    table.refuse("lots.npc.roll", retry, "Orc")
    table.faces(2, 2)
    assert table.do(cast_lots, None, "the weather")


@pytest.mark.parametrize(("effort", "steady", "reeling", "down"), [
    (1, True, False, False),   # 1 + 1 Accuracy - 1 armour = 1 Pain against Mettle 3: holds
    (4, False, True, False),   # 4 Pain: more than the Mettle, less than twice it: reels
    (6, False, False, True),   # 6 Pain, twice the Mettle: overcome
])
def test_an_npcs_mettle_test_casts_no_lots(table, effort: int, steady: bool, reeling: bool, down: bool) -> None:
    """Seed 004, Only players roll: the player's attack is the one cast. [ours] The NPC's Mettle
    test is the comparison alone, Mettle against total Pain (README rules notes)."""
    table.faces(2, 2)  # only the attack's cast: nothing more is cast for the Orc
    events = table.do(attack, "Ada", "Orc", effort=effort)
    assert len(table.of(CheckCast, events)) == 1
    (test,) = table.of(MettleTested, events)
    assert test.cast is None
    assert ((test.outcome == Result.SUCCESS), test.loses_action, test.incapacitated) == (steady, reeling, down)
    assert table.of(Incapacitated, events) == ([Incapacitated(character="Orc", reason="pain")] if down else [])


def test_first_reading_still_replays_npc_casts(table) -> None:
    """Saves made before this reading replay as played: there an NPC could cast."""
    table.faces(3, 3)
    with first_reading():
        events = table.do(check, "Orc", 3, discipline=PROWESS)
    assert table.of(CheckCast, events)[0].character == "Orc"


# --- 6. Damage ----------------------------------------------------------------------------------


@given(st.integers(0, 20), st.integers(-20, 20))
def test_a_landed_blow_does_at_least_its_effort(effort: int, accuracy: int) -> None:
    """Seed 004 glossary: Accuracy "greater than zero lands an actively defended attack ... and adds
    to its damage"; Effort "determines Weapon Damage". No blow does less than its Effort."""
    assert damage_of(effort, accuracy) >= effort >= 0
    assert damage_of(effort, accuracy) == effort + max(0, accuracy)


def test_a_crit_against_a_far_better_defender_does_its_effort(table) -> None:
    """Seed 004: a CRIT lands an attack whatever the gap ("attacks are an exception"); the blow's
    Accuracy of -7 takes nothing off its Effort of 2."""
    table.faces(4, 4)
    events = table.do(attack, "Bram", "Orc", effort=2, offense=1, defense=8, armour=0)
    (pain,) = table.of(PainTaken, events)
    assert (pain.damage, pain.accuracy, pain.n) == (2, -7, 2)


# --- 7. The Rule of Fours -------------------------------------------------------------------------


def test_a_tier_four_above_the_proficiency_cannot_succeed(table) -> None:
    """Seed 004, Rule of Fours: "If the Tier of a Check exceeds your Proficiency by four or more,
    you simply won't be able to succeed at it." A +4 modifier meets Difficulty 9, but Ada's
    Prowess 5 is 4 short of the Tier: a failure, with or without a CRIT."""
    table.faces(2, 2, 4, 4)
    first = table.of(CheckCast, table.do(check, "Ada", 9, discipline=PROWESS, modifier=4))[0]
    assert (first.attribute, first.proficiency, first.tier) == (9, 5, 9)
    assert (first.outcome, first.change) == (Result.FAILURE, Change.FOURS_BARRED)
    crit = table.of(CheckCast, table.do(check, "Ada", 9, discipline=PROWESS, modifier=4))[0]
    assert (crit.outcome, crit.change) == (Result.FAILURE, Change.CRIT_BARRED)
    assert check_odds(9, 9, proficiency=5).p_success == 0


def test_a_first_check_and_a_second_try_read_alike(table) -> None:
    """Seed 004, Try, try again: the same check again. [ours] The modifier changes the Attribute
    and never the Proficiency, on a first check as on `again` (README rules notes): the same
    numbers give the same reading."""
    table.faces(4, 1, 2, 2)  # a WASTE, then the second try
    (first,) = table.of(CheckCast, table.do(check, "Ada", 6, discipline=PROWESS, modifier=1))
    (again,) = table.of(CheckCast, table.do(retry, "Ada"))
    assert (first.attribute, first.proficiency) == (again.attribute, again.proficiency) == (6, 5)
    assert again.outcome == Result.SUCCESS


# --- 16. Try, try again, right after; Mettle odds; the defended +1 ------------------------------------


def test_no_second_try_after_a_success(table) -> None:
    """Seed 004: "When your Proficiency is sufficient to succeed at a task, but fate had other plans
    via a WOE, WASTE, or FUMBLE, you may try again". A WOE on a success did not spoil it
    ([ours], README rules notes): nothing to try again."""
    table.faces(2, 1)
    (cast,) = table.of(CheckCast, table.do(check, "Ada", 5, discipline=PROWESS))
    assert (cast.outcome, cast.may_retry) == (Result.SUCCESS, False)
    table.refuse("lots.retry.not-allowed", retry, "Ada")


@pytest.mark.parametrize("between", ["lots", "rest", "check"])
def test_a_second_try_comes_right_after_or_not_at_all(table, between: str) -> None:
    """Seed 004: try again "assuming that the circumstances allow" after fate spoiled the check;
    [ours] right after it: any action in between closes the chance (README rules notes)."""
    table.faces(4, 1)
    table.do(check, "Ada", 5, discipline=PROWESS)
    assert table.char("Ada").condition.retry is not None
    if between == "lots":
        table.faces(2, 2)
        table.do(cast_lots, None)
    elif between == "rest":
        table.do(rest, "Bram")
    else:
        table.faces(2, 2)
        table.do(check, "Bram", 1, discipline=PROWESS)
    assert table.char("Ada").condition.retry is None
    table.refuse("lots.retry.not-allowed", retry, "Ada")


def test_a_defended_attack_odds_include_the_plus_one() -> None:
    """Seed 004 glossary: only an Accuracy "greater than zero lands an actively defended attack":
    Offense 5 against Defense 5 lands on a CRIT alone (1/16), undefended on a plain success."""
    assert attack_odds(5, 5).p_success == Fraction(1, 16)
    assert attack_odds(5, 5, defended=False).p_success == Fraction(7, 8)
    assert attack_odds(5, 5).difficulty == 6


# --- 12. Stats and Mods -------------------------------------------------------------------------------


def test_stats_are_tracked_and_checked(new) -> None:
    """Seed 004 glossary: a Stat is "a tracked character value such as Mettle, Capacity, Bulk,
    Hindrance, or Mobility"; an Attribute is "a Discipline, Stat, etc.". [ours] 0 to 10 each."""
    t = new("Ada")
    t.do(add_character, "Cy", {"prowess": 2}, stats={"mobility": 6, "Bulk": 2})
    assert t.char("Cy").stats == {Stat.MOBILITY: 6, Stat.BULK: 2}
    assert t.char("Cy").stat(Stat.CAPACITY) == 0
    t.faces(2, 2)
    (cast,) = t.of(CheckCast, t.do(check, "Cy", 5, stat=Stat.MOBILITY))
    assert (cast.stat, cast.discipline, cast.attribute, cast.proficiency, cast.outcome) == (
        Stat.MOBILITY, None, 6, 6, Result.SUCCESS)
    t.refuse("lots.character.stat-range", add_character, "Di", {}, stats={"hindrance": 11})
    t.refuse("lots.character.stat", add_character, "Di", {}, stats={"speed": 1})


def test_a_character_without_stats_keeps_its_old_shape(new) -> None:
    """Saves made before Stats resume to the same data: a sheet with none leaves them out."""
    t = new("Ada")
    assert "stats" not in t.char("Ada").model_dump(mode="json")


def test_the_same_advantage_twice_is_refused(table) -> None:
    """Seed 004 glossary, Mod: "Do not apply the same advantage twice by both boosting Offense and
    lowering Defense." Two different advantages both count."""
    twice = [Mod(reason="high ground", n=1, on="offense"), Mod(reason="High  Ground", n=-1, on="defense")]
    error = table.refuse("lots.mod.twice", attack, "Ada", "Orc", effort=2, mods=twice)
    assert "same advantage twice" in error.message
    table.refuse("lots.mod.twice", defend, "Ada", "Bram", effort=2,
                 mods=[Mod(reason="flank", n=1, on="offense"), Mod(reason="flank", n=1, on="offense")])
    table.faces(2, 2)
    both = [Mod(reason="high ground", n=1, on="offense"), Mod(reason="off balance", n=-1, on="defense")]
    events = table.do(attack, "Ada", "Orc", effort=2, mods=both)
    (cast,) = table.of(CheckCast, events)
    assert (cast.attribute, cast.difficulty, cast.tier) == (6, 4, 3)  # Offense 5 + 1; Defense 4 - 1, + 1 defended


def test_a_reeling_npcs_blow_is_its_lost_action(table) -> None:
    """RULES.md [ours]: a failed Mettle test "loses the next action"; only players roll, so an NPC's
    next action is the blow a player defends against: it is spent reeling, and nothing is cast."""
    table.char("Orc").condition.loses_action = True
    events = table.do(defend, "Bram", "Orc", effort=2)
    assert events == [ActionLost(character="Orc", action="attack")]
    assert not table.char("Orc").condition.loses_action


def test_an_incapacitated_player_still_casts_bare_lots(table) -> None:
    """Seed 004, Embracing uncertainty: the GM may ask you to Cast Lots "to see if you are altered
    by exposure to the Thae", whatever your state; only NPCs never cast."""
    table.char("Ada").condition.incapacitated = True
    table.faces(2, 2)
    assert table.do(cast_lots, "Ada", "the Thae")
