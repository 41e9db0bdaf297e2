"""Assessing a target's Tier, and the assessment every check brings.

Seed 004, Assess: compare the Proficiency of the most relevant Discipline with
the target's Tier. Meeting or beating it reveals the Tier (and obvious special
qualities); otherwise only a sense of the gap is given. How closely the target
is handled shifts the Proficiency: observation only counts 1 lower, a cautious
touch as it is, aggressive prodding or tool use 1 higher (and may be risky).
Assessing a non-living thing takes 4 minutes, plus 2 a Tier, minus the
Proficiency. A check also counts as an assessment once it is resolved.

[ours] Choices the text leaves open:

* The time uses the Discipline's own Proficiency (before commitment), and is
  at least 1 minute. Living targets have no formula (``minutes`` is None).
* The narrator's note on time: being willing to spend longer than the thing
  needs gives +1; a rushed assessment, or one under duress, gives -1.
* A gap of 1 to 3 is *small* (a CRIT could still carry a check); 4 or more is
  *large*: by the Rule of Fours, out of reach.
* A WASTE gives no assessment (the effort stalled); a Blot-out erases it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from wyrd.rules.lots.enums import Commitment, Discipline, GapSize
from wyrd.rules.lots.errors import BadValue
from wyrd.rules.lots.events import Assessed
from wyrd.rules.lots.fate import FOURS
from wyrd.rules.lots.turn import Turn, action

__all__ = [
    "BASE_MINUTES",
    "MINUTES_PER_TIER",
    "Appraisal",
    "appraise",
    "assess",
    "assessed_event",
    "assessment_minutes",
    "gap_size",
]

BASE_MINUTES = 4
MINUTES_PER_TIER = 2


class Appraisal(BaseModel):
    """What an assessment finds.

    Attributes:
        proficiency: The Discipline's Proficiency.
        effective: The Proficiency after commitment, patience or haste.
        tier: The target's Tier.
        accurate: Whether the Tier is learnt exactly (effective >= tier).
        gap: How far the Tier lies above the effective Proficiency (0 if not above).
        gap_size: The gap as a narrator would put it.
        minutes: How long it takes (None for living targets).
    """

    model_config = ConfigDict(frozen=True)

    proficiency: int
    effective: int
    tier: int
    commitment: Commitment
    accurate: bool
    gap: int
    gap_size: GapSize
    minutes: int | None


def gap_size(gap: int) -> GapSize:
    """``none`` for no gap, ``small`` below four, ``large`` from four on."""
    if gap <= 0:
        return GapSize.NONE
    return GapSize.SMALL if gap < FOURS else GapSize.LARGE


def assessment_minutes(tier: int, proficiency: int) -> int:
    """Minutes to assess a non-living thing: 4, plus 2 a Tier, minus the Proficiency (at least 1)."""
    return max(1, BASE_MINUTES + MINUTES_PER_TIER * tier - proficiency)


def appraise(
    proficiency: int,
    tier: int,
    commitment: Commitment = Commitment.TOUCH,
    *,
    living: bool = False,
    willing_minutes: int | None = None,
    rushed: bool = False,
    timed: bool = True,
) -> Appraisal:
    """Assess a target of ``tier`` with ``proficiency`` (pure: no dice, no state).

    Args:
        proficiency: The relevant Discipline's Proficiency.
        tier: The target's Tier.
        commitment: How closely the target is handled.
        living: Whether the target is a creature (no time formula).
        willing_minutes: How long the character is willing to spend, if said.
        rushed: Whether the assessment is hurried or made under duress.
        timed: False when the assessment comes with a check (no time of its own).
    """
    minutes = assessment_minutes(tier, proficiency) if timed and not living else None
    effective = proficiency + Commitment(commitment).modifier
    if minutes is not None and willing_minutes is not None and willing_minutes > minutes:
        effective += 1
    if rushed:
        effective -= 1
    gap = max(0, tier - effective)
    return Appraisal(
        proficiency=proficiency,
        effective=effective,
        tier=tier,
        commitment=Commitment(commitment),
        accurate=gap == 0,
        gap=gap,
        gap_size=gap_size(gap),
        minutes=minutes,
    )


def assessed_event(
    character: str, found: Appraisal, *, discipline: Discipline | None, subject: str,
    via: str = "assess", cast: str | None = None,
) -> Assessed:
    """The event for an appraisal, by assessing or by a check."""
    return Assessed(
        character=character, subject=subject, discipline=discipline, tier=found.tier,
        proficiency=found.proficiency, effective=found.effective, commitment=found.commitment,
        accurate=found.accurate, gap=found.gap, gap_size=found.gap_size, minutes=found.minutes,
        via="check" if via == "check" else "assess", cast=cast,
    )


@action
def assess(
    turn: Turn,
    who: str,
    discipline: Discipline,
    tier: int,
    *,
    commitment: Commitment = Commitment.TOUCH,
    living: bool = False,
    willing_minutes: int | None = None,
    rushed: bool = False,
    subject: str = "",
) -> None:
    """``who`` assesses a target of ``tier`` with a Discipline; no lots are cast.

    Assessing is an action: it closes the Portent window, and a character who
    lost their next action to a Mettle test spends this one reeling instead.
    """
    char = turn.able(who, "assess anything")
    if tier < 0:
        raise BadValue(f"a Tier can't be {tier}", rule="lots.assess.tier")
    if willing_minutes is not None and willing_minutes < 0:
        raise BadValue(f"a time of {willing_minutes} minutes makes no sense", rule="lots.assess.minutes")
    which = Discipline(discipline)
    if turn.loses_action(char, "assess"):
        return
    turn.close_window()
    found = appraise(
        char.discipline(which), tier, Commitment(commitment), living=living,
        willing_minutes=willing_minutes, rushed=rushed,
    )
    turn.emit(assessed_event(char.name, found, discipline=which, subject=subject))
