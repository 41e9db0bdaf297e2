"""Exact odds of a Thaeborn check (rules/lots/odds.py), checked by counting and against icepool."""

from __future__ import annotations

import doctest
from fractions import Fraction

import icepool  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

import wyrd.rules.lots.fate
import wyrd.rules.lots.odds
from wyrd.rules.lots import Change, Lot, Result, check_odds, lot_odds, mettle_odds, read, read_lot

F16 = Fraction(1, 16)
ints = st.integers(-15, 25)


def test_doctests() -> None:
    """The examples in the docstrings hold."""
    for module in (wyrd.rules.lots.odds, wyrd.rules.lots.fate):
        assert doctest.testmod(module).failed == 0


def test_lots_in_sixteenths() -> None:
    """RULES.md, Check: in 16 casts CRIT, FUMBLE, WASTE, WEAL, WOE and none fall 1, 1, 1, 2, 2, 9."""
    assert [(s.lot, s.casts, s.p) for s in lot_odds()] == [
        (Lot.CRIT, 1, F16), (Lot.FUMBLE, 1, F16), (Lot.WASTE, 1, F16),
        (Lot.WEAL, 2, 2 * F16), (Lot.WOE, 2, 2 * F16), (Lot.NONE, 9, 9 * F16)]


def test_lots_match_icepool() -> None:
    """Seed 004: the lots of a WEAL d4 and a WOE d4, by icepool, an independent dice library."""
    lots = icepool.map(lambda weal, woe: read_lot(weal, woe).value, icepool.d4, icepool.d4)
    for share in lot_odds():
        assert lots.probability(share.lot.value) == share.p, share.lot


# --- exact outcome fractions for several gaps ---------------------------------------------------------


@pytest.mark.parametrize(
    ("attribute", "difficulty", "success", "failure"),
    [
        (5, 5, 14, 1),  # met: only a FUMBLE fails it, a WASTE voids it
        (7, 5, 14, 1),  # 2 above: still within the FUMBLE's reach
        (8, 5, 14, 1),  # 3 above
        (9, 5, 15, 0),  # 4 above: Rule of Fours, a FUMBLE can't sink it
        (10, 0, 15, 0),
        (4, 5, 1, 14),  # 1 short: only a CRIT lifts it
        (2, 5, 1, 14),  # 3 short
        (1, 5, 0, 15),  # 4 short: Rule of Fours, not even a CRIT
        (0, 10, 0, 15),
    ],
)
def test_outcome_fractions(attribute: int, difficulty: int, success: int, failure: int) -> None:
    """Seed 004 + RULES.md: success when the Attribute meets the Difficulty, then the lots; a WASTE
    (1 in 16) is always neither; the Rule of Fours from a gap of 4."""
    odds = check_odds(attribute, difficulty)
    assert (odds.p_success, odds.p_failure, odds.p_waste) == (success * F16, failure * F16, F16)
    assert [s.casts for s in odds.results] == [success, failure, 1]


@pytest.mark.parametrize(("attribute", "success"), [(0, 1), (1, 1), (4, 1), (5, 14), (9, 15)])
def test_attacks_always_crit(attribute: int, success: int) -> None:
    """Seed 004: a CRIT lands an attack however far above the Tier is (RULES.md: attacks exempt)."""
    assert check_odds(attribute, 5, attack=True).p_success == success * F16


def test_how_the_lots_change_it() -> None:
    """RULES.md, Rule of Fours both ways, as shares of the 16 casts."""
    assert check_odds(3, 5).p_change(Change.CRIT_SUCCEEDS) == F16
    assert check_odds(1, 5).p_change(Change.CRIT_BARRED) == F16
    assert check_odds(6, 5).p_change(Change.FUMBLE_FAILS) == F16
    assert check_odds(9, 5).p_change(Change.FUMBLE_BARRED) == F16
    assert check_odds(6, 5).p_change(Change.WASTED) == F16
    assert check_odds(6, 5).p_change(Change.NONE) == 14 * F16
    assert sum(s.p for s in check_odds(6, 5).changes) == 1


