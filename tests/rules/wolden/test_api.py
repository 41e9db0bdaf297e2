"""The public API of wyrd.rules.wolden and its event contract."""

from __future__ import annotations

import typing

from pydantic import TypeAdapter

import wyrd.rules.wolden
from wyrd.rules.wolden.events import WoldenEvent

API = {
    "ABILITY_MAX", "DOWNTIME_SLOTS", "HARM_DEALT", "LOST_AT", "MAX_DICE", "SIDES", "STARTING_SCORES",
    "STARTING_SLOTS", "Ability", "CarouseRow", "Character", "CreationError", "Cult", "DamageDice",
    "DowntimeChoice", "DowntimeError", "EncounterKind", "EncounterOutcome", "Enemy", "Extended", "Fight",
    "GameState", "Gift", "Item", "OutOfTurn", "Outcome", "PendingCheck", "PoolError", "PowerRow", "Reading",
    "Result", "RollTable", "Rounds", "Situation", "Step", "StepKind", "TableRow", "UnknownName", "WoldenEvent",
    "abandon", "add_character", "attempt", "cancel", "check", "classify", "create_character", "downtime", "due",
    "end_fight", "enlist", "harm", "install", "new_session", "pass_turn", "pool_size", "read_roll", "roll",
    "start_extended", "start_fight", "start_montage", "wound",
}


def test_public_api() -> None:
    """The public names are exactly these (a change here is an API change)."""
    assert set(wyrd.rules.wolden.__all__) == API
    for name in API:
        assert hasattr(wyrd.rules.wolden, name), name


KINDS = {
    "cult_added", "character_created", "session_advanced", "check_opened", "check_rolled", "check_cancelled",
    "extended_started", "situation_drawn", "extended_progressed", "extended_ended", "round_started",
    "turn_passed", "fight_started", "enemy_harmed", "struck", "fight_ended", "harm_taken", "wound_taken",
    "character_out", "wounds_healed", "downtime_taken", "table_rolled", "gift_gained", "item_gained",
    "ability_raised", "pool_capped",
}


def test_event_kinds() -> None:
    """DESIGN.md: every event has a ``kind``; these are Wolden's (a contract for scripts and renderers)."""
    union = typing.get_args(typing.get_args(WoldenEvent)[0])
    kinds = {cls.model_fields["kind"].default for cls in union}
    assert kinds == KINDS


def test_events_round_trip(party) -> None:
    """Events survive JSON (the save file stores them) and come back as the same typed events."""
    from wyrd.rules.wolden import Ability, Enemy, check, start_fight

    party.do(start_fight, [Enemy(id="wolf", name="Wolf", harm=2)])
    party.faces(3, 2, 4, 1)
    party.do(check, "Ada", Ability.MIGHT, helpers=["Bram"], against="wolf")
    adapter = TypeAdapter(WoldenEvent)
    for event in party.events:
        assert adapter.validate_json(event.model_dump_json()) == event
