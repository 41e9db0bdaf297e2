"""Dice faces from a seeded ``random.Random``, exactly as ``randint(1, sides)`` draws them, in fewer calls.

The simulators' fast paths roll the faces a play session would roll, from the same seeded
generators, so a face must be the one ``Random.randint(1, sides)`` gives. CPython draws it as
``1 + _randbelow(sides)``: the fewest random bits that can hold ``sides`` values, drawn again
while the number is too big. Drawing those bits here, in the same order, takes two calls
(:func:`face`, ``getrandbits``) where ``randint`` takes four (``randint``, ``randrange``,
``_randbelow``, ``getrandbits``), and a simulation rolls dozens of dice a run.
``tests/sim/test_faces.py`` holds the faces to ``randint``'s on every die in play, so a
Python that drew them otherwise would be caught.
"""

from __future__ import annotations

import random

from wyrd.rules.dice import SeededSource

__all__ = ["SeededFaces", "face"]


def face(source: random.Random, sides: int) -> int:
    """One face of a die of ``sides`` sides: ``source.randint(1, sides)``."""
    bits = sides.bit_length()
    drawn = source.getrandbits(bits)
    while drawn >= sides:
        drawn = source.getrandbits(bits)
    return drawn + 1


class SeededFaces(SeededSource):
    """A :class:`~wyrd.rules.dice.SeededSource` that draws its faces as :func:`face` does."""

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        drawn_from = self._random
        return [face(drawn_from, sides) for _ in range(n)]
