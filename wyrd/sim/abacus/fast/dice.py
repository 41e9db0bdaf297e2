"""The plain rules' dice: a d6 drawn as CPython's ``randint(1, 6)`` draws it, and the run's dice for tie-breaks.

The plain path must draw the same faces as the rules core's ``SeededSource`` (a
``random.Random`` asked ``randint(1, 6)``). :data:`~wyrd.sim.faces.BITS_ARE_FACES` says,
checked when :mod:`wyrd.sim.faces` loads, whether a face is the first 3-bit draw under 6,
plus 1, as it is in CPython: drawing the bits directly saves two calls a die.
"""

from __future__ import annotations

from collections.abc import Callable

from wyrd.sim.faces import BITS_ARE_FACES

__all__ = ["BITS_ARE_FACES", "RunFaces"]


class RunFaces:
    """A dice source giving the run's own faces (``wyrd.rules.dice.DiceSource``), for the rules core's tie-breaks.

    Args:
        d6: The run's draw of ``n`` d6 faces.
    """

    trusted = True

    def __init__(self, d6: Callable[[int], list[int]]) -> None:
        self.d6 = d6

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return self.d6(n)

    def get_state(self) -> object:
        raise NotImplementedError("a run's dice are not rewound")

    def set_state(self, state: object) -> None:
        raise NotImplementedError("a run's dice are not rewound")
