"""Reading a cast and a check (rules/lots/fate.py): the lots, their effects, the Rule of Fours."""

from __future__ import annotations

from collections import Counter

import pytest

from wyrd.rules.lots import Change, Fortune, Lot, Result, read, read_lot
from wyrd.rules.lots.fate import LOT_CASTS, all_casts, cannot_fail, cannot_succeed, fortune_of

S, F, W = Result.SUCCESS, Result.FAILURE, Result.WASTE


# --- the lots -----------------------------------------------------------------------------------


def test_sixteen_equally_likely_casts() -> None:
    """Seed 004: two d4, one WEAL and one WOE die: 16 distinct (WEAL, WOE) pairs."""
    casts = list(all_casts())
    assert len(casts) == 16
    assert len(set(casts)) == 16


def test_lots_by_enumeration() -> None:
    """RULES.md, Check: one lot per cast; in 16 casts CRIT, FUMBLE, WASTE, WEAL, WOE and none
    fall 1, 1, 1, 2, 2 and 9 times."""
    counts = Counter(read_lot(weal, woe) for weal, woe in all_casts())
    assert counts == Counter({Lot.CRIT: 1, Lot.FUMBLE: 1, Lot.WASTE: 1, Lot.WEAL: 2, Lot.WOE: 2, Lot.NONE: 9})
    assert counts == Counter(LOT_CASTS)


@pytest.mark.parametrize(
    ("weal", "woe", "lot"),
    [
        (4, 4, Lot.CRIT),  # seed 004: both dice on 4 is a CRIT
        (1, 1, Lot.FUMBLE),  # double 1s: a FUMBLE
        (4, 1, Lot.WASTE),  # WEAL 4 with WOE 1: a WASTE
        (4, 2, Lot.WEAL),
        (4, 3, Lot.WEAL),
        (2, 1, Lot.WOE),
        (3, 1, Lot.WOE),
        (1, 4, Lot.NONE),  # a 1 on the WEAL die and a 4 on the WOE die mean nothing
        (2, 3, Lot.NONE),
    ],
)
def test_each_lot(weal: int, woe: int, lot: Lot) -> None:
    """Seed 004: CRIT (4,4), FUMBLE (1,1), WASTE (WEAL 4, WOE 1), WEAL (WEAL 4), WOE (WOE 1);
    the first that applies is the lot."""
    assert read_lot(weal, woe) == lot


def test_a_face_off_the_die_is_refused() -> None:
    """Seed 004: the lots dice are d4."""
    with pytest.raises(ValueError, match="d4"):
        read_lot(5, 2)


def test_fortunes() -> None:
    """Seed 004: a CRIT brings a heightened WEAL, a FUMBLE a heightened WOE, a WEAL or WOE its
    own; a WASTE brings neither, the action is simply lost."""
    assert fortune_of(Lot.CRIT) == Fortune.GREAT_WEAL
    assert fortune_of(Lot.FUMBLE) == Fortune.GREAT_WOE
    assert fortune_of(Lot.WEAL) == Fortune.WEAL
    assert fortune_of(Lot.WOE) == Fortune.WOE
    assert fortune_of(Lot.WASTE) == Fortune.NONE
    assert fortune_of(Lot.NONE) == Fortune.NONE


# --- the comparison -----------------------------------------------------------------------------


def test_meeting_the_difficulty_succeeds() -> None:
    """Seed 004: an Attribute that meets or exceeds the Difficulty succeeds, barring fate."""
    assert read(5, 5, Lot.NONE).result == S
    assert read(6, 5, Lot.NONE).result == S
    assert read(4, 5, Lot.NONE).result == F


@pytest.mark.parametrize("lot", [Lot.WEAL, Lot.WOE])
@pytest.mark.parametrize(("attribute", "result"), [(5, S), (3, F)])
def test_weal_and_woe_leave_the_result(lot: Lot, attribute: int, result: Result) -> None:
    """Seed 004: a WEAL or a WOE comes whether the check succeeds or fails; it doesn't change it."""
    reading = read(attribute, 4, lot)
    assert reading.result == result
    assert reading.change == Change.NONE
    assert reading.fortune == (Fortune.WEAL if lot == Lot.WEAL else Fortune.WOE)


@pytest.mark.parametrize("attribute", [0, 4, 9])
def test_waste_is_neither(attribute: int) -> None:
    """Seed 004: on a WASTE the action neither succeeds nor fails; no WEAL or WOE applies."""
    reading = read(attribute, 4, Lot.WASTE)
    assert reading.result == W
    assert reading.change == Change.WASTED
    assert reading.fortune == Fortune.NONE


def test_crit_on_a_success_stays_a_success() -> None:
    """Seed 004: a CRIT is a spectacular success with a heightened WEAL."""
    reading = read(6, 4, Lot.CRIT)
    assert (reading.result, reading.change, reading.fortune) == (S, Change.NONE, Fortune.GREAT_WEAL)


