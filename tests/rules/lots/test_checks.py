"""Checks, second tries and bare lots (rules/lots/checks.py)."""

from __future__ import annotations

from wyrd.rules.lots import (
    Change,
    CheckForm,
    Discipline,
    Fortune,
    GapSize,
    Lot,
    Result,
    cast_lots,
    check,
    retry,
)
from wyrd.rules.lots.events import ActionLost, Assessed, CheckCast, LotsCast

PROWESS, INGENUITY = Discipline.PROWESS, Discipline.INGENUITY


def test_a_check_casts_weal_then_woe(table) -> None:
    """Seed 004: choose one d4 as the WEAL die and the other as the WOE die; each cast rolls
    both, through the dice, named for what they are."""
    table.faces(3, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    rolls = table.dice.history[-2:]
    assert [(r.sides, r.faces, r.purpose) for r in rolls] == [(4, (3,), "weal"), (4, (2,), "woe")]


def test_check_cast_event(table) -> None:
    """Seed 004: compare the Attribute with the Difficulty, then cast lots."""
    table.faces(4, 3)
    events = table.do(check, "Ada", 6, discipline=INGENUITY, effort=2, purpose="pick the lock")
    (cast,) = table.of(CheckCast, events)
    assert cast == CheckCast(
        cast="c1", character="Ada", form=CheckForm.CHECK, purpose="pick the lock", discipline=INGENUITY,
        attribute=6, difficulty=6, proficiency=6, tier=6, effort=2, weal=4, woe=3, lot=Lot.WEAL,
        base=Result.SUCCESS, outcome=Result.SUCCESS, change=Change.NONE, fortune=Fortune.WEAL,
    )


def test_value_and_modifier(table) -> None:
    """Seed 004: the Attribute may be a Discipline or a Stat; [ours] a check names a value
    directly, and a modifier is added to either."""
    table.faces(2, 2, 2, 2)
    table.do(check, "Ada", 7, value=4, modifier=2)
    table.do(check, "Ada", 7, discipline=PROWESS, modifier=-1)
    assert [e.attribute for e in table.of(CheckCast)] == [6, 4]


def test_a_crit_lifts_a_failure(table) -> None:
    """Seed 004: a CRIT is an automatic success (the Tier within 4 of the Proficiency)."""
    table.faces(4, 4)
    (cast, *_) = table.do(check, "Ada", 8, discipline=PROWESS)
    assert (cast.base, cast.outcome, cast.change) == (Result.FAILURE, Result.SUCCESS, Change.CRIT_SUCCEEDS)


def test_rule_of_fours_bars_the_crit(table) -> None:
    """Seed 004, Rule of Fours: at a Tier 4 or more above, even a CRIT won't succeed."""
    table.faces(4, 4)
    (cast, *_) = table.do(check, "Bram", 6, discipline=Discipline.WILLPOWER)
    assert (cast.outcome, cast.change) == (Result.FAILURE, Change.CRIT_BARRED)


def test_rule_of_fours_bars_the_fumble(table) -> None:
    """Seed 004, Rule of Fours: four or more above the check's Tier, you can't automatically fail."""
    table.faces(1, 1)
    (cast, *_) = table.do(check, "Bram", 3, discipline=Discipline.SUBTERFUGE)
    assert (cast.outcome, cast.change, cast.fortune) == (Result.SUCCESS, Change.FUMBLE_BARRED, Fortune.GREAT_WOE)


def test_explicit_proficiency_and_tier(table) -> None:
    """RULES.md: the Rule of Fours compares Proficiency and Tier, which a check may name."""
    table.faces(4, 4)
    (cast, *_) = table.do(check, "Ada", 7, value=5, proficiency=2)
    assert (cast.proficiency, cast.tier, cast.change) == (2, 7, Change.CRIT_BARRED)


def test_a_waste_loses_the_effort(table) -> None:
    """Seed 004: on a WASTE the time and effort are wasted."""
    table.faces(4, 1)
    (cast, *_) = table.do(check, "Ada", 3, discipline=PROWESS, effort=3)
    assert (cast.outcome, cast.effort_lost) == (Result.WASTE, 3)
    condition = table.char("Ada").condition
    assert (condition.effort_spent, condition.effort_lost) == (3, 3)


def test_effort_counts_when_not_wasted(table) -> None:
    """Seed 004: effort exerted on a check is spent whatever the outcome; only a WASTE (or a
    Blot-out) loses it."""
    table.faces(2, 2)
    table.do(check, "Ada", 9, discipline=PROWESS, effort=2)
    condition = table.char("Ada").condition
    assert (condition.effort_spent, condition.effort_lost) == (2, 0)


def test_a_check_counts_as_an_assessment(table) -> None:
    """Seed 004: a normal check also counts as an assessment once resolved: the Proficiency is
    compared with the target's Tier."""
    table.faces(2, 3)
    events = table.do(check, "Ada", 8, discipline=INGENUITY, purpose="the clockwork door")
    (seen,) = table.of(Assessed, events)
    assert (seen.via, seen.cast, seen.subject) == ("check", "c1", "the clockwork door")
    assert (seen.tier, seen.effective, seen.accurate, seen.gap, seen.gap_size) == (8, 6, False, 2, GapSize.SMALL)
    assert seen.minutes is None


def test_a_wasted_check_teaches_nothing(table) -> None:
    """[ours] A WASTE stalls the attempt: no assessment comes of it."""
    table.faces(4, 1)
    events = table.do(check, "Ada", 8, discipline=INGENUITY)
    assert table.of(Assessed, events) == []


def test_check_needs_an_attribute(table) -> None:
    """[ours] A check compares a Discipline or a named value; neither is refused."""
    table.refuse("lots.check.attribute", check, "Ada", 5)


def test_negative_effort_is_refused(table) -> None:
    table.refuse("lots.check.effort", check, "Ada", 5, value=5, effort=-1)


def test_unknown_character_is_refused(table) -> None:
    table.refuse("lots.unknown.character", check, "Zed", 5, value=5)


def test_names_are_case_blind(table) -> None:
    table.faces(2, 2)
    (cast, *_) = table.do(check, "ada", 5, value=5)
    assert cast.character == "Ada"


def test_the_dice_are_not_touched_by_a_refusal(table) -> None:
    """DESIGN.md: a refused action leaves state and dice as they were."""
    table.faces(4, 4)
    table.refuse("lots.check.attribute", check, "Ada", 5)
    assert table.faces_left == 2


# --- try, try again -------------------------------------------------------------------------------


def test_retry_after_a_waste(table) -> None:
    """Seed 004: able enough, but a WASTE spoiled it: the character may try again; [ours] the same
    check (the same Proficiency), plus any modifier a lot gave."""
    table.faces(4, 1, 3, 3)
    (first, *_) = table.do(check, "Ada", 5, discipline=PROWESS, effort=1)
    assert first.may_retry
    events = table.do(retry, "Ada", modifier=1)
    (again,) = table.of(CheckCast, events)
    assert (again.retry, again.attribute, again.proficiency, again.difficulty, again.effort) == (True, 6, 5, 5, 1)
    assert table.char("Ada").condition.effort_spent == 2  # a second try is a new effort


def test_no_retry_without_a_spoiled_check(table) -> None:
    """Seed 004: trying again is for a check the character could do, spoiled by fate."""
    table.faces(2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    table.refuse("lots.retry.not-allowed", retry, "Ada")


def test_no_retry_beyond_the_proficiency(table) -> None:
    """Seed 004: only when the Proficiency is sufficient to succeed."""
    table.faces(1, 1)
    table.do(check, "Ada", 9, discipline=PROWESS)
    table.refuse("lots.retry.not-allowed", retry, "Ada")


def test_a_new_check_replaces_the_retry(table) -> None:
    """[ours] The chance to try again belongs to the character's latest check."""
    table.faces(4, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    table.do(check, "Ada", 1, discipline=PROWESS)
    table.refuse("lots.retry.not-allowed", retry, "Ada")


def test_a_spoiled_retry_may_be_retried(table) -> None:
    """Seed 004: try, try again: as long as fate spoils it and time allows."""
    table.faces(1, 1, 4, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    table.do(retry, "Ada")
    events = table.do(retry, "Ada")
    assert table.of(CheckCast, events)[0].outcome == Result.SUCCESS


# --- bare lots and lost actions ---------------------------------------------------------------------


def test_bare_lots(table) -> None:
    """Seed 004, embracing uncertainty: lots may be cast with no reason, Discipline or target
    given; only the lot matters."""
    table.faces(4, 2)
    events = table.do(cast_lots, "Bram", "a chill in the air")
    assert events == [LotsCast(cast="c1", character="Bram", purpose="a chill in the air", weal=4, woe=2,
                               lot=Lot.WEAL, fortune=Fortune.WEAL)]


def test_the_worlds_own_lots(table) -> None:
    """[ours] With no narrator, the engine casts the world's secret rolls itself (no one named)."""
    table.faces(3, 1)
    (cast,) = table.do(cast_lots, None, "weather")
    assert (cast.character, cast.lot) == (None, Lot.WOE)


def test_a_lost_action_is_spent_reeling(table) -> None:
    """RULES.md [ours]: a failed Mettle test loses the next action; [ours] the character's next
    check is that action: nothing is cast."""
    table.char("Ada").condition.loses_action = True
    events = table.do(check, "Ada", 5, value=5)
    assert events == [ActionLost(character="Ada", action="check")]
    assert not table.char("Ada").condition.loses_action
    table.faces(2, 2)
    assert table.of(CheckCast, table.do(check, "Ada", 5, value=5))


def test_the_incapacitated_make_no_checks(table) -> None:
    """RULES.md [ours]: an incapacitated character acts by choice no more."""
    table.char("Ada").condition.incapacitated = True
    table.refuse("lots.mettle.incapacitated", check, "Ada", 5, value=5)
    table.refuse("lots.mettle.incapacitated", retry, "Ada")
