"""Heroes of the Fall (seed 003): skills as level/modifier, a d100 step-up, the 3d8 Feat table.

Every action has the form ``action(state, dice, ...) -> Outcome``: it works on a
copy of ``state``, rolls only through ``dice`` (the d100 as ``roll(1, 100)``, the
Feat dice as ``roll(3, 8)``), and returns the new state with the events that say
what happened. A refused action raises a :class:`~wyrd.rules.errors.RuleError` naming
the rule (``feat.level.range``, ``feat.wyrd.not-enough``, ...) and leaves state
and dice as they were.

The pure pieces (the Feat table, the Skill Rank table, movement) are exported
too, for the odds shown before a roll and for a play layer that works in steps.
"""

from wyrd.rules.feat.attributes import (
    SHOCK_DIFFICULTY,
    fatigue,
    first_to_act,
    initiative,
    race,
    reaction,
    recover,
    rest,
    search,
    shock,
    survive,
    wound,
)
from wyrd.rules.feat.characters import TIERS, Character, Skill, TierBudget, create_character
from wyrd.rules.feat.enums import Attribute, Edge, Going, Needs, Pace, Tier
from wyrd.rules.feat.errors import CreationError, FeatError, NotAble, NotEnoughWyrd, UnknownName
from wyrd.rules.feat.events import FeatEvent
from wyrd.rules.feat.feats import add_character, attribute_feat, award, feat, opposed, skill_feat
from wyrd.rules.feat.movement import distance, parse_gradient, rounds_to_cover, slope_factor, speed
from wyrd.rules.feat.skills import SkillRating, p_step_up, skill_rating, steps_up, untrained
from wyrd.rules.feat.state import GameState
from wyrd.rules.feat.table import (
    FEAT_MAX,
    FEAT_MIN,
    MINIMUMS,
    WYRD_PER_EIGHT,
    FeatRead,
    clamp_level,
    dice_read,
    feat_level,
    max_eights,
    read_feat,
)
from wyrd.rules.feat.turn import Outcome

__all__ = [
    "FEAT_MAX",
    "FEAT_MIN",
    "MINIMUMS",
    "SHOCK_DIFFICULTY",
    "TIERS",
    "WYRD_PER_EIGHT",
    "Attribute",
    "Character",
    "CreationError",
    "Edge",
    "FeatError",
    "FeatEvent",
    "FeatRead",
    "GameState",
    "Going",
    "Needs",
    "NotAble",
    "NotEnoughWyrd",
    "Outcome",
    "Pace",
    "Skill",
    "SkillRating",
    "Tier",
    "TierBudget",
    "UnknownName",
    "add_character",
    "attribute_feat",
    "award",
    "clamp_level",
    "create_character",
    "dice_read",
    "distance",
    "fatigue",
    "feat",
    "feat_level",
    "first_to_act",
    "initiative",
    "max_eights",
    "opposed",
    "p_step_up",
    "parse_gradient",
    "race",
    "reaction",
    "read_feat",
    "recover",
    "rest",
    "rounds_to_cover",
    "search",
    "shock",
    "skill_feat",
    "skill_rating",
    "slope_factor",
    "speed",
    "steps_up",
    "survive",
    "untrained",
    "wound",
]
