"""Dice faces from a seeded ``random.Random``, exactly as ``randint(1, sides)`` draws them, in fewer calls.

The simulators' fast paths roll the faces a play session would roll, from the same seeded
generators, so a face must be the one ``Random.randint(1, sides)`` gives. CPython draws it as
``1 + _randbelow(sides)``: the fewest random bits that can hold ``sides`` values, drawn again
while the number is too big. Drawing those bits here, in the same order, takes two calls
(:func:`face`, ``getrandbits``) where ``randint`` takes four (``randint``, ``randrange``,
``_randbelow``, ``getrandbits``), and a simulation rolls dozens of dice a run.
``tests/sim/test_faces.py`` holds the faces to ``randint``'s on every die in play, and
:data:`BITS_ARE_FACES` checks it again when this module loads: on a Python that drew them
otherwise, :func:`face` is ``randint`` itself (and the Abacus's plain path, which draws its d6
inline the same way, asks ``randint`` too).
"""

from __future__ import annotations

import random

from wyrd.rules.dice import SeededSource

__all__ = ["BITS_ARE_FACES", "SeededFaces", "face"]


def _face_from_bits(source: random.Random, sides: int) -> int:
    bits = sides.bit_length()
    drawn = source.getrandbits(bits)
    while drawn >= sides:
        drawn = source.getrandbits(bits)
    return drawn + 1


def _face_from_randint(source: random.Random, sides: int) -> int:
    return source.randint(1, sides)


def _bits_are_faces() -> bool:
    """Whether ``randint(1, sides)`` is the first draw of ``sides.bit_length()`` bits under ``sides``, plus 1,
    on this Python, for the dice the rulesets roll (it is in CPython: ``Random._randbelow_with_getrandbits``)."""
    checked, drawn = random.Random(21), random.Random(21)
    for sides in (6, 8, 10, 12, 20, 100):
        for _ in range(500):
            if checked.randint(1, sides) != _face_from_bits(drawn, sides):
                return False
    return checked.random() == drawn.random()


BITS_ARE_FACES = _bits_are_faces()

face = _face_from_bits if BITS_ARE_FACES else _face_from_randint
"""One face of a die of ``sides`` sides from ``source``: ``source.randint(1, sides)``."""


class SeededFaces(SeededSource):
    """A :class:`~wyrd.rules.dice.SeededSource` that draws its faces as :func:`face` does."""

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        drawn_from = self._random
        return [face(drawn_from, sides) for _ in range(n)]
