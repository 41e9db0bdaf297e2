"""Thaeborn characters: the six Disciplines, Mettle and armour, and the points they hold.

Seed 004: Disciplines and Tiers normally run from 0 to 10. Story Points, earned
for entertaining play, turn into Development Points (which raise Disciplines) or
Portents (which change casts). RULES.md [ours]: Mettle is the Stat a character
tests against total Pain, and armour takes its share off each hit's damage.

[ours] The seed gives no creation rules. A sheet names each Discipline from 0 to
10 (a missing one is 0); Mettle is 1 to 10 and defaults to the Willpower (at
least 1); armour is 0 or more; a character may begin with Portents. The other Stats the
glossary names (Capacity, Bulk, Hindrance, Mobility) are tracked values with no
formula in the text: a sheet may give each from 0 to 10, and a check may use one
as its Attribute. Non-player
characters (``npc``) have sheets too: the players' casts are made against
their numbers (only players roll).
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, Field

from wyrd.rules.errors import RuleError
from wyrd.rules.lots.enums import Discipline, Stat
from wyrd.rules.lots.spec import CheckSpec

__all__ = [
    "METTLE_MAX",
    "METTLE_MIN",
    "TIER_MAX",
    "TIER_MIN",
    "Character",
    "Condition",
    "CreationError",
    "create_character",
]

TIER_MIN = 0
TIER_MAX = 10
METTLE_MIN = 1
METTLE_MAX = 10


class CreationError(RuleError):
    rule = "lots.character"


class Condition(BaseModel):
    """What casts of lots change on a character: a Re-tell or Blot-out puts it back.

    Attributes:
        pain: Accumulated Pain (not a hit-point pool: it sets the Mettle tests).
        loses_action: A failed Mettle test costs the character their next action.
        incapacitated: Out of the fight until rest brings the Pain down.
        effort_spent: All the effort the character has committed to checks.
        effort_lost: The part of it lost to WASTEs and Blot-outs.
        retry: The check the character may try again, if the last one allows it.
    """

    pain: int = 0
    loses_action: bool = False
    incapacitated: bool = False
    effort_spent: int = 0
    effort_lost: int = 0
    retry: CheckSpec | None = None


class Character(BaseModel):
    """A character sheet: Disciplines, Stats, points, and condition."""

    name: str
    npc: bool = False
    concept: str = ""
    disciplines: dict[Discipline, int]
    mettle: int
    armour: int = 0
    portents: int = 0
    story_points: int = 0
    development: int = 0  # Development Points
    condition: Condition = Field(default_factory=Condition)
    # Capacity, Bulk, Hindrance, Mobility as the table tracks them (left out of a sheet's data when none).
    stats: dict[Stat, int] = Field(default_factory=dict, exclude_if=lambda v: not v)

    def discipline(self, which: Discipline) -> int:
        """The Proficiency in a Discipline (0 if the sheet leaves it out)."""
        return self.disciplines.get(Discipline(which), 0)

    def stat(self, which: Stat) -> int:
        """A Stat's value (0 if the sheet leaves it out)."""
        return self.stats.get(Stat(which), 0)


def create_character(
    name: str,
    disciplines: Mapping[Discipline, int] | Mapping[str, int],
    *,
    mettle: int | None = None,
    armour: int = 0,
    portents: int = 0,
    npc: bool = False,
    concept: str = "",
    stats: Mapping[Stat, int] | Mapping[str, int] | None = None,
) -> Character:
    """Build a character sheet, refusing values outside the ranges above.

    Raises:
        CreationError: Naming the rule broken (``lots.character.*``).
    """
    clean = name.strip()
    if not clean:
        raise CreationError("a character needs a name", rule="lots.character.name")
    sheet: dict[Discipline, int] = dict.fromkeys(Discipline, 0)
    for key, value in disciplines.items():
        try:
            which = Discipline(str(key).casefold())
        except ValueError:
            known = ", ".join(d.value for d in Discipline)
            raise CreationError(
                f"{key!r} is not a Discipline (they are {known})", rule="lots.character.discipline"
            ) from None
        if not TIER_MIN <= value <= TIER_MAX:
            raise CreationError(
                f"{clean}'s {which.value.title()} is {value}; a Discipline runs from {TIER_MIN} to {TIER_MAX}",
                rule="lots.character.discipline-range",
            )
        sheet[which] = value
    grit = mettle if mettle is not None else max(METTLE_MIN, sheet[Discipline.WILLPOWER])
    if not METTLE_MIN <= grit <= METTLE_MAX:
        raise CreationError(
            f"{clean}'s Mettle is {grit}; it runs from {METTLE_MIN} to {METTLE_MAX}",
            rule="lots.character.mettle-range",
        )
    if armour < 0:
        raise CreationError(f"{clean}'s armour can't be {armour}", rule="lots.character.armour")
    if portents < 0:
        raise CreationError(f"{clean} can't begin with {portents} Portents", rule="lots.character.portents")
    tracked: dict[Stat, int] = {}
    for key, value in (stats or {}).items():
        try:
            stat = Stat(str(key).casefold())
        except ValueError:
            known = ", ".join(s.value for s in Stat)
            raise CreationError(f"{key!r} is not a Stat (they are {known})", rule="lots.character.stat") from None
        if not TIER_MIN <= value <= TIER_MAX:
            raise CreationError(
                f"{clean}'s {stat.value.title()} is {value}; a Stat runs from {TIER_MIN} to {TIER_MAX}",
                rule="lots.character.stat-range",
            )
        tracked[stat] = value
    return Character(
        name=clean, npc=npc, concept=concept, disciplines=sheet, mettle=grit, armour=armour, portents=portents,
        stats=tracked,
    )
