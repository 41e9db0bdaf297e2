"""The Feat table (rules/feat/table.py) against RULES.md and an independent enumeration.

RULES.md, Heroes of the Fall: roll 3d8; read 1 die at -2..+2, 2 at ±3..±5, 3 at
±6..±8, against the listed minimums; above 0 all must reach theirs, at 0 and below
any one is enough. P(success) is 1/2 at 0 and halves per level upwards; failure
halves per level downwards (1/64 at -5, only a double 1 fails).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from wyrd.rules.feat import Needs
from wyrd.rules.feat.table import (
    FEAT_MAX,
    FEAT_MIN,
    MINIMUMS,
    clamp_level,
    dice_read,
    eight_positions,
    feat_level,
    max_eights,
    needs,
    read_feat,
)

LEVELS = range(-8, 9)

# RULES.md's table, typed out again here so the test does not read the module's copy.
RULES_MD = {
    -8: ((2, 2, 2), "any"), -7: ((2, 2, 3), "any"), -6: ((2, 2, 5), "any"), -5: ((2, 2), "any"),
    -4: ((2, 3), "any"), -3: ((3, 3), "any"), -2: ((2,), "any"), -1: ((3,), "any"), 0: ((5,), "any"),
    1: ((7,), "all"), 2: ((8,), "all"), 3: ((7, 7), "all"), 4: ((8, 7), "all"), 5: ((8, 8), "all"),
    6: ((8, 8, 5), "all"), 7: ((8, 8, 7), "all"), 8: ((8, 8, 8), "all"),
}


def independent_success(level: int, faces: tuple[int, ...]) -> bool:
    """The table read by hand: die i (in rolled order) against minimum i."""
    minimums, mode = RULES_MD[level]
    hits = [faces[i] >= m for i, m in enumerate(minimums)]
    return all(hits) if mode == "all" else any(hits)


def test_minimums_are_rules_md() -> None:
    """RULES.md: the minimums per level, and any below/at 0, all above."""
    assert set(MINIMUMS) == set(LEVELS)
    for level, (minimums, mode) in RULES_MD.items():
        assert MINIMUMS[level] == minimums
        assert needs(level) == Needs(mode)


@pytest.mark.parametrize("level", LEVELS)
def test_dice_read_by_level(level: int) -> None:
    """RULES.md: 1 die read at -2..+2, 2 at ±3..±5, 3 at ±6..±8."""
    expected = 1 if abs(level) <= 2 else 2 if abs(level) <= 5 else 3
    assert dice_read(level) == expected


@pytest.mark.parametrize("level", LEVELS)
def test_every_one_of_the_512_outcomes(level: int) -> None:
    """RULES.md: the whole table, outcome by outcome, against the hand reading above."""
    for faces in product(range(1, 9), repeat=3):
        assert read_feat(level, faces).success == independent_success(level, faces), faces


@pytest.mark.parametrize("level", LEVELS)
def test_the_ladder_of_fractions(level: int) -> None:
    """RULES.md: 1/2 at 0, success halving per level up, failure halving per level down."""
    wins = sum(independent_success(level, f) for f in product(range(1, 9), repeat=3))
    p = Fraction(wins, 512)
    if level >= 0:
        assert p == Fraction(1, 2 ** (level + 1))
    else:
        assert 1 - p == Fraction(1, 2 ** (-level + 1))
    assert sum(read_feat(level, f).success for f in product(range(1, 9), repeat=3)) == wins


def test_minus_5_fails_only_on_a_double_1() -> None:
    """Seed 003: at -5 the thief fails only on a double 1 on the first two d8s (third ignored)."""
    fails = [f for f in product(range(1, 9), repeat=3) if not read_feat(-5, f).success]
    assert {f[:2] for f in fails} == {(1, 1)}
    assert len(fails) == 8  # the third die is not read
    assert read_feat(-5, (1, 2, 1)).success
    assert read_feat(-5, (2, 1, 1)).success


def test_dice_are_matched_in_order() -> None:
    """[ours] Die i against minimum i: at +4 (8,7) a 7 then an 8 fails, an 8 then a 7 succeeds;
    sorting would give 3/64 instead of RULES.md's 1/32."""
    assert read_feat(4, (8, 7, 1)).success
    assert not read_feat(4, (7, 8, 1)).success
    assert read_feat(-4, (2, 1, 1)).success  # the first die reaches 2
    assert not read_feat(-4, (1, 2, 1)).success  # the second needs 3
    assert read_feat(6, (8, 8, 5)).success
    assert not read_feat(6, (5, 8, 8)).success


def test_read_record() -> None:
    """RULES.md: what the Feat table saw: the dice read, their minimums and which were met."""
    read = read_feat(3, (7, 6, 8))
    assert read.read == (7, 6)
    assert read.minimums == (7, 7)
    assert read.met == (True, False)
    assert not read.success
    assert read.dice == (7, 6, 8)


def test_feat_level_from_the_text() -> None:
    """Seed 003: skill 5/73 steps up to 6 on a 93; Difficulty 8 - 6 gives a Feat level of 2;
    the climb at 7 with 6 + 1 gives 0. RULES.md: the level is clamped to -8..+8."""
    assert feat_level(8, 6) == 2
    assert feat_level(7, 7) == 0
    assert feat_level(1, 6) == -5
    assert feat_level(20, 1) == FEAT_MAX
    assert feat_level(0, 12) == FEAT_MIN
    assert clamp_level(-9) == -8 and clamp_level(9) == 8


def test_bought_eights_go_on_the_hardest_dice() -> None:
    """RULES.md [pub]: 5 Wyrd buy an automatic 8 on one die read; [ours] at most one per die,
    on the dice with the highest minimums, and only what the level can use."""
    assert eight_positions(4, 1) == (0,)  # 8,7: the 8 first
    assert eight_positions(-4, 1) == (1,)  # 2,3: the 3 (any die would settle it)
    assert eight_positions(6, 1) == (0,)  # 8,8,5: the first 8
    assert eight_positions(6, 3) == (0, 1, 2)
    assert eight_positions(1, 3) == (0,)  # one die read
    assert eight_positions(-8, 3) == (0,)  # any one is enough: one 8 settles it
    assert [max_eights(level) for level in (-8, -3, 0, 1, 3, 6)] == [1, 1, 1, 1, 2, 3]
    read = read_feat(4, (1, 7, 1), eights=1)
    assert read.read == (8, 7) and read.bought == (0,) and read.success and read.wyrd_spent == 5
    assert read_feat(-5, (1, 1, 1), eights=1).success


@pytest.mark.parametrize(
    ("level", "faces", "eights"),
    [(9, (1, 1, 1), 0), (-9, (1, 1, 1), 0), (0, (1, 1), 0), (0, (0, 1, 1), 0), (0, (9, 1, 1), 0), (0, (5, 5, 5), 4)],
)
def test_bad_arguments(level: int, faces: tuple[int, ...], eights: int) -> None:
    """RULES.md: the table runs -8..+8 with three d8; [ours] at most one bought 8 per die."""
    with pytest.raises(ValueError):
        read_feat(level, faces, eights)
