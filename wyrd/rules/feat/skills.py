"""Skills as level/modifier, the Skill Rank table, and the d100 step-up.

Seed 003: a skill is written level/modifier (``6/81``). The modifier, 1 to 99,
is the chance of working as one level higher: before a feat the player rolls a
d100, and a roll equal to or above the modifier raises the level by 1 for that
feat only. The lower the modifier, the better. A d100 of ``m`` or more comes up
with chance (101 - m) / 100.

The Skill Rank table [pub, RULES.md] turns the ranks trained in a skill and the
attribute behind it into level/modifier. Its rows are the total ranks (0 to 6),
its columns the attribute (1 to 9); rank 0 is an untrained, inherent skill (the
seed's pickpocket victim with Wit 5 defends at 1/99). [ours] An attribute of 0
has no column: it reads as level 0 at ranks 0 to 3 and follows the rule of
ranks 4 to 6 above that (attribute + 0, +1, +2), always with modifier 99.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "ATTRIBUTE_MAX",
    "MODIFIER_MAX",
    "MODIFIER_MIN",
    "RANK_MAX",
    "SKILL_RANKS",
    "STEP_UP_SIDES",
    "SkillRating",
    "p_step_up",
    "skill_rating",
    "steps_up",
    "untrained",
]

ATTRIBUTE_MAX = 9
RANK_MAX = 6
MODIFIER_MIN = 1
MODIFIER_MAX = 99
STEP_UP_SIDES = 100
# Ranks 4 to 6 add 0, 1, 2 to the attribute, up to this level.
LEVEL_CAP = 9

_Row = tuple[tuple[int, int], ...]

_RANK_0: _Row = ((0, 99), (0, 75), (0, 50), (0, 25), (1, 99), (1, 75), (1, 50), (1, 25), (2, 99))
_RANK_1: _Row = tuple((level + 1, modifier) for level, modifier in _RANK_0)
_RANK_2: _Row = ((1, 99), (1, 50), (2, 99), (2, 50), (3, 99), (3, 50), (4, 99), (4, 50), (5, 99))
_RANK_3: _Row = ((1, 99), (1, 25), (2, 50), (3, 75), (4, 99), (4, 25), (5, 50), (6, 75), (7, 99))


def _upper_row(rank: int) -> _Row:
    return tuple((min(LEVEL_CAP, attribute + rank - 4), 99) for attribute in range(1, ATTRIBUTE_MAX + 1))


SKILL_RANKS: dict[int, _Row] = {
    0: _RANK_0,
    1: _RANK_1,
    2: _RANK_2,
    3: _RANK_3,
    4: _upper_row(4),
    5: _upper_row(5),
    6: _upper_row(6),
}
"""Row per total ranks; entry ``a - 1`` is (level, modifier) for attribute ``a`` (RULES.md)."""


class SkillRating(BaseModel):
    """A skill (or an attribute read through the rank-0 row) as level/modifier.

    Attributes:
        level: The skill level, 0 or more.
        modifier: 1 to 99; a d100 at or above it raises the level by 1 for one feat.
    """

    model_config = ConfigDict(frozen=True)

    level: int = Field(ge=0)
    modifier: int = Field(ge=MODIFIER_MIN, le=MODIFIER_MAX)

    def __str__(self) -> str:
        return f"{self.level}/{self.modifier}"

    @property
    def p_step_up(self) -> Fraction:
        """The chance that the d100 raises the level for a feat."""
        return p_step_up(self.modifier)

    @classmethod
    def parse(cls, text: str) -> SkillRating:
        """Read ``"6/81"`` as level 6, modifier 81.

        Raises:
            ValueError: If the text is not LEVEL/MODIFIER with a level of 0 or more and a
                modifier from 1 to 99.
        """
        level_text, slash, modifier_text = text.strip().partition("/")
        try:
            if not slash:
                raise ValueError
            level, modifier = int(level_text), int(modifier_text)
        except ValueError:
            raise ValueError(f"a skill is written LEVEL/MODIFIER, such as 6/81 (got {text!r})") from None
        if level < 0:
            raise ValueError(f"a skill level can't be negative (got {level})")
        if not MODIFIER_MIN <= modifier <= MODIFIER_MAX:
            raise ValueError(f"a skill modifier runs from {MODIFIER_MIN} to {MODIFIER_MAX} (got {modifier})")
        return cls(level=level, modifier=modifier)


def p_step_up(modifier: int) -> Fraction:
    """P(d100 >= ``modifier``) = (101 - modifier) / 100.

    Raises:
        ValueError: If the modifier is not 1 to 99.
    """
    if not MODIFIER_MIN <= modifier <= MODIFIER_MAX:
        raise ValueError(f"a skill modifier runs from {MODIFIER_MIN} to {MODIFIER_MAX} (got {modifier})")
    return Fraction(STEP_UP_SIDES + 1 - modifier, STEP_UP_SIDES)


def steps_up(modifier: int, d100: int) -> bool:
    """Seed 003: the modifier equalled or exceeded raises the level by one for this feat."""
    return d100 >= modifier


@cache  # at most 7 x 10 ratings, each frozen; every skill feat reads one
def skill_rating(ranks: int, attribute: int) -> SkillRating:
    """Level/modifier of a skill with ``ranks`` ranks behind an attribute of ``attribute``.

    Raises:
        ValueError: If ranks are not 0 to 6 or the attribute is not 0 to 9.

    Example:
        >>> str(skill_rating(0, 5))
        '1/99'
    """
    if not 0 <= ranks <= RANK_MAX:
        raise ValueError(f"skill ranks run from 0 to {RANK_MAX} (got {ranks})")
    if not 0 <= attribute <= ATTRIBUTE_MAX:
        raise ValueError(f"an attribute runs from 0 to {ATTRIBUTE_MAX} (got {attribute})")
    if attribute == 0:
        level = max(0, ranks - 4)
        return SkillRating(level=level, modifier=MODIFIER_MAX)
    level, modifier = SKILL_RANKS[ranks][attribute - 1]
    return SkillRating(level=level, modifier=modifier)


def untrained(attribute: int) -> SkillRating:
    """The rank-0 row: an attribute used as an inherent skill with no training (seed 003)."""
    return skill_rating(0, attribute)
