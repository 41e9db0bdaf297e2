"""Characters and their creation (rules/feat/characters.py, add_character)."""

from __future__ import annotations

import pytest

from wyrd.rules.feat import (
    TIERS,
    Attribute,
    CreationError,
    GameState,
    Skill,
    SkillRating,
    Tier,
    add_character,
    create_character,
)
from wyrd.rules.feat.events import CharacterCreated
from wyrd.rulesets import find_ruleset

V, M, W, G, S = Attribute.VIGOUR, Attribute.METTLE, Attribute.WIT, Attribute.GLAMOUR, Attribute.SPIRIT


def attrs(vigour: int, mettle: int, wit: int, glamour: int, spirit: int) -> dict[Attribute, int]:
    return {V: vigour, M: mettle, W: wit, G: glamour, S: spirit}


def test_registered() -> None:
    """DESIGN.md: rulesets are found by id; RULES.md: Heroes of the Fall is `feat`, seed 003."""
    ruleset = find_ruleset("feat")
    assert ruleset.name == "Heroes of the Fall"
    assert ruleset.seed == "003_9d26c77002c98e48.txt"
    assert ruleset.load().__name__ == "wyrd.rules.feat"


def test_five_attributes() -> None:
    """Seed 003: Vigour, Mettle, Wit, Glamour; RULES.md adds Spirit [pub]."""
    assert [a.value for a in Attribute] == ["vigour", "mettle", "wit", "glamour", "spirit"]
    assert Attribute.lookup("GLAM") is Attribute.GLAMOUR
    assert Attribute.lookup("w") is Attribute.WIT
    assert Attribute.lookup("x") is None and Attribute.lookup("") is None


def test_a_novice() -> None:
    """[ours] A novice spends exactly 25 attribute points (1 to 9 each) and up to 10 skill
    ranks, at most 3 in one skill; skills are rated by the Skill Rank table (RULES.md)."""
    char = create_character(
        " Ada  Lark ", attrs(6, 5, 5, 5, 4), skills={"Rock  Climbing": Skill(attribute=V, ranks=3)}
    )
    assert char.name == "Ada Lark"
    assert char.tier is Tier.NOVICE
    assert char.rating("rock climbing") == SkillRating(level=4, modifier=25)  # rank 3, Vigour 6
    assert char.rating("swimming") is None
    assert char.wyrd == 0


def test_tier_budgets() -> None:
    """[ours] The tiers' budgets: attribute points, skill ranks, the most ranks in one skill,
    starting Wyrd."""
    assert [(b.attribute_points, b.skill_ranks, b.max_rank, b.wyrd) for b in TIERS.values()] == [
        (25, 10, 3, 0), (27, 20, 5, 5), (30, 30, 6, 10),
    ]
    expert = create_character("Eda", attrs(8, 6, 6, 5, 5), tier=Tier.EXPERT,
                              skills={"swords": Skill(attribute=V, ranks=6)})
    assert expert.wyrd == 10
    assert str(expert.rating("swords")) == "9/99"


@pytest.mark.parametrize(
    ("kwargs", "rule"),
    [
        ({"name": "  "}, "feat.character.name"),
        ({"attributes": attrs(10, 5, 5, 3, 2)}, "feat.character.attribute-range"),
        ({"attributes": attrs(0, 5, 5, 5, 10)}, "feat.character.attribute-range"),
        ({"attributes": attrs(6, 5, 5, 5, 5)}, "feat.character.attribute-points"),
        ({"attributes": {V: 5, M: 5}}, "feat.character.attribute-missing"),
        ({"skills": {"swords": Skill(attribute=V, ranks=4)}}, "feat.character.skill-rank"),
        ({"skills": {f"s{i}": Skill(attribute=V, ranks=3) for i in range(4)}}, "feat.character.skill-ranks"),
        ({"skills": {"wit": Skill(attribute=W, ranks=1)}}, "feat.character.skill-name"),
        ({"skills": {"Lore": Skill(attribute=W, ranks=1), "lore": Skill(attribute=W, ranks=1)}},
         "feat.character.skill-name"),
        ({"skills": {"lore": Skill(attribute=W, rating=SkillRating(level=6, modifier=23))}},
         "feat.character.skill-rating"),
        ({"wyrd": 1}, "feat.character.wyrd"),
        ({"wyrd": -1}, "feat.character.wyrd"),
    ],
)
def test_creation_refusals(kwargs: dict[str, object], rule: str) -> None:
    """[ours] budgets and ranges; seed 003 / RULES.md: attributes 0 to 9."""
    args: dict[str, object] = {"name": "Ada", "attributes": attrs(6, 5, 5, 5, 4)} | kwargs
    with pytest.raises(CreationError) as caught:
        create_character(**args)  # type: ignore[arg-type]
    assert caught.value.rule == rule


def test_mettle_0_is_never_a_starting_value() -> None:
    """Seed 003: a character whose Mettle falls to 0 dies, so none begins there."""
    with pytest.raises(CreationError) as caught:
        create_character("Ghost", attrs(5, 0, 5, 5, 5), tier=None)
    assert caught.value.rule == "feat.character.mettle"


def test_without_a_tier_only_ranges() -> None:
    """[ours] A non-player character skips the budgets and may carry a rating as written
    (the seed's 6/23 cut-purse, a modifier the Skill Rank table never gives)."""
    thief = create_character(
        "Thief", attrs(9, 9, 9, 9, 9), tier=None, wyrd=40,
        skills={"cut-purse": Skill(attribute=V, rating=SkillRating(level=6, modifier=23))},
    )
    assert thief.rating("Cut-Purse") == SkillRating(level=6, modifier=23)
    assert thief.wyrd == 40


def test_add_character_event_and_refusal(new) -> None:
    """Seed 003 characters join the game; a second of the same name is refused, leaving no trace."""
    t = new()
    events = t.do(add_character, "Ada", attrs(6, 5, 5, 5, 4), skills={"climbing": Skill(attribute=V, ranks=3)})
    (created,) = t.of(CharacterCreated, events)
    assert created.kind == "character_created"
    assert created.attributes[V] == 6 and created.skills["climbing"].ranks == 3 and created.tier is Tier.NOVICE
    t.refuse("feat.character.taken", add_character, "ADA", attrs(6, 5, 5, 5, 4))
    t.refuse("feat.character.attribute-points", add_character, "Bo", attrs(9, 9, 9, 9, 9))
    assert list(t.state.characters) == ["Ada"]
    assert GameState().living() == []
    assert t.state.living() == ["Ada"]
