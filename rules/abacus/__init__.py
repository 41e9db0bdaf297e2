"""The Wyrd Abacus (seed 000): Body, Mind, Soul, a d6, and the Wyrd.

Every action here has the form ``action(state, dice, ...) -> Outcome``: it works
on a copy of ``state``, rolls only through ``dice``, and returns the new state
with the events that describe what happened. A refused action raises a
:class:`~rules.errors.RuleError` naming the rule and leaves state and dice as
they were.
"""

from rules.abacus.challenge import (
    accept,
    add_challenge,
    attempt,
    draw,
    place_spec,
    roll,
    slug,
    spend,
)
from rules.abacus.characters import Character, create_character
from rules.abacus.effects import effective_value
from rules.abacus.enums import Ability, ChallengeStatus, ChallengeType, MagicForm, WyrdDraw
from rules.abacus.errors import (
    CreationError,
    MagicError,
    NotEnoughPoints,
    NotEnoughWyrd,
    OutOfTurn,
    UnknownName,
)
from rules.abacus.events import AbacusEvent
from rules.abacus.harm import harm, scratch_out
from rules.abacus.influence import contest, influence, sabotage
from rules.abacus.magic import Casting, Template, TemplateKind, cast
from rules.abacus.scenes import end_scene, rest, start_scene
from rules.abacus.stage import (
    Clock,
    Counter,
    Effect,
    EffectKind,
    Lasts,
    Match,
    StageRule,
    Target,
    Threshold,
    Trigger,
    TriggerKind,
)
from rules.abacus.state import (
    Challenge,
    ChallengeSpec,
    Denizen,
    GameState,
    Needs,
    PendingRoll,
    RollStage,
    Scene,
)
from rules.abacus.steps import Step, due
from rules.abacus.story import DEFEATED, FREED, HELD, add_character, enlist, enlist_party, finale, install
from rules.abacus.turn import Outcome
from rules.abacus.wyrd import Omen, omen, wyrd

__all__ = [
    "DEFEATED",
    "FREED",
    "HELD",
    "AbacusEvent",
    "Ability",
    "Casting",
    "Challenge",
    "ChallengeSpec",
    "ChallengeStatus",
    "ChallengeType",
    "Character",
    "Clock",
    "Counter",
    "CreationError",
    "Denizen",
    "Effect",
    "EffectKind",
    "GameState",
    "Lasts",
    "MagicError",
    "MagicForm",
    "Match",
    "Needs",
    "NotEnoughPoints",
    "NotEnoughWyrd",
    "Omen",
    "OutOfTurn",
    "Outcome",
    "PendingRoll",
    "RollStage",
    "Scene",
    "StageRule",
    "Step",
    "Target",
    "Template",
    "TemplateKind",
    "Threshold",
    "Trigger",
    "TriggerKind",
    "UnknownName",
    "WyrdDraw",
    "accept",
    "add_challenge",
    "add_character",
    "attempt",
    "cast",
    "contest",
    "create_character",
    "draw",
    "due",
    "effective_value",
    "end_scene",
    "enlist",
    "enlist_party",
    "finale",
    "harm",
    "influence",
    "install",
    "omen",
    "place_spec",
    "rest",
    "roll",
    "sabotage",
    "scratch_out",
    "slug",
    "spend",
    "start_scene",
    "wyrd",
]