def test_weal_woe_and_retry() -> None:
    """Seed 004: a WEAL (or a CRIT's) 3 in 16, a WOE (or a FUMBLE's) 3 in 16, whatever the check;
    trying again follows a WASTE or a FUMBLE that sank a check one was able for (2 in 16)."""
    for attribute in (0, 5, 10):
        odds = check_odds(attribute, 5)
        assert (odds.p_weal, odds.p_woe) == (3 * F16, 3 * F16)
    assert check_odds(5, 5).p_retry == Fraction(1, 8)
    assert check_odds(4, 5).p_retry == 0
    assert check_odds(5, 5, attack=True).p_retry == 0


def test_proficiency_and_tier() -> None:
    """RULES.md: the Rule of Fours compares Proficiency with Tier (by default the Attribute and
    the Difficulty)."""
    odds = check_odds(4, 5, proficiency=1)
    assert (odds.crit_barred, odds.p_success) == (True, 0)
    assert check_odds(5, 5, tier=1).p_failure == 0


def test_odds_are_cached() -> None:
    """The REPL asks again and again: the same check gives the same object."""
    assert check_odds(3, 4) is check_odds(3, 4)
    assert check_odds(3, 4) is check_odds(3, 4, proficiency=3, tier=4)


def test_gap() -> None:
    assert check_odds(3, 7).gap == -4


# --- Test Your Mettle -------------------------------------------------------------------------------


def test_mettle_odds() -> None:
    """RULES.md [ours]: Mettle against total Pain, with lots; a failing FUMBLE or Pain at twice
    the Mettle incapacitates, any other failure (or a WASTE) loses the next action."""
    easy = mettle_odds(4, 2)
    assert (easy.p_steady, easy.p_loses_action, easy.p_incapacitated) == (14 * F16, F16, F16)
    hard = mettle_odds(4, 5)
    assert (hard.p_steady, hard.p_loses_action, hard.p_incapacitated) == (F16, 14 * F16, F16)
    sure = mettle_odds(7, 1)
    assert (sure.p_steady, sure.p_loses_action, sure.p_incapacitated) == (15 * F16, F16, 0)
    assert mettle_odds(4, 8).p_incapacitated == 1


def test_mettle_odds_refuse_nonsense() -> None:
    with pytest.raises(ValueError, match="Mettle"):
        mettle_odds(0, 1)
    with pytest.raises(ValueError, match="Pain"):
        mettle_odds(3, -1)


# --- properties ----------------------------------------------------------------------------------


@given(ints, ints, st.booleans())
def test_shares_add_up(attribute: int, difficulty: int, attack: bool) -> None:
    """Every cast lands in exactly one result and one change."""
    odds = check_odds(attribute, difficulty, attack=attack)
    assert sum(s.casts for s in odds.results) == 16
    assert sum(s.casts for s in odds.changes) == 16
    assert odds.p_success + odds.p_failure + odds.p_waste == 1


@given(ints, ints, ints, ints, st.booleans())
def test_odds_count_the_readings(attribute: int, difficulty: int, prof: int, tier: int, attack: bool) -> None:
    """The odds are the readings of the 16 casts, counted (the same function settles real checks)."""
    odds = check_odds(attribute, difficulty, proficiency=prof, tier=tier, attack=attack)
    for result in Result:
        count = sum(
            read(attribute, difficulty, read_lot(w, o), proficiency=prof, tier=tier, attack=attack).result == result
            for w in range(1, 5) for o in range(1, 5)
        )
        assert odds.p_result(result) == Fraction(count, 16)


@given(ints, ints)
def test_only_the_gap_matters(attribute: int, difficulty: int) -> None:
    """Seed 004: Tiers are directly comparable; only how far apart they are counts."""
    a, b = check_odds(attribute, difficulty), check_odds(attribute + 3, difficulty + 3)
    assert (a.p_success, a.p_failure, a.p_waste) == (b.p_success, b.p_failure, b.p_waste)


@given(ints, ints)
def test_more_attribute_never_hurts(attribute: int, difficulty: int) -> None:
    assert check_odds(attribute + 1, difficulty).p_success >= check_odds(attribute, difficulty).p_success


def test_public_api() -> None:
    """The odds module's public names (a test locks them, as for wyrd.rules.odds)."""
    assert set(wyrd.rules.lots.odds.__all__) == {
        "CASTS", "ChangeShare", "CheckOdds", "LotShare", "MettleOdds", "ResultShare",
        "attack_odds", "attack_spec_numbers", "check_odds", "lot_odds", "mettle_odds",
    }
