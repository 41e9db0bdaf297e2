"""The roll mechanic itself, as pure functions: how a pool is sized and read.

Seed 001, the same for every situation (fights, extended challenges, travel
montages, downtime):

* the pool starts at 1d12; +1 for a relevant gift (one die however many gifts
  apply), +1 for a situational advantage, +1 per helper; at most 4d12;
* the highest die plus the ability: 1-6 a failure, 7-12 a partial success,
  13 or more a success;
* any two dice showing the same face make a critical: a critical failure when
  the total is 6 or less, a critical success when it is 13 or more; a partial
  is never critical, and a single die can't make a pair.

The pair need not include the highest die (seed 001: any two matching dice
count). Nothing here rolls: :mod:`wyrd.rules.wolden.checks` rolls through the
dice and reads the faces with :func:`read_roll`; :mod:`wyrd.rules.wolden.odds`
counts outcomes with :func:`classify`.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from wyrd.rules.wolden.enums import Result

__all__ = [
    "FAILURE_AT_MOST",
    "MAX_DICE",
    "SIDES",
    "SUCCESS_AT_LEAST",
    "Reading",
    "classify",
    "has_pair",
    "pool_size",
    "read_roll",
]

SIDES = 12
"""Every Wolden die is a d12."""
MAX_DICE = 4
"""Seed 001: a pool holds at most 4d12."""
FAILURE_AT_MOST = 6
"""Seed 001: a total of 6 or less fails."""
SUCCESS_AT_LEAST = 13
"""Seed 001: a total of 13 or more succeeds; in between is a partial success."""


def pool_size(*, gift: bool = False, advantage: bool = False, helpers: int = 0) -> int:
    """How many d12 a roll asks for, before the cap of :data:`MAX_DICE` is checked.

    One to begin with, one for a relevant gift, one for an advantage, one per helper.
    """
    if helpers < 0:
        raise ValueError(f"a roll can't have {helpers} helpers")
    return 1 + int(gift) + int(advantage) + helpers


def has_pair(faces: Sequence[int]) -> bool:
    """True when any two of the dice show the same face."""
    return len(set(faces)) < len(faces)


def classify(total: int, pair: bool) -> Result:
    """The result of a roll from its total (highest die + ability) and whether it shows a pair."""
    if total <= FAILURE_AT_MOST:
        return Result.CRITICAL_FAILURE if pair else Result.FAILURE
    if total >= SUCCESS_AT_LEAST:
        return Result.CRITICAL_SUCCESS if pair else Result.SUCCESS
    return Result.PARTIAL


class Reading(BaseModel):
    """A roll read: the faces, the ability added, and what they make."""

    model_config = ConfigDict(frozen=True)

    faces: tuple[int, ...]
    ability: int
    highest: int
    total: int
    pair: bool
    result: Result

    @property
    def critical(self) -> bool:
        return self.result.critical


def read_roll(faces: Sequence[int], ability: int) -> Reading:
    """Read a rolled pool: the highest face plus ``ability``, then the result.

    Args:
        faces: The d12 faces rolled (1 to :data:`MAX_DICE` of them, each 1 to 12).
        ability: The ability added to the highest face (0 or more).

    Raises:
        ValueError: For no dice, too many, a face not on a d12, or a negative ability.

    Example:
        >>> read_roll([9, 3, 3], 4).result
        <Result.CRITICAL_SUCCESS: 'critical_success'>
    """
    if not 1 <= len(faces) <= MAX_DICE:
        raise ValueError(f"a pool holds 1 to {MAX_DICE} dice, not {len(faces)}")
    for face in faces:
        if not 1 <= face <= SIDES:
            raise ValueError(f"{face} is not a face of a d{SIDES}")
    if ability < 0:
        raise ValueError(f"an ability can't be {ability}")
    highest = max(faces)
    total = highest + ability
    pair = has_pair(faces)
    return Reading(
        faces=tuple(faces), ability=ability, highest=highest, total=total, pair=pair,
        result=classify(total, pair),
    )
