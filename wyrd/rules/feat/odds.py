"""Exact odds of Heroes of the Fall feats, as fractions.

* :func:`feat_odds`: P(success) at a Feat level, -8 to +8, counted over all
  8^3 = 512 ways the three d8 can fall, read by the same
  :func:`wyrd.rules.feat.table.read_feat` the actions use. RULES.md's ladder comes out
  exactly: 1/2 at 0, halving per level upwards (1/4 at +1 ... 1/512 at +8), and
  failure halving per level downwards (1/64 at -5 ... 1/512 at -8).
* :func:`skill_odds`: a skill level/modifier against a Difficulty. The d100
  reaches the modifier ``m`` with chance (101 - m)/100, which gives the Feat level
  Difficulty - (level + 1); otherwise Difficulty - level. The two are mixed. The
  seed's climb (Difficulty 7, skill 6/81) succeeds 1/5 * 1/2 + 4/5 * 1/4 = 3/10.
* :func:`attribute_odds`: an attribute as it is against a Difficulty (no d100).
* :func:`opposed_odds`: two ratings, each with its own d100; the opponent's
  effective level plus ``extra`` is the Difficulty.

Every function takes ``eights``, the most Wyrd-bought 8s (0 to 3; see
:mod:`wyrd.rules.feat.table`: one per die read at most, and only what the level can
use is bought). Results are frozen pydantic models and cached. Invalid arguments
raise :class:`ValueError`; the module is pure (no I/O, no randomness).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

from pydantic import BaseModel, ConfigDict

from wyrd.rules.feat.enums import Needs
from wyrd.rules.feat.skills import ATTRIBUTE_MAX, SkillRating, p_step_up
from wyrd.rules.feat.table import (
    DICE_ROLLED,
    FEAT_MAX,
    FEAT_MIN,
    MINIMUMS,
    SIDES,
    WYRD_PER_EIGHT,
    clamp_level,
    eight_positions,
    needs,
    read_feat,
)

__all__ = [
    "FeatOdds",
    "OpposedBranch",
    "OpposedOdds",
    "SkillOdds",
    "attribute_odds",
    "feat_odds",
    "feat_table",
    "opposed_odds",
    "skill_odds",
]

_ONE = Fraction(1)


class FeatOdds(BaseModel):
    """The odds at one Feat level.

    Attributes:
        level: The Feat level, -8 to +8.
        needs: ``all`` above 0 (every die read must reach its minimum), ``any`` at 0 and below.
        minimums: The minimum for each die read, in order.
        eights: The 8s actually bought at this level (never more than it can use).
        wyrd_cost: Wyrd points those 8s cost (5 each).
        p_success: The chance of success.
    """

    model_config = ConfigDict(frozen=True)

    level: int
    needs: Needs
    minimums: tuple[int, ...]
    eights: int
    wyrd_cost: int
    p_success: Fraction

    @property
    def dice_read(self) -> int:
        return len(self.minimums)

    @property
    def p_failure(self) -> Fraction:
        return _ONE - self.p_success


class SkillOdds(BaseModel):
    """The odds of a skill feat: the d100 step-up, then one of two Feat levels.

    Attributes:
        level, modifier: The skill, level/modifier.
        difficulty: The Difficulty.
        p_step_up: The chance that the d100 reaches the modifier.
        stepped: The odds at Difficulty - (level + 1).
        plain: The odds at Difficulty - level.
        p_success: ``p_step_up * stepped + (1 - p_step_up) * plain``.
        expected_wyrd: Wyrd points spent on average (the level decides how many 8s are bought).
    """

    model_config = ConfigDict(frozen=True)

    level: int
    modifier: int
    difficulty: int
    p_step_up: Fraction
    stepped: FeatOdds
    plain: FeatOdds
    p_success: Fraction
    expected_wyrd: Fraction

    @property
    def p_failure(self) -> Fraction:
        return _ONE - self.p_success


class OpposedBranch(BaseModel):
    """One way the two d100s can fall: who stepped up, its chance, and the odds that follow."""

    model_config = ConfigDict(frozen=True)

    active_stepped: bool
    opposing_stepped: bool
    p: Fraction
    odds: FeatOdds


class OpposedOdds(BaseModel):
    """The odds that the active character wins an opposed feat.

    Attributes:
        active, opposing: The two ratings (level/modifier), as text such as ``"6/23"``.
        extra: What the circumstances add to the Difficulty.
        branches: The four combinations of the two d100s.
        p_success: The chance that the active character succeeds.
    """

    model_config = ConfigDict(frozen=True)

    active: str
    opposing: str
    extra: int
    branches: tuple[OpposedBranch, ...]
    p_success: Fraction

    @property
    def p_failure(self) -> Fraction:
        return _ONE - self.p_success


def _check(level: int | None = None, eights: int = 0, difficulty: int | None = None) -> None:
    if level is not None and not FEAT_MIN <= level <= FEAT_MAX:
        raise ValueError(f"a Feat level runs from {FEAT_MIN} to +{FEAT_MAX} (got {level})")
    if not 0 <= eights <= DICE_ROLLED:
        raise ValueError(f"at most one bought 8 per die: 0 to {DICE_ROLLED} (got {eights})")
    if difficulty is not None and difficulty < 0:
        raise ValueError(f"a Difficulty can't be negative (got {difficulty})")


def feat_odds(level: int, eights: int = 0) -> FeatOdds:
    """The exact odds of a feat at ``level``, with up to ``eights`` bought 8s.

    Raises:
        ValueError: If the level is not -8 to +8 or ``eights`` is not 0 to 3.

    Example:
        >>> feat_odds(0).p_success
        Fraction(1, 2)
        >>> feat_odds(-5).p_failure
        Fraction(1, 64)
    """
    _check(level, eights)
    return _feat_odds(level, eights)


@lru_cache(maxsize=128)
def _feat_odds(level: int, eights: int) -> FeatOdds:
    faces = range(1, SIDES + 1)
    wins = sum(read_feat(level, roll, eights).success for roll in product(faces, repeat=DICE_ROLLED))
    bought = len(eight_positions(level, eights))
    return FeatOdds(
        level=level,
        needs=needs(level),
        minimums=MINIMUMS[level],
        eights=bought,
        wyrd_cost=WYRD_PER_EIGHT * bought,
        p_success=Fraction(wins, SIDES**DICE_ROLLED),
    )


def feat_table(eights: int = 0) -> list[FeatOdds]:
    """The odds at every Feat level from -8 to +8 (easiest first)."""
    _check(eights=eights)
    return [_feat_odds(level, eights) for level in range(FEAT_MIN, FEAT_MAX + 1)]


def attribute_odds(attribute: int, difficulty: int, eights: int = 0) -> FeatOdds:
    """An attribute (0 to 9) as it is against a Difficulty: the Feat level is clamped.

    Raises:
        ValueError: If the attribute is not 0 to 9, the Difficulty is negative, or ``eights`` is not 0 to 3.
    """
    if not 0 <= attribute <= ATTRIBUTE_MAX:
        raise ValueError(f"an attribute runs from 0 to {ATTRIBUTE_MAX} (got {attribute})")
    _check(eights=eights, difficulty=difficulty)
    return _feat_odds(clamp_level(difficulty - attribute), eights)


def skill_odds(level: int, modifier: int, difficulty: int, eights: int = 0) -> SkillOdds:
    """The exact odds of a skill feat: skill ``level``/``modifier`` against ``difficulty``.

    Raises:
        ValueError: If the level is negative, the modifier not 1 to 99, the Difficulty
            negative, or ``eights`` not 0 to 3.

    Example:
        >>> skill_odds(6, 81, 7).p_success
        Fraction(3, 10)
    """
    rating = SkillRating.parse(f"{level}/{modifier}")
    _check(eights=eights, difficulty=difficulty)
    return _skill_odds(rating.level, rating.modifier, difficulty, eights)


@lru_cache(maxsize=1024)
def _skill_odds(level: int, modifier: int, difficulty: int, eights: int) -> SkillOdds:
    p = p_step_up(modifier)
    stepped = _feat_odds(clamp_level(difficulty - level - 1), eights)
    plain = _feat_odds(clamp_level(difficulty - level), eights)
    return SkillOdds(
        level=level,
        modifier=modifier,
        difficulty=difficulty,
        p_step_up=p,
        stepped=stepped,
        plain=plain,
        p_success=p * stepped.p_success + (1 - p) * plain.p_success,
        expected_wyrd=p * stepped.wyrd_cost + (1 - p) * plain.wyrd_cost,
    )


def opposed_odds(active: SkillRating, opposing: SkillRating, extra: int = 0, eights: int = 0) -> OpposedOdds:
    """The exact odds that ``active`` beats ``opposing`` (each with its d100 step-up).

    The Difficulty is the opponent's effective level plus ``extra``; ``eights`` are
    bought by the active character.

    Example:
        >>> thief, victim = SkillRating(level=6, modifier=23), SkillRating(level=1, modifier=99)
        >>> opposed_odds(thief, victim).branches[0].odds.level  # neither steps up
        -5
    """
    _check(eights=eights)
    return _opposed_odds(active, opposing, extra, eights)


@lru_cache(maxsize=1024)
def _opposed_odds(active: SkillRating, opposing: SkillRating, extra: int, eights: int) -> OpposedOdds:
    branches = []
    for active_stepped, opposing_stepped in product((False, True), repeat=2):
        p_active = active.p_step_up if active_stepped else 1 - active.p_step_up
        p_opposing = opposing.p_step_up if opposing_stepped else 1 - opposing.p_step_up
        difficulty = opposing.level + opposing_stepped + extra
        level = clamp_level(difficulty - (active.level + active_stepped))
        branches.append(
            OpposedBranch(
                active_stepped=active_stepped,
                opposing_stepped=opposing_stepped,
                p=p_active * p_opposing,
                odds=_feat_odds(level, eights),
            )
        )
    return OpposedOdds(
        active=str(active),
        opposing=str(opposing),
        extra=extra,
        branches=tuple(branches),
        p_success=sum((b.p * b.odds.p_success for b in branches), Fraction(0)),
    )
