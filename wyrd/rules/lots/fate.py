"""Casting Lots and reading a check: the arithmetic, with no state and no dice.

Seed 004, Checks: a check succeeds when the Attribute meets or exceeds the
Difficulty; then the lots are cast to see whether fate interferes. Two d4 are
cast, the WEAL die and the WOE die, and the first of these that applies is the
lot: CRIT (both 4), FUMBLE (both 1), WASTE (WEAL 4 with WOE 1), WEAL (WEAL 4),
WOE (WOE 1), or none. Of the 16 casts, 1, 1, 1, 2, 2 and 9 give each.

What a lot does to the result:

* CRIT: a failure becomes a spectacular success, with a heightened WEAL;
* FUMBLE: a success becomes a horrendous failure, with a heightened WOE;
* WASTE: neither success nor failure; the time and effort are lost, and neither
  the WEAL nor the WOE it would have brought applies;
* WEAL / WOE: a benefit / a consequence, the result unchanged.

Rule of Fours: "If the Tier of a Check exceeds your Proficiency by four or
more, you simply won't be able to succeed at it ... even rolling a CRIT won't
allow you to succeed" (attacks excepted: "attacks are an exception"). So such
a check fails whatever the Attribute with its modifiers, CRIT or no CRIT. When
the Proficiency exceeds the Tier by 4 or more, a FUMBLE cannot make it fail.
The WEAL or WOE of the lot still comes, and a WASTE still wastes the time. By
default the Proficiency is the Attribute and the Tier is the Difficulty; [ours]
a check's modifier changes the Attribute compared, never the Proficiency (see
:func:`wyrd.rules.lots.checks.check`), on a first try and a second alike.

Try, try again: "When your Proficiency is sufficient to succeed at a task, but
fate had other plans via a WOE, WASTE, or FUMBLE, you may try again". [ours]
Fate had other plans when the check able to succeed did not: a WASTE, or a
FUMBLE that sank it. A WOE alone leaves a success a success, with nothing to
try again.

[ours] The text names only CRITs for the attack exception
(:data:`ATTACKS_IGNORE_FUMBLE_FLOOR` is False): a FUMBLE on an attack is barred
by the Rule of Fours like any other.
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from wyrd.rules.lots.enums import Change, Fortune, Lot, Result

__all__ = [
    "ATTACKS_IGNORE_FUMBLE_FLOOR",
    "FOURS",
    "LOT_CASTS",
    "RETRY_LOTS",
    "SIDES",
    "Reading",
    "all_casts",
    "cannot_fail",
    "cannot_succeed",
    "fortune_of",
    "read",
    "read_lot",
]

SIDES = 4
"""Both lots dice are d4 (a d12 numbered 1-4 three times works as well)."""

FOURS = 4
"""The gap between Proficiency and Tier at which the Rule of Fours applies."""

ATTACKS_IGNORE_FUMBLE_FLOOR = False
"""[ours] Whether attacks are also exempt from the Rule of Fours on a FUMBLE."""

LOT_CASTS: dict[Lot, int] = {
    Lot.CRIT: 1,
    Lot.FUMBLE: 1,
    Lot.WASTE: 1,
    Lot.WEAL: 2,
    Lot.WOE: 2,
    Lot.NONE: 9,
}
"""How many of the 16 equally likely casts give each lot."""

RETRY_LOTS = frozenset({Lot.WOE, Lot.WASTE, Lot.FUMBLE})
"""The lots after which a check the character was able enough for may be tried again."""


def all_casts() -> Iterator[tuple[int, int]]:
    """Every (WEAL, WOE) pair of faces, each equally likely: 16 of them."""
    for weal in range(1, SIDES + 1):
        for woe in range(1, SIDES + 1):
            yield weal, woe


def read_lot(weal: int, woe: int) -> Lot:
    """The lot of a cast: the first of CRIT, FUMBLE, WASTE, WEAL, WOE that applies.

    Raises:
        ValueError: If a face is not on a d4.
    """
    for face in (weal, woe):
        if not 1 <= face <= SIDES:
            raise ValueError(f"{face} is not a face of a d{SIDES}")
    if weal == SIDES and woe == SIDES:
        return Lot.CRIT
    if weal == 1 and woe == 1:
        return Lot.FUMBLE
    if weal == SIDES and woe == 1:
        return Lot.WASTE
    if weal == SIDES:
        return Lot.WEAL
    if woe == 1:
        return Lot.WOE
    return Lot.NONE


def fortune_of(lot: Lot) -> Fortune:
    """The benefit or consequence a lot brings, whatever the check's result."""
    return {
        Lot.CRIT: Fortune.GREAT_WEAL,
        Lot.FUMBLE: Fortune.GREAT_WOE,
        Lot.WEAL: Fortune.WEAL,
        Lot.WOE: Fortune.WOE,
        Lot.WASTE: Fortune.NONE,
        Lot.NONE: Fortune.NONE,
    }[lot]


