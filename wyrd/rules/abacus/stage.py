"""Stage rules, clocks and counters as data.

Seed 000 lets a story, a location, a denizen or a piece of magic set the stage:
a rule that changes challenge values, demands a Wyrd point to attempt something,
strikes when a challenge is left untackled, counts the 5s and 6s of Wyrd rolls,
or fires when a Wyrd result is at or under a killer's count. Here a stage rule is
a trigger (``on`` plus a filter) and a list of effects; the engine that runs them
is :mod:`wyrd.rules.abacus.effects`. Stories write these same models in YAML.
"""

from enum import StrEnum

from pydantic import BaseModel, Field

from wyrd.rules.abacus.enums import Ability, ChallengeType
from wyrd.rules.defaults import empty_list
from wyrd.rules.values import Value

__all__ = [
    "Clock",
    "Counter",
    "Effect",
    "EffectKind",
    "Lasts",
    "Match",
    "StageRule",
    "Target",
    "Threshold",
    "Trigger",
    "TriggerKind",
]


class TriggerKind(StrEnum):
    ALWAYS = "always"  # a standing modifier (``modify``, ``free_ability``)
    ATTEMPT = "attempt"  # a challenge roll is opened
    OVERCOME = "overcome"
    FAIL = "fail"  # a challenge roll failed and the failure was taken
    DAMAGE = "damage"  # a character lost points to a failed challenge
    WYRD_SIX = "wyrd_six"  # a Wyrd roll showed a 6
    WYRD_ROLL = "wyrd_roll"  # any Wyrd roll
    SCENE_START = "scene_start"
    SCENE_END = "scene_end"


class EffectKind(StrEnum):
    MODIFY = "modify"  # change the value of matching challenges by ``n``
    ROLL_BONUS = "roll_bonus"  # add ``n`` to a matching roll's total
    ATTEMPT_COST = "attempt_cost"  # ``n`` scene Wyrd just to attempt
    FREE_ABILITY = "free_ability"  # any ability may be spent without drawing Wyrd
    DAMAGE = "damage"  # ``n`` points (or the damage that fired the rule) from ``ability``
    SCRATCH = "scratch"
    COUNTER = "counter"  # move counter ``counter`` by ``n``
    CLOCK = "clock"  # move clock ``clock`` by ``n``
    PLACE = "place"  # put challenge ``challenge`` into the scene
    WYRD_ROLL = "wyrd_roll"  # the target rolls their Wyrd
    MARK = "mark"  # nothing mechanical: a moment for the narration to tell
    # seed 000: magic once per scene "unless a stage rule states otherwise": ``n`` acts of magic per
    # character per scene while the rule stands (no ``n``: no limit)
    MAGIC_LIMIT = "magic_limit"


class Target(StrEnum):
    LEAD = "lead"
    INVOLVED = "involved"
    PRESENT = "present"
    SUBJECT = "subject"  # whoever the triggering moment was about
    OTHER = "other"  # another present character, singled out by a Wyrd roll
    SINGLED_OUT = "singled_out"  # one present character singled out by a Wyrd roll


class Match(Value):
    """Which challenges a trigger or effect concerns; an empty match is every one."""

    challenge: str | None = None
    type: ChallengeType | None = None
    denizen: str | None = None
    untackled: bool = False  # only while the matched challenge is still open

    @property
    def is_empty(self) -> bool:
        return self.challenge is None and self.type is None and self.denizen is None


class Trigger(Value):
    on: TriggerKind = TriggerKind.ALWAYS
    match: Match = Field(default_factory=Match)
    # for WYRD_ROLL: fire only for results at or under the counter's value
    at_or_under: str | None = None


class Effect(Value):
    do: EffectKind
    n: int | None = None
    ability: Ability | None = None
    target: Target = Target.SUBJECT
    match: Match = Field(default_factory=Match)
    counter: str | None = None
    clock: str | None = None
    challenge: str | None = None  # a challenge template id in the state's catalogue
    text: str = ""  # what the rule is about, for narration


class Lasts(StrEnum):
    STORY = "story"
    SCENE = "scene"
    USES = "uses"  # ``uses`` firings, then gone


class StageRule(BaseModel):
    id: str
    name: str
    text: str = ""
    trigger: Trigger = Field(default_factory=Trigger)
    effects: list[Effect] = Field(default_factory=empty_list)
    lasts: Lasts = Lasts.STORY
    uses: int | None = None
    active: bool = True
    # a rule of limited uses that also ends with its scene (a Charm's +2)
    scene_only: bool = False
    source: str = "story"  # story, scene, or the casters of the magic that made it


class Threshold(Value):
    at: int
    effects: list[Effect] = Field(default_factory=empty_list)
    text: str = ""


class Clock(BaseModel):
    """Counts faces of Wyrd rolls (5s and 6s by default); thresholds bring effects."""

    id: str
    name: str
    faces: list[int] = Field(default_factory=lambda: [5, 6])
    # count on every Wyrd roll, or only on the roll made when a scene ends
    scene_end_only: bool = False
    value: int = 0
    thresholds: list[Threshold] = Field(default_factory=empty_list)
    reached: list[int] = Field(default_factory=empty_list)


class Counter(BaseModel):
    """A count such as a killer's; Wyrd results at or under it fire its rules."""

    id: str
    name: str
    value: int = 0
