"""What happened in a Thaeborn game, as typed events.

Every action returns a list of these, in the style of the other rulesets: a
``kind`` literal and facts only, never text meant for players. A Re-tell does
not take back the events of the cast it replaces: both casts stay in the record
(``retell_of`` links them) and :class:`PortentSpent` lists the casts it erased.
"""

from typing import Annotated, Literal

from pydantic import Field

from wyrd.rules.actions import Event
from wyrd.rules.lots.enums import (
    Change,
    CheckForm,
    Commitment,
    Conversion,
    Discipline,
    Fortune,
    GapSize,
    IncapacityReason,
    Lot,
    PortentUse,
    Result,
    Stat,
    Whose,
)

__all__ = [
    "ActionLost",
    "Assessed",
    "AttackResolved",
    "CharacterCreated",
    "CheckCast",
    "CountsTaken",
    "Development",
    "Event",
    "FightBegun",
    "FightEnded",
    "Incapacitated",
    "LotsCast",
    "LotsEvent",
    "MettleTested",
    "PainTaken",
    "PortentSpent",
    "Rested",
    "StoryPointsAwarded",
    "StoryPointsConverted",
]


class CharacterCreated(Event):
    kind: Literal["character_created"] = "character_created"
    name: str
    npc: bool
    disciplines: dict[Discipline, int]
    mettle: int
    armour: int
    portents: int
    concept: str = ""
    stats: dict[Stat, int] = Field(default_factory=dict, exclude_if=lambda v: not v)


class CheckCast(Event):
    """A check and its lots: the comparison, the two dice, and what fate made of it."""

    kind: Literal["check_cast"] = "check_cast"
    cast: str
    character: str | None
    form: CheckForm
    purpose: str = ""
    discipline: Discipline | None = None
    stat: Stat | None = Field(default=None, exclude_if=lambda v: v is None)  # the Stat checked, if one was
    attribute: int
    difficulty: int
    proficiency: int
    tier: int
    effort: int = 0
    weal: int
    woe: int
    lot: Lot
    base: Result
    outcome: Result
    change: Change
    fortune: Fortune
    may_retry: bool = False
    retry: bool = False  # this check is a second try after a spoiled one
    retell_of: str | None = None
    retells: int = 0
    effort_lost: int = 0


class LotsCast(Event):
    """Lots cast with no check (a secret roll): only the lot matters."""

    kind: Literal["lots_cast"] = "lots_cast"
    cast: str
    character: str | None
    purpose: str = ""
    weal: int
    woe: int
    lot: Lot
    fortune: Fortune
    retell_of: str | None = None
    retells: int = 0


class PortentSpent(Event):
    """Portents spent on a cast; ``erased`` lists the casts whose effects are undone."""

    kind: Literal["portent_spent"] = "portent_spent"
    character: str
    use: PortentUse
    cost: int
    cast: str
    target: str | None  # whose cast it was (None: the world's)
    whose: Whose
    portents_after: int
    erased: list[str]
    effort_lost: int = 0


class Assessed(Event):
    """What a character learns of a target's Tier (by assessing it, or by a check)."""

    kind: Literal["assessed"] = "assessed"
    character: str
    subject: str = ""
    discipline: Discipline | None = None
    tier: int
    proficiency: int
    effective: int
    commitment: Commitment
    accurate: bool
    gap: int
    gap_size: GapSize
    minutes: int | None = None
    via: Literal["assess", "check"] = "assess"
    cast: str | None = None


class AttackResolved(Event):
    kind: Literal["attack_resolved"] = "attack_resolved"
    cast: str
    attacker: str
    target: str
    roller: str
    offense: int
    defense: int
    accuracy: int
    landed: bool


class PainTaken(Event):
    kind: Literal["pain_taken"] = "pain_taken"
    character: str
    n: int
    pain_after: int
    damage: int | None = None
    accuracy: int | None = None
    armour: int | None = None
    source: str = ""


class MettleTested(Event):
    """Test Your Mettle; ``cast`` is None for an NPC's, which casts no lots."""

    kind: Literal["mettle_tested"] = "mettle_tested"
    character: str
    cast: str | None
    mettle: int
    pain: int
    outcome: Result
    loses_action: bool
    incapacitated: bool


class Incapacitated(Event):
    kind: Literal["incapacitated"] = "incapacitated"
    character: str
    reason: IncapacityReason


class ActionLost(Event):
    """A character who failed a Mettle test spends their next action reeling."""

    kind: Literal["action_lost"] = "action_lost"
    character: str
    action: str


class Rested(Event):
    kind: Literal["rested"] = "rested"
    character: str
    n: int
    pain_after: int
    recovered: bool  # no longer incapacitated


class StoryPointsAwarded(Event):
    kind: Literal["story_points_awarded"] = "story_points_awarded"
    character: str
    n: int
    reason: str = ""
    story_points_after: int


class StoryPointsConverted(Event):
    kind: Literal["story_points_converted"] = "story_points_converted"
    character: str
    n: int
    into: Conversion
    story_points_after: int
    portents_after: int
    development_after: int


class Development(Event):
    kind: Literal["development"] = "development"
    character: str
    discipline: Discipline
    value: int
    cost: int
    development_after: int


class FightBegun(Event):
    """A fight's Counts start: every combatant at Count 0."""

    kind: Literal["fight_begun"] = "fight_begun"
    combatants: list[str]


class CountsTaken(Event):
    """An Action takes Counts equal to its committed Effort; the fight advances to the next resolution.

    ``count`` is when the Action began, ``resolves`` when it resolves (and the
    character may act again), ``now`` the next scheduled resolution after it and
    ``up`` who acts there.
    """

    kind: Literal["counts_taken"] = "counts_taken"
    character: str
    counts: int
    count: int
    resolves: int
    now: int
    up: list[str]


class FightEnded(Event):
    kind: Literal["fight_ended"] = "fight_ended"


LotsEvent = Annotated[
    CharacterCreated
    | CheckCast
    | LotsCast
    | PortentSpent
    | Assessed
    | AttackResolved
    | PainTaken
    | MettleTested
    | Incapacitated
    | ActionLost
    | Rested
    | StoryPointsAwarded
    | StoryPointsConverted
    | Development
    | FightBegun
    | CountsTaken
    | FightEnded,
    Field(discriminator="kind"),
]
