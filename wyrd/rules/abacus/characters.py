"""Player characters of the Wyrd Abacus and how they are made.

Seed 000, character creation: 15 points spread over Body, Mind and Soul, each
from 3 to 9; the score is both the starting and the maximum number of points;
two facets per ability; optionally one point of personal Wyrd to begin with and
a connection to another character (an optional recovery rule).
"""

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

from wyrd.rules.abacus.enums import Ability
from wyrd.rules.defaults import empty_list
from wyrd.rules.errors import RuleError

__all__ = [
    "ABILITY_MAX",
    "ABILITY_MIN",
    "CREATION_POINTS",
    "FACETS_PER_ABILITY",
    "Character",
    "CreationError",
    "create_character",
]

CREATION_POINTS = 15
ABILITY_MIN = 3
ABILITY_MAX = 9
FACETS_PER_ABILITY = 2
STARTING_WYRD_MAX = 1


class CreationError(RuleError):
    rule = "abacus.character"


class Character(BaseModel):
    """A character sheet: scores, current points, scratches, personal Wyrd."""

    name: str
    concept: str = ""
    scores: dict[Ability, int]
    points: dict[Ability, int]
    facets: dict[Ability, list[str]] = Field(default_factory=dict)
    scratched: list[Ability] = Field(default_factory=empty_list)
    wyrd: int = 0
    connection: str | None = None
    defeated: bool = False
    impediment: bool = False

    def is_scratched(self, ability: Ability) -> bool:
        return ability in self.scratched

    def spent(self, ability: Ability) -> int:
        """Points spent (or lost) below the score, which recovery can give back."""
        return self.scores[ability] - self.points[ability]

    @property
    def total_points(self) -> int:
        return sum(self.points.values())


def create_character(
    name: str,
    body: int,
    mind: int,
    soul: int,
    *,
    facets: Mapping[Ability, Sequence[str]] | None = None,
    wyrd: int = 0,
    connection: str | None = None,
    concept: str = "",
) -> Character:
    """Build a character, refusing anything the creation rules forbid.

    Facets may be left out entirely (to be chosen later), but an ability that has
    facets has exactly two.
    """
    clean = name.strip()
    if not clean:
        raise CreationError("a character needs a name", rule="abacus.character.name")
    scores = {Ability.BODY: body, Ability.MIND: mind, Ability.SOUL: soul}
    for ability, score in scores.items():
        if not ABILITY_MIN <= score <= ABILITY_MAX:
            raise CreationError(
                f"{clean}'s {ability.value.title()} is {score}; each ability must be "
                f"{ABILITY_MIN} to {ABILITY_MAX}",
                rule="abacus.character.ability-range",
            )
    total = sum(scores.values())
    if total != CREATION_POINTS:
        raise CreationError(
            f"{clean}'s abilities add up to {total}; they must add up to {CREATION_POINTS}",
            rule="abacus.character.points",
        )
    chosen: dict[Ability, list[str]] = {}
    for ability, items in (facets or {}).items():
        listed = [f.strip() for f in items if f.strip()]
        if listed and len(listed) != FACETS_PER_ABILITY:
            raise CreationError(
                f"{clean} has {len(listed)} {Ability(ability).value.title()} facets; "
                f"each ability takes {FACETS_PER_ABILITY}",
                rule="abacus.character.facets",
            )
        if listed:
            chosen[Ability(ability)] = listed
    if not 0 <= wyrd <= STARTING_WYRD_MAX:
        raise CreationError(
            f"{clean} may begin with at most {STARTING_WYRD_MAX} personal Wyrd, not {wyrd}",
            rule="abacus.character.starting-wyrd",
        )
    if connection is not None and connection.strip().casefold() == clean.casefold():
        raise CreationError(
            f"{clean} cannot take a connection to themself",
            rule="abacus.character.connection",
        )
    return Character(
        name=clean,
        concept=concept,
        scores=scores,
        points=dict(scores),
        facets=chosen,
        wyrd=wyrd,
        connection=connection.strip() if connection else None,
    )
