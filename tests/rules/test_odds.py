"""Tests for wyrd.rules.odds: exact challenge and influence odds.

The rules tested come from seed 000 (the Wyrd Abacus), summarised in RULES.md:

* Challenge roll (RULES.md "Challenge roll [text]"): one d6 plus the points
  assigned before the roll; the challenge is overcome when the total is at least
  its value. After a failed roll, each point drawn from the scene's Wyrd pool
  adds 1 to the result.
* Influence roll (RULES.md "Influence roll [text]"): as many d6 as the trait, the
  highest die is the result, ties go to whoever has more dice showing it, and a
  trait of 0 counts as a result of 1.

Exact fractions are checked by hand, and every case in a wide grid against
icepool, an independent dice-probability library.
"""

from __future__ import annotations

import doctest
from fractions import Fraction

import icepool  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

import wyrd.rules.odds
from wyrd.rules.odds import (
    ChallengeOdds,
    InfluenceOdds,
    certain_points,
    challenge_odds,
    challenge_table,
    influence_odds,
)

values = st.integers(min_value=0, max_value=40)
counts = st.integers(min_value=0, max_value=30)
dice = st.integers(min_value=0, max_value=30)


# --- challenge roll: hand-checked fractions ----------------------------------------------------


def test_value_7_with_2_points_is_one_in_three() -> None:
    """Seed 000, challenge roll: d6 + 2 reaches 7 only on a 5 or a 6, so 2 faces in 6."""
    odds = challenge_odds(7, points=2)
    assert odds.p_overcome == Fraction(1, 3)
    assert odds.p_with_pool == Fraction(1, 3)  # no pool, no backup


def test_pool_of_2_doubles_value_7_with_2_points() -> None:
    """Seed 000: after a failed roll each scene Wyrd point drawn adds 1, so a pool of 2
    also rescues a 3 or a 4: 4 faces in 6."""
    odds = challenge_odds(7, points=2, pool=2)
    assert odds.p_overcome == Fraction(1, 3)
    assert odds.p_with_pool == Fraction(2, 3)
    # The die alone on 5-6; one draw on a 4; two draws on a 3; out of reach on 1-2.
    assert [c.p for c in odds.draws] == [Fraction(1, 3), Fraction(1, 6), Fraction(1, 6)]
    assert odds.p_draws(1) == Fraction(1, 6)
    assert odds.p_draws(3) == 0
    assert odds.p_out_of_reach == Fraction(1, 3)
    assert odds.expected_draws == Fraction(1, 2)  # (0*2 + 1*1 + 2*1) / 6


@pytest.mark.parametrize("value", range(0, 15))
def test_value_at_most_points_plus_one_is_certain(value: int) -> None:
    """Seed 000: the total only has to reach the value, and the die shows at least 1, so
    enough points make a challenge certain (the text's point that any value can be beaten)."""
    for points in range(max(0, value - 1), value + 3):
        assert challenge_odds(value, points).p_overcome == 1
    if value >= 2:
        assert challenge_odds(value, value - 2).p_overcome == Fraction(5, 6)


@pytest.mark.parametrize(
    ("value", "points", "pool"), [(7, 0, 0), (10, 2, 1), (20, 5, 8), (13, 6, 0)]
)
def test_out_of_reach_when_value_exceeds_six_plus_points_plus_pool(
    value: int, points: int, pool: int
) -> None:
    """Seed 000: a 6 on the die plus every point assigned and every Wyrd point left is the best
    a roll can do; a higher value can't be overcome."""
    odds = challenge_odds(value, points, pool)
    assert odds.p_overcome == 0
    assert odds.p_with_pool == 0
    assert odds.p_out_of_reach == 1
    assert odds.expected_draws == 0


def test_challenge_table_shows_what_each_point_buys() -> None:
    """Seed 000: every point assigned before the roll adds 1 to the die."""
    table = challenge_table(5, 4)
    assert [row.points for row in table] == [0, 1, 2, 3, 4]
    assert [row.p_overcome for row in table] == [Fraction(k, 6) for k in (2, 3, 4, 5, 6)]
    assert all(isinstance(row, ChallengeOdds) for row in table)


def test_certain_points() -> None:
    """Seed 000: with value - 1 points even a 1 on the die is enough; the pool, drawn after
    the roll, can stand in for some of those points."""
    assert certain_points(7) == 6
    assert certain_points(7, pool=2) == 4
    assert certain_points(1) == 0
    assert certain_points(0) == 0
    assert certain_points(3, pool=10) == 0


