"""Exact odds of a Wolden roll, as fractions, before it is made.

Seed 001: roll 1 to 4 d12, add the ability to the highest die; 6 or less fails,
7 to 12 is a partial success, 13 or more succeeds; a pair among the dice makes
a failure critical, and a success critical, but never a partial.

The five fields of :class:`CheckOdds` are the five results, which never overlap
and add up to 1: ``p_failure`` is a failure *without* a pair (the critical
failures are counted only in ``p_critical_failure``), and ``p_success`` a
success without one. ``p_any_failure`` and ``p_any_success`` add the criticals
back in.

The odds are found by enumerating all 12^n outcomes of the pool once per pool
size (FACTS.md: every table in tens of milliseconds), reduced to how many show
each highest face with and without a pair; each ability then costs a dozen
additions. Both levels are cached. Pure: no I/O, no randomness.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product

from pydantic import BaseModel, ConfigDict

from wyrd.rules.wolden.enums import Result
from wyrd.rules.wolden.pool import MAX_DICE, SIDES, classify, has_pair
from wyrd.rules.wolden.state import GameState

__all__ = ["CheckOdds", "check_odds", "odds_table", "pending_odds", "pool_counts"]

_ZERO = Fraction(0)


class CheckOdds(BaseModel):
    """The chance of each of the five results of a roll of ``dice`` d12 + ``ability``.

    Attributes:
        dice: The pool: 1 to 4 d12.
        ability: The ability added to the highest die.
        p_critical_failure: A total of 6 or less, with a pair.
        p_failure: A total of 6 or less, without a pair.
        p_partial: A total of 7 to 12 (pair or not: a partial is never critical).
        p_success: A total of 13 or more, without a pair.
        p_critical_success: A total of 13 or more, with a pair.
    """

    model_config = ConfigDict(frozen=True)

    dice: int
    ability: int
    p_critical_failure: Fraction
    p_failure: Fraction
    p_partial: Fraction
    p_success: Fraction
    p_critical_success: Fraction

    def p(self, result: Result) -> Fraction:
        """The chance of exactly this result."""
        chance: Fraction = getattr(self, f"p_{Result(result).value}")
        return chance

    @property
    def outcomes(self) -> tuple[tuple[Result, Fraction], ...]:
        """Each result with its chance, worst first."""
        return tuple((result, self.p(result)) for result in Result)

    @property
    def p_any_failure(self) -> Fraction:
        """A total of 6 or less, critical or not (in a fight: the enemy hits)."""
        return self.p_failure + self.p_critical_failure

    @property
    def p_any_success(self) -> Fraction:
        """A total of 13 or more, critical or not."""
        return self.p_success + self.p_critical_success

    @property
    def p_critical(self) -> Fraction:
        return self.p_critical_failure + self.p_critical_success

    @property
    def expected_rating_change(self) -> Fraction:
        """How much one roll moves an extended challenge's rating, on average (negative: towards 0)."""
        return sum((p * result.rating_change for result, p in self.outcomes), _ZERO)


@lru_cache(maxsize=MAX_DICE)
def pool_counts(dice: int) -> tuple[tuple[int, int], ...]:
    """For a pool of ``dice`` d12, how many of the 12^dice outcomes show each highest face.

    Returns:
        Twelve pairs, for highest faces 1 to 12: (outcomes without a pair, outcomes with one).

    Raises:
        ValueError: Unless ``dice`` is 1 to 4.
    """
    _check_dice(dice)
    counts = [[0, 0] for _ in range(SIDES)]
    for faces in product(range(1, SIDES + 1), repeat=dice):
        counts[max(faces) - 1][has_pair(faces)] += 1
    return tuple((plain, paired) for plain, paired in counts)


def check_odds(dice: int, ability: int) -> CheckOdds:
    """The exact odds of a roll of ``dice`` d12 plus ``ability``.

    Args:
        dice: The size of the pool, 1 to 4.
        ability: The ability added to the highest die (0 or more).

    Returns:
        The odds, cached: the same arguments give the same object.

    Raises:
        ValueError: For a pool outside 1 to 4 or a negative ability.

    Example:
        >>> check_odds(1, 0).p_failure
        Fraction(1, 2)
        >>> check_odds(2, 3).p_critical_success  # a pair of 10s, 11s or 12s
        Fraction(1, 48)
    """
    _check_dice(dice)
    if ability < 0:
        raise ValueError(f"an ability can't be negative (got {ability})")
    return _check_odds(dice, ability)


@lru_cache(maxsize=1024)
def _check_odds(dice: int, ability: int) -> CheckOdds:
    tally = dict.fromkeys(Result, 0)
    for highest, (plain, paired) in enumerate(pool_counts(dice), start=1):
        total = highest + ability
        tally[classify(total, False)] += plain
        tally[classify(total, True)] += paired
    outcomes = SIDES**dice
    return CheckOdds(dice=dice, ability=ability,
                     **{f"p_{result.value}": Fraction(count, outcomes) for result, count in tally.items()})


def pending_odds(state: GameState) -> CheckOdds | None:
    """The odds of the open roll, from what :func:`~wyrd.rules.wolden.roll` will use (None: no roll is open).

    The pool is the one the roll was opened with (gift, advantage and the helpers
    who fit, capped at 4d12), and the ability the lead's as it stands, read the
    same way the roll reads it.
    """
    pending = state.pending
    if pending is None:
        return None
    return check_odds(pending.dice, state.characters[pending.lead].current(pending.ability))


def odds_table(ability: int) -> list[CheckOdds]:
    """The odds for every pool from 1 to 4 d12 with this ability, smallest pool first.

    Raises:
        ValueError: For a negative ability.
    """
    return [check_odds(dice, ability) for dice in range(1, MAX_DICE + 1)]


def _check_dice(dice: int) -> None:
    if not 1 <= dice <= MAX_DICE:
        raise ValueError(f"a pool holds 1 to {MAX_DICE} d{SIDES}, not {dice}")
