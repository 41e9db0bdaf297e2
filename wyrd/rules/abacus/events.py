"""What happened, as typed events: the contract between the rules and everything else.

Every action returns a list of these. Field names follow DESIGN.md's event kinds
(the session adds ``seq`` when it numbers them); the kinds this ruleset adds
beyond that list are named in the same style. Events carry facts only, never
text meant for players: narration is somebody else's job.
"""

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from wyrd.rules.abacus.enums import Ability, ChallengeType, MagicForm
from wyrd.rules.abacus.reasons import Reason
from wyrd.rules.actions import Event, Labelled
from wyrd.rules.defaults import empty_list

__all__ = [
    "AbacusEvent",
    "AbilityScratched",
    "ChallengeModified",
    "ChallengePlaced",
    "ChallengeResolved",
    "ChallengeRolled",
    "CharacterCreated",
    "CharacterDefeated",
    "ClockAdvanced",
    "ContestDecided",
    "CounterChanged",
    "CounterFired",
    "Damage",
    "Event",
    "InfluenceRolled",
    "MagicCast",
    "PointsRecovered",
    "PointsSpent",
    "RecoveryRefused",
    "RollOpened",
    "SceneEnded",
    "SceneStarted",
    "ServantLoose",
    "StageRuleAdded",
    "StageRuleFired",
    "StoryEnded",
    "WyrdDrawn",
]


class _Named(Labelled):
    """A labelled event naming what it counts, for readers (ids are for the rules)."""

    _labels: ClassVar[frozenset[str]] = frozenset({"name"})
    name: str = ""


class CharacterCreated(Event):
    kind: Literal["character_created"] = "character_created"
    name: str
    body: int
    mind: int
    soul: int
    wyrd: int
    concept: str = ""
    connection: str | None = None


class SceneStarted(Event):
    kind: Literal["scene_started"] = "scene_started"
    scene: str
    number: int
    present: list[str]
    pool: int
    ghost: dict[str, int] = Field(default_factory=dict)


class ChallengePlaced(Event):
    kind: Literal["challenge_placed"] = "challenge_placed"
    id: str
    name: str
    type: ChallengeType
    value: int
    denizen: str | None = None


class ChallengeModified(_Named):
    kind: Literal["challenge_modified"] = "challenge_modified"
    challenge: str
    change: int
    value: int
    reason: str


class RollOpened(Event):
    kind: Literal["roll_opened"] = "roll_opened"
    challenge: str
    name: str
    lead: str
    involved: list[str]
    value: int


class PointsSpent(Event):
    kind: Literal["points_spent"] = "points_spent"
    character: str
    ability: Ability | None
    n: int
    challenge: str | None
    wyrd_cost: int = 0
    points_after: int | None = None


class WyrdDrawn(Event):
    kind: Literal["wyrd_drawn"] = "wyrd_drawn"
    character: str
    n: int
    reason: str
    pool_after: int
    personal_after: int | None
    ghost: bool = False


class ChallengeRolled(Event):
    kind: Literal["challenge_rolled"] = "challenge_rolled"
    challenge: str
    lead: str
    die: int
    points: int
    bonus: int = 0
    total: int
    value: int
    overcome: bool


class ChallengeResolved(Event):
    kind: Literal["challenge_resolved"] = "challenge_resolved"
    challenge: str
    name: str
    overcome: bool
    boost: int
    total: int
    status: str


class Damage(Event):
    kind: Literal["damage"] = "damage"
    character: str
    ability: Ability
    n: int
    points_after: int
    source: str | None = None


class AbilityScratched(Event):
    kind: Literal["ability_scratched"] = "ability_scratched"
    character: str
    ability: Ability


class CharacterDefeated(Event):
    kind: Literal["character_defeated"] = "character_defeated"
    character: str
    wyrd_result: int
    impediment: bool


class InfluenceRolled(Event):
    kind: Literal["influence_rolled"] = "influence_rolled"
    character: str
    trait: str
    dice: list[int]
    result: int
    ties: int
    reason: Reason = ""


class ContestDecided(Labelled):
    kind: Literal["contest_decided"] = "contest_decided"
    _labels: ClassVar[frozenset[str]] = frozenset({"results", "ties"})
    trait: str
    ranking: list[str]
    winner: str
    rerolls: int = 0
    # labels: each one's result and how many of their dice showed it (how a tie was broken)
    results: dict[str, int] = Field(default_factory=dict)
    ties: dict[str, int] = Field(default_factory=dict)


class PointsRecovered(Event):
    kind: Literal["points_recovered"] = "points_recovered"
    character: str
    ability: Ability
    n: int
    points_after: int
    reason: Reason


class RecoveryRefused(Event):
    """A recovery named at a scene's end that the rules refuse; the scene ends all the same."""

    kind: Literal["recovery_refused"] = "recovery_refused"
    character: str
    ability: Ability
    rule: str


class SceneEnded(Event):
    kind: Literal["scene_ended"] = "scene_ended"
    scene: str
    pool_lost: int


class ClockAdvanced(_Named):
    kind: Literal["clock_advanced"] = "clock_advanced"
    clock: str
    value: int
    change: int
    thresholds: list[int] = Field(default_factory=empty_list)


class CounterChanged(_Named):
    kind: Literal["counter_changed"] = "counter_changed"
    counter: str
    value: int
    change: int


class CounterFired(_Named):
    kind: Literal["counter_fired"] = "counter_fired"
    counter: str
    value: int
    character: str
    result: int


class StageRuleAdded(Event):
    kind: Literal["stage_rule_added"] = "stage_rule_added"
    rule: str
    name: str
    source: str


class StageRuleFired(Event):
    kind: Literal["stage_rule_fired"] = "stage_rule_fired"
    rule: str
    name: str
    subject: str | None = None
    text: str = ""


class MagicCast(Event):
    kind: Literal["magic_cast"] = "magic_cast"
    form: MagicForm
    casters: list[str]
    inspiration: str
    rule: str
    wyrd_bound: bool


class ServantLoose(Event):
    kind: Literal["servant_loose"] = "servant_loose"
    servant: str
    challenge: str | None
    value: int


class StoryEnded(Event):
    kind: Literal["story_ended"] = "story_ended"
    results: dict[str, str]


AbacusEvent = Annotated[
    CharacterCreated
    | SceneStarted
    | ChallengePlaced
    | ChallengeModified
    | RollOpened
    | PointsSpent
    | WyrdDrawn
    | ChallengeRolled
    | ChallengeResolved
    | Damage
    | AbilityScratched
    | CharacterDefeated
    | InfluenceRolled
    | ContestDecided
    | PointsRecovered
    | RecoveryRefused
    | SceneEnded
    | ClockAdvanced
    | CounterChanged
    | CounterFired
    | StageRuleAdded
    | StageRuleFired
    | MagicCast
    | ServantLoose
    | StoryEnded,
    Field(discriminator="kind"),
]
