"""Movement and slopes (rules/feat/movement.py)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wyrd.rules.feat import Going, Pace, distance, parse_gradient, rounds_to_cover, slope_factor, speed
from wyrd.rules.feat.movement import BASE_FEET_PER_ROUND, ROUND_SECONDS

UP, DOWN = Going.UP, Going.DOWN


def test_a_round_is_a_second() -> None:
    """Seed 003: a round is equivalent to one second of action."""
    assert ROUND_SECONDS == 1


def test_base_rates() -> None:
    """[ours] The seed's movement table is missing: walk 5 ft, jog 10, run 15, sprint 20 a round."""
    assert BASE_FEET_PER_ROUND == {Pace.WALK: 5, Pace.JOG: 10, Pace.RUN: 15, Pace.SPRINT: 20}
    assert speed(Pace.SPRINT) == 20
    assert distance(Pace.JOG, 6) == 60


@pytest.mark.parametrize(
    ("gradient", "up", "down"),
    [
        ("0", 1, 1),
        ("1:20", 1, 1),
        ("1:10", 1, 1),  # "up to 1:10": no effect
        ("1:8", Fraction(4, 5), 1),  # 1:10 to 1:5: a fifth slower going up
        ("1:5", Fraction(4, 5), 1),  # [ours] a boundary takes the gentler band
        ("1:3", Fraction(1, 2), Fraction(4, 5)),  # 1:5 to 1:2: half up, a fifth slower down
        ("1:2", Fraction(1, 2), Fraction(4, 5)),
        ("2:3", Fraction(1, 4), Fraction(1, 2)),  # steeper than 1:2: a quarter up, half down
        ("1:1", Fraction(1, 4), Fraction(1, 2)),
    ],
)
def test_slopes(gradient: str, up: Fraction, down: Fraction) -> None:
    """Seed 003: hills to 1:10 change nothing; 1:10-1:5 cut speed by 1/5 going up; 1:5-1:2 by 1/2
    up and 1/5 down; steeper than 1:2 to 1/4 up and 1/2 down."""
    g = parse_gradient(gradient)
    assert slope_factor(g, UP) == up
    assert slope_factor(g, DOWN) == down


def test_speed_on_a_slope() -> None:
    """Seed 003 slopes applied to the [ours] base rates: running up a 1:3 hill, 15 * 1/2 a round."""
    assert speed(Pace.RUN, Fraction(1, 3), UP) == Fraction(15, 2)
    assert speed(Pace.WALK, Fraction(1, 1), DOWN) == Fraction(5, 2)
    assert rounds_to_cover(100, Pace.RUN, Fraction(1, 3), UP) == 14  # 7.5 ft a round
    assert rounds_to_cover(0, Pace.WALK) == 0


def test_bad_values() -> None:
    """A gradient is RISE:DISTANCE and never negative (the direction says up or down)."""
    for text in ("steep", "1:0", "-1:5", "1:"):
        with pytest.raises(ValueError):
            parse_gradient(text)
    with pytest.raises(ValueError):
        slope_factor(Fraction(-1, 5))
    with pytest.raises(ValueError):
        distance(Pace.WALK, -1)
    with pytest.raises(ValueError):
        rounds_to_cover(-5, Pace.WALK)
    assert parse_gradient("0.25") == Fraction(1, 4)
