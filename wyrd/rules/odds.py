"""Exact odds for a roll before it is made, as fractions.

The play layer shows these numbers while players decide how many points to put
into a roll, so every answer here is exact (:class:`fractions.Fraction`), found
by counting the faces of the dice or by a closed form, and cached: the REPL may
ask again on every keystroke.

Two kinds of roll from the Wyrd Abacus (seed 000) are covered:

* **Challenge roll.** One d6 plus the points assigned before the roll; the
  challenge is overcome when the total reaches its value. If the roll falls
  short, the characters involved may still draw points from the scene's Wyrd
  pool, each one adding 1 to the result after the fact. See
  :func:`challenge_odds` and :func:`challenge_table`.
* **Influence roll.** As many d6 as the trait; only the highest die counts, and
  ties are broken by how many dice show it. A trait of 0 counts as a result of
  1. See :func:`influence_odds`.

The module is pure: no I/O, no randomness, nothing but the standard library and
pydantic. Invalid arguments (negative numbers) raise :class:`ValueError`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from pydantic import BaseModel, ConfigDict

__all__ = [
    "SIDES",
    "ChallengeOdds",
    "Chance",
    "InfluenceOdds",
    "certain_points",
    "challenge_odds",
    "challenge_table",
    "influence_odds",
]

SIDES = 6
"""Every roll in the Wyrd Abacus uses six-sided dice."""

_FACES = range(1, SIDES + 1)
_ZERO = Fraction(0)
_ONE = Fraction(1)


class Chance(BaseModel):
    """The chance ``p`` of one outcome: a face, a number of dice, or a number of draws."""

    model_config = ConfigDict(frozen=True)

    outcome: int
    p: Fraction


def _chance_of(chances: tuple[Chance, ...], outcome: int) -> Fraction:
    """Look ``outcome`` up in a distribution; an outcome that is not listed has chance 0."""
    for chance in chances:
        if chance.outcome == outcome:
            return chance.p
    return _ZERO


class ChallengeOdds(BaseModel):
    """The odds of one challenge roll, with and without the scene pool as a backup.

    Attributes:
        value: The challenge's value: the total the roll must reach.
        points: Ability points assigned before the roll (each adds 1).
        pool: Wyrd points left in the scene pool, each worth +1 after a failed roll.
        p_overcome: Chance that the die plus ``points`` reaches ``value`` on its own.
        p_with_pool: Chance of overcoming when the players are willing to draw
            as much of the pool as it takes after a failed roll.
        draws: For each number of Wyrd draws from 0 to ``pool``, the chance that
            exactly that many are needed (0 means the die alone was enough).
            Rolls that even the whole pool can't rescue are not listed; their
            chance is ``1 - p_with_pool``.
        expected_draws: Wyrd points drawn on average, if the players draw exactly
            what a failed roll needs whenever the pool can rescue it, and nothing
            when it can't.
    """

    model_config = ConfigDict(frozen=True)

    value: int
    points: int
    pool: int
    p_overcome: Fraction
    p_with_pool: Fraction
    draws: tuple[Chance, ...]
    expected_draws: Fraction

    @property
    def p_out_of_reach(self) -> Fraction:
        """Chance that the roll fails even after drawing the whole pool."""
        return _ONE - self.p_with_pool

    def p_draws(self, n: int) -> Fraction:
        """Chance that the roll needs exactly ``n`` Wyrd draws to succeed."""
        return _chance_of(self.draws, n)


class InfluenceOdds(BaseModel):
    """The odds of an influence roll (a Wyrd roll is one too) with ``dice`` d6.

    Attributes:
        dice: How many dice are rolled (the trait's score, or the personal Wyrd pool).
        highest: Chance of each result, faces 1 to 6 (the result is the highest die).
        p_any_six: Chance that at least one die shows a 6.
        p_low: Chance that the result is only 1 or 2.
        ties: Chance of each number of dice showing the result (the tie-breaker).
            With no dice the result is 1 and no die shows it, so the count is 0.
        sixes: Chance of each number of 6s rolled, from 0 to ``dice``.
        mean: The average result.
    """

    model_config = ConfigDict(frozen=True)

    dice: int
    highest: tuple[Chance, ...]
    p_any_six: Fraction
    p_low: Fraction
    ties: tuple[Chance, ...]
    sixes: tuple[Chance, ...]
    mean: Fraction

    def p_result(self, face: int) -> Fraction:
        """Chance that the result (the highest die) is exactly ``face``."""
        return _chance_of(self.highest, face)

    def p_ties(self, count: int) -> Fraction:
        """Chance that exactly ``count`` dice show the result."""
        return _chance_of(self.ties, count)


def _check_non_negative(**numbers: int) -> None:
    for name, number in numbers.items():
        if number < 0:
            raise ValueError(f"{name} can't be negative (got {number})")


def challenge_odds(value: int, points: int = 0, pool: int = 0) -> ChallengeOdds:
    """The exact odds of a challenge roll.

    The roll is one d6 plus ``points``; it overcomes the challenge when the total
    is at least ``value``. After a failed roll each Wyrd point drawn from the
    scene pool adds 1, up to the ``pool`` points left.

    Args:
        value: The challenge's value (0 or more).
        points: Ability points assigned before the roll (0 or more).
        pool: Wyrd points left in the scene pool (0 or more).

    Returns:
        The odds, cached: the same arguments give the same object.

    Raises:
        ValueError: If any argument is negative.

    Example:
        >>> challenge_odds(7, points=2).p_overcome
        Fraction(1, 3)
        >>> challenge_odds(7, points=2, pool=2).p_with_pool
        Fraction(2, 3)
    """
    _check_non_negative(value=value, points=points, pool=pool)
    return _challenge_odds(value, points, pool)


@lru_cache(maxsize=4096)
def _challenge_odds(value: int, points: int, pool: int) -> ChallengeOdds:
    # Count, for each face of the die, how far short of the value it leaves the
    # roll: that shortfall is the number of Wyrd draws that would rescue it.
    needing = [0] * (pool + 1)
    for face in _FACES:
        shortfall = max(0, value - points - face)
        if shortfall <= pool:
            needing[shortfall] += 1
    draws = tuple(Chance(outcome=n, p=Fraction(count, SIDES)) for n, count in enumerate(needing))
    return ChallengeOdds(
        value=value,
        points=points,
        pool=pool,
        p_overcome=Fraction(needing[0], SIDES),
        p_with_pool=Fraction(sum(needing), SIDES),
        draws=draws,
        expected_draws=sum((c.outcome * c.p for c in draws), _ZERO),
    )


def challenge_table(value: int, max_points: int, pool: int = 0) -> list[ChallengeOdds]:
    """The odds of a challenge roll for every number of points from 0 to ``max_points``.

    Reading down the list shows what each extra point buys.

    Args:
        value: The challenge's value (0 or more).
        max_points: The most points to consider (0 or more).
        pool: Wyrd points left in the scene pool (0 or more).

    Returns:
        ``max_points + 1`` rows; row ``i`` is ``challenge_odds(value, i, pool)``.

    Raises:
        ValueError: If any argument is negative.
    """
    _check_non_negative(value=value, max_points=max_points, pool=pool)
    return [_challenge_odds(value, points, pool) for points in range(max_points + 1)]


def certain_points(value: int, pool: int = 0) -> int:
    """The fewest points that make a challenge roll certain to succeed.

    Even a 1 on the die is enough once the points (plus the whole pool, drawn
    after the roll) make up the rest of the value.

    Args:
        value: The challenge's value (0 or more).
        pool: Wyrd points the players are willing to draw from the scene pool.

    Raises:
        ValueError: If any argument is negative.
    """
    _check_non_negative(value=value, pool=pool)
    return max(0, value - 1 - pool)


def influence_odds(n: int) -> InfluenceOdds:
    """The exact odds of an influence roll of ``n`` d6, where the highest die is the result.

    Uses the closed form P(highest <= k) = (k/6)^n. With no dice the result is 1,
    for certain.

    Args:
        n: How many dice are rolled (0 or more).

    Returns:
        The odds, cached: the same ``n`` gives the same object.

    Raises:
        ValueError: If ``n`` is negative.

    Example:
        >>> influence_odds(3).p_any_six
        Fraction(91, 216)
    """
    _check_non_negative(dice=n)
    return _influence_odds(n)


@lru_cache(maxsize=256)
def _influence_odds(n: int) -> InfluenceOdds:
    if n == 0:
        return InfluenceOdds(
            dice=0,
            highest=tuple(Chance(outcome=f, p=_ONE if f == 1 else _ZERO) for f in _FACES),
            p_any_six=_ZERO,
            p_low=_ONE,
            ties=(Chance(outcome=0, p=_ONE),),
            sixes=(Chance(outcome=0, p=_ONE),),
            mean=_ONE,
        )
    total = SIDES**n
    # Outcomes whose highest die is exactly k: all dice <= k, minus all dice <= k - 1.
    highest = tuple(Chance(outcome=k, p=Fraction(k**n - (k - 1) ** n, total)) for k in _FACES)
    # Exactly c dice show the highest face m: choose them, the rest are below m.
    ties = tuple(
        Chance(
            outcome=c,
            p=Fraction(comb(n, c) * sum((m - 1) ** (n - c) for m in _FACES), total),
        )
        for c in range(1, n + 1)
    )
    sixes = tuple(
        Chance(outcome=s, p=Fraction(comb(n, s) * (SIDES - 1) ** (n - s), total))
        for s in range(n + 1)
    )
    return InfluenceOdds(
        dice=n,
        highest=highest,
        p_any_six=_ONE - Fraction((SIDES - 1) ** n, total),
        p_low=Fraction(2**n, total),
        ties=ties,
        sixes=sixes,
        mean=sum((c.outcome * c.p for c in highest), _ZERO),
    )
