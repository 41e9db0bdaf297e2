"""Exact odds of feats (rules/feat/odds.py), checked by hand and against icepool.

RULES.md: P(success) is 1/2 at Feat level 0 and halves per level upwards (1/4 at
+1); failure halves per level downwards (1/64 at -5). Seed 003: a d100 at or
above the modifier raises the level by one, so P(step-up) = (101 - m)/100; the
climb at Difficulty 7 with skill 6/81 succeeds 1/5 * 1/2 + 4/5 * 1/4 = 3/10.
"""

from __future__ import annotations

import doctest
from fractions import Fraction

import icepool  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

import wyrd.rules.feat.odds
from wyrd.rules.feat.odds import attribute_odds, feat_odds, feat_table, opposed_odds, skill_odds
from wyrd.rules.feat.skills import SkillRating

# RULES.md's minimums, typed again so icepool does not read the module's copy.
TABLE = {
    -8: ((2, 2, 2), any), -7: ((2, 2, 3), any), -6: ((2, 2, 5), any), -5: ((2, 2), any), -4: ((2, 3), any),
    -3: ((3, 3), any), -2: ((2,), any), -1: ((3,), any), 0: ((5,), any), 1: ((7,), all), 2: ((8,), all),
    3: ((7, 7), all), 4: ((8, 7), all), 5: ((8, 8), all), 6: ((8, 8, 5), all), 7: ((8, 8, 7), all),
    8: ((8, 8, 8), all),
}
levels = st.integers(min_value=-8, max_value=8)
eights = st.integers(min_value=0, max_value=3)


def icepool_feat(level: int) -> Fraction:
    minimums, mode = TABLE[level]

    def success(*faces: int) -> bool:
        return bool(mode(f >= m for f, m in zip(faces, minimums, strict=False)))

    die = icepool.map(success, icepool.d8, icepool.d8, icepool.d8)
    return Fraction(die.probability(True))


def clamp(level: int) -> int:
    return max(-8, min(8, level))


def test_the_fractions_rules_md_states() -> None:
    """RULES.md: 1/2 at 0, 1/4 at +1, halving upwards; failure 1/64 at -5 (63/64 success)."""
    assert feat_odds(0).p_success == Fraction(1, 2)
    assert feat_odds(1).p_success == Fraction(1, 4)
    assert feat_odds(-5).p_success == Fraction(63, 64)
    assert feat_odds(-5).p_failure == Fraction(1, 64)
    for level in range(0, 9):
        assert feat_odds(level).p_success == Fraction(1, 2 ** (level + 1))
    for level in range(-8, 0):
        assert feat_odds(level).p_failure == Fraction(1, 2 ** (1 - level))


def test_the_climb_is_three_tenths() -> None:
    """Seed 003: Difficulty 7, climbing 6/81: a 1/5 chance of climbing at level 7 (Feat level 0,
    1/2) and otherwise level 6 (Feat level +1, 1/4): 3/10."""
    climb = skill_odds(6, 81, 7)
    assert climb.p_step_up == Fraction(1, 5)
    assert (climb.stepped.level, climb.plain.level) == (0, 1)
    assert climb.p_success == Fraction(3, 10)
    assert climb.p_failure == Fraction(7, 10)


@pytest.mark.parametrize("level", range(-8, 9))
def test_each_level_against_icepool(level: int) -> None:
    """RULES.md's table, read die by die in order, as icepool counts it."""
    assert feat_odds(level).p_success == icepool_feat(level)


@pytest.mark.parametrize("level", range(-8, 9))
def test_each_level_as_a_product(level: int) -> None:
    """[ours] The dice read are independent and matched in order: 'all' is a product of
    P(d8 >= m), 'any' is 1 - the product of P(d8 < m)."""
    minimums, mode = TABLE[level]
    reach = [Fraction(9 - m, 8) for m in minimums]  # faces m..8 of a d8
    if mode is all:
        expected = Fraction(1)
        for p in reach:
            expected *= p
    else:
        miss = Fraction(1)
        for p in reach:
            miss *= 1 - p
        expected = 1 - miss
    assert feat_odds(level).p_success == expected


@pytest.mark.parametrize(
    ("level", "modifier", "difficulty"), [(6, 81, 7), (5, 73, 8), (1, 99, 0), (0, 1, 9), (9, 50, 3)]
)
def test_skill_odds_against_icepool(level: int, modifier: int, difficulty: int) -> None:
    """Seed 003: the d100 and the Feat table together, counted by icepool over 100 * 512 outcomes."""

    def success(d100: int, a: int, b: int, c: int) -> bool:
        feat_level = clamp(difficulty - level - (1 if d100 >= modifier else 0))
        minimums, mode = TABLE[feat_level]
        return bool(mode(f >= m for f, m in zip((a, b, c), minimums, strict=False)))

    die = icepool.map(success, icepool.d(100), icepool.d8, icepool.d8, icepool.d8)
    assert skill_odds(level, modifier, difficulty).p_success == Fraction(die.probability(True))


