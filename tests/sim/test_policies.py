"""The policies differ in a sensible direction on the bundled story, and decide by the exact odds."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from wyrd.rules.abacus import ChallengeType
from wyrd.rules.odds import challenge_odds
from wyrd.sim.abacus import Bold, Cautious, Member, RandomPolicy, Situation, simulate
from wyrd.sim.abacus.policy import points_for


def test_cautious_spends_more_and_is_defeated_no_more_than_bold() -> None:
    cautious = simulate("hollow-fair", 100, policy="cautious", seed=1)
    bold = simulate("hollow-fair", 100, policy="bold", seed=1)
    assert cautious.points.low > bold.points.high  # spends more points, beyond doubt
    assert bold.wyrd.low > cautious.wyrd.high  # leans on the pool instead
    defeated = [sum(c.defeated.k for c in r.characters) for r in (cautious, bold)]
    assert defeated[0] <= defeated[1]
    # Spending for certainty overcomes more of the story's challenges.
    assert sum(s.cleared.k for s in cautious.scenes) > sum(s.cleared.k for s in bold.scenes)


def at(value: int, pool: int, *points: int) -> Situation:
    members = tuple(Member(name, n, 0) for name, n in zip("ABC", points, strict=False))
    return Situation("c", ChallengeType.THREAT, value, pool, members, 1)


def test_cautious_buys_certainty_counting_one_wyrd_point() -> None:
    plan = Cautious().plan(at(7, 3, 4, 3), random.Random(0))
    assert plan.lead == "A" and plan.points == 5 and plan.draw_up_to == 2  # the lead's own Wyrd stops at 2
    assert plan.spend == (("A", 3), ("B", 2))  # each keeps a point
    assert challenge_odds(7, plan.points, 1).p_with_pool == 1


def test_cautious_weighs_the_finales_price_of_the_wyrd() -> None:
    """Issue 18, point 4: with the price shown beside the odds, a careful party stops drawing once
    the lead's own Wyrd reaches 2 (31% held at the finale), or 4 in the finale scene, whose rolls
    decide the ending; without a Wyrd point to count on, it buys certainty with points alone."""
    heavy = Situation("c", ChallengeType.THREAT, 7, 3, (Member("A", 9, 2), Member("B", 3, 0)), 1)
    plan = Cautious().plan(heavy, random.Random(0))
    assert plan.draw_up_to == 0 and plan.points == 6
    climax = Situation("c", ChallengeType.THREAT, 7, 3, (Member("A", 9, 2), Member("B", 3, 0)), 1, finale=True)
    assert Cautious().plan(climax, random.Random(0)).draw_up_to == 2


def test_bold_buys_an_even_chance_with_the_whole_pool() -> None:
    plan = Bold().plan(at(9, 2, 6), random.Random(0))
    assert plan.points == 3 and plan.spend == (("A", 3),)
    assert challenge_odds(9, 3, 2).p_with_pool == Fraction(1, 2)
    assert challenge_odds(9, 2, 2).p_with_pool < Fraction(1, 2)


def test_random_stays_within_what_the_rules_allow() -> None:
    rng = random.Random(3)
    for _ in range(200):
        plan = RandomPolicy().plan(at(6, 2, 3, 1), rng)
        assert plan.lead in "AB" and 0 <= plan.points <= 4 and 0 <= plan.draw_up_to <= 2


@pytest.mark.parametrize("value", range(0, 14))
def test_points_for_is_the_closed_form_of_the_odds(value: int) -> None:
    for pool in range(4):
        for chance in (Fraction(0), Fraction(1, 6), Fraction(1, 2), Fraction(2, 3), Fraction(1)):
            points = points_for(value, chance, pool)
            assert challenge_odds(value, points, pool).p_with_pool >= chance
            assert points == 0 or challenge_odds(value, points - 1, pool).p_with_pool < chance
