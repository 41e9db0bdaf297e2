"""Attacks, defences, Pain, Test Your Mettle and rest (rules/lots/harm.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.lots import Change, CheckForm, Result, attack, damage_of, defend, pain_of, rest, suffer
from wyrd.rules.lots.events import (
    ActionLost,
    AttackResolved,
    CheckCast,
    Incapacitated,
    MettleTested,
    PainTaken,
    Rested,
)


def test_accuracy_damage_and_pain() -> None:
    """RULES.md [ours]: damage = initial Effort + Accuracy; Pain = damage - armour, at least 0.
    Seed 004 glossary: an Accuracy "greater than zero ... adds to its damage", so a negative one
    takes nothing off: a landed blow does at least its Effort."""
    assert damage_of(3, 2) == 5
    assert damage_of(3, -1) == 3
    assert damage_of(3, 0) == 3
    assert pain_of(5, 2) == 3
    assert pain_of(1, 2) == 0


def test_a_landed_attack(table) -> None:
    """Seed 004 glossary: Accuracy is Offense minus Defense; above 0 it lands a defended attack
    and adds to the damage. RULES.md [ours]: Ada's Prowess 5 against the Orc's 4, Effort 3:
    damage 4, the Orc's armour 1 leaves 3 Pain."""
    table.faces(3, 3, 3, 3)
    events = table.do(attack, "Ada", "Orc", effort=3)
    cast = table.of(CheckCast, events)[0]  # then the Orc's Mettle test
    assert (cast.form, cast.attribute, cast.difficulty, cast.tier, cast.outcome) == (
        CheckForm.ATTACK, 5, 5, 4, Result.SUCCESS)
    assert table.of(AttackResolved, events) == [AttackResolved(
        cast="c1", attacker="Ada", target="Orc", roller="Ada", offense=5, defense=4, accuracy=1, landed=True)]
    assert table.of(PainTaken, events) == [PainTaken(
        character="Orc", n=3, pain_after=3, damage=4, accuracy=1, armour=1, source="attack by Ada")]
    assert table.char("Orc").condition.pain == 3


def test_a_tie_does_not_land_a_defended_attack(table) -> None:
    """Seed 004 glossary: only an Accuracy greater than zero lands an actively defended attack."""
    table.faces(3, 3)
    events = table.do(attack, "Bram", "Ada", effort=2, offense=5)
    assert not table.of(AttackResolved, events)[0].landed
    assert table.of(PainTaken, events) == []


def test_an_undefended_attack_lands_at_zero_accuracy(table) -> None:
    """[ours] Against a target not actively defending, an Accuracy of 0 is enough."""
    table.faces(3, 3, 3, 3)
    events = table.do(attack, "Bram", "Ada", effort=2, offense=5, defended=False)
    assert table.of(AttackResolved, events)[0].landed
    assert table.of(PainTaken, events)[0].n == 2


def test_a_crit_lands_any_attack(table) -> None:
    """Seed 004: attacks are not held back by the Rule of Fours: a CRIT lands one whatever the gap;
    the glossary: only an Accuracy "greater than zero ... adds to its damage", so the blow does
    its Effort (the negative Accuracy takes nothing off)."""
    table.faces(4, 4)
    events = table.do(attack, "Bram", "Orc", effort=4, offense=1, defense=8)
    (cast,) = table.of(CheckCast, events)  # the Orc's Mettle test casts no lots
    assert cast.change == Change.CRIT_SUCCEEDS
    assert [(e.damage, e.n) for e in table.of(PainTaken, events)] == [(4, 3)]  # effort 4, armour 1


def test_armour_that_stops_everything_calls_for_no_test(table) -> None:
    """RULES.md [ours]: Pain at least 0; Test Your Mettle only when Pain rises."""
    table.faces(3, 3)
    events = table.do(attack, "Ada", "Orc", effort=1, armour=5)
    assert table.of(PainTaken, events)[0].n == 0
    assert table.of(MettleTested, events) == []
    assert table.faces_left == 0


