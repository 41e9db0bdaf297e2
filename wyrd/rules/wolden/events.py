"""What happened in a Wolden game, as typed events (each with its ``kind``).

Every action returns a list of these. They carry facts only (every die face,
every number before and after), never text meant for players: narration is
somebody else's job. Kinds follow DESIGN.md's style; those shared with the
other rulesets (``character_created``) carry this ruleset's own fields.
"""

from typing import Annotated, Literal

from pydantic import Field

from wyrd.rules.actions import Event
from wyrd.rules.wolden.enums import Ability, DowntimeChoice, EncounterKind, EncounterOutcome, Result

__all__ = [
    "AbilityRaised",
    "CharacterCreated",
    "CharacterOut",
    "CheckCancelled",
    "CheckOpened",
    "CheckRolled",
    "CultAdded",
    "DowntimeTaken",
    "EnemyHarmed",
    "Event",
    "ExtendedEnded",
    "ExtendedProgressed",
    "ExtendedStarted",
    "FightEnded",
    "FightStarted",
    "GiftGained",
    "HarmTaken",
    "ItemGained",
    "PoolCapped",
    "RoundStarted",
    "SessionAdvanced",
    "SituationDrawn",
    "Struck",
    "TableRolled",
    "TurnPassed",
    "WoldenEvent",
    "WoundTaken",
    "WoundsHealed",
]


class CultAdded(Event):
    kind: Literal["cult_added"] = "cult_added"
    cult: str
    name: str


class CharacterCreated(Event):
    kind: Literal["character_created"] = "character_created"
    name: str
    cult: str
    might: int
    agility: int
    mind: int
    graces: int
    gifts: list[str]
    slots: int
    concept: str = ""


class SessionAdvanced(Event):
    kind: Literal["session_advanced"] = "session_advanced"
    session: int


class PoolCapped(Event):
    """Seed 001: "maximum 4d12": the pool asked for more; ``lost`` are the helpers whose die found no room."""

    kind: Literal["pool_capped"] = "pool_capped"
    lead: str
    asked: int
    dice: int
    lost: list[str]


class CheckOpened(Event):
    kind: Literal["check_opened"] = "check_opened"
    lead: str
    ability: Ability
    score: int
    dice: int
    gift: str | None
    advantage: bool
    helpers: list[str]
    against: str | None


class CheckRolled(Event):
    kind: Literal["check_rolled"] = "check_rolled"
    lead: str
    helpers: list[str]
    ability: Ability
    faces: list[int]
    highest: int
    score: int
    total: int
    pair: bool
    result: Result
    critical: bool
    against: str | None


class CheckCancelled(Event):
    kind: Literal["check_cancelled"] = "check_cancelled"
    lead: str


class ExtendedStarted(Event):
    kind: Literal["extended_started"] = "extended_started"
    id: str
    name: str
    rating: int
    montage: bool
    participants: list[str]


class SituationDrawn(Event):
    kind: Literal["situation_drawn"] = "situation_drawn"
    encounter: str
    situation: str
    text: str
    round: int
    face: int | None = None  # None when only one situation was left to draw


class ExtendedProgressed(Event):
    kind: Literal["extended_progressed"] = "extended_progressed"
    id: str
    lead: str
    result: Result
    change: int
    rating: int


class ExtendedEnded(Event):
    kind: Literal["extended_ended"] = "extended_ended"
    id: str
    outcome: EncounterOutcome
    rating: int
    rounds: int


class RoundStarted(Event):
    kind: Literal["round_started"] = "round_started"
    encounter: str
    type: EncounterKind
    number: int
    participants: list[str]


class TurnPassed(Event):
    kind: Literal["turn_passed"] = "turn_passed"
    encounter: str
    character: str
    round: int


class FightStarted(Event):
    kind: Literal["fight_started"] = "fight_started"
    id: str
    name: str
    enemies: list[str]
    participants: list[str]


class EnemyHarmed(Event):
    kind: Literal["enemy_harmed"] = "enemy_harmed"
    enemy: str
    n: int
    taken: int
    harm: int
    defeated: bool


class Struck(Event):
    """An enemy (or a dangerous challenge) deals its damage to a character."""

    kind: Literal["struck"] = "struck"
    source: str
    character: str
    dice: str
    faces: list[int]
    n: int
    maximum: bool


class FightEnded(Event):
    kind: Literal["fight_ended"] = "fight_ended"
    id: str
    outcome: EncounterOutcome
    rounds: int


class HarmTaken(Event):
    kind: Literal["harm_taken"] = "harm_taken"
    character: str
    ability: Ability
    n: int
    ability_after: int
    past: int  # points that went past the ability and became wounds
    source: str | None = None


class WoundTaken(Event):
    kind: Literal["wound_taken"] = "wound_taken"
    character: str
    n: int
    wounds: int
    free_slots: int
    source: str | None = None


class CharacterOut(Event):
    kind: Literal["character_out"] = "character_out"
    character: str
    source: str | None = None


class WoundsHealed(Event):
    kind: Literal["wounds_healed"] = "wounds_healed"
    character: str
    n: int
    wounds: int
    reason: str


class DowntimeTaken(Event):
    kind: Literal["downtime_taken"] = "downtime_taken"
    character: str
    choice: DowntimeChoice
    session: int
    damage_healed: int
    wounds_healed: int
    slots: int
    back: bool = False  # a character who was out is back on their feet


class TableRolled(Event):
    kind: Literal["table_rolled"] = "table_rolled"
    character: str
    table: Literal["powers", "carousing"]
    cult: str
    die: int
    face: int
    row: str


class GiftGained(Event):
    kind: Literal["gift_gained"] = "gift_gained"
    character: str
    gift: str
    slots: int
    free_slots: int
    source: str


class ItemGained(Event):
    kind: Literal["item_gained"] = "item_gained"
    character: str
    item: str


class AbilityRaised(Event):
    kind: Literal["ability_raised"] = "ability_raised"
    character: str
    ability: Ability
    score: int
    raised: bool  # False when the ability was already at its maximum


WoldenEvent = Annotated[
    CultAdded
    | CharacterCreated
    | SessionAdvanced
    | PoolCapped
    | CheckOpened
    | CheckRolled
    | CheckCancelled
    | ExtendedStarted
    | SituationDrawn
    | ExtendedProgressed
    | ExtendedEnded
    | RoundStarted
    | TurnPassed
    | FightStarted
    | EnemyHarmed
    | Struck
    | FightEnded
    | HarmTaken
    | WoundTaken
    | CharacterOut
    | WoundsHealed
    | DowntimeTaken
    | TableRolled
    | GiftGained
    | ItemGained
    | AbilityRaised,
    Field(discriminator="kind"),
]
