"""Characters of Heroes of the Fall and how they are made.

Seed 003: a character has the attributes Vigour, Mettle, Wit and Glamour
(RULES.md adds Spirit [pub]), each 0 to 9, and skills, each driven by an
attribute (physical skills grow out of Vigour, mental ones out of Wit) and
rated through the Skill Rank table. Wyrd points are earned in
play (the seed has the GM reward a clever player with them) and spent on
bought 8s. A character whose Mettle falls to 0 dies.

Creation budgets [ours]: the seed gives none, so each tier has a budget in
:data:`TIERS` (one place to change them):

========== ================ =========== =========== ==============
tier       attribute points skill ranks rank at most starting Wyrd
========== ================ =========== =========== ==============
novice     25               10          3           0
journeyman 27               20          5           5
expert     30               30          6           10
========== ================ =========== =========== ==============

Attribute points are spent exactly, each attribute 1 to 9 (0 would be a corpse
for Mettle); skill ranks and the starting Wyrd are ceilings, and skills are
rated by the Skill Rank table. A character made with no tier (a GM's or a
story's non-player character, or a sheet carried over from play) skips the
budgets: only the ranges are checked (attributes 0 to 9, Mettle at least 1,
ranks 0 to 6), and a skill may carry its level/modifier as written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, ConfigDict, Field

from wyrd.rules.defaults import empty_list
from wyrd.rules.errors import RuleError
from wyrd.rules.feat.enums import Attribute, Edge, Tier
from wyrd.rules.feat.skills import ATTRIBUTE_MAX, RANK_MAX, SkillRating, skill_rating

__all__ = [
    "TIERS",
    "Character",
    "CreationError",
    "Skill",
    "TierBudget",
    "create_character",
    "skill_key",
]


class CreationError(RuleError):
    rule = "feat.character"


class TierBudget(BaseModel):
    """What a new character of one tier may have [ours]."""

    model_config = ConfigDict(frozen=True)

    attribute_points: int
    skill_ranks: int
    max_rank: int
    wyrd: int


TIERS: dict[Tier, TierBudget] = {
    Tier.NOVICE: TierBudget(attribute_points=25, skill_ranks=10, max_rank=3, wyrd=0),
    Tier.JOURNEYMAN: TierBudget(attribute_points=27, skill_ranks=20, max_rank=5, wyrd=5),
    Tier.EXPERT: TierBudget(attribute_points=30, skill_ranks=30, max_rank=6, wyrd=10),
}


class Skill(BaseModel):
    """A trained skill: the attribute behind it, the ranks trained (0 to 6), and maybe a rating.

    ``rating`` writes level/modifier directly, overriding the Skill Rank table: the
    seed's own examples (a 6/81 climber, a 6/23 cut-purse) have modifiers the table
    never gives, so sheets from play or from a story carry them as they are. A new
    character built within a tier takes its ratings from the table.
    """

    model_config = ConfigDict(frozen=True)

    attribute: Attribute
    ranks: int = Field(default=0, ge=0, le=RANK_MAX)
    rating: SkillRating | None = None


def skill_key(name: str) -> str:
    """The form a skill's name is stored under: trimmed, single-spaced, lower case."""
    return " ".join(name.split()).casefold()


class Character(BaseModel):
    """A character sheet: attributes, skills, Wyrd points and condition."""

    name: str
    concept: str = ""
    tier: Tier | None = None
    attributes: dict[Attribute, int]
    skills: dict[str, Skill] = Field(default_factory=dict)
    wyrd: int = 0
    out_of_action: bool = False  # failed a shock test: unable to act until recovered
    dead: bool = False
    # Left out of a sheet's JSON when empty or False, so sheets saved before Edges and
    # fatigue read back, and dump, exactly as they were.
    edges: list[Edge] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    exhausted: bool = Field(default=False, exclude_if=lambda v: not v)  # failed a fatigue roll: must rest

    def has_edge(self, edge: Edge) -> bool:
        return edge in self.edges

    def attribute(self, attribute: Attribute) -> int:
        return self.attributes[attribute]

    def skill(self, name: str) -> Skill | None:
        return self.skills.get(skill_key(name))

    def rating(self, name: str) -> SkillRating | None:
        """The skill's level/modifier from the Skill Rank table, or None if untrained."""
        skill = self.skill(name)
        if skill is None:
            return None
        if skill.rating is not None:
            return skill.rating
        return skill_rating(skill.ranks, self.attributes[skill.attribute])


