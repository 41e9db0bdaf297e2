"""What the rules say must happen next, for a table without a narrator to be told.

A narrator would call for these; here the engine lists them and the play layer
prompts for them: an opened roll waiting for its dice, and, in an encounter,
the participants still to take their turn this round (seed 001: the round ends
once each has had one), with a montage's current situation.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from wyrd.rules.wolden.state import Extended, GameState

__all__ = ["Step", "StepKind", "due"]


class StepKind(StrEnum):
    ROLL = "roll"  # an opened roll waits for its dice
    ACT = "act"  # these participants have yet to act (or pass) this round


class Step(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: StepKind
    who: tuple[str, ...] = ()
    encounter: str | None = None
    round: int | None = None
    situation: str | None = None


def due(state: GameState) -> list[Step]:
    """The mechanical steps now owed, most pressing first."""
    steps: list[Step] = []
    pending = state.pending
    if pending is not None:
        steps.append(Step(kind=StepKind.ROLL, who=tuple(pending.involved), encounter=pending.against))
    found = state.encounter
    if found is not None:
        waiting = tuple(n for n in found.rounds.participants
                        if n not in found.rounds.acted and not state.characters[n].out)
        situation = found.situation if isinstance(found, Extended) else None
        steps.append(Step(kind=StepKind.ACT, who=waiting, encounter=found.id, round=found.rounds.number,
                          situation=situation))
    return steps
