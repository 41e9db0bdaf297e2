"""The dice a random table is rolled with, and their exact distribution.

A table names its dice in a short notation:

* ``dN`` or ``KdN``: K dice of N sides, summed (``d6``, ``2d6``, ``d12``, ``d100``).
  ``d100`` is read as one hundred-sided die, faces 1 to 100.
* ``d66``: two d6 read as tens and units (11 to 66, only digits 1 to 6).
* ``weights``: no printed ranges; each row carries a weight, and one die with as
  many sides as the weights add up to picks the row.

:meth:`DiceSpec.outcomes` enumerates the exact number of ways each value comes up,
which both the range checks (a value no row covers is a gap) and the selftest's
chi-square comparison use. Rolling goes through :class:`wyrd.rules.dice.Dice` only.
"""

from __future__ import annotations

import re
from functools import cached_property

from pydantic import BaseModel, ConfigDict

from wyrd.rules.dice import Dice

__all__ = ["MAX_DICE", "MAX_SIDES", "DiceSpec", "parse_dice"]

MAX_DICE = 10
MAX_SIDES = 1000
_NOTATION = re.compile(r"^(\d*)d(\d+)$")


class DiceSpec(BaseModel):
    """Parsed dice notation: ``kind`` is ``sum``, ``d66`` or ``weights``."""

    model_config = ConfigDict(frozen=True)

    notation: str
    kind: str
    count: int = 0
    sides: int = 0

    @property
    def weighted(self) -> bool:
        return self.kind == "weights"

    @cached_property
    def _outcomes(self) -> dict[int, int]:
        if self.kind == "d66":
            return {tens * 10 + units: 1 for tens in range(1, 7) for units in range(1, 7)}
        if self.kind == "weights":
            return {}
        ways = {0: 1}
        for _ in range(self.count):
            nxt: dict[int, int] = {}
            for total, n in ways.items():
                for face in range(1, self.sides + 1):
                    nxt[total + face] = nxt.get(total + face, 0) + n
            ways = nxt
        return dict(sorted(ways.items()))

    def outcomes(self) -> dict[int, int]:
        """Every value the dice can show, with how many ways it comes up (empty for weights)."""
        return dict(self._outcomes)

    @property
    def low(self) -> int:
        return min(self._outcomes, default=0)

    @property
    def high(self) -> int:
        return max(self._outcomes, default=0)

    def roll(self, dice: Dice, purpose: str) -> tuple[int, tuple[int, ...]]:
        """Roll these dice: the value read and the faces shown."""
        if self.kind == "weights":
            raise ValueError("a weighted table is rolled through its weights, not its dice")
        if self.kind == "d66":
            faces = dice.roll(2, 6, purpose).faces
            return faces[0] * 10 + faces[1], faces
        faces = dice.roll(self.count, self.sides, purpose).faces
        return sum(faces), faces


def parse_dice(text: str) -> DiceSpec:
    """Read a dice notation; a ``ValueError`` says what is wrong with it."""
    notation = str(text).strip().lower()
    if notation == "weights":
        return DiceSpec(notation=notation, kind="weights")
    if notation == "d66":
        return DiceSpec(notation=notation, kind="d66", count=2, sides=6)
    match = _NOTATION.match(notation)
    if match is None:
        raise ValueError(f"{text!r} is not dice notation (d6, 2d6, d66, d100 or weights)")
    count = int(match.group(1) or 1)
    sides = int(match.group(2))
    if not 1 <= count <= MAX_DICE:
        raise ValueError(f"{text!r}: roll 1 to {MAX_DICE} dice, not {count}")
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"{text!r}: a die has 2 to {MAX_SIDES} sides, not {sides}")
    return DiceSpec(notation=notation, kind="sum", count=count, sides=sides)
