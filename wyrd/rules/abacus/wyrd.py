"""Wyrd rolls: influence rolls of the personal Wyrd pool, and all that hangs on them.

Seed 000 makes the Wyrd roll the narrator-less game's engine of fate: at least one
a scene; it picks who the Wyrd singles out; clocks count its 5s and 6s; a killer's
count fires when a result is at or under it; an untackled danger may go off on a
6; a conjured servant breaks loose on a 6 (on a 5 or 6 when no Wyrd bound it).
The twists the results bring (6: threat, eerie twist or personal tie; 1-2: a
mundane or friendly intrusion) are told by the oracle from these events.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from wyrd.rules.abacus.enums import ChallengeType
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.events import CounterFired, InfluenceRolled, ServantLoose
from wyrd.rules.abacus.influence import TraitRoll, rank, roll_trait
from wyrd.rules.abacus.stage import TriggerKind
from wyrd.rules.abacus.state import ChallengeSpec
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


def wyrd_roll(
    turn: Turn, names: Sequence[str], *, reason: str, scene_end: bool = False,
    include_defeated: bool = False,
) -> list[TraitRoll]:
    """Roll each named character's personal Wyrd and apply what hangs on the results."""
    from wyrd.rules.abacus.effects import Moment, advance_clock, fire, place  # effects call back here

    rolls: list[TraitRoll] = []
    for name in turn.names(names):
        char = turn.character(name) if include_defeated else turn.active(name)
        roll = roll_trait(turn.dice, char.name, char.wyrd, "wyrd roll")
        rolls.append(roll)
        turn.emit(
            InfluenceRolled(
                character=char.name, trait="wyrd", dice=list(roll.dice), result=roll.result,
                ties=roll.ties, reason=reason,
            )
        )
    state = turn.state
    if state.scene is not None:
        state.scene.wyrd_rolls += 1
    for clock in state.clocks.values():
        if clock.scene_end_only and not scene_end:
            continue
        counted = sum(1 for r in rolls for face in r.dice if face in clock.faces)
        advance_clock(turn, clock, counted)
    results = {r.character: r.result for r in rolls}
    for counter in state.counters.values():
        for r in rolls:
            if r.result <= counter.value:
                turn.emit(CounterFired(counter=counter.id, value=counter.value, character=r.character, result=r.result))
    best = max((r.result for r in rolls), default=0)
    for servant in list(state.servants.values()):
        if best >= servant.loose_at:
            del state.servants[servant.id]
            placed = None
            if state.scene is not None and servant.pool > 0:
                spec = ChallengeSpec(id=servant.id, name=servant.name, type=ChallengeType.THREAT, value=servant.pool)
                placed = place(turn, spec).id
            turn.emit(ServantLoose(servant=servant.id, challenge=placed, value=servant.pool))
    sixes = [r.character for r in rolls if r.result == 6]
    if sixes:
        fire(turn, Moment(kind=TriggerKind.WYRD_SIX, subject=sixes[0], results=results))
    fire(turn, Moment(kind=TriggerKind.WYRD_ROLL, results=results))
    return rolls


def single_out(turn: Turn, names: Sequence[str], *, reason: str) -> str | None:
    """The character the Wyrd picks: highest result, then most dice showing it."""
    if not names:
        return None
    if len(names) == 1:
        return names[0]
    rolls = wyrd_roll(turn, names, reason=reason)
    return rank(rolls, turn.dice, purpose="wyrd tie-break").order[0]


@action
def wyrd(turn: Turn, names: Sequence[str], reason: str = "") -> None:
    """A Wyrd roll for the named characters (in a scene or between scenes)."""
    turn.not_ended()
    if not names:
        raise OutOfTurn("a Wyrd roll needs at least one character", rule="abacus.wyrd.who")
    wyrd_roll(turn, names, reason=reason or "called")
