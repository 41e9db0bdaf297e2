"""The fixed vocabularies of Wolden: abilities, roll results, downtime, encounters.

Seed 001: a roll reads the highest d12 plus an ability and lands in one of five
results (two of them critical, needing a pair of equal dice); each result moves
an extended challenge's rating by a fixed amount; downtime offers four
activities. RULES.md [ours] names the four abilities.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Ability", "DowntimeChoice", "EncounterKind", "EncounterOutcome", "Result"]


class Ability(StrEnum):
    """RULES.md [ours]: Might, and the three the text names: Agility, Mind, Graces."""

    MIGHT = "might"
    AGILITY = "agility"
    MIND = "mind"
    GRACES = "graces"


class Result(StrEnum):
    """The five results of a roll, worst first. The two criticals need a pair."""

    CRITICAL_FAILURE = "critical_failure"
    FAILURE = "failure"
    PARTIAL = "partial"
    SUCCESS = "success"
    CRITICAL_SUCCESS = "critical_success"

    @property
    def critical(self) -> bool:
        return self in (Result.CRITICAL_FAILURE, Result.CRITICAL_SUCCESS)

    @property
    def failed(self) -> bool:
        """A failure of either kind (a total of 6 or less)."""
        return self in (Result.CRITICAL_FAILURE, Result.FAILURE)

    @property
    def succeeded(self) -> bool:
        """A full success of either kind (a total of 13 or more)."""
        return self in (Result.SUCCESS, Result.CRITICAL_SUCCESS)

    @property
    def rating_change(self) -> int:
        """Seed 001: how the result moves an extended challenge's difficulty rating."""
        return _RATING_CHANGE[self]


_RATING_CHANGE: dict[Result, int] = {
    Result.CRITICAL_FAILURE: 4,
    Result.FAILURE: 2,
    Result.PARTIAL: -1,
    Result.SUCCESS: -2,
    Result.CRITICAL_SUCCESS: -4,
}


class DowntimeChoice(StrEnum):
    """Seed 001: the one activity a character picks for a downtime."""

    TRAINING = "training"  # Focused Training: the cult's power table
    SHOPPING = "shopping"  # Go Shopping: the cult's equipment list
    REST = "rest"  # Pure Rest: 2d4 more wounds healed
    CAROUSE = "carouse"  # Carouse: the cult's carousing table


class EncounterKind(StrEnum):
    EXTENDED = "extended"  # an extended challenge
    MONTAGE = "montage"  # a travel montage: an extended challenge with drawn situations
    FIGHT = "fight"


class EncounterOutcome(StrEnum):
    DONE = "done"  # the rating reached 0
    LOST = "lost"  # [ours] the rating reached twice its start, or nobody is left standing
    ABANDONED = "abandoned"  # the characters gave it up
    WON = "won"  # every enemy is beaten
    WITHDREW = "withdrew"  # the characters left the fight
