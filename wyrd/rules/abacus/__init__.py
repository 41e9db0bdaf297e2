"""The Wyrd Abacus (seed 000): Body, Mind, Soul, a d6, and the Wyrd.

Every action here has the form ``action(state, dice, ...) -> Outcome``: it works
on a copy of ``state``, rolls only through ``dice``, and returns the new state
with the events that describe what happened. A refused action raises a
:class:`~wyrd.rules.errors.RuleError` naming the rule and leaves state and dice as
they were.
"""

from wyrd.rules.abacus.challenge import (
    RollTerms,
    accept,
    add_challenge,
    attempt,
    draw,
    place_spec,
    roll,
    roll_terms,
    slug,
    spend,
)
from wyrd.rules.abacus.characters import Character, create_character
from wyrd.rules.abacus.effects import effective_value
from wyrd.rules.abacus.enums import Ability, ChallengeStatus, ChallengeType, MagicForm, WyrdDraw
from wyrd.rules.abacus.errors import (
    CreationError,
    MagicError,
    NotEnoughPoints,
    NotEnoughWyrd,
    OutOfTurn,
    UnknownName,
)
from wyrd.rules.abacus.events import AbacusEvent
from wyrd.rules.abacus.harm import antagonist, harm, scratch_out
from wyrd.rules.abacus.influence import contest, influence, sabotage
from wyrd.rules.abacus.magic import Casting, Template, TemplateKind, cast
from wyrd.rules.abacus.scenes import end_scene, rest, start_scene
from wyrd.rules.abacus.stage import (
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
from wyrd.rules.abacus.state import (
    Challenge,
    ChallengeSpec,
    Denizen,
    GameState,
    Needs,
    PendingRoll,
    RollStage,
    Scene,
)
from wyrd.rules.abacus.steps import Step, due
from wyrd.rules.abacus.story import DEFEATED, FREED, HELD, add_character, enlist, enlist_party, finale, install
from wyrd.rules.abacus.turn import Outcome
from wyrd.rules.abacus.wyrd import Omen, omen, wyrd

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
    "RollTerms",
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
    "antagonist",
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
    "roll_terms",
    "sabotage",
    "scratch_out",
    "slug",
    "spend",
    "start_scene",
    "wyrd",
]
