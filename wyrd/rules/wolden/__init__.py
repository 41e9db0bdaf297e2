"""Wolden (seed 001): d12 pools, four abilities, cults, extended challenges, downtime.

Every action here has the form ``action(state, dice, ...) -> Outcome``: it works
on a copy of ``state``, rolls only through ``dice`` (every die a d12 unless a
table or a damage roll says otherwise), and returns the new state with the
events that describe what happened. A refused action raises a
:class:`~wyrd.rules.errors.RuleError` naming the rule (``wolden.pool.max-dice``) and
leaves state and dice as they were.

The concepts, one module each: :mod:`~wyrd.rules.wolden.pool` (reading a pool),
:mod:`~wyrd.rules.wolden.checks` (the staged roll), :mod:`~wyrd.rules.wolden.extended`
(extended challenges and travel montages), :mod:`~wyrd.rules.wolden.fight`,
:mod:`~wyrd.rules.wolden.encounters` (rounds), :mod:`~wyrd.rules.wolden.passing`,
:mod:`~wyrd.rules.wolden.harm`,
:mod:`~wyrd.rules.wolden.downtime`, :mod:`~wyrd.rules.wolden.cults` (content shapes),
:mod:`~wyrd.rules.wolden.characters`, :mod:`~wyrd.rules.wolden.story` (setting up),
:mod:`~wyrd.rules.wolden.steps` (what is owed next) and
:mod:`~wyrd.rules.wolden.odds` (exact odds, imported on demand).
"""

from wyrd.rules.wolden.characters import ABILITY_MAX, STARTING_SCORES, STARTING_SLOTS, Character, create_character
from wyrd.rules.wolden.checks import attempt, cancel, check, roll
from wyrd.rules.wolden.cults import DOWNTIME_SLOTS, CarouseRow, Cult, Gift, Item, PowerRow, RollTable, TableRow
from wyrd.rules.wolden.downtime import downtime, new_session
from wyrd.rules.wolden.enums import Ability, DowntimeChoice, EncounterKind, EncounterOutcome, Result
from wyrd.rules.wolden.errors import CreationError, DowntimeError, OutOfTurn, PoolError, UnknownName
from wyrd.rules.wolden.events import WoldenEvent
from wyrd.rules.wolden.extended import LOST_AT, abandon, start_extended, start_montage
from wyrd.rules.wolden.fight import HARM_DEALT, end_fight, start_fight
from wyrd.rules.wolden.harm import harm, wound
from wyrd.rules.wolden.passing import pass_turn
from wyrd.rules.wolden.pool import MAX_DICE, SIDES, Reading, classify, pool_size, read_roll
from wyrd.rules.wolden.state import DamageDice, Enemy, Extended, Fight, GameState, PendingCheck, Rounds, Situation
from wyrd.rules.wolden.steps import Step, StepKind, due
from wyrd.rules.wolden.story import add_character, enlist, install
from wyrd.rules.wolden.turn import Outcome

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
