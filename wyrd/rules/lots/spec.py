"""What a cast of lots was for, in enough detail to make it again.

A Re-tell (seed 004) makes the same check again and keeps only the new outcome,
so every cast keeps its :class:`CheckSpec`: who cast, the numbers compared, the
effort committed, and, for an attack or a defence, the :class:`Blow` that lands
if it goes the attacker's way. The numbers are fixed when the check is made, so
the check told again is the same check, whatever has changed on the sheet since.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from wyrd.rules.lots.enums import CheckForm, Discipline, Stat

__all__ = ["Blow", "CheckSpec", "Mod"]


class Mod(BaseModel):
    """Seed 004 glossary, Mod: "A positive or negative adjustment to a value. Do not apply the
    same advantage twice by both boosting Offense and lowering Defense."

    Attributes:
        reason: The advantage (or hindrance) the Mod stands for: "high ground", "flanked".
        n: The adjustment.
        on: The value adjusted: the attacker's Offense or the target's Defense.
    """

    model_config = ConfigDict(frozen=True)

    reason: str
    n: int
    on: Literal["offense", "defense"]


class Blow(BaseModel):
    """An attack that may land: who strikes whom, and the numbers that set its harm.

    Attributes:
        attacker: The attacking character.
        target: The character who takes the harm if it lands.
        offense: The attacker's Offense (Prowess and modifiers).
        defense: The target's Defense (Prowess, shield, armour specials, circumstances).
        effort: The attacker's initial Effort, which sets the weapon's damage.
        armour: What the target's armour stops of the damage.
        defended: Whether the target actively defends (then only an Accuracy above 0 lands).
    """

    model_config = ConfigDict(frozen=True)

    attacker: str
    target: str
    offense: int
    defense: int
    effort: int = Field(ge=0)
    armour: int = Field(default=0, ge=0)
    defended: bool = True

    @property
    def accuracy(self) -> int:
        """Offense minus Defense."""
        return self.offense - self.defense


class CheckSpec(BaseModel):
    """A check as asked: enough to cast it, and to cast it again on a Re-tell.

    Attributes:
        form: What kind of cast this is (a check, an attack, a defence, a mettle test, bare lots).
        roller: The character who casts (None: the world's own secret roll).
        attribute: The Attribute compared (None for bare lots).
        difficulty: The Difficulty it must meet (None for bare lots).
        proficiency: The Proficiency for the Rule of Fours (defaults to the Attribute).
        tier: The Tier for the Rule of Fours (defaults to the Difficulty).
        discipline: The Discipline behind the Attribute, when there is one.
        stat: The Stat behind the Attribute, when there is one (Mettle, Capacity, ...).
        effort: The effort the roller commits (counts of time and exertion).
        purpose: What the check is for, in the players' words.
        blow: For an attack or a defence, the attack in question.
        retry: Whether this is a second try at a check a lot spoiled.
    """

    model_config = ConfigDict(frozen=True)

    form: CheckForm = CheckForm.CHECK
    roller: str | None
    attribute: int | None = None
    difficulty: int | None = None
    proficiency: int | None = None
    tier: int | None = None
    discipline: Discipline | None = None
    stat: Stat | None = Field(default=None, exclude_if=lambda v: v is None)
    effort: int = Field(default=0, ge=0)
    purpose: str = ""
    blow: Blow | None = None
    retry: bool = False

    @property
    def attack(self) -> bool:
        return self.form == CheckForm.ATTACK

    @property
    def rule_proficiency(self) -> int:
        """The Proficiency the Rule of Fours compares (0 for bare lots)."""
        if self.proficiency is not None:
            return self.proficiency
        return self.attribute or 0

    @property
    def rule_tier(self) -> int:
        """The Tier the Rule of Fours compares (0 for bare lots)."""
        if self.tier is not None:
            return self.tier
        return self.difficulty or 0
