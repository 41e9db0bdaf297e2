"""Thaeborn (seed 004): checks against a Difficulty, and fate in two d4, the lots.

Every action here has the form ``action(state, dice, ...) -> Outcome``: it works
on a copy of ``state``, rolls only through ``dice`` (a WEAL d4, then a WOE d4,
for every cast), and returns the new state with the events that describe what
happened. A refused action raises a :class:`~wyrd.rules.errors.RuleError` naming the
rule (``lots.portent.cost``, ...) and leaves state and dice as they were.

The modules, one per rule concept: :mod:`~wyrd.rules.lots.fate` (reading a cast),
:mod:`~wyrd.rules.lots.checks` (checks, second tries, bare lots),
:mod:`~wyrd.rules.lots.assess`, :mod:`~wyrd.rules.lots.portents` (Blot-out, Re-tell),
:mod:`~wyrd.rules.lots.harm` (attacks, Pain, Test Your Mettle, rest),
:mod:`~wyrd.rules.lots.sheets` (characters, Story Points, development) and
:mod:`~wyrd.rules.lots.odds` (exact odds).
"""

from wyrd.rules.lots.assess import Appraisal, appraise, assess, assessment_minutes, gap_size
from wyrd.rules.lots.characters import Character, Condition, CreationError, create_character
from wyrd.rules.lots.checks import cast_lots, check, retry
from wyrd.rules.lots.counts import begin_fight, end_fight
from wyrd.rules.lots.enums import (
    Change,
    CheckForm,
    Commitment,
    Conversion,
    Discipline,
    Fortune,
    GapSize,
    Lot,
    PortentUse,
    Result,
    Stat,
    Whose,
)
from wyrd.rules.lots.errors import BadValue, NotEnoughPoints, NotEnoughPortents, OutOfTurn, UnknownName
from wyrd.rules.lots.events import LotsEvent
from wyrd.rules.lots.fate import LOT_CASTS, Reading, read, read_lot
from wyrd.rules.lots.harm import attack, damage_of, defend, pain_of, rest, suffer
from wyrd.rules.lots.odds import CheckOdds, MettleOdds, attack_odds, check_odds, lot_odds, mettle_odds
from wyrd.rules.lots.portents import blot_out, portent_cost, retell, whose
from wyrd.rules.lots.sheets import add_character, award, convert, develop, development_cost, enlist
from wyrd.rules.lots.spec import Blow, CheckSpec, Mod
from wyrd.rules.lots.state import CastRecord, GameState
from wyrd.rules.lots.turn import Outcome

__all__ = [
    "LOT_CASTS",
    "Appraisal",
    "BadValue",
    "Blow",
    "CastRecord",
    "Change",
    "Character",
    "CheckForm",
    "CheckOdds",
    "CheckSpec",
    "Commitment",
    "Condition",
    "Conversion",
    "CreationError",
    "Discipline",
    "Fortune",
    "GameState",
    "GapSize",
    "Lot",
    "LotsEvent",
    "MettleOdds",
    "Mod",
    "NotEnoughPoints",
    "NotEnoughPortents",
    "OutOfTurn",
    "Outcome",
    "PortentUse",
    "Reading",
    "Result",
    "Stat",
    "UnknownName",
    "Whose",
    "add_character",
    "appraise",
    "assess",
    "assessment_minutes",
    "attack",
    "attack_odds",
    "award",
    "begin_fight",
    "blot_out",
    "cast_lots",
    "check",
    "check_odds",
    "convert",
    "create_character",
    "damage_of",
    "defend",
    "develop",
    "development_cost",
    "end_fight",
    "enlist",
    "gap_size",
    "lot_odds",
    "mettle_odds",
    "pain_of",
    "portent_cost",
    "read",
    "read_lot",
    "rest",
    "retell",
    "retry",
    "suffer",
    "whose",
]
