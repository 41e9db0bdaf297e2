"""Reading a pool (rules/wolden/pool.py): its size, the total, the five results."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

import wyrd.rules.wolden.pool
from wyrd.rules.wolden import MAX_DICE, SIDES, Result, classify, pool_size, read_roll


def test_pool_starts_at_one_d12() -> None:
    """Seed 001: every pool starts from a single d12."""
    assert pool_size() == 1
    assert SIDES == 12


def test_pool_gift_advantage_helpers() -> None:
    """Seed 001: +1d12 for a relevant gift, +1 for a situational advantage, +1 per helper."""
    assert pool_size(gift=True) == 2
    assert pool_size(advantage=True) == 2
    assert pool_size(helpers=2) == 3
    assert pool_size(gift=True, advantage=True, helpers=1) == 4


def test_pool_cap_is_four() -> None:
    """Seed 001: the pool holds at most 4d12 (the cap is enforced by the roll, see test_check)."""
    assert MAX_DICE == 4


def test_negative_helpers_is_an_error() -> None:
    with pytest.raises(ValueError):
        pool_size(helpers=-1)


@pytest.mark.parametrize(
    ("total", "result"),
    [(1, Result.FAILURE), (6, Result.FAILURE), (7, Result.PARTIAL), (12, Result.PARTIAL),
     (13, Result.SUCCESS), (22, Result.SUCCESS)],
)
def test_bands_without_a_pair(total: int, result: Result) -> None:
    """Seed 001: 1-6 failure, 7-12 partial success, 13+ success."""
    assert classify(total, False) == result


@pytest.mark.parametrize(
    ("total", "result"),
    [(2, Result.CRITICAL_FAILURE), (6, Result.CRITICAL_FAILURE), (7, Result.PARTIAL), (12, Result.PARTIAL),
     (13, Result.CRITICAL_SUCCESS), (17, Result.CRITICAL_SUCCESS)],
)
def test_bands_with_a_pair(total: int, result: Result) -> None:
    """Seed 001: matching dice turn a failure (6 or less) or a success (13 or more) critical;
    a partial never is."""
    assert classify(total, True) == result


def test_highest_die_plus_ability() -> None:
    """Seed 001: the best die plus the ability the roll calls for."""
    reading = read_roll([4, 11, 2], 2)
    assert (reading.highest, reading.total, reading.pair) == (11, 13, False)
    assert reading.result == Result.SUCCESS


def test_pair_need_not_be_the_highest_die() -> None:
    """Seed 001: a critical needs two matching dice, whichever they are."""
    assert read_roll([9, 3, 3], 4).result == Result.CRITICAL_SUCCESS
    assert read_roll([2, 1, 1], 0).result == Result.CRITICAL_FAILURE


def test_one_die_never_crits() -> None:
    """Seed 001 (RULES.md): one die can't crit: a lone 12 with ability 5 is a plain success."""
    assert read_roll([12], 5).result == Result.SUCCESS
    assert read_roll([1], 0).result == Result.FAILURE


def test_partial_with_a_pair_is_plain() -> None:
    """Seed 001: no critical partials, even with a pair showing."""
    reading = read_roll([8, 8], 1)
    assert reading.pair
    assert reading.result == Result.PARTIAL
    assert not reading.critical


@pytest.mark.parametrize("faces", [[], [1, 2, 3, 4, 5], [0], [13]])
def test_bad_faces_are_errors(faces: list[int]) -> None:
    with pytest.raises(ValueError):
        read_roll(faces, 1)


def test_negative_ability_is_an_error() -> None:
    with pytest.raises(ValueError):
        read_roll([5], -1)


def test_rating_changes() -> None:
    """Seed 001, the table of extended challenges: +4, +2, -1, -2, -4."""
    assert [r.rating_change for r in Result] == [4, 2, -1, -2, -4]


@given(st.lists(st.integers(1, 12), min_size=1, max_size=4), st.integers(0, 10))
def test_reading_agrees_with_the_text(faces: list[int], ability: int) -> None:
    """Seed 001 restated independently: the result depends on max + ability and any repeated face."""
    reading = read_roll(faces, ability)
    total = max(faces) + ability
    pair = any(faces.count(f) > 1 for f in faces)
    assert reading.total == total
    assert reading.critical == (pair and (total <= 6 or total >= 13))
    assert reading.result.failed == (total <= 6)
    assert reading.result.succeeded == (total >= 13)


def test_doctests() -> None:
    assert doctest.testmod(wyrd.rules.wolden.pool).failed == 0
