"""Movement: feet per one-second round, and how slopes slow it.

Seed 003: in fast action the game goes round by round, a round being one second,
and everyone in a round moves at the same time. The seed's table of movement
rates is missing from the text, so the base rates are [ours], for an unencumbered
character on level ground: walk 5 ft, jog 10, run 15, sprint 20 per round.

Slopes, as the seed gives them (gradient = rise over distance, 1:10 = 1/10):

================== ========= ===========
gradient           going up  going down
================== ========= ===========
up to 1:10         no change no change
1:10 to 1:5        4/5       no change
1:5 to 1:2         1/2       4/5
steeper than 1:2   1/4       1/2
================== ========= ===========

"Reduce by 1/5" keeps four fifths of the speed; "reduce to 1/4" keeps a quarter.
[ours] A gradient exactly on a boundary (1:10, 1:5, 1:2) takes the gentler band,
as "up to 1:10" does in the text. Everything here is exact (:class:`Fraction`), and the
gradients read and speeds worked out are kept (the same few come back in every move a story asks for).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import ceil

from wyrd.rules.feat.enums import Going, Pace

__all__ = [
    "BASE_FEET_PER_ROUND",
    "ROUND_SECONDS",
    "distance",
    "parse_gradient",
    "rounds_to_cover",
    "slope_factor",
    "speed",
]

ROUND_SECONDS = 1
"""Seed 003: a round is one second of action."""

BASE_FEET_PER_ROUND: dict[Pace, int] = {Pace.WALK: 5, Pace.JOG: 10, Pace.RUN: 15, Pace.SPRINT: 20}
"""[ours] Feet moved in one round, unencumbered, on level ground."""

# (steepest gradient of the band, factor going up, factor going down), gentlest band first.
_BANDS: tuple[tuple[Fraction, Fraction, Fraction], ...] = (
    (Fraction(1, 10), Fraction(1), Fraction(1)),
    (Fraction(1, 5), Fraction(4, 5), Fraction(1)),
    (Fraction(1, 2), Fraction(1, 2), Fraction(4, 5)),
)
_STEEPEST = (Fraction(1, 4), Fraction(1, 2))


@lru_cache(maxsize=256)
def parse_gradient(text: str) -> Fraction:
    """Read ``"1:5"`` (rise:distance) or a plain number as a gradient.

    Raises:
        ValueError: If it is not a ratio of two numbers with a positive distance, or is negative.
    """
    rise_text, colon, run_text = text.strip().partition(":")
    try:
        gradient = Fraction(rise_text) / Fraction(run_text) if colon else Fraction(rise_text)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"a gradient is written RISE:DISTANCE, such as 1:5 (got {text!r})") from None
    if gradient < 0:
        raise ValueError(f"a gradient can't be negative (got {text!r}); say whether it goes up or down")
    return gradient


def slope_factor(gradient: Fraction | int, going: Going = Going.UP) -> Fraction:
    """The share of speed kept on a slope of ``gradient`` (rise over distance).

    Raises:
        ValueError: If the gradient is negative.

    Example:
        >>> slope_factor(Fraction(1, 4), Going.UP)
        Fraction(1, 2)
    """
    steepness = Fraction(gradient)
    if steepness < 0:
        raise ValueError(f"a gradient can't be negative (got {steepness})")
    for limit, up, down in _BANDS:
        if steepness <= limit:
            return up if going is Going.UP else down
    up, down = _STEEPEST
    return up if going is Going.UP else down


@lru_cache(maxsize=256)
def speed(pace: Pace, gradient: Fraction | int = 0, going: Going = Going.UP) -> Fraction:
    """Feet per round at ``pace`` on a slope (level ground by default)."""
    return BASE_FEET_PER_ROUND[Pace(pace)] * slope_factor(gradient, Going(going))


def distance(pace: Pace, rounds: int, gradient: Fraction | int = 0, going: Going = Going.UP) -> Fraction:
    """Feet covered in ``rounds`` rounds.

    Raises:
        ValueError: If ``rounds`` is negative.
    """
    if rounds < 0:
        raise ValueError(f"rounds can't be negative (got {rounds})")
    return rounds * speed(pace, gradient, going)


def rounds_to_cover(feet: Fraction | int, pace: Pace, gradient: Fraction | int = 0, going: Going = Going.UP) -> int:
    """Whole rounds needed to cover ``feet`` (the last round may be cut short).

    Raises:
        ValueError: If ``feet`` is negative.
    """
    if feet < 0:
        raise ValueError(f"a distance can't be negative (got {feet})")
    return ceil(Fraction(feet) / speed(pace, gradient, going))
