"""The fast paths' faces are ``random.Random.randint(1, sides)``'s (issue 21, point 1: the same seed gives
the same report as the checked path, whose dice are the rules' :class:`~wyrd.rules.dice.SeededSource`)."""

from __future__ import annotations

import random

import pytest

from wyrd.rules.dice import Dice, SeededSource
from wyrd.sim.faces import SeededFaces, face

# every die the rulesets roll (d6, d8, d10, d12, d20, d100), and odd sizes either side of a power of two
SIDES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 16, 17, 20, 31, 32, 33, 100, 1000)


@pytest.mark.parametrize("sides", SIDES)
def test_a_face_is_the_one_randint_draws(sides: int) -> None:
    ours, theirs = random.Random(f"21:{sides}"), random.Random(f"21:{sides}")
    assert [face(ours, sides) for _ in range(2000)] == [theirs.randint(1, sides) for _ in range(2000)]
    assert ours.getstate() == theirs.getstate()  # the stream stands where it would: the next dice agree too


def test_dice_on_seeded_faces_roll_what_the_sessions_dice_roll() -> None:
    ours, theirs = Dice(SeededFaces("1234:7")), Dice(SeededSource("1234:7"))
    for n, sides in [(1, 100), (3, 8), (2, 6), (1, 100), (3, 8), (4, 10), (1, 20)] * 50:
        assert ours.roll(n, sides, "x") == theirs.roll(n, sides, "x")
