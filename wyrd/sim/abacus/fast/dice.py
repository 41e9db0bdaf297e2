"""The plain rules' dice: a d6 drawn as CPython's ``randint(1, 6)`` draws it, and the run's dice for tie-breaks.

The plain path must draw the same faces as the rules core's ``SeededSource`` (a
``random.Random`` asked ``randint(1, 6)``). :data:`BITS_ARE_FACES` says, checked when
this module loads, whether a face is the first 3-bit draw under 6, plus 1, as it is in
CPython: drawing the bits directly saves two calls a die.
"""

from __future__ import annotations

import random
from collections.abc import Callable

__all__ = ["BITS_ARE_FACES", "RunFaces"]


def _bits_are_faces() -> bool:
    """Whether ``randint(1, 6)`` is the first of 3-bit draws under 6, plus 1, on this Python.

    It is in CPython (``Random._randbelow_with_getrandbits``); should another Python draw otherwise,
    the plain rules use ``randint`` itself.
    """
    checked, drawn = random.Random(21), random.Random(21)
    for _ in range(2000):
        r = drawn.getrandbits(3)
        while r >= 6:
            r = drawn.getrandbits(3)
        if checked.randint(1, 6) != r + 1:
            return False
    return checked.random() == drawn.random()


BITS_ARE_FACES = _bits_are_faces()


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
