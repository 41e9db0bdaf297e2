"""What happened in Heroes of the Fall, as typed events.

Every action returns a list of these; each has a ``kind`` (the session adds
``seq`` when it numbers them) and carries facts only, never text meant for
players. The kinds follow DESIGN.md's style; the ones this ruleset adds:

* ``character_created``: a character joins, with attributes, skills and Wyrd.
* ``step_up_rolled``: the d100 against a skill's modifier, and the level it leaves.
* ``feat_rolled``: the three d8 read on the Feat table, the bought 8s and the result.
* ``opposed_decided``: who won a feat one character made against another.
* ``shock_tested`` / ``survival_tested``: Mettle feats against shock or death.
* ``mettle_lost`` / ``character_killed`` / ``character_recovered``: condition.
* ``search_made``, ``reaction_tested``, ``initiative_decided``, ``race_decided``:
  the attribute feats the seed describes.
* ``wyrd_awarded``: Wyrd points given for good play.
* ``edge_activated``: an Edge of speed used to act first.
* ``fatigue_tested`` / ``rested``: the Mettle feat against fatigue, and rest after it.
"""

from typing import Annotated, Literal

from pydantic import Field

from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.feat.characters import Skill
from wyrd.rules.feat.enums import Attribute, Edge, Needs, Tier

__all__ = [
    "CharacterCreated",
    "CharacterKilled",
    "CharacterRecovered",
    "EdgeActivated",
    "Event",
    "FatigueTested",
    "FeatEvent",
    "FeatRolled",
    "InitiativeDecided",
    "MettleLost",
    "OpposedDecided",
    "RaceDecided",
    "ReactionTested",
    "Rested",
    "SearchMade",
    "ShockTested",
    "StepUpRolled",
    "SurvivalTested",
    "WyrdAwarded",
]


class CharacterCreated(Event):
    kind: Literal["character_created"] = "character_created"
    name: str
    tier: Tier | None
    attributes: dict[Attribute, int]
    skills: dict[str, Skill]
    wyrd: int
    concept: str = ""
    edges: list[Edge] = Field(default_factory=empty_list, exclude_if=lambda v: not v)


class StepUpRolled(Event):
    """The d100 before a skill feat: ``stepped`` when it reached the modifier."""

    kind: Literal["step_up_rolled"] = "step_up_rolled"
    character: str
    trait: str
    level: int
    modifier: int
    d100: int
    stepped: bool
    effective: int


class FeatRolled(Event):
    """Three d8 on the Feat table.

    ``difficulty`` and ``effective`` are None when the Feat level was given directly;
    ``raw_level`` is difficulty - effective before clamping to -8..+8. ``bought`` lists
    the positions (0-based, among the dice read) that show a bought 8.
    """

    kind: Literal["feat_rolled"] = "feat_rolled"
    character: str
    trait: str
    difficulty: int | None
    effective: int | None
    raw_level: int
    level: int
    dice: list[int]
    read: list[int]
    minimums: list[int]
    needs: Needs
    bought: list[int]
    wyrd_spent: int
    wyrd_after: int
    success: bool
    reason: str = ""


class OpposedDecided(Event):
    """A feat against another character, whose effective level (plus ``extra``) was the difficulty."""

    kind: Literal["opposed_decided"] = "opposed_decided"
    active: str
    opponent: str
    trait: str
    opposing_trait: str
    active_level: int
    opposing_level: int
    extra: int
    level: int
    success: bool
    winner: str


class ShockTested(Event):
    kind: Literal["shock_tested"] = "shock_tested"
    character: str
    difficulty: int
    success: bool
    out_of_action: bool


class SurvivalTested(Event):
    kind: Literal["survival_tested"] = "survival_tested"
    character: str
    difficulty: int
    survived: bool
    cause: str = ""


class MettleLost(Event):
    kind: Literal["mettle_lost"] = "mettle_lost"
    character: str
    n: int
    mettle_after: int
    cause: str = ""


class CharacterKilled(Event):
    kind: Literal["character_killed"] = "character_killed"
    character: str
    cause: str


class CharacterRecovered(Event):
    kind: Literal["character_recovered"] = "character_recovered"
    character: str


class SearchMade(Event):
    kind: Literal["search_made"] = "search_made"
    character: str
    target: str
    concealment: int
    found: bool
    again: bool = False


class ReactionTested(Event):
    kind: Literal["reaction_tested"] = "reaction_tested"
    character: str
    toward: str
    difficulty: int
    favourable: bool


class InitiativeDecided(Event):
    """Who acts first: by Vigour (``rolled`` False, ties listed) or by a Vigour feat between two."""

    kind: Literal["initiative_decided"] = "initiative_decided"
    order: list[str]
    vigour: dict[str, int]
    rolled: bool
    tied: list[list[str]] = Field(default_factory=empty_list)
    edges: list[str] = Field(default_factory=empty_list, exclude_if=lambda v: not v)  # first by an Edge of speed


class EdgeActivated(Event):
    """A character activates an Edge (seed 003: an Edge of speed, to act first)."""

    kind: Literal["edge_activated"] = "edge_activated"
    character: str
    edge: Edge
    cancelled: bool = False  # [ours] both sides activated speed: the Edges cancel and Vigour decides


class FatigueTested(Event):
    """A Mettle feat against fatigue (or a heavy load pushed on); a failure leaves the character exhausted."""

    kind: Literal["fatigue_tested"] = "fatigue_tested"
    character: str
    difficulty: int
    encumbered: bool
    success: bool
    exhausted: bool
    cause: str = ""


class Rested(Event):
    kind: Literal["rested"] = "rested"
    character: str


class RaceDecided(Event):
    """A race: the runner rolls at the rival's score minus their own (Vigour, or Vigour + Mettle)."""

    kind: Literal["race_decided"] = "race_decided"
    runner: str
    rival: str
    long: bool
    runner_score: int
    rival_score: int
    level: int
    winner: str


class WyrdAwarded(Event):
    kind: Literal["wyrd_awarded"] = "wyrd_awarded"
    character: str
    n: int
    wyrd_after: int
    reason: str = ""


FeatEvent = Annotated[
    CharacterCreated
    | StepUpRolled
    | FeatRolled
    | OpposedDecided
    | ShockTested
    | SurvivalTested
    | MettleLost
    | CharacterKilled
    | CharacterRecovered
    | SearchMade
    | ReactionTested
    | InitiativeDecided
    | RaceDecided
    | WyrdAwarded
    | EdgeActivated
    | FatigueTested
    | Rested,
    Field(discriminator="kind"),
]
"""Any Heroes of the Fall event, read back from JSON by its ``kind``."""
