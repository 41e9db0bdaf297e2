"""What the rules say must happen next, for a table without a narrator to be told.

A narrator would call for these; here the engine lists them and the play layer
prompts for them: an open roll waiting for points, its die, or a decision after
a failure; a scene with no Wyrd roll yet (seed 000: at least one a scene);
a defeated character's player with Wyrd to give.
"""

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from wyrd.rules.abacus.state import GameState, RollStage

__all__ = ["Step", "StepKind", "due"]


class StepKind(StrEnum):
    ASSIGN_OR_ROLL = "assign_or_roll"
    DRAW_OR_ACCEPT = "draw_or_accept"
    WYRD_ROLL = "wyrd_roll"
    GHOST_WYRD = "ghost_wyrd"
    FINALE = "finale"


class Step(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: StepKind
    who: tuple[str, ...] = ()
    challenge: str | None = None


def due(state: GameState) -> list[Step]:
    """The mechanical steps now owed, most pressing first."""
    steps: list[Step] = []
    if state.ended:
        return steps
    pending = state.pending
    if pending is not None:
        kind = StepKind.ASSIGN_OR_ROLL if pending.stage == RollStage.ASSIGNING else StepKind.DRAW_OR_ACCEPT
        steps.append(Step(kind=kind, who=tuple(pending.involved), challenge=pending.challenge))
    scene = state.scene
    if scene is not None:
        if scene.wyrd_rolls == 0:
            present = tuple(n for n in scene.present if not state.characters[n].defeated)
            steps.append(Step(kind=StepKind.WYRD_ROLL, who=present))
        ghosts = tuple(n for n, left in scene.ghost.items() if left > 0)
        if ghosts and pending is not None:
            steps.append(Step(kind=StepKind.GHOST_WYRD, who=ghosts, challenge=pending.challenge))
    elif state.characters and all(c.defeated for c in state.characters.values()):
        steps.append(Step(kind=StepKind.FINALE))
    return steps