def test_a_wasted_attack(table) -> None:
    """Seed 004: a WASTE neither lands nor misses: the time and effort are lost."""
    table.faces(4, 1)
    events = table.do(attack, "Ada", "Orc", effort=3)
    assert not table.of(AttackResolved, events)[0].landed
    assert table.char("Ada").condition.effort_lost == 3


def test_a_player_defends_against_an_npc(table) -> None:
    """Seed 004: only players roll: defending against an NPC's attack, the player casts.
    Bram's Defense 3 against the Orc's Offense 4 falls short: the blow lands (RULES.md [ours]:
    Effort 2 + Accuracy 1 - armour 1 = 2 Pain)."""
    table.faces(2, 3, 3, 3)
    events = table.do(defend, "Bram", "Orc", effort=2)
    (cast, *_) = table.of(CheckCast, events)
    assert (cast.character, cast.form, cast.attribute, cast.difficulty) == ("Bram", CheckForm.DEFENCE, 3, 4)
    resolved = table.of(AttackResolved, events)[0]
    assert (resolved.roller, resolved.landed) == ("Bram", True)
    assert table.of(PainTaken, events)[0].n == 2
    assert table.char("Bram").condition.effort_spent == 0  # [ours] a defence commits none of the defender's


@pytest.mark.parametrize(("faces", "landed"), [((3, 3), False), ((4, 1), True), ((1, 1), True), ((4, 4), False)])
def test_a_tied_defence_holds(table, faces: tuple[int, int], landed: bool) -> None:
    """Seed 004 glossary: a tie (Accuracy 0) does not land; [ours] a WASTE on a defence lets the
    blow land, as does a FUMBLE that sinks it."""
    table.faces(*faces, 3, 3)
    events = table.do(defend, "Bram", "Orc", effort=2, defense=4)
    assert table.of(AttackResolved, events)[0].landed is landed


def test_attack_refusals(table) -> None:
    """[ours] An attack commits at least 1 effort, at someone else, with armour of 0 or more."""
    table.refuse("lots.attack.self", attack, "Ada", "ada", effort=2)
    table.refuse("lots.attack.effort", attack, "Ada", "Orc", effort=0)
    table.refuse("lots.attack.armour", attack, "Ada", "Orc", effort=1, armour=-1)
    table.refuse("lots.unknown.character", attack, "Ada", "Zed", effort=1)


# --- Test Your Mettle ---------------------------------------------------------------------------------


def test_passing_the_test(table) -> None:
    """RULES.md [ours]: when Pain rises, Test Your Mettle: Mettle against total Pain, with lots."""
    table.faces(3, 3)
    events = table.do(suffer, "Ada", 2, "a fall")
    assert table.of(MettleTested, events) == [MettleTested(
        character="Ada", cast="c1", mettle=4, pain=2, outcome=Result.SUCCESS, loses_action=False,
        incapacitated=False)]


def test_failing_the_test_loses_the_next_action(table) -> None:
    """RULES.md [ours]: a failed test loses the next action."""
    table.faces(3, 3)
    table.do(suffer, "Ada", 5)
    assert table.char("Ada").condition.loses_action
    events = table.do(attack, "Ada", "Orc", effort=2)
    assert events == [ActionLost(character="Ada", action="attack")]


def test_a_waste_on_the_test_loses_the_action(table) -> None:
    """[ours] A WASTE on Test Your Mettle stalls the character: the next action is lost."""
    table.faces(4, 1)
    table.do(suffer, "Ada", 1)
    assert table.char("Ada").condition.loses_action


def test_a_defence_does_not_use_up_the_lost_action(table) -> None:
    """[ours] A defence is a reaction: the lost action waits for the next chosen one."""
    table.char("Bram").condition.loses_action = True
    table.faces(3, 3, 3, 3)
    table.do(defend, "Bram", "Orc", effort=1)
    assert table.char("Bram").condition.loses_action


