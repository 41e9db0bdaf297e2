"""Skills as level/modifier, the Skill Rank table and the d100 step-up (rules/feat/skills.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from wyrd.rules.feat.skills import SkillRating, p_step_up, skill_rating, steps_up, untrained

# RULES.md [pub], typed out: rank -> "level/modifier" for attributes 1..9.
RULES_MD = {
    0: "0/99 0/75 0/50 0/25 1/99 1/75 1/50 1/25 2/99",
    1: "1/99 1/75 1/50 1/25 2/99 2/75 2/50 2/25 3/99",
    2: "1/99 1/50 2/99 2/50 3/99 3/50 4/99 4/50 5/99",
    3: "1/99 1/25 2/50 3/75 4/99 4/25 5/50 6/75 7/99",
    4: "1/99 2/99 3/99 4/99 5/99 6/99 7/99 8/99 9/99",
    5: "2/99 3/99 4/99 5/99 6/99 7/99 8/99 9/99 9/99",
    6: "3/99 4/99 5/99 6/99 7/99 8/99 9/99 9/99 9/99",
}


@pytest.mark.parametrize("rank", range(7))
def test_skill_rank_table(rank: int) -> None:
    """RULES.md [pub]: ranks 0-3 as listed (rank 1 = rank 0 one level up); ranks 4, 5, 6:
    attribute + 0, +1, +2, at most 9, modifier 99."""
    assert [str(skill_rating(rank, a)) for a in range(1, 10)] == RULES_MD[rank].split()


def test_untrained_is_the_rank_0_row() -> None:
    """Seed 003: the victim's Wit 5 through the Skill Rank table for a skill of 0 gives 1/99."""
    assert untrained(5) == SkillRating(level=1, modifier=99)


def test_attribute_0() -> None:
    """[ours] An attribute of 0 has no column: level 0 at ranks 0-3, then +0, +1, +2; modifier 99."""
    assert [str(skill_rating(r, 0)) for r in range(7)] == ["0/99"] * 5 + ["1/99", "2/99"]


@pytest.mark.parametrize(("ranks", "attribute"), [(-1, 5), (7, 5), (3, -1), (3, 10)])
def test_off_the_table(ranks: int, attribute: int) -> None:
    """RULES.md: ranks 0 to 6, attributes up to 9."""
    with pytest.raises(ValueError):
        skill_rating(ranks, attribute)


def test_step_up_on_the_modifier_or_more() -> None:
    """Seed 003: if the d100 equals or exceeds the modifier the skill goes up by one
    (6/81: 81 or more); a 6/76 character steps up on a quarter of feats."""
    assert steps_up(81, 81) and steps_up(81, 100) and not steps_up(81, 80)
    assert p_step_up(76) == Fraction(1, 4)
    assert p_step_up(81) == Fraction(1, 5)
    assert p_step_up(1) == 1
    assert p_step_up(99) == Fraction(1, 50)


@given(st.integers(min_value=1, max_value=99))
def test_step_up_chance_counts_the_faces(modifier: int) -> None:
    """Seed 003: P(d100 >= m) = (101 - m)/100, by counting the faces."""
    assert p_step_up(modifier) == Fraction(sum(steps_up(modifier, d) for d in range(1, 101)), 100)


def test_parse_and_print() -> None:
    """Seed 003: skills are written level/modifier, modifiers 1 to 99."""
    assert SkillRating.parse(" 6/81 ") == SkillRating(level=6, modifier=81)
    assert str(SkillRating(level=5, modifier=73)) == "5/73"
    for bad in ("6", "6/0", "6/100", "-1/50", "a/b", "6/81/2"):
        with pytest.raises(ValueError):
            SkillRating.parse(bad)


def test_lower_modifier_is_better() -> None:
    """Seed 003: the lower the modifier the better for the character."""
    chances = [p_step_up(m) for m in range(1, 100)]
    assert chances == sorted(chances, reverse=True)
