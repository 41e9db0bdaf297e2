"""Exact odds of a Wolden roll (rules/wolden/odds.py).

Seed 001 (RULES.md, "Roll"): the highest of 1 to 4 d12 plus the ability; 1-6 failure, 7-12 partial,
13+ success; a pair makes a failure (total <= 6) or a success (>= 13) critical; no critical partials;
one die can't crit. Every table is checked against a brute-force count written here from the text,
and against icepool, an independent dice-probability library.
"""

from __future__ import annotations

import doctest
from collections import Counter
from fractions import Fraction
from itertools import product

import icepool  # type: ignore[import-untyped]
import pytest

import wyrd.rules.wolden.odds
from wyrd.rules.wolden import Result
from wyrd.rules.wolden.odds import CheckOdds, check_odds, odds_table, pool_counts

ABILITIES = range(0, 11)
POOLS = range(1, 5)


def by_hand(faces: tuple[int, ...], ability: int) -> str:
    """The text, restated without the rules core: which of the five results these faces make."""
    total = max(faces) + ability
    doubles = len(faces) != len(set(faces))
    if total <= 6:
        return "critical_failure" if doubles else "failure"
    if total >= 13:
        return "critical_success" if doubles else "success"
    return "partial"


def as_dict(odds: CheckOdds) -> dict[str, Fraction]:
    return {result.value: p for result, p in odds.outcomes}


@pytest.mark.parametrize("n", POOLS)
def test_matches_brute_force(n: int) -> None:
    """Every one of the 12^n outcomes, counted, for abilities 0 to 10."""
    outcomes = list(product(range(1, 13), repeat=n))
    for ability in ABILITIES:
        counts = Counter(by_hand(faces, ability) for faces in outcomes)
        expected = {r.value: Fraction(counts[r.value], 12**n) for r in Result}
        assert as_dict(check_odds(n, ability)) == expected, (n, ability)


@pytest.mark.parametrize("n", POOLS)
def test_matches_icepool(n: int) -> None:
    """icepool (2.1.3) enumerates the pool itself: the joint chance of (highest die, any pair)."""
    joint = icepool.map(lambda *faces: (max(faces), len(set(faces)) < len(faces)), *([icepool.d12] * n))
    assert joint.denominator() == 12**n
    for ability in ABILITIES:
        tally: Counter[str] = Counter()
        for (highest, pair), quantity in joint.items():
            tally[by_hand((highest, highest) if pair else (highest,), ability)] += quantity
        expected = {r.value: Fraction(tally[r.value], 12**n) for r in Result}
        assert as_dict(check_odds(n, ability)) == expected, (n, ability)


@pytest.mark.parametrize("n", POOLS)
def test_marginals_match_icepool(n: int) -> None:
    """The highest die (icepool's keep-highest) and the chance of no pair (its largest count)."""
    highest = icepool.d12.pool(n).highest(1).sum()
    no_pair = icepool.d12.pool(n).largest_count().probability(1)
    counts = pool_counts(n)
    for face in range(1, 13):
        plain, paired = counts[face - 1]
        assert Fraction(plain + paired, 12**n) == highest.probability(face)
    assert Fraction(sum(plain for plain, _ in counts), 12**n) == no_pair


def test_one_die_ability_zero() -> None:
    """Seed 001: one d12 + 0 fails on 1-6 and is partial on 7-12; one die can't crit or reach 13."""
    odds = check_odds(1, 0)
    assert (odds.p_failure, odds.p_partial) == (Fraction(1, 2), Fraction(1, 2))
    assert odds.p_success == odds.p_critical == 0


def test_one_die_ability_one() -> None:
    """1d12 + 1: a 1-5 fails, a 6-11 is partial, only a 12 succeeds."""
    odds = check_odds(1, 1)
    assert (odds.p_failure, odds.p_partial, odds.p_success) == (Fraction(5, 12), Fraction(1, 2), Fraction(1, 12))


def test_two_dice_ability_three() -> None:
    """2d12 + 3: failure needs both dice at 3 or less (9 of 144, 3 of them pairs); success a 10+
    (63 of 144, pairs of 10, 11 or 12 among them)."""
    odds = check_odds(2, 3)
    assert odds.p_critical_failure == Fraction(3, 144)
    assert odds.p_failure == Fraction(6, 144)
    assert odds.p_partial == Fraction(72, 144)
    assert odds.p_success == Fraction(60, 144)
    assert odds.p_critical_success == Fraction(3, 144)
    assert odds.p_any_failure == Fraction(1, 16)
    assert odds.p_any_success == Fraction(7, 16)


def test_results_are_disjoint_and_complete() -> None:
    """The five fields never overlap (plain failure excludes critical failure) and add up to 1."""
    for n in POOLS:
        for ability in ABILITIES:
            odds = check_odds(n, ability)
            assert sum(as_dict(odds).values()) == 1
            assert odds.p(Result.PARTIAL) == odds.p_partial
            assert odds.p_critical == odds.p_critical_failure + odds.p_critical_success


def test_more_ability_fails_less() -> None:
    for n in POOLS:
        fails = [check_odds(n, a).p_any_failure for a in ABILITIES]
        successes = [check_odds(n, a).p_any_success for a in ABILITIES]
        assert fails == sorted(fails, reverse=True)
        assert successes == sorted(successes)
    assert check_odds(4, 6).p_any_failure == 0  # 1 + 6 = 7 at the worst
    assert check_odds(1, 12).p_any_success == 1


def test_more_dice_help() -> None:
    for ability in ABILITIES:
        successes = [o.p_any_success for o in odds_table(ability)]
        assert successes == sorted(successes)


def test_expected_rating_change() -> None:
    """Seed 001's table (+4, +2, -1, -2, -4) weighted by the odds."""
    odds = check_odds(2, 3)
    assert odds.expected_rating_change == Fraction(4 * 3 + 2 * 6 - 72 - 2 * 60 - 4 * 3, 144)


def test_cached() -> None:
    assert check_odds(3, 2) is check_odds(3, 2)
    assert pool_counts(2) is pool_counts(2)


@pytest.mark.parametrize(("n", "ability"), [(0, 1), (5, 1), (-1, 0), (2, -1)])
def test_invalid(n: int, ability: int) -> None:
    with pytest.raises(ValueError):
        check_odds(n, ability)


def test_table() -> None:
    assert [o.dice for o in odds_table(2)] == [1, 2, 3, 4]


def test_doctests() -> None:
    assert doctest.testmod(wyrd.rules.wolden.odds).failed == 0


def test_public_api() -> None:
    """The public names are exactly these (a change here is an API change)."""
    assert set(wyrd.rules.wolden.odds.__all__) == {"CheckOdds", "check_odds", "odds_table", "pending_odds",
                                                   "pool_counts"}