def _check_attributes(name: str, values: Mapping[Attribute, int], tier: Tier | None) -> None:
    low = 1 if tier is not None else 0
    for attribute, value in values.items():
        if not low <= value <= ATTRIBUTE_MAX:
            raise CreationError(
                f"{name}'s {attribute.value.title()} is {value}; attributes run from {low} to {ATTRIBUTE_MAX}",
                rule="feat.character.attribute-range",
            )
    if values[Attribute.METTLE] < 1:
        raise CreationError(
            f"{name} would begin with Mettle 0, and a character with no Mettle is dead",
            rule="feat.character.mettle",
        )
    if tier is not None:
        budget = TIERS[tier].attribute_points
        total = sum(values.values())
        if total != budget:
            raise CreationError(
                f"{name}'s attributes add up to {total}; a {tier.value} spends exactly {budget}",
                rule="feat.character.attribute-points",
            )


def _check_skills(name: str, skills: Mapping[str, Skill], tier: Tier | None) -> dict[str, Skill]:
    clean: dict[str, Skill] = {}
    for raw, skill in skills.items():
        key = skill_key(raw)
        if not key or key in {a.value for a in Attribute}:
            raise CreationError(
                f"{raw!r} can't name a skill (empty, or an attribute's name)", rule="feat.character.skill-name"
            )
        if key in clean:
            raise CreationError(f"{name} lists the skill {key!r} twice", rule="feat.character.skill-name")
        clean[key] = skill
    if tier is None:
        return clean
    budget = TIERS[tier]
    for key, skill in clean.items():
        if skill.rating is not None:
            raise CreationError(
                f"{name}'s {key} is written as {skill.rating}; a new {tier.value} takes ratings from the ranks",
                rule="feat.character.skill-rating",
            )
        if skill.ranks > budget.max_rank:
            raise CreationError(
                f"{name} has {skill.ranks} ranks in {key}; a {tier.value} has at most {budget.max_rank} in a skill",
                rule="feat.character.skill-rank",
            )
    total = sum(skill.ranks for skill in clean.values())
    if total > budget.skill_ranks:
        raise CreationError(
            f"{name}'s skills take {total} ranks; a {tier.value} has {budget.skill_ranks}",
            rule="feat.character.skill-ranks",
        )
    return clean


def create_character(
    name: str,
    attributes: Mapping[Attribute, int],
    *,
    skills: Mapping[str, Skill] | None = None,
    tier: Tier | None = Tier.NOVICE,
    wyrd: int | None = None,
    concept: str = "",
    edges: Sequence[Edge] = (),
) -> Character:
    """Build a character, refusing anything the creation rules forbid.

    Args:
        name: The character's name (not empty).
        attributes: A value for each of the five attributes.
        skills: Skill name to :class:`Skill` (the attribute behind it and its ranks).
        tier: The budget to build within; None for a non-player character (ranges only).
        wyrd: Starting Wyrd points; by default the tier's allowance (0 with no tier).
        concept: A free description.
        edges: The character's Edges (seed 003: an Edge of speed); [ours] no budget, each once.

    Raises:
        CreationError: Naming the broken rule (``feat.character.*``).
    """
    clean = " ".join(name.split())
    if not clean:
        raise CreationError("a character needs a name", rule="feat.character.name")
    missing = [a.value for a in Attribute if a not in attributes]
    if missing:
        raise CreationError(
            f"{clean} needs a value for {', '.join(missing)}", rule="feat.character.attribute-missing"
        )
    values = {Attribute(a): int(v) for a, v in attributes.items()}
    _check_attributes(clean, values, tier)
    chosen = _check_skills(clean, skills or {}, tier)
    allowance = TIERS[tier].wyrd if tier is not None else 0
    start = allowance if wyrd is None else wyrd
    if start < 0 or (tier is not None and start > allowance):
        raise CreationError(
            f"{clean} may begin with 0 to {allowance} Wyrd points, not {start}", rule="feat.character.wyrd"
        )
    chosen_edges = [Edge(e) for e in edges]
    if len(set(chosen_edges)) != len(chosen_edges):
        raise CreationError(f"{clean} lists an Edge twice", rule="feat.character.edge")
    return Character(
        name=clean, concept=concept, tier=tier, attributes=values, skills=chosen, wyrd=start, edges=chosen_edges
    )
