"""Assessing a target's Tier (rules/lots/assess.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.lots import Commitment, Discipline, GapSize, appraise, assess, assessment_minutes, gap_size
from wyrd.rules.lots.events import ActionLost, Assessed

INGENUITY, PROWESS = Discipline.INGENUITY, Discipline.PROWESS


def test_meeting_the_tier_is_accurate() -> None:
    """Seed 004: a Proficiency that meets or exceeds the target's Tier learns it exactly."""
    found = appraise(6, 6)
    assert (found.accurate, found.gap, found.gap_size) == (True, 0, GapSize.NONE)
    assert appraise(7, 6).accurate


def test_a_higher_tier_gives_a_sense_of_the_gap() -> None:
    """Seed 004: a target above you gives only a sense of the gap, small or large."""
    assert (appraise(5, 7).gap, appraise(5, 7).gap_size) == (2, GapSize.SMALL)
    assert (appraise(2, 9).gap, appraise(2, 9).gap_size) == (7, GapSize.LARGE)


def test_gap_sizes_follow_the_rule_of_fours() -> None:
    """[ours] Small up to 3 (a CRIT could still carry a check), large from 4 (it can't)."""
    assert [gap_size(g) for g in range(6)] == [
        GapSize.NONE, GapSize.SMALL, GapSize.SMALL, GapSize.SMALL, GapSize.LARGE, GapSize.LARGE]


@pytest.mark.parametrize(
    ("commitment", "effective"),
    [(Commitment.OBSERVE, 4), (Commitment.TOUCH, 5), (Commitment.AGGRESSIVE, 6)],
)
def test_commitment(commitment: Commitment, effective: int) -> None:
    """Seed 004: observation only counts your Tier 1 lower; a cautious touch as it is;
    aggressive prodding or tool use 1 higher."""
    assert appraise(5, 6, commitment).effective == effective
    assert Commitment(commitment).modifier == effective - 5


def test_the_time_for_things() -> None:
    """Seed 004: assessing a non-living thing takes 4 minutes, plus 2 per Tier, minus your
    Proficiency."""
    assert assessment_minutes(5, 3) == 11
    assert assessment_minutes(2, 6) == 2
    assert appraise(3, 5).minutes == 11


def test_the_time_is_at_least_a_minute() -> None:
    """[ours] Even the easiest assessment takes a minute."""
    assert assessment_minutes(0, 10) == 1


def test_the_time_uses_the_plain_proficiency() -> None:
    """[ours] The time comes from the Discipline's Proficiency, before commitment."""
    assert appraise(3, 5, Commitment.OBSERVE).minutes == appraise(3, 5, Commitment.AGGRESSIVE).minutes


def test_living_targets_have_no_formula() -> None:
    """Seed 004: the formula is for non-living things; watching a fighter may take moments."""
    assert appraise(3, 5, living=True).minutes is None


def test_patience_and_haste() -> None:
    """Seed 004 (narrator's note): willing to spend longer than needed may add a Tier; rushing or
    duress should lower it. [ours] +1 when the time offered exceeds the time needed; -1 rushed."""
    assert appraise(3, 5, willing_minutes=30).effective == 4
    assert appraise(3, 5, willing_minutes=11).effective == 3  # exactly the time needed: no bonus
    assert appraise(3, 5, rushed=True).effective == 2
    assert appraise(3, 5, living=True, willing_minutes=30).effective == 3


def test_the_assess_action(table) -> None:
    """Seed 004: compare the Proficiency of the most relevant Discipline with the Tier; no lots."""
    events = table.do(assess, "Ada", INGENUITY, 7, commitment=Commitment.AGGRESSIVE, subject="the trap")
    assert events == [Assessed(
        character="Ada", subject="the trap", discipline=INGENUITY, tier=7, proficiency=6, effective=7,
        commitment=Commitment.AGGRESSIVE, accurate=True, gap=0, gap_size=GapSize.NONE, minutes=12,
    )]
    assert table.dice.history == []


def test_assessing_spends_a_lost_action(table) -> None:
    """[ours] Assessing is an action: a character who lost theirs spends it reeling."""
    table.char("Ada").condition.loses_action = True
    assert table.do(assess, "Ada", PROWESS, 3) == [ActionLost(character="Ada", action="assess")]


def test_assess_refusals(table) -> None:
    table.refuse("lots.assess.tier", assess, "Ada", PROWESS, -1)
    table.refuse("lots.assess.minutes", assess, "Ada", PROWESS, 3, willing_minutes=-5)
    table.char("Ada").condition.incapacitated = True
    table.refuse("lots.mettle.incapacitated", assess, "Ada", PROWESS, 3)
