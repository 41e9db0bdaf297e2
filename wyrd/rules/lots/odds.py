"""Exact odds of a Thaeborn check before the lots are cast, as fractions.

The two d4 give 16 equally likely casts; this module reads every one of them
with :func:`wyrd.rules.lots.fate.read` and counts. So the numbers shown to players
come from the very function that settles the real check, and are exact
(:class:`fractions.Fraction`) and cached.

Only the comparison and the Rule of Fours matter: whether the Attribute meets
the Difficulty, and how far the Proficiency and the Tier (by default the
Attribute and the Difficulty) lie apart. The lots themselves fall 1, 1, 1, 2, 2
and 9 times in 16 (CRIT, FUMBLE, WASTE, WEAL, WOE, none), whatever the check.
"""

from fractions import Fraction
from functools import lru_cache

from pydantic import BaseModel, ConfigDict

from wyrd.rules.lots.enums import Change, Lot, Result
from wyrd.rules.lots.fate import SIDES, all_casts, cannot_fail, cannot_succeed, read, read_lot

__all__ = [
    "CASTS",
    "ChangeShare",
    "CheckOdds",
    "LotShare",
    "MettleOdds",
    "ResultShare",
    "attack_odds",
    "attack_spec_numbers",
    "check_odds",
    "lot_odds",
    "mettle_odds",
]

CASTS = SIDES * SIDES
"""How many equally likely casts two d4 make: 16."""


class LotShare(BaseModel):
    """How many of the 16 casts give ``lot``, and its chance."""

    model_config = ConfigDict(frozen=True)

    lot: Lot
    casts: int
    p: Fraction


class ResultShare(BaseModel):
    model_config = ConfigDict(frozen=True)

    result: Result
    casts: int
    p: Fraction


class ChangeShare(BaseModel):
    model_config = ConfigDict(frozen=True)

    change: Change
    casts: int
    p: Fraction


class CheckOdds(BaseModel):
    """The odds of one check, cast by cast.

    Attributes:
        attribute: The Attribute compared.
        difficulty: The Difficulty it must meet.
        proficiency: The Proficiency for the Rule of Fours.
        tier: The Tier for the Rule of Fours.
        attack: Whether the check is an attack (a CRIT always lands it).
        base: The result before the lots (success if the Attribute meets the Difficulty
            and the Rule of Fours allows a success at all).
        crit_barred: The Rule of Fours keeps a CRIT from making this succeed.
        fumble_barred: The Rule of Fours keeps a FUMBLE from making this fail.
        lots: Each lot's share of the 16 casts.
        results: Each final result's share: success, failure, waste.
        changes: Each way the lots can change the result (every kind listed, even at 0).
        p_success: Chance of success.
        p_failure: Chance of failure.
        p_waste: Chance of a WASTE (neither; the effort lost).
        p_weal: Chance of a WEAL benefit (a CRIT's heightened one included).
        p_woe: Chance of a WOE consequence (a FUMBLE's heightened one included).
        p_retry: Chance that a lot spoils a check the character was able for, so
            that they may try again (plain checks only).
    """

    model_config = ConfigDict(frozen=True)

    attribute: int
    difficulty: int
    proficiency: int
    tier: int
    attack: bool
    base: Result
    crit_barred: bool
    fumble_barred: bool
    lots: tuple[LotShare, ...]
    results: tuple[ResultShare, ...]
    changes: tuple[ChangeShare, ...]
    p_success: Fraction
    p_failure: Fraction
    p_waste: Fraction
    p_weal: Fraction
    p_woe: Fraction
    p_retry: Fraction

    @property
    def gap(self) -> int:
        """Attribute minus Difficulty."""
        return self.attribute - self.difficulty

    def p_lot(self, lot: Lot) -> Fraction:
        return next(s.p for s in self.lots if s.lot == lot)

    def p_result(self, result: Result) -> Fraction:
        return next(s.p for s in self.results if s.result == result)

    def p_change(self, change: Change) -> Fraction:
        return next(s.p for s in self.changes if s.change == change)


class MettleOdds(BaseModel):
    """The odds of Test Your Mettle at a given total Pain (RULES.md [ours]).

    Attributes:
        mettle: The character's Mettle.
        pain: The total Pain tested against.
        p_steady: Chance of passing (nothing lost).
        p_loses_action: Chance of losing the next action (a failure or a WASTE).
        p_incapacitated: Chance of incapacitation (a failing FUMBLE, or Pain at twice the Mettle).
    """

    model_config = ConfigDict(frozen=True)

    mettle: int
    pain: int
    p_steady: Fraction
    p_loses_action: Fraction
    p_incapacitated: Fraction


def _share(count: int) -> Fraction:
    return Fraction(count, CASTS)


