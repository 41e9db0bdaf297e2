"""The rules core's enum members that the plain rules read, as module constants.

CPython 3.11 does not specialise reading an attribute of a class: a member read through its enum
(``TriggerKind.OVERCOME``) costs about ten times a module global, and the plain rules read these for
every challenge and every moment of every run. The names say what the member is: ``ON_`` a trigger,
``DO_`` an effect, ``TO_`` a target; the challenge statuses by their own names.
"""

from __future__ import annotations

from typing import Final

import wyrd.rules.abacus as A

__all__ = [
    "BYPASSED", "DO_ATTEMPT_COST", "DO_CLOCK", "DO_COUNTER", "DO_DAMAGE", "DO_MODIFY", "DO_PLACE", "DO_ROLL_BONUS",
    "DO_SCRATCH", "DO_WYRD_ROLL", "FAILED", "LASTS_SCENE", "LASTS_USES", "ON_ATTEMPT", "ON_DAMAGE", "ON_FAIL",
    "ON_OVERCOME", "ON_SCENE_END", "ON_SCENE_START", "ON_WYRD_ROLL", "ON_WYRD_SIX", "OPEN", "OVERCOME", "TOLD",
    "TO_INVOLVED", "TO_LEAD", "TO_OTHER", "TO_PRESENT", "TO_SUBJECT",
]

OPEN: Final = A.ChallengeStatus.OPEN
OVERCOME: Final = A.ChallengeStatus.OVERCOME
FAILED: Final = A.ChallengeStatus.FAILED
BYPASSED: Final = A.ChallengeStatus.BYPASSED

ON_ATTEMPT: Final = A.TriggerKind.ATTEMPT
ON_OVERCOME: Final = A.TriggerKind.OVERCOME
ON_FAIL: Final = A.TriggerKind.FAIL
ON_DAMAGE: Final = A.TriggerKind.DAMAGE
ON_WYRD_ROLL: Final = A.TriggerKind.WYRD_ROLL
ON_WYRD_SIX: Final = A.TriggerKind.WYRD_SIX
ON_SCENE_START: Final = A.TriggerKind.SCENE_START
ON_SCENE_END: Final = A.TriggerKind.SCENE_END

DO_MODIFY: Final = A.EffectKind.MODIFY
DO_ROLL_BONUS: Final = A.EffectKind.ROLL_BONUS
DO_ATTEMPT_COST: Final = A.EffectKind.ATTEMPT_COST
DO_COUNTER: Final = A.EffectKind.COUNTER
DO_CLOCK: Final = A.EffectKind.CLOCK
DO_PLACE: Final = A.EffectKind.PLACE
DO_WYRD_ROLL: Final = A.EffectKind.WYRD_ROLL
DO_DAMAGE: Final = A.EffectKind.DAMAGE
DO_SCRATCH: Final = A.EffectKind.SCRATCH
# effects that only tell (standing effects read where they matter, marks for the story): applying them does nothing
TOLD: Final = frozenset({DO_MODIFY, DO_ROLL_BONUS, DO_ATTEMPT_COST, A.EffectKind.FREE_ABILITY, A.EffectKind.MARK,
                         A.EffectKind.MAGIC_LIMIT})

TO_LEAD: Final = A.Target.LEAD
TO_INVOLVED: Final = A.Target.INVOLVED
TO_PRESENT: Final = A.Target.PRESENT
TO_SUBJECT: Final = A.Target.SUBJECT
TO_OTHER: Final = A.Target.OTHER

LASTS_SCENE: Final = A.Lasts.SCENE
LASTS_USES: Final = A.Lasts.USES