def test_pickpocket_odds() -> None:
    """Seed 003: the 6/23 thief against Wit 5 (1/99): each d100 moves the Feat level by one
    around -5, so the thief almost always succeeds."""
    thief, victim = SkillRating(level=6, modifier=23), SkillRating(level=1, modifier=99)
    p_t, p_v = Fraction(78, 100), Fraction(2, 100)
    expected = (
        (1 - p_t) * (1 - p_v) * Fraction(63, 64)
        + p_t * (1 - p_v) * Fraction(127, 128)
        + (1 - p_t) * p_v * Fraction(31, 32)
        + p_t * p_v * Fraction(63, 64)
    )
    odds = opposed_odds(thief, victim)
    assert odds.p_success == expected
    assert sum(b.p for b in odds.branches) == 1
    assert odds.active == "6/23" and odds.opposing == "1/99"
    assert opposed_odds(thief, victim, extra=12).p_success < expected


def test_bought_eights() -> None:
    """RULES.md [pub]: 5 Wyrd points an automatic 8; [ours] one per die, the hardest dice first,
    only what the level can use."""
    assert feat_odds(4, 1).p_success == Fraction(1, 4)  # the 8 bought, a 7 still needed
    assert feat_odds(4, 1).wyrd_cost == 5
    assert feat_odds(8, 2).p_success == Fraction(1, 8)
    assert feat_odds(-3, 3).p_success == 1 and feat_odds(-3, 3).eights == 1
    assert feat_odds(2, 1).p_success == 1
    climb = skill_odds(6, 81, 9, eights=2)
    assert climb.p_success == 1
    assert climb.expected_wyrd == Fraction(1, 5) * 5 + Fraction(4, 5) * 10


def test_attribute_odds() -> None:
    """Seed 003: an attribute is taken from the Difficulty as it is: shock with Mettle 5 at 8 is +3."""
    assert attribute_odds(5, 8).p_success == Fraction(1, 16)
    assert attribute_odds(0, 20).level == 8


@given(levels, eights)
def test_monotone_in_level(level: int, n: int) -> None:
    """RULES.md: a higher Feat level is never easier, with or without bought 8s."""
    if level < 8:
        assert feat_odds(level, n).p_success >= feat_odds(level + 1, n).p_success


@given(eights)
def test_more_eights_never_hurt(n: int) -> None:
    """[ours] Each bought 8 only helps."""
    for row, more in zip(feat_table(n), feat_table(min(3, n + 1)), strict=True):
        assert more.p_success >= row.p_success


@given(
    st.integers(min_value=0, max_value=12),
    st.integers(min_value=1, max_value=99),
    st.integers(min_value=0, max_value=20),
)
def test_skill_odds_monotone(level: int, modifier: int, difficulty: int) -> None:
    """Seed 003: a higher skill, a lower modifier or a lower Difficulty never makes a feat harder."""
    odds = skill_odds(level, modifier, difficulty).p_success
    assert skill_odds(level + 1, modifier, difficulty).p_success >= odds
    assert skill_odds(level, modifier, difficulty + 1).p_success <= odds
    if modifier > 1:
        assert skill_odds(level, modifier - 1, difficulty).p_success >= odds
    assert odds == skill_odds(level, modifier, difficulty).p_success


@pytest.mark.parametrize(
    "call",
    [
        lambda: feat_odds(9),
        lambda: feat_odds(0, 4),
        lambda: feat_table(-1),
        lambda: skill_odds(-1, 50, 5),
        lambda: skill_odds(5, 0, 5),
        lambda: skill_odds(5, 100, 5),
        lambda: skill_odds(5, 50, -1),
        lambda: attribute_odds(10, 5),
        lambda: opposed_odds(SkillRating(level=1, modifier=9), SkillRating(level=1, modifier=9), eights=5),
    ],
)
def test_bad_arguments(call) -> None:  # type: ignore[no-untyped-def]
    """The odds refuse what the rules can't roll, with ValueError (as wyrd.rules.odds does)."""
    with pytest.raises(ValueError):
        call()


def test_cached_and_documented() -> None:
    """The odds are cached (the REPL asks often) and the examples in the docstrings hold."""
    assert feat_odds(3) is feat_odds(3)
    assert skill_odds(6, 81, 7) is skill_odds(6, 81, 7)
    assert len(feat_table()) == 17
    assert doctest.testmod(wyrd.rules.feat.odds).failed == 0
    assert set(wyrd.rules.feat.odds.__all__) == {
        "FeatOdds", "OpposedBranch", "OpposedOdds", "SkillOdds", "attribute_odds", "feat_odds",
        "feat_table", "opposed_odds", "skill_odds",
    }
