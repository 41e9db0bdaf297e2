"""Characters, Story Points and development (rules/lots/characters.py, rules/lots/sheets.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.lots import (
    Character,
    Conversion,
    Discipline,
    GameState,
    add_character,
    award,
    convert,
    create_character,
    develop,
    development_cost,
    enlist,
)
from wyrd.rules.lots.events import CharacterCreated, Development, StoryPointsAwarded, StoryPointsConverted


def test_the_six_disciplines() -> None:
    """Seed 004: the Disciplines are Willpower, Prowess, Survival, Subterfuge, Intuition, Ingenuity."""
    assert [d.value for d in Discipline] == [
        "willpower", "prowess", "survival", "subterfuge", "intuition", "ingenuity"]


def test_create_character() -> None:
    """Seed 004: Disciplines run 0 to 10; [ours] a missing one is 0, Mettle defaults to Willpower."""
    char = create_character("Ada", {"Prowess": 5, Discipline.WILLPOWER: 4})
    assert char.disciplines[Discipline.PROWESS] == 5
    assert char.disciplines[Discipline.SURVIVAL] == 0
    assert char.mettle == 4
    assert create_character("Pip", {}).mettle == 1  # [ours] at least 1


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"name": " "}, "lots.character.name"),
        ({"disciplines": {"cooking": 3}}, "lots.character.discipline"),
        ({"disciplines": {"prowess": 11}}, "lots.character.discipline-range"),
        ({"disciplines": {"prowess": -1}}, "lots.character.discipline-range"),
        ({"mettle": 0}, "lots.character.mettle-range"),
        ({"armour": -1}, "lots.character.armour"),
        ({"portents": -2}, "lots.character.portents"),
    ],
)
def test_creation_refusals(kwargs: dict[str, object], rule: str) -> None:
    """Seed 004: Tiers normally run 0 to 10; [ours] the other limits of a sheet."""
    args: dict[str, object] = {"name": "Ada", "disciplines": {"prowess": 5}, **kwargs}
    with pytest.raises(RuleError) as caught:
        create_character(args.pop("name"), args.pop("disciplines"), **args)  # type: ignore[arg-type]
    assert caught.value.rule == rule


def test_add_character(table) -> None:
    """DESIGN.md: a character_created event in the ruleset's own terms."""
    (created,) = table.do(add_character, "Cai", {"survival": 6}, mettle=5, armour=2, concept="ranger")
    assert isinstance(created, CharacterCreated)
    assert (created.name, created.mettle, created.armour, created.npc, created.concept) == (
        "Cai", 5, 2, False, "ranger")
    assert created.disciplines[Discipline.SURVIVAL] == 6


def test_names_are_unique(table) -> None:
    table.refuse("lots.character.unique-name", add_character, "ada", {})


def test_enlist_checks_a_ready_sheet() -> None:
    """[ours] A story's ready character is checked by the creation rules."""
    state = GameState()
    bad = Character(name="Hulk", disciplines={Discipline.PROWESS: 14}, mettle=3)
    with pytest.raises(RuleError) as caught:
        enlist(state, Dice.scripted(()), bad)
    assert caught.value.rule == "lots.character.discipline-range"
    good = Character(name="Vell", disciplines={Discipline.INTUITION: 7}, mettle=3)
    assert enlist(state, Dice.scripted(()), good).state.characters["Vell"].mettle == 3


# --- Story Points ---------------------------------------------------------------------------------


def test_award_story_points(table) -> None:
    """Seed 004: entertaining self-prescribed results earn Story Points; [ours] without a narrator
    the table awards them."""
    events = table.do(award, "Ada", 2, "a glorious fumble")
    assert events == [StoryPointsAwarded(character="Ada", n=2, reason="a glorious fumble", story_points_after=2)]


@pytest.mark.parametrize("into", list(Conversion))
def test_convert_one_for_one(table, into: Conversion) -> None:
    """Seed 004: Story Points convert into Development Points or Portents; RULES.md [ours]: 1:1."""
    table.do(award, "Ada", 3)
    (converted,) = table.do(convert, "Ada", 2, into)
    assert converted == StoryPointsConverted(
        character="Ada", n=2, into=into, story_points_after=1,
        portents_after=8 if into == Conversion.PORTENTS else 6,
        development_after=2 if into == Conversion.DEVELOPMENT else 0,
    )


def test_convert_refusals(table) -> None:
    table.do(award, "Ada", 1)
    table.refuse("lots.story.not-enough", convert, "Ada", 2, Conversion.PORTENTS)
    table.refuse("lots.story.positive", convert, "Ada", 0, Conversion.PORTENTS)
    table.refuse("lots.story.positive", award, "Ada", 0)
    table.refuse("lots.player.npc", award, "Orc", 1)


# --- development ----------------------------------------------------------------------------------


def test_development_cost_is_the_new_value() -> None:
    """Seed 004 glossary: raising a Discipline by one costs its new value."""
    assert [development_cost(v) for v in (1, 4, 10)] == [1, 4, 10]


def test_develop(table) -> None:
    """Seed 004: Development Points develop Disciplines; Prowess 5 to 6 costs 6."""
    table.char("Ada").development = 7
    events = table.do(develop, "Ada", Discipline.PROWESS)
    assert events == [Development(character="Ada", discipline=Discipline.PROWESS, value=6, cost=6,
                                  development_after=1)]
    assert table.char("Ada").disciplines[Discipline.PROWESS] == 6


def test_develop_from_zero(table) -> None:
    """Seed 004: a Discipline at 0 rises to 1 for 1 point."""
    table.char("Ada").development = 1
    table.do(develop, "Ada", Discipline.INTUITION)
    assert table.char("Ada").discipline(Discipline.INTUITION) == 1


def test_develop_refusals(table) -> None:
    """Seed 004: the cost must be paid; [ours] 10 is the top of the scale."""
    table.char("Ada").development = 5
    table.refuse("lots.development.cost", develop, "Ada", Discipline.PROWESS)
    table.char("Ada").disciplines[Discipline.PROWESS] = 10
    table.char("Ada").development = 50
    table.refuse("lots.development.max", develop, "Ada", Discipline.PROWESS)
    table.refuse("lots.player.npc", develop, "Orc", Discipline.PROWESS)
