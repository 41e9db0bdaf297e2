"""Characters and how they are made (rules/wolden/characters.py, story.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.wolden import (
    ABILITY_MAX,
    STARTING_SCORES,
    Ability,
    Character,
    CreationError,
    add_character,
    create_character,
    enlist,
    install,
)
from wyrd.rules.wolden.events import CharacterCreated, CultAdded
from wyrd.rulesets import find_ruleset

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES


def test_ruleset_registered() -> None:
    """RULES.md: Wolden is the ruleset ``wolden`` following seed 001."""
    ruleset = find_ruleset("wolden")
    assert ruleset.seed == "001_0ed33d63b95f167b.txt"
    assert ruleset.load().__name__ == "wyrd.rules.wolden"


def test_four_abilities() -> None:
    """RULES.md [ours]: Might, and the three the text names: Agility, Mind, Graces."""
    assert [a.value for a in Ability] == ["might", "agility", "mind", "graces"]


def test_created(new) -> None:
    """RULES.md [ours]: 3, 2, 1, 0 in any order; a cult; 4 slots, 2 holding the cult's gifts."""
    t = new()
    events = t.do(add_character, "Ada", "owls", might=0, agility=1, mind=3, graces=2)
    assert events == [CharacterCreated(name="Ada", cult="owls", might=0, agility=1, mind=3, graces=2,
                                       gifts=["hush", "keen-ears"], slots=4)]
    ada = t.char("Ada")
    assert (ada.slots, ada.used_slots, ada.free_slots, ada.wounds, ada.out) == (4, 2, 2, 0, False)


@pytest.mark.parametrize("scores", [(3, 3, 1, 0), (4, 2, 0, 0), (3, 2, 1, 1), (5, 0, 0, 0), (3, 2, 1, -1)])
def test_scores_must_be_3_2_1_0(new, scores: tuple[int, int, int, int]) -> None:
    """RULES.md [ours]: start 3, 2, 1, 0 in any order."""
    might, agility, mind, graces = scores
    new().refuse("wolden.character.scores", add_character, "Ada", "owls", might=might, agility=agility,
                 mind=mind, graces=graces)
    assert sorted(STARTING_SCORES) == [0, 1, 2, 3]


def test_choosing_two_gifts(new) -> None:
    """RULES.md: two slots hold cult gifts; a cult offering more lets the player choose two."""
    t = new()
    kw = {"might": 3, "agility": 2, "mind": 1, "graces": 0}
    t.refuse("wolden.character.gifts", add_character, "Cora", "foxes", **kw)
    t.refuse("wolden.character.gifts", add_character, "Cora", "foxes", gifts=["sly"], **kw)
    t.refuse("wolden.character.gifts", add_character, "Cora", "foxes", gifts=["sly", "sly"], **kw)
    t.refuse("wolden.character.gifts", add_character, "Cora", "foxes", gifts=["sly", "hush"], **kw)
    t.do(add_character, "Cora", "foxes", gifts=["Burrow", "sly"], **kw)
    assert [g.id for g in t.char("Cora").gifts] == ["burrow", "sly"]


def test_cult_must_be_installed(new) -> None:
    t = new()
    t.refuse("wolden.unknown.cult", add_character, "Ada", "bats", might=3, agility=2, mind=1, graces=0)


def test_unique_names_and_blank(new) -> None:
    t = new("Ada")
    t.refuse("wolden.character.unique-name", add_character, "ADA", "owls", might=3, agility=2, mind=1, graces=0)
    t.refuse("wolden.character.name", add_character, "  ", "owls", might=3, agility=2, mind=1, graces=0)


def test_gifts_too_big_for_the_slots(bundled_cults) -> None:
    """RULES.md: a new character has 4 slots."""
    wardens = bundled_cults[0]
    big = wardens.model_copy(update={"gifts": [g.model_copy(update={"slots": 3}) for g in wardens.gifts]})
    with pytest.raises(CreationError) as caught:
        create_character("Ada", big, might=3, agility=2, mind=1, graces=0, gifts=["steady-flame", "roadwise"])
    assert caught.value.rule == "wolden.character.slots"


def test_install_cults(new) -> None:
    t = new()
    assert [e for e in t.events if isinstance(e, CultAdded)] == [CultAdded(cult="owls", name="Owls"),
                                                                 CultAdded(cult="foxes", name="Foxes")]


def test_bundled_cults_make_characters(new, bundled_cults) -> None:
    """The bundled YAML cults load and serve character creation."""
    t = new()
    t.do(install, bundled_cults)
    t.do(add_character, "Wren", "lantern-wardens", might=1, agility=3, mind=2, graces=0,
         gifts=["roadwise", "night-eyes"])
    t.do(add_character, "Sal", "the brine choir", might=0, agility=1, mind=2, graces=3)
    assert t.char("Sal").cult == "brine-choir"


def test_enlist_a_ready_sheet(new) -> None:
    """[ours] A story's ready character may be past creation; it is checked for soundness only."""
    t = new()
    veteran = Character(name="Old Moss", cult="owls", scores={MIGHT: 5, AGILITY: 3, MIND: 2, GRACES: 1},
                        slots=8, wounds=1)
    t.do(enlist, veteran)
    assert t.char("Old Moss").scores[MIGHT] == ABILITY_MAX
    broken = veteran.model_copy(update={"name": "Broken", "scores": {MIGHT: 6, AGILITY: 3, MIND: 2, GRACES: 1}})
    t.refuse("wolden.character.sheet", enlist, broken)
    crowded = veteran.model_copy(update={"name": "Crowded", "wounds": 9})
    t.refuse("wolden.character.sheet", enlist, crowded)
    t.refuse("wolden.unknown.cult", enlist, veteran.model_copy(update={"name": "Lost", "cult": "bats"}))