def test_a_fumble_incapacitates(table) -> None:
    """RULES.md [ours]: a FUMBLE on Test Your Mettle incapacitates."""
    table.faces(1, 1)
    events = table.do(suffer, "Ada", 1)
    assert table.of(Incapacitated, events) == [Incapacitated(character="Ada", reason="fumble")]
    assert table.char("Ada").condition.incapacitated


def test_a_barred_fumble_does_not_incapacitate(new) -> None:
    """Seed 004, Rule of Fours: a Mettle 4 or more above the Pain can't automatically fail;
    [ours] so its FUMBLE doesn't incapacitate (the heightened WOE remains)."""
    t = new("Ada")
    t.char("Ada").mettle = 6
    t.faces(1, 1)
    events = t.do(suffer, "Ada", 2)
    test = t.of(MettleTested, events)[0]
    assert (test.outcome, test.incapacitated) == (Result.SUCCESS, False)


def test_pain_at_twice_the_mettle_incapacitates(table) -> None:
    """RULES.md [ours]: Pain of twice the Mettle or more incapacitates, whatever the lots."""
    table.faces(4, 4)
    events = table.do(suffer, "Ada", 8)
    assert table.of(Incapacitated, events) == [Incapacitated(character="Ada", reason="pain")]


def test_the_incapacitated_test_no_more(table) -> None:
    """[ours] Once incapacitated, Pain still adds up, but there is no further test."""
    table.faces(4, 4)
    table.do(suffer, "Ada", 8)
    events = table.do(suffer, "Ada", 1)
    assert table.of(MettleTested, events) == []
    assert table.char("Ada").condition.pain == 9


def test_the_incapacitated_neither_attack_nor_defend(table) -> None:
    """[ours] Incapacitated: no attack, no active defence; an attack on them is undefended."""
    table.faces(4, 4)
    table.do(suffer, "Ada", 8)
    table.refuse("lots.mettle.incapacitated", attack, "Ada", "Orc", effort=1)
    table.refuse("lots.mettle.incapacitated", defend, "Ada", "Orc", effort=1)
    table.faces(3, 3)
    events = table.do(attack, "Bram", "Ada", effort=1, offense=5)  # 5 against 5: lands undefended
    assert table.of(CheckCast, events)[0].difficulty == 5
    assert table.of(AttackResolved, events)[0].landed


def test_suffer_needs_pain(table) -> None:
    table.refuse("lots.harm.positive", suffer, "Ada", 0)


# --- rest ---------------------------------------------------------------------------------------------


def test_rest_removes_pain_equal_to_mettle(table) -> None:
    """RULES.md [ours]: rest removes as much Pain as the Mettle."""
    table.faces(2, 2)
    table.do(suffer, "Ada", 6)
    events = table.do(rest, "Ada")
    assert events == [Rested(character="Ada", n=4, pain_after=2, recovered=False)]
    assert not table.char("Ada").condition.loses_action


def test_rest_never_goes_below_zero(table) -> None:
    table.faces(2, 2)
    table.do(suffer, "Ada", 1)
    (rested,) = table.do(rest, "Ada")
    assert (rested.n, rested.pain_after) == (1, 0)


def test_rest_lifts_incapacitation_below_twice_the_mettle(table) -> None:
    """[ours] Rest lifts incapacitation once the Pain is below twice the Mettle."""
    table.faces(2, 2)
    table.do(suffer, "Ada", 11)
    (first,) = table.do(rest, "Ada")
    assert (first.pain_after, first.recovered) == (7, True)
    table.faces(2, 2)
    table.do(suffer, "Ada", 5)
    (again,) = table.do(rest, "Ada")
    assert (again.pain_after, again.recovered) == (8, False)
    assert table.char("Ada").condition.incapacitated
