"""The simulator's estimates agree with the exact odds of wyrd.rules.odds where those have a closed form."""

from __future__ import annotations

from fractions import Fraction

from wyrd.rules.odds import challenge_odds
from wyrd.sim.abacus import Fixed, simulate
from wyrd.stories.schema import Story


def test_one_challenge_agrees_with_the_exact_odds(one_door: Story) -> None:
    """Value 7, two points and no Wyrd: P = 1/3, inside the reported interval."""
    exact = challenge_odds(7, points=2).p_overcome
    assert exact == Fraction(1, 3)
    report = simulate(one_door, 3000, policy=Fixed(points=2, draw_up_to=0), seed=11)
    (door,) = report.scenes[0].challenges
    assert door.placed == 3000 and door.attempted.k == 3000
    assert door.overcome.contains(1 / 3), door.overcome
    assert door.overcome.low < 1 / 3 < door.overcome.high
    assert door.exact == exact  # every attempt the same: the closed form is reported
    assert door.roll.mean == float(exact) and door.roll.sd == 0
    assert report.scenes[0].points.mean == 2 and report.scenes[0].wyrd.mean == 0
    assert report.stuck.k == 0 and report.finale.finished.k == 3000


def test_wyrd_budget_raises_the_chance_as_the_odds_say(one_door: Story) -> None:
    """With the pool (1 character + 1 = 2 Wyrd) behind the die: 2/3, and draws counted as Wyrd spent."""
    report = simulate(one_door, 1000, policy=Fixed(points=2, draw_up_to=2), seed=5)
    (door,) = report.scenes[0].challenges
    assert door.exact == challenge_odds(7, points=2, pool=2).p_with_pool == Fraction(2, 3)
    assert door.overcome.contains(2 / 3), door.overcome
    expected_draws = float(challenge_odds(7, points=2, pool=2).expected_draws)
    assert report.scenes[0].wyrd.contains(expected_draws), report.scenes[0].wyrd


def test_mixed_conditions_report_the_mean_exact_chance(one_door: Story) -> None:
    """The random policy varies points and budget: no single closed form, but the mean of the exact
    chances of the attempts agrees with the count of successes."""
    report = simulate(one_door, 1000, policy="random", seed=2)
    (door,) = report.scenes[0].challenges
    assert door.exact is None
    assert door.overcome.low - 0.02 <= door.roll.mean <= door.overcome.high + 0.02
    assert door.roll.low <= door.overcome.p <= door.roll.high or door.overcome.contains(door.roll.mean)