def cannot_succeed(proficiency: int, tier: int, *, attack: bool = False) -> bool:
    """Rule of Fours: a Tier 4 or more above the Proficiency bars any success (not for attacks)."""
    return not attack and tier - proficiency >= FOURS


def cannot_fail(proficiency: int, tier: int, *, attack: bool = False) -> bool:
    """Rule of Fours: a Proficiency 4 or more above the Tier bars a FUMBLE's failure."""
    if attack and ATTACKS_IGNORE_FUMBLE_FLOOR:
        return False
    return proficiency - tier >= FOURS


class Reading(BaseModel):
    """A check read with its lot.

    Attributes:
        lot: The lot of the cast.
        base: The result before the lots: the Attribute against the Difficulty,
            a failure whatever they are when the Rule of Fours bars success.
        result: The result once the lot has had its say.
        change: How the lot changed (or failed to change) ``base``.
        fortune: The WEAL or WOE the lot brings, whatever the result.
        may_retry: Whether the character may try again (able enough, but a WASTE
            or a FUMBLE kept it from succeeding).
    """

    model_config = ConfigDict(frozen=True)

    lot: Lot
    base: Result
    result: Result
    change: Change
    fortune: Fortune
    may_retry: bool


def read(
    attribute: int,
    difficulty: int,
    lot: Lot,
    *,
    proficiency: int | None = None,
    tier: int | None = None,
    attack: bool = False,
    legacy: bool = False,
) -> Reading:
    """Read a check: the comparison, then the lot, then the Rule of Fours.

    Args:
        attribute: The Attribute used (a Discipline, a Stat, with any modifiers).
        difficulty: The Difficulty it must meet or exceed.
        lot: The lot the cast gave.
        proficiency: The character's Proficiency for the Rule of Fours (the Attribute if None).
        tier: The check's Tier for the Rule of Fours (the Difficulty if None).
        attack: Whether the check is an attack (a CRIT always lands one).
        legacy: Read as saves made before the one Rule of Fours were played: a
            Tier 4 above the Proficiency bars only a CRIT, and a WOE on a success
            also allows a second try.

    Example:
        >>> read(3, 5, Lot.CRIT).result
        <Result.SUCCESS: 'success'>
        >>> read(1, 5, Lot.CRIT).change
        <Change.CRIT_BARRED: 'crit_barred'>
        >>> read(6, 5, Lot.NONE, proficiency=1).result
        <Result.FAILURE: 'failure'>
    """
    prof = attribute if proficiency is None else proficiency
    level = difficulty if tier is None else tier
    barred = cannot_succeed(prof, level, attack=attack)
    able = attribute >= difficulty and (legacy or not barred)
    base = Result.SUCCESS if able else Result.FAILURE
    result, change = base, Change.NONE
    if lot == Lot.WASTE:
        result, change = Result.WASTE, Change.WASTED
    elif lot == Lot.CRIT and base == Result.FAILURE:
        if barred:
            change = Change.CRIT_BARRED
        else:
            result, change = Result.SUCCESS, Change.CRIT_SUCCEEDS
    elif barred and attribute >= difficulty and not legacy:
        change = Change.FOURS_BARRED
    elif lot == Lot.FUMBLE and base == Result.SUCCESS:
        if cannot_fail(prof, level, attack=attack):
            change = Change.FUMBLE_BARRED
        else:
            result, change = Result.FAILURE, Change.FUMBLE_FAILS
    return Reading(
        lot=lot,
        base=base,
        result=result,
        change=change,
        fortune=fortune_of(lot),
        may_retry=able and lot in RETRY_LOTS and (legacy or result != Result.SUCCESS),
    )
