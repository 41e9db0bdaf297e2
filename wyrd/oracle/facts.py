"""Settled facts the fiction side draws on: the cast, the challenges, the place.

These are plain pydantic models, filled by each ruleset's play kit from its own
rules state (a story can add its location, narration seeds, tone notes and its
own tables). Twists, the table narrator and the LLM narrator all read the same
facts; none of them ever changes a number. Nothing here knows any ruleset: a
challenge's type and the ability it tests are the kit's words.

:meth:`CharacterFacts.context` turns a character into placeholder values
(``{character}``, ``{concept}``, ``{facet}``, ``{connection}``); which facet a
sentence names is chosen with a die, so it is reproducible from the dice. A character
and a challenge are given to the texts as :class:`~wyrd.oracle.grammar.Referent` (name,
pronouns, article), so a text can say ``{lead.their}`` or ``{Challenge}``.
"""

from collections.abc import Mapping

from pydantic import BaseModel, Field

from wyrd.oracle.grammar import Referent, person, reading
from wyrd.rules.defaults import empty_list
from wyrd.rules.dice import Dice

__all__ = ["ABILITY_FALLBACK_FACETS", "ChallengeFacts", "CharacterFacts", "StoryFacts", "challenge_context"]

# When a character has no facets for an ability, a sentence still names a quality.
# Facets are usually adjectives ("athletic", "aloof"), so the tables use them as adjectives.
ABILITY_FALLBACK_FACETS: dict[str, str] = {
    "body": "sturdy",
    "mind": "sharp",
    "soul": "stubborn",
}


class CharacterFacts(BaseModel):
    """A character as the fiction knows them."""

    name: str
    concept: str = ""
    facets: dict[str, list[str]] = Field(default_factory=dict)
    connection: str | None = None
    wyrd: int = 0
    defeated: bool = False
    pronouns: str = "they"  # they, she, he or it (wyrd.oracle.grammar.PRONOUNS)

    @property
    def referent(self) -> Referent:
        """How the texts refer to this character: by name, with their pronouns."""
        return person(self.name, self.pronouns)

    def facet(self, dice: Dice | None, ability: str | None = None) -> str:
        """One of the facets (of ``ability`` when given), picked with a die; a fallback if none."""
        pool = list(self.facets.get(ability, [])) if ability else [f for fs in self.facets.values() for f in fs]
        pool = [f for f in pool if f.strip()]
        if not pool:
            return ABILITY_FALLBACK_FACETS.get(ability or "", "")
        if len(pool) == 1 or dice is None:
            return pool[0]
        return pool[dice.roll(1, len(pool), f"facet of {self.name}").faces[0] - 1]

    def context(self, dice: Dice | None = None, ability: str | None = None,
                role: str = "character") -> dict[str, object]:
        """Placeholder values for this character (``role`` names the main one, e.g. ``lead``)."""
        me = self.referent
        values: dict[str, object] = {role: me, "concept": self.concept, "facet": self.facet(dice, ability)}
        if self.connection:
            values["connection"] = self.connection
        if role != "character":
            values.setdefault("character", me)
        return {k: v for k, v in values.items() if v}


class ChallengeFacts(BaseModel):
    """A challenge as placed, and (once settled) how it went."""

    id: str
    name: str
    type: str | None = None  # the ruleset's kind of challenge (tables are named after it)
    ability: str | None = None  # the ability it tests
    value: int | None = None
    denizen: str | None = None
    lead: str | None = None
    involved: list[str] = Field(default_factory=empty_list)
    outcome: str | None = None  # see wyrd.oracle.narrators.base.Outcome
    wyrd_drawn: int = 0
    damage: dict[str, int] = Field(default_factory=dict)  # character -> points lost
    scratched: dict[str, str] = Field(default_factory=dict)  # character -> ability
    wording: Referent | None = None  # how the story says it reads in prose (None: read from the name)

    @property
    def referent(self) -> Referent:
        return self.wording if self.wording is not None else reading(self.name)


def challenge_context(challenge: ChallengeFacts,
                      referents: Mapping[str, Referent] | None = None) -> dict[str, object]:
    """``{challenge}`` (as it reads mid-sentence), ``{challenge_name}``, ``{denizen}``, ``{ability}``.

    ``referents`` (by name) say how the story refers to the challenge and its denizen.
    """
    known = referents or {}
    values: dict[str, object] = {
        "challenge": challenge.wording or known.get(challenge.name) or reading(challenge.name),
        "challenge_name": challenge.name, "ability": challenge.ability or "",
        "denizen": (known.get(challenge.denizen) or reading(challenge.denizen)) if challenge.denizen else ""}
    return {k: v for k, v in values.items() if v and (not isinstance(v, Referent) or v.phrase)}


class StoryFacts(BaseModel):
    """What the narration may lean on beyond one command's events."""

    story: str = ""
    scene: str = ""
    location: str = ""
    seeds: list[str] = Field(default_factory=empty_list)
    tone: list[str] = Field(default_factory=empty_list)
    language: str = ""  # the story's own language, if it names one
    denizens: list[str] = Field(default_factory=empty_list)
    characters: dict[str, CharacterFacts] = Field(default_factory=dict)
    challenges: dict[str, ChallengeFacts] = Field(default_factory=dict)
    # a story's own entries by category: twist categories, "location", "denizen", ...
    tables: dict[str, list[str]] = Field(default_factory=dict)
    # how the story refers to things by their names (challenges, denizens, places): see wyrd.oracle.grammar
    referents: dict[str, Referent] = Field(default_factory=dict)

    def character(self, name: str | None) -> CharacterFacts:
        if name and name in self.characters:
            return self.characters[name]
        return CharacterFacts(name=name or "")

    def merged(self, other: Mapping[str, object]) -> "StoryFacts":
        """A copy with some fields replaced."""
        return self.model_copy(update=dict(other))