def test_fumble_on_a_failure_stays_a_failure() -> None:
    """Seed 004: a FUMBLE is a horrendous failure with a heightened WOE."""
    reading = read(2, 4, Lot.FUMBLE)
    assert (reading.result, reading.change, reading.fortune) == (F, Change.NONE, Fortune.GREAT_WOE)


# --- the Rule of Fours ------------------------------------------------------------------------------


@pytest.mark.parametrize(("attribute", "succeeds"), [(4, True), (2, True), (1, False), (0, False)])
def test_crit_lifts_a_failure_within_the_rule_of_fours(attribute: int, succeeds: bool) -> None:
    """RULES.md, Rule of Fours: a CRIT makes a failure succeed unless the Tier exceeds the
    Proficiency by 4 or more (difficulty 5: attribute 2 is 3 short and can, 1 is 4 short and can't)."""
    reading = read(attribute, 5, Lot.CRIT)
    assert (reading.result == S) is succeeds
    assert reading.change == (Change.CRIT_SUCCEEDS if succeeds else Change.CRIT_BARRED)
    assert reading.fortune == Fortune.GREAT_WEAL  # seed 004: you may still learn something of use


def test_attacks_are_exempt_from_the_crit_bar() -> None:
    """Seed 004: attacks excepted, you can't succeed automatically at a Tier 4 or more above
    yours; so a CRIT lands any attack."""
    assert read(0, 9, Lot.CRIT, attack=True).result == S
    assert read(0, 9, Lot.CRIT, attack=True).change == Change.CRIT_SUCCEEDS
    assert read(0, 9, Lot.CRIT).result == F


@pytest.mark.parametrize(("attribute", "fails"), [(5, True), (8, True), (9, False), (10, False)])
def test_fumble_sinks_a_success_within_the_rule_of_fours(attribute: int, fails: bool) -> None:
    """RULES.md, Rule of Fours: a FUMBLE makes a success fail unless the Proficiency exceeds
    the Tier by 4 or more (difficulty 5: attribute 8 is 3 above and fails, 9 is 4 above and holds)."""
    reading = read(attribute, 5, Lot.FUMBLE)
    assert (reading.result == F) is fails
    assert reading.change == (Change.FUMBLE_FAILS if fails else Change.FUMBLE_BARRED)
    assert reading.fortune == Fortune.GREAT_WOE  # seed 004: a tool may still break


def test_attacks_are_not_exempt_from_the_fumble_bar() -> None:
    """[ours] The text names only CRITs for the attack exception; a FUMBLE on an attack far
    above its target is barred like any other."""
    assert read(9, 5, Lot.FUMBLE, attack=True).result == S
    assert read(8, 5, Lot.FUMBLE, attack=True).result == F


def test_proficiency_and_tier_can_differ_from_the_numbers_compared() -> None:
    """Seed 004: the Rule of Fours compares Proficiency and Tier; by default the Attribute and
    Difficulty, but a check can name them apart (a modified Attribute, say)."""
    assert read(3, 5, Lot.CRIT, proficiency=1).change == Change.CRIT_BARRED
    assert read(3, 5, Lot.CRIT, tier=6).change == Change.CRIT_SUCCEEDS
    assert read(6, 5, Lot.FUMBLE, tier=2).change == Change.FUMBLE_BARRED


def test_rule_of_fours_predicates() -> None:
    """RULES.md: the bar applies from a gap of exactly 4."""
    assert cannot_succeed(3, 7) and not cannot_succeed(3, 6)
    assert not cannot_succeed(3, 7, attack=True)
    assert cannot_fail(7, 3) and not cannot_fail(6, 3)


def test_waste_still_wastes_the_sure_and_the_hopeless() -> None:
    """Seed 004: you should always be allowed to roll, for WEAL, WOE, or the lost time of a WASTE."""
    assert read(10, 1, Lot.WASTE).result == W
    assert read(0, 10, Lot.WASTE).result == W


# --- try, try again -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lot", "allowed"),
    [(Lot.WOE, False), (Lot.WASTE, True), (Lot.FUMBLE, True), (Lot.WEAL, False), (Lot.CRIT, False), (Lot.NONE, False)],
)
def test_try_again_after_a_spoiled_check(lot: Lot, allowed: bool) -> None:
    """Seed 004: when the Proficiency was enough "but fate had other plans via a WOE, WASTE, or
    FUMBLE", the character may try again; [ours] only when the check did not succeed: a WOE alone
    leaves a success standing (README rules notes)."""
    assert read(5, 5, lot).may_retry is allowed


def test_no_try_again_without_the_proficiency() -> None:
    """Seed 004: trying again is for those whose Proficiency is sufficient for the task."""
    assert not any(read(4, 5, lot).may_retry for lot in Lot)
