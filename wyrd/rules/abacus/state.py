"""The whole state of a Wyrd Abacus game, as plain pydantic data.

Actions never change a state in place: they work on a copy and hand back the new
state with its events, so a refused action leaves the caller's state untouched
and a save file can rebuild any state by replaying actions.
"""

from enum import StrEnum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field

from wyrd.rules.abacus.characters import Character
from wyrd.rules.abacus.enums import Ability, ChallengeStatus, ChallengeType
from wyrd.rules.abacus.stage import Clock, Counter, Effect, StageRule
from wyrd.rules.defaults import empty_list
from wyrd.rules.values import Value

__all__ = [
    "Assignment",
    "Challenge",
    "ChallengeSpec",
    "Denizen",
    "GameState",
    "Needs",
    "PendingRoll",
    "RollStage",
    "Scene",
    "Servant",
]


class ChallengeSpec(Value):
    """A challenge as a story describes it, before it is placed in a scene."""

    id: str
    name: str
    type: ChallengeType
    value: int = Field(ge=0)
    denizen: str | None = None
    after: list[str] = Field(default_factory=empty_list)
    # What failing costs. None: the default of damage to the lead, half the value.
    on_fail: list[Effect] | None = None


class Challenge(ChallengeSpec):
    """A challenge placed in a scene: its status and sabotage change as it is faced."""

    model_config = ConfigDict(frozen=False)

    status: ChallengeStatus = ChallengeStatus.OPEN
    sabotage: int = 0
    saboteurs: list[str] = Field(default_factory=empty_list)  # each works against a challenge once
    tackled: bool = False

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return BaseModel.__deepcopy__(self, memo)  # changing, so copied (its spec's parts are shared)


class Needs(StrEnum):
    ALL = "all"  # every challenge of the denizen must be overcome
    ANY = "any"  # overcoming one is enough; the rest are bypassed


class Denizen(Value):
    id: str
    name: str
    needs: Needs = Needs.ALL


class Servant(BaseModel):
    """A conjured servant: a pool of points usable on challenges until it breaks loose."""

    id: str
    name: str
    pool: int
    casters: list[str]
    # a Wyrd result at or above this breaks it loose (6, or 5 when no Wyrd bound it)
    loose_at: int = 6


class Scene(BaseModel):
    id: str
    number: int
    present: list[str]
    pool: int
    # a defeated character's player has 2 Wyrd points a scene, for others' use
    ghost: dict[str, int] = Field(default_factory=dict)
    challenges: dict[str, Challenge] = Field(default_factory=dict)
    wyrd_rolls: int = 0
    drawn: int = 0
    faced: list[str] = Field(default_factory=empty_list)
    cast_magic: list[str] = Field(default_factory=empty_list)
    warded: list[str] = Field(default_factory=empty_list)


class Assignment(BaseModel):
    character: str
    ability: Ability | None  # None for a servant's pool
    n: int


class RollStage(StrEnum):
    ASSIGNING = "assigning"
    ROLLED = "rolled"  # failed, waiting for Wyrd draws or acceptance


class PendingRoll(BaseModel):
    challenge: str
    lead: str
    involved: list[str]
    stage: RollStage = RollStage.ASSIGNING
    # who has paid the Wyrd for another ability ("NAME:ability") / for helping from elsewhere (NAME)
    other_ability: list[str] = Field(default_factory=empty_list)
    absent_help: list[str] = Field(default_factory=empty_list)
    assigned: list[Assignment] = Field(default_factory=empty_list)
    bonus: int = 0
    die: int | None = None
    # the value the die was rolled against; later changes to the challenge
    # (a Spell, a Ward) no longer move it, since after the roll only Wyrd helps
    value: int | None = None
    boost: int = 0

    @property
    def points(self) -> int:
        return sum(a.n for a in self.assigned)


class GameState(BaseModel):
    characters: dict[str, Character] = Field(default_factory=dict)
    scene: Scene | None = None
    scenes_played: int = 0
    pending: PendingRoll | None = None
    stage_rules: dict[str, StageRule] = Field(default_factory=dict)
    clocks: dict[str, Clock] = Field(default_factory=dict)
    counters: dict[str, Counter] = Field(default_factory=dict)
    denizens: dict[str, Denizen] = Field(default_factory=dict)
    catalogue: dict[str, ChallengeSpec] = Field(default_factory=dict)
    servants: dict[str, Servant] = Field(default_factory=dict)
    # challenges placed while no scene could take them (between scenes, or by a closing scene's
    # Wyrd roll): the next scene begins with them
    waiting: list[ChallengeSpec] = Field(default_factory=empty_list)
    # every servant id ever given, so a new servant never takes a living (or loosed) one's id
    conjured: list[str] = Field(default_factory=empty_list)
    connections: bool = False  # the optional connection recovery rule
    rested: list[str] = Field(default_factory=empty_list)  # who has rested since the last scene
    ended: bool = False
    results: dict[str, str] = Field(default_factory=dict)
