"""Character creation (rules/abacus/characters.py, story.add_character / enlist)."""

from __future__ import annotations

import itertools

import pytest

from wyrd.rules.abacus import Ability, Character, CreationError, add_character, create_character, enlist
from wyrd.rules.abacus.events import CharacterCreated


def test_fifteen_points_valid_character() -> None:
    """Seed 000: 15 points are spread over Body, Mind and Soul; a character starts
    with current points equal to each score."""
    ada = create_character("Ada", 5, 6, 4)
    assert ada.scores == {Ability.BODY: 5, Ability.MIND: 6, Ability.SOUL: 4}
    assert ada.points == ada.scores
    assert ada.points is not ada.scores
    assert ada.wyrd == 0
    assert ada.scratched == []
    assert not ada.defeated
    assert ada.total_points == 15
    assert all(ada.spent(a) == 0 for a in Ability)


@pytest.mark.parametrize(("body", "mind", "soul"), [(5, 5, 6), (5, 5, 4), (3, 3, 3), (9, 9, 9)])
def test_total_must_be_fifteen(body: int, mind: int, soul: int) -> None:
    """Seed 000: the three abilities share exactly 15 points."""
    with pytest.raises(CreationError) as caught:
        create_character("Ada", body, mind, soul)
    assert caught.value.rule == "abacus.character.points"


@pytest.mark.parametrize(
    ("body", "mind", "soul"), [(2, 9, 4), (10, 3, 2), (3, 10, 2), (4, 2, 9), (0, 6, 9)]
)
def test_each_ability_three_to_nine(body: int, mind: int, soul: int) -> None:
    """Seed 000: no single ability may be below 3 or above 9."""
    with pytest.raises(CreationError) as caught:
        create_character("Ada", body, mind, soul)
    assert caught.value.rule == "abacus.character.ability-range"


def test_every_legal_spread_and_only_those() -> None:
    """Seed 000: the legal characters are exactly the spreads of 15 with each
    ability in 3..9 (checked over every triple from 0 to 12)."""
    accepted = set()
    for b, m, s in itertools.product(range(13), repeat=3):
        try:
            create_character("X", b, m, s)
        except CreationError:
            continue
        accepted.add((b, m, s))
    expected = {
        (b, m, s)
        for b, m, s in itertools.product(range(3, 10), repeat=3)
        if b + m + s == 15
    }
    assert accepted == expected
    assert len(expected) == 28


def test_two_facets_per_ability() -> None:
    """Seed 000: pick two facets for each ability."""
    ada = create_character(
        "Ada", 5, 5, 5,
        facets={Ability.BODY: ["wiry", "clumsy"], Ability.MIND: ["sharp", "aloof"],
                Ability.SOUL: ["devout", "haunted"]},
    )
    assert ada.facets[Ability.MIND] == ["sharp", "aloof"]


@pytest.mark.parametrize("facets", [["wiry"], ["wiry", "clumsy", "tall"]])
def test_facets_other_than_two_refused(facets: list[str]) -> None:
    """Seed 000: each ability takes two facets, not one or three."""
    with pytest.raises(CreationError) as caught:
        create_character("Ada", 5, 5, 5, facets={Ability.BODY: facets})
    assert caught.value.rule == "abacus.character.facets"


def test_facets_may_be_left_for_later() -> None:
    """[ours, characters.create_character] facets may be left out entirely."""
    assert create_character("Ada", 5, 5, 5).facets == {}


@pytest.mark.parametrize("wyrd", [0, 1])
def test_optional_starting_wyrd(wyrd: int) -> None:
    """Seed 000: a character may optionally begin with one point of personal Wyrd."""
    assert create_character("Ada", 5, 5, 5, wyrd=wyrd).wyrd == wyrd


@pytest.mark.parametrize("wyrd", [2, -1])
def test_starting_wyrd_at_most_one(wyrd: int) -> None:
    """Seed 000: the optional starting Wyrd is a single point, never more (nor negative)."""
    with pytest.raises(CreationError) as caught:
        create_character("Ada", 5, 5, 5, wyrd=wyrd)
    assert caught.value.rule == "abacus.character.starting-wyrd"


@pytest.mark.parametrize("other", ["Ada", "ada", " ADA "])
def test_connection_not_to_self(other: str) -> None:
    """Seed 000: the optional connection ties a character to someone *else* in the party."""
    with pytest.raises(CreationError) as caught:
        create_character("Ada", 5, 5, 5, connection=other)
    assert caught.value.rule == "abacus.character.connection"


def test_blank_name_refused() -> None:
    """Seed 000: the concept includes the character's name; a character needs one."""
    with pytest.raises(CreationError) as caught:
        create_character("   ", 5, 5, 5)
    assert caught.value.rule == "abacus.character.name"


def test_add_character_event_and_state(table) -> None:
    """Seed 000: creation records the three scores and any starting Wyrd."""
    events = table.do(add_character, "Ada", 4, 5, 6, wyrd=1, concept="the vicar's niece")
    assert events == [CharacterCreated(name="Ada", body=4, mind=5, soul=6, wyrd=1,
                                       concept="the vicar's niece")]
    assert table.char("Ada").wyrd == 1


def test_names_are_unique(table) -> None:
    """[ours, story._enter] names identify characters, so no two may share one
    (compared without case)."""
    table.do(add_character, "Ada", 5, 5, 5)
    table.refuse("abacus.character.unique-name", add_character, "ADA", 7, 4, 4)


def test_connection_to_an_existing_character(table) -> None:
    """Seed 000: the connection names another character in the group (stored under
    that character's own spelling)."""
    table.do(add_character, "Ada", 5, 5, 5)
    table.do(add_character, "Bram", 7, 4, 4, connection="ada")
    assert table.char("Bram").connection == "Ada"


def test_connection_to_unknown_character_refused(table) -> None:
    """Seed 000: the connection must be to another character *in the group*."""
    table.refuse("abacus.unknown.character", add_character, "Bram", 7, 4, 4, connection="Nobody")


def test_add_character_applies_creation_rules(table) -> None:
    """Seed 000: 15 points, 3..9 each, also when adding to a game."""
    table.refuse("abacus.character.points", add_character, "Ada", 5, 5, 6)


def test_enlist_checks_a_ready_character(table) -> None:
    """Seed 000: a pregenerated character obeys the same creation rules."""
    bad = Character(name="Giant", scores={Ability.BODY: 11, Ability.MIND: 2, Ability.SOUL: 2},
                    points={Ability.BODY: 11, Ability.MIND: 2, Ability.SOUL: 2})
    table.refuse("abacus.character.ability-range", enlist, bad)
    good = create_character("Ada", 5, 5, 5, wyrd=1)
    table.do(enlist, good)
    assert table.char("Ada").wyrd == 1
    assert table.char("Ada").points == good.scores


def test_enlist_resets_current_points(table) -> None:
    """Seed 000: play starts with every ability's current points at its score."""
    worn = create_character("Ada", 5, 5, 5).model_copy(
        update={"points": {Ability.BODY: 1, Ability.MIND: 5, Ability.SOUL: 5}})
    table.do(enlist, worn)
    assert table.char("Ada").points[Ability.BODY] == 5