@pytest.mark.parametrize(
    "call",
    [
        lambda: challenge_odds(-1),
        lambda: challenge_odds(5, points=-1),
        lambda: challenge_odds(5, pool=-2),
        lambda: challenge_table(5, -1),
        lambda: certain_points(5, pool=-1),
        lambda: influence_odds(-1),
    ],
)
def test_negative_numbers_are_refused(call: object) -> None:
    """Values, points, pools and dice are counts; a negative one is a mistake, not a rule."""
    with pytest.raises(ValueError, match="can't be negative"):
        call()  # type: ignore[operator]


def test_results_are_cached_and_frozen() -> None:
    """The REPL asks on every keystroke: the same question gives the same object."""
    assert challenge_odds(7, 2, 2) is challenge_odds(7, points=2, pool=2)
    assert influence_odds(4) is influence_odds(4)
    with pytest.raises(Exception):  # noqa: B017 - pydantic's frozen-instance error
        challenge_odds(7).points = 3  # type: ignore[misc]


# --- challenge roll: every case against icepool ------------------------------------------------

GRID = [(v, p, w) for v in range(1, 21) for p in range(13) for w in range(6)]


def test_challenge_grid_matches_icepool() -> None:
    """Seed 000, challenge roll: d6 + points >= value, then + drawn Wyrd up to the pool.
    Every value 1..20 x points 0..12 x pool 0..5 is checked against icepool."""
    for value, points, pool in GRID:
        odds = challenge_odds(value, points, pool)
        roll = icepool.d6 + points
        assert odds.p_overcome == (roll >= value).probability(True), (value, points, pool)
        assert odds.p_with_pool == (roll + pool >= value).probability(True), (value, points, pool)
        shortfall = (value - roll).map(lambda s: max(0, s))
        for n in range(pool + 1):
            assert odds.p_draws(n) == shortfall.probability(n), (value, points, pool, n)


# --- challenge roll: properties ----------------------------------------------------------------


@given(values, counts, counts)
def test_challenge_probabilities_are_probabilities(value: int, points: int, pool: int) -> None:
    """Whatever the numbers, the chances lie in [0, 1] and the pool can only help."""
    odds = challenge_odds(value, points, pool)
    assert 0 <= odds.p_overcome <= odds.p_with_pool <= 1
    assert [c.outcome for c in odds.draws] == list(range(pool + 1))
    assert all(0 <= c.p <= 1 for c in odds.draws)
    # Needing 0..pool draws, or more than the pool: together, everything that can happen.
    assert sum(c.p for c in odds.draws) + odds.p_out_of_reach == 1
    assert odds.p_draws(0) == odds.p_overcome
    assert 0 <= odds.expected_draws <= pool


@given(values, counts, counts)
def test_challenge_is_monotone(value: int, points: int, pool: int) -> None:
    """Seed 000: each point assigned or Wyrd point left adds 1, so more of either never hurts,
    and a higher value never helps."""
    odds = challenge_odds(value, points, pool)
    more_points = challenge_odds(value, points + 1, pool)
    assert more_points.p_overcome >= odds.p_overcome
    assert more_points.p_with_pool >= odds.p_with_pool
    assert challenge_odds(value, points, pool + 1).p_with_pool >= odds.p_with_pool
    harder = challenge_odds(value + 1, points, pool)
    assert harder.p_overcome <= odds.p_overcome
    assert harder.p_with_pool <= odds.p_with_pool


@given(values, counts, counts)
def test_pool_as_backup_matches_points_assigned_up_front(
    value: int, points: int, pool: int
) -> None:
    """Seed 000: a drawn Wyrd point adds 1 just as an assigned point does; the pool only
    differs in being drawn after the roll, when it is needed. So the chance with the pool
    equals the chance with the pool's points assigned before the roll."""
    assert (
        challenge_odds(value, points, pool).p_with_pool
        == challenge_odds(value, points + pool).p_overcome
    )


@given(values, counts)
def test_certain_points_is_the_fewest(value: int, pool: int) -> None:
    """The fewest points for a sure thing: that many make it certain, one fewer doesn't."""
    n = certain_points(value, pool)
    assert challenge_odds(value, n, pool).p_with_pool == 1
    if n > 0:
        assert challenge_odds(value, n - 1, pool).p_with_pool < 1


@given(values, st.integers(min_value=0, max_value=15), counts)
def test_challenge_table_rows_match_single_odds(value: int, top: int, pool: int) -> None:
    """A table is the single-roll odds for 0..max_points points, in order."""
    table = challenge_table(value, top, pool)
    assert table == [challenge_odds(value, k, pool) for k in range(top + 1)]


# --- influence roll ----------------------------------------------------------------------------