@lru_cache(maxsize=1)
def lot_odds() -> tuple[LotShare, ...]:
    """Each lot's share of the 16 casts, counted: CRIT, FUMBLE, WASTE, WEAL, WOE, none."""
    counts = dict.fromkeys(Lot, 0)
    for weal, woe in all_casts():
        counts[read_lot(weal, woe)] += 1
    return tuple(LotShare(lot=lot, casts=n, p=_share(n)) for lot, n in counts.items())


def check_odds(
    attribute: int, difficulty: int, *, proficiency: int | None = None, tier: int | None = None,
    attack: bool = False,
) -> CheckOdds:
    """The exact odds of a check, from all 16 casts.

    Args:
        attribute: The Attribute compared.
        difficulty: The Difficulty it must meet or exceed.
        proficiency: The Proficiency for the Rule of Fours (the Attribute if None).
        tier: The Tier for the Rule of Fours (the Difficulty if None).
        attack: Whether the check is an attack.

    Example:
        >>> check_odds(5, 5).p_success
        Fraction(7, 8)
        >>> check_odds(4, 5).p_success
        Fraction(1, 16)
    """
    prof = attribute if proficiency is None else proficiency
    level = difficulty if tier is None else tier
    return _check_odds(attribute, difficulty, prof, level, bool(attack))


@lru_cache(maxsize=4096)
def _check_odds(attribute: int, difficulty: int, proficiency: int, tier: int, attack: bool) -> CheckOdds:
    results = dict.fromkeys(Result, 0)
    changes = dict.fromkeys(Change, 0)
    weal = woe = retry = 0
    for weal_face, woe_face in all_casts():
        reading = read(
            attribute, difficulty, read_lot(weal_face, woe_face),
            proficiency=proficiency, tier=tier, attack=attack,
        )
        results[reading.result] += 1
        changes[reading.change] += 1
        weal += reading.fortune.is_weal
        woe += reading.fortune.is_woe
        retry += reading.may_retry and not attack
    return CheckOdds(
        attribute=attribute,
        difficulty=difficulty,
        proficiency=proficiency,
        tier=tier,
        attack=attack,
        base=Result.SUCCESS if attribute >= difficulty and not cannot_succeed(proficiency, tier, attack=attack)
        else Result.FAILURE,
        crit_barred=cannot_succeed(proficiency, tier, attack=attack),
        fumble_barred=cannot_fail(proficiency, tier, attack=attack),
        lots=lot_odds(),
        results=tuple(ResultShare(result=r, casts=n, p=_share(n)) for r, n in results.items()),
        changes=tuple(ChangeShare(change=c, casts=n, p=_share(n)) for c, n in changes.items()),
        p_success=_share(results[Result.SUCCESS]),
        p_failure=_share(results[Result.FAILURE]),
        p_waste=_share(results[Result.WASTE]),
        p_weal=_share(weal),
        p_woe=_share(woe),
        p_retry=_share(retry),
    )


def attack_spec_numbers(offense: int, defense: int, *, defended: bool = True) -> tuple[int, int, int, int]:
    """An attack as a check: (attribute, difficulty, proficiency, tier).

    Offense against Defense, +1 when the target actively defends (only an
    Accuracy above zero lands it); the Rule of Fours compares the Offense with
    the Defense. :func:`wyrd.rules.lots.harm.attack` casts with these numbers.
    """
    return offense, defense + (1 if defended else 0), offense, defense


def attack_odds(offense: int, defense: int, *, defended: bool = True) -> CheckOdds:
    """The exact odds of an attack, the +1 of an actively defended target included.

    Example:
        >>> attack_odds(5, 5).p_success  # defended: only a CRIT lands it
        Fraction(1, 16)
        >>> attack_odds(5, 5, defended=False).p_success
        Fraction(7, 8)
    """
    attribute, difficulty, proficiency, tier = attack_spec_numbers(offense, defense, defended=defended)
    return check_odds(attribute, difficulty, proficiency=proficiency, tier=tier, attack=True)


def mettle_odds(mettle: int, pain: int) -> MettleOdds:
    """The exact odds of Test Your Mettle.

    Raises:
        ValueError: If the Mettle is below 1 or the Pain below 0.
    """
    if mettle < 1:
        raise ValueError(f"Mettle is at least 1 (got {mettle})")
    if pain < 0:
        raise ValueError(f"Pain can't be negative (got {pain})")
    return _mettle_odds(mettle, pain)


@lru_cache(maxsize=1024)
def _mettle_odds(mettle: int, pain: int) -> MettleOdds:
    steady = reeling = down = 0
    by_pain = pain >= 2 * mettle
    for weal_face, woe_face in all_casts():
        reading = read(mettle, pain, read_lot(weal_face, woe_face))
        if by_pain or (reading.lot == Lot.FUMBLE and reading.result == Result.FAILURE):
            down += 1
        elif reading.result == Result.SUCCESS:
            steady += 1
        else:
            reeling += 1
    return MettleOdds(
        mettle=mettle, pain=pain, p_steady=_share(steady), p_loses_action=_share(reeling),
        p_incapacitated=_share(down),
    )
