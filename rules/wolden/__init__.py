"""Wolden (seed 001): d12 pools, four abilities, cults, extended challenges, downtime.

Every action here has the form ``action(state, dice, ...) -> Outcome``: it works
on a copy of ``state``, rolls only through ``dice`` (every die a d12 unless a
table or a damage roll says otherwise), and returns the new state with the
events that describe what happened. A refused action raises a
:class:`~rules.errors.RuleError` naming the rule (``wolden.pool.max-dice``) and
leaves state and dice as they were.

The concepts, one module each: :mod:`~rules.wolden.pool` (reading a pool),
:mod:`~rules.wolden.checks` (the staged roll), :mod:`~rules.wolden.extended`
(extended challenges and travel montages), :mod:`~rules.wolden.fight`,
:mod:`~rules.wolden.encounters` (rounds), :mod:`~rules.wolden.harm`,
:mod:`~rules.wolden.downtime`, :mod:`~rules.wolden.cults` (content shapes),
:mod:`~rules.wolden.characters`, :mod:`~rules.wolden.story` (setting up),
:mod:`~rules.wolden.steps` (what is owed next) and
:mod:`~rules.wolden.odds` (exact odds, imported on demand).
"""

from rules.wolden.characters import ABILITY_MAX, STARTING_SCORES, STARTING_SLOTS, Character, create_character
from rules.wolden.checks import attempt, cancel, check, roll
from rules.wolden.cults import DOWNTIME_SLOTS, CarouseRow, Cult, Gift, Item, PowerRow, RollTable, TableRow
from rules.wolden.downtime import downtime, new_session
from rules.wolden.encounters import pass_turn
from rules.wolden.enums import Ability, DowntimeChoice, EncounterKind, EncounterOutcome, Result
from rules.wolden.errors import CreationError, DowntimeError, OutOfTurn, PoolError, UnknownName
from rules.wolden.events import WoldenEvent
from rules.wolden.extended import LOST_AT, abandon, start_extended, start_montage
from rules.wolden.fight import HARM_DEALT, end_fight, start_fight
from rules.wolden.harm import harm, wound
from rules.wolden.pool import MAX_DICE, SIDES, Reading, classify, pool_size, read_roll
from rules.wolden.state import DamageDice, Enemy, Extended, Fight, GameState, PendingCheck, Rounds, Situation
from rules.wolden.steps import Step, StepKind, due
from rules.wolden.story import add_character, enlist, install
from rules.wolden.turn import Outcome

__all__ = [
    "ABILITY_MAX",
    "DOWNTIME_SLOTS",
    "HARM_DEALT",
    "LOST_AT",
    "MAX_DICE",
    "SIDES",
    "STARTING_SCORES",
    "STARTING_SLOTS",
    "Ability",
    "CarouseRow",
    "Character",
    "CreationError",
    "Cult",
    "DamageDice",
    "DowntimeChoice",
    "DowntimeError",
    "EncounterKind",
    "EncounterOutcome",
    "Enemy",
    "Extended",
    "Fight",
    "GameState",
    "Gift",
    "Item",
    "OutOfTurn",
    "Outcome",
    "PendingCheck",
    "PoolError",
    "PowerRow",
    "Reading",
    "Result",
    "RollTable",
    "Rounds",
    "Situation",
    "Step",
    "StepKind",
    "TableRow",
    "UnknownName",
    "WoldenEvent",
    "abandon",
    "add_character",
    "attempt",
    "cancel",
    "check",
    "classify",
    "create_character",
    "downtime",
    "due",
    "end_fight",
    "enlist",
    "harm",
    "install",
    "new_session",
    "pass_turn",
    "pool_size",
    "read_roll",
    "roll",
    "start_extended",
    "start_fight",
    "start_montage",
    "wound",
]
