"""The Feat table: from a Feat level and three d8 to success or failure.

Seed 003: the character's level (an attribute, or a skill after its d100 step-up)
is taken from the Difficulty, and the difference is the Feat level, which may be
negative, zero or positive. RULES.md clamps it to -8..+8 and gives the table:
3d8 are rolled; one die is read at levels -2..+2, two at ±3..±5, three at
±6..±8, each against its own minimum. Above 0 every die read must reach its
minimum; at 0 and below one is enough.

How the dice are read [ours, fitted to the text and to RULES.md's fractions]:

* The dice keep the order they were rolled in, and the dice read are the first
  ones: in the seed's pickpocket example, at level -5, the thief fails only when
  the first two d8 both show 1.
* Die ``i`` is matched against minimum ``i`` of the level, in the order the table
  lists them (so at +4, ``8,7``: the first die must show 8 and the second 7 or
  more). Matching in order is what makes every step of the table halve the odds
  (1/32 at +4); sorting the dice first would give 3/64 there and 5/256 at +6.

Wyrd points [pub, RULES.md]: 5 buy an automatic 8 on one die read; [ours] at most
one bought 8 per die, decided before the 3d8 are rolled (the seed sets Wyrd
beside the dice as the other way to settle a feat). The number asked for is a
ceiling: only what the level can use is bought and paid for. At levels that need
every die, the 8s go on the dice with the highest minimums (the first of equals);
at 0 and below one 8 already settles the feat, so at most one is bought. The
three d8 are rolled all the same [ours], so every feat leaves the same record.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from pydantic import BaseModel, ConfigDict

from wyrd.rules.feat.enums import Needs

__all__ = [
    "DICE_ROLLED",
    "FEAT_MAX",
    "FEAT_MIN",
    "MINIMUMS",
    "SIDES",
    "WYRD_PER_EIGHT",
    "FeatRead",
    "clamp_level",
    "dice_read",
    "eight_positions",
    "feat_level",
    "max_eights",
    "needs",
    "read_feat",
]

FEAT_MIN = -8
FEAT_MAX = 8
SIDES = 8
DICE_ROLLED = 3
WYRD_PER_EIGHT = 5
"""Wyrd points that buy one automatic 8 [pub]."""

MINIMUMS: dict[int, tuple[int, ...]] = {
    -8: (2, 2, 2),
    -7: (2, 2, 3),
    -6: (2, 2, 5),
    -5: (2, 2),
    -4: (2, 3),
    -3: (3, 3),
    -2: (2,),
    -1: (3,),
    0: (5,),
    1: (7,),
    2: (8,),
    3: (7, 7),
    4: (8, 7),
    5: (8, 8),
    6: (8, 8, 5),
    7: (8, 8, 7),
    8: (8, 8, 8),
}
"""The minimum each die read must show, per Feat level (RULES.md)."""


def _check_level(level: int) -> None:
    if not FEAT_MIN <= level <= FEAT_MAX:
        raise ValueError(f"a Feat level runs from {FEAT_MIN} to +{FEAT_MAX} (got {level})")


def clamp_level(raw: int) -> int:
    """A computed Feat level brought into -8..+8 (RULES.md: the table ends there)."""
    return max(FEAT_MIN, min(FEAT_MAX, raw))


def feat_level(difficulty: int, effective: int) -> int:
    """Seed 003: the character's (effective) level is taken from the Difficulty, then clamped."""
    return clamp_level(difficulty - effective)


def needs(level: int) -> Needs:
    """Above 0 every die read must reach its minimum; at 0 and below one is enough."""
    _check_level(level)
    return Needs.ALL if level > 0 else Needs.ANY


def dice_read(level: int) -> int:
    """How many of the three d8 count at ``level``: 1, 2 or 3."""
    _check_level(level)
    return len(MINIMUMS[level])


def max_eights(level: int) -> int:
    """The most bought 8s that ``level`` can use: one per die read, or one where any die will do."""
    return dice_read(level) if needs(level) is Needs.ALL else 1


@cache  # at most 17 levels x 4 numbers of 8s: every feat asks
def eight_positions(level: int, eights: int) -> tuple[int, ...]:
    """Which dice read (0-based) get the bought 8s when up to ``eights`` are asked for.

    Raises:
        ValueError: If ``eights`` is not 0 to 3 (one per die at most) or the level is off the table.
    """
    if not 0 <= eights <= DICE_ROLLED:
        raise ValueError(f"at most one bought 8 per die: 0 to {DICE_ROLLED}, not {eights}")
    bought = min(eights, max_eights(level))
    minimums = MINIMUMS[level]
    # The hardest dice first; sorted() is stable, so equal minimums keep their order.
    hardest = sorted(range(len(minimums)), key=lambda i: -minimums[i])
    return tuple(sorted(hardest[:bought]))


class FeatRead(BaseModel):
    """The Feat table applied to one roll.

    Attributes:
        level: The Feat level, -8 to +8.
        needs: Whether all the dice read or any one of them must reach its minimum.
        minimums: The minimum for each die read, in order.
        dice: The faces of the three d8, in the order rolled.
        bought: Positions (0-based, among the dice read) that show a bought 8.
        read: The value of each die read: its face, or 8 where one was bought.
        met: For each die read, whether it reached its minimum.
        success: Whether the feat succeeds.
    """

    model_config = ConfigDict(frozen=True)

    level: int
    needs: Needs
    minimums: tuple[int, ...]
    dice: tuple[int, ...]
    bought: tuple[int, ...]
    read: tuple[int, ...]
    met: tuple[bool, ...]
    success: bool

    @property
    def wyrd_spent(self) -> int:
        return WYRD_PER_EIGHT * len(self.bought)


def read_feat(level: int, faces: Sequence[int], eights: int = 0) -> FeatRead:
    """Read three d8 on the Feat table at ``level``, with up to ``eights`` bought 8s.

    Args:
        level: The Feat level, -8 to +8.
        faces: The three d8 in the order rolled.
        eights: The most 8s to buy (0 to 3); see the module notes for which dice get them.

    Raises:
        ValueError: If the level is off the table, there are not three faces from 1 to 8,
            or ``eights`` is not 0 to 3.

    Example:
        >>> read_feat(-5, (1, 1, 8)).success
        False
        >>> read_feat(4, (8, 7, 1)).success
        True
    """
    return _read_feat(level, tuple(faces), eights)


@lru_cache(maxsize=2048)  # the rolls seen lately (a FeatRead is frozen); bounded, so a long game stays flat
def _read_feat(level: int, faces: tuple[int, ...], eights: int) -> FeatRead:
    _check_level(level)
    if len(faces) != DICE_ROLLED or any(not 1 <= f <= SIDES for f in faces):
        raise ValueError(f"the Feat table reads {DICE_ROLLED} d8 (faces 1 to {SIDES}), got {tuple(faces)}")
    minimums = MINIMUMS[level]
    bought = eight_positions(level, eights)
    read = tuple(SIDES if i in bought else faces[i] for i in range(len(minimums)))
    met = tuple(value >= minimum for value, minimum in zip(read, minimums, strict=True))
    mode = needs(level)
    return FeatRead(
        level=level,
        needs=mode,
        minimums=minimums,
        dice=tuple(faces),
        bought=bought,
        read=read,
        met=met,
        success=all(met) if mode is Needs.ALL else any(met),
    )