def test_at_least_one_six_with_three_dice() -> None:
    """Seed 000, influence roll: the dice are d6; 1 - (5/6)^3 = 91/216."""
    odds = influence_odds(3)
    assert odds.p_any_six == Fraction(91, 216)
    assert odds.p_result(6) == Fraction(91, 216)
    assert odds.p_result(1) == Fraction(1, 216)
    assert odds.p_low == Fraction(8, 216)  # every die a 1 or a 2
    assert odds.mean == Fraction(119, 24)


def test_no_dice_counts_as_a_result_of_one() -> None:
    """Seed 000: an influence roll with a trait of 0 (say, a Wyrd roll with no Wyrd yet)
    counts as having rolled a 1."""
    odds = influence_odds(0)
    assert isinstance(odds, InfluenceOdds)
    assert odds.p_result(1) == 1
    assert all(odds.p_result(face) == 0 for face in range(2, 7))
    assert odds.p_any_six == 0
    assert odds.p_low == 1
    assert odds.mean == 1
    # No die shows the result, so the tie-breaking count is 0: any die showing a 1 beats it.
    assert odds.p_ties(0) == 1
    assert [c.outcome for c in odds.sixes] == [0]


def test_one_die_is_a_plain_d6() -> None:
    """Seed 000: with one die the highest die is that die."""
    odds = influence_odds(1)
    assert [c.p for c in odds.highest] == [Fraction(1, 6)] * 6
    assert odds.p_ties(1) == 1


def test_ties_with_two_dice() -> None:
    """Seed 000: ties are broken by how many dice show the result; two d6 match 1 time in 6."""
    odds = influence_odds(2)
    assert odds.p_ties(2) == Fraction(1, 6)
    assert odds.p_ties(1) == Fraction(5, 6)


@pytest.mark.parametrize("n", range(1, 13))
def test_influence_matches_icepool(n: int) -> None:
    """Seed 000, influence roll: the highest of n d6, the number of dice showing it (the
    tie-breaker) and the number of 6s (rest regains a point per 6), checked against icepool."""
    odds = influence_odds(n)
    highest = icepool.highest([icepool.d6] * n)  # like max(): one iterable
    for face in range(1, 7):
        assert odds.p_result(face) == highest.probability(face)
    assert odds.mean == highest.mean()
    rolls = icepool.Pool([icepool.d6] * n).expand()
    ties = rolls.map(lambda faces: faces.count(max(faces)))
    sixes = rolls.map(lambda faces: faces.count(6))
    assert [c.outcome for c in odds.ties] == list(range(1, n + 1))
    for c in odds.ties:
        assert c.p == ties.probability(c.outcome)
    assert [c.outcome for c in odds.sixes] == list(range(n + 1))
    for c in odds.sixes:
        assert c.p == sixes.probability(c.outcome)
    assert odds.p_any_six == (highest == 6).probability(True)
    assert odds.p_low == (highest <= 2).probability(True)


@given(dice)
def test_influence_distributions(n: int) -> None:
    """Every distribution sums to 1, every chance lies in [0, 1], and the closed form
    P(highest <= k) = (k/6)^n holds (for n >= 1)."""
    odds = influence_odds(n)
    for dist in (odds.highest, odds.ties, odds.sixes):
        assert sum(c.p for c in dist) == 1
        assert all(0 <= c.p <= 1 for c in dist)
    assert [c.outcome for c in odds.highest] == [1, 2, 3, 4, 5, 6]
    assert odds.p_any_six == odds.p_result(6)
    assert odds.p_low == odds.p_result(1) + odds.p_result(2)
    assert 1 <= odds.mean <= 6
    if n:
        for k in range(1, 7):
            assert sum(odds.p_result(f) for f in range(1, k + 1)) == Fraction(k, 6) ** n


@given(st.integers(min_value=0, max_value=29))
def test_more_dice_never_lower_the_result(n: int) -> None:
    """Seed 000: only the highest die counts, so an extra die can only raise the result:
    a 6 grows likelier, a best of 1-2 rarer, and the average climbs."""
    fewer, more = influence_odds(n), influence_odds(n + 1)
    assert more.p_any_six > fewer.p_any_six
    assert more.p_low < fewer.p_low
    assert more.mean > fewer.mean


# --- the module itself -------------------------------------------------------------------------


def test_docstring_examples() -> None:
    """The examples in the module's docstrings are true."""
    result = doctest.testmod(wyrd.rules.odds)
    assert result.attempted > 0
    assert result.failed == 0


def test_public_api() -> None:
    """The public names are exactly these (a change here is an API change)."""
    assert set(wyrd.rules.odds.__all__) == {
        "SIDES",
        "ChallengeOdds",
        "Chance",
        "InfluenceOdds",
        "certain_points",
        "challenge_odds",
        "challenge_table",
        "influence_odds",
    }
