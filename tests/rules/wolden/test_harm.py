"""Harm, wounds and being taken out (rules/wolden/harm.py)."""

from __future__ import annotations

from wyrd.rules.wolden import Ability, harm, wound
from wyrd.rules.wolden.events import CharacterOut, HarmTaken, WoundTaken

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES


def test_harm_lowers_the_ability_first(duo) -> None:
    """RULES.md [ours]: damage first lowers the relevant ability score."""
    events = duo.do(harm, "Ada", MIGHT, 2)
    assert events == [HarmTaken(character="Ada", ability=MIGHT, n=2, ability_after=1, past=0,
                                source="consequence")]
    ada = duo.char("Ada")
    assert (ada.scores[MIGHT], ada.damage[MIGHT], ada.current(MIGHT), ada.wounds) == (3, 2, 1, 0)


def test_points_past_the_ability_are_wounds(duo) -> None:
    """RULES.md [ours]: each point past the ability is a wound, filling an empty gift slot."""
    events = duo.do(harm, "Ada", MIGHT, 5)
    assert duo.of(WoundTaken, events) == [WoundTaken(character="Ada", n=2, wounds=2, free_slots=0,
                                                     source="consequence")]
    assert duo.char("Ada").current(MIGHT) == 0
    assert duo.char("Ada").free_slots == 0


def test_an_ability_at_zero_turns_all_harm_to_wounds(duo) -> None:
    """Seed 001: damage exceeding your score deals wounds (Ada's Graces is 0)."""
    events = duo.do(harm, "Ada", GRACES, 1)
    assert duo.of(HarmTaken, events)[0].past == 1
    assert duo.char("Ada").wounds == 1


def test_a_wound_with_no_slot_takes_the_character_out(duo) -> None:
    """RULES.md [ours]: a wound with no free slot takes the character out."""
    events = duo.do(harm, "Ada", MIGHT, 6)  # 3 to Might, 2 wounds fill the free slots, the last has none
    assert duo.of(CharacterOut, events) == [CharacterOut(character="Ada", source="consequence")]
    ada = duo.char("Ada")
    assert ada.out and ada.wounds == 2 and ada.free_slots == 0


def test_out_characters_take_no_more(duo) -> None:
    """[ours] A character taken out acts no more (ad hoc harm to them is refused)."""
    duo.do(wound, "Ada", 3)
    assert duo.char("Ada").out
    duo.refuse("wolden.out.no-actions", harm, "Ada", MIND, 1)


def test_wound_goes_straight_to_slots(duo) -> None:
    """Seed 001: failed rolls can bring wounds directly (a montage's consequences)."""
    events = duo.do(wound, "Bram")
    assert events == [WoundTaken(character="Bram", n=1, wounds=1, free_slots=1, source="consequence")]
    assert duo.char("Bram").scores == {MIGHT: 0, AGILITY: 3, MIND: 2, GRACES: 1}


def test_harm_must_be_positive(duo) -> None:
    duo.refuse("wolden.harm.positive", harm, "Ada", MIGHT, 0)
    duo.refuse("wolden.harm.positive", wound, "Ada", -1)


def test_starting_slots() -> None:
    """RULES.md: 4 gift slots to start, 2 holding cult gifts, so 2 wounds fit."""
    from wyrd.rules.wolden import STARTING_SLOTS

    assert STARTING_SLOTS == 4
