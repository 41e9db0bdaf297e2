"""Wyrd rolls: influence rolls of the personal Wyrd pool, and all that hangs on them.

Seed 000 makes the Wyrd roll the narrator-less game's engine of fate: at least one
a scene; it picks who the Wyrd singles out; clocks count its 5s and 6s; a killer's
count fires when a result is at or under it; an untackled danger may go off on a
6; a conjured servant breaks loose on a 6 (on a 5 or 6 when no Wyrd bound it).
The twists the results bring (6: threat, eerie twist or personal tie; 1-2: a
mundane or friendly intrusion) are told by the oracle from these events.

The roll itself (:func:`wyrd_roll`, :func:`single_out`) lives in
:mod:`wyrd.rules.abacus.effects` and is re-exported here: it fires stage rules
that may harm or roll again, so it is part of that one recursion. This module
holds what a result means (:func:`omen`) and the players' action.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from wyrd.rules.abacus.effects import single_out, wyrd_roll
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.reasons import RollReason
from wyrd.rules.abacus.turn import Turn, action

__all__ = ["Omen", "omen", "single_out", "wyrd", "wyrd_roll"]


class Omen(StrEnum):
    """What a Wyrd result means for the story without a narrator."""

    TWIST = "twist"  # a 6: a new threat, an eerie twist or a personal tie
    INTRUSION = "intrusion"  # a best of 1 or 2: something mundane or friendly intrudes
    NOTHING = "nothing"  # 3 to 5


def omen(result: int) -> Omen:
    if result >= 6:
        return Omen.TWIST
    if result <= 2:
        return Omen.INTRUSION
    return Omen.NOTHING


@action
def wyrd(turn: Turn, names: Sequence[str], reason: str = "") -> None:
    """A Wyrd roll for the named characters (in a scene or between scenes)."""
    turn.not_ended()
    if not names:
        raise OutOfTurn("a Wyrd roll needs at least one character", rule="abacus.wyrd.who")
    wyrd_roll(turn, names, reason=reason or RollReason.CALLED)
