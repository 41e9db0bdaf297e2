"""The fixed vocabularies of the Wyrd Abacus: abilities, challenge types, magic.

Seed 000: each character has Body, Mind and Soul; challenges come in nine types,
three per ability; magic comes in four forms, each with its own minimum cost and
its own relation to the scene's Wyrd pool.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Ability", "ChallengeStatus", "ChallengeType", "MagicForm", "WyrdDraw"]


class Ability(StrEnum):
    BODY = "body"
    MIND = "mind"
    SOUL = "soul"


class ChallengeType(StrEnum):
    OBSTRUCTION = "obstruction"
    PURSUIT = "pursuit"
    THREAT = "threat"
    LOGIC = "logic"
    PRESSURE = "pressure"
    WITS = "wits"
    FOREBODING = "foreboding"
    INVOCATION = "invocation"
    TAINT = "taint"

    @property
    def ability(self) -> Ability:
        """The ability whose points a challenge of this type takes."""
        return _TYPE_ABILITY[self]


_TYPE_ABILITY: dict[ChallengeType, Ability] = {
    ChallengeType.OBSTRUCTION: Ability.BODY,
    ChallengeType.PURSUIT: Ability.BODY,
    ChallengeType.THREAT: Ability.BODY,
    ChallengeType.LOGIC: Ability.MIND,
    ChallengeType.PRESSURE: Ability.MIND,
    ChallengeType.WITS: Ability.MIND,
    ChallengeType.FOREBODING: Ability.SOUL,
    ChallengeType.INVOCATION: Ability.SOUL,
    ChallengeType.TAINT: Ability.SOUL,
}


class ChallengeStatus(StrEnum):
    OPEN = "open"
    OVERCOME = "overcome"
    FAILED = "failed"
    # A denizen that needs only one of its challenges overcome releases the rest.
    BYPASSED = "bypassed"


class WyrdDraw(StrEnum):
    """What a form of magic asks of the scene pool, per caster."""

    FORBIDDEN = "forbidden"  # a Ward: no drawing for the rest of the scene
    REQUIRED = "required"  # Charm, Spell: draw 1 or the magic cannot be done
    IF_ABLE = "if_able"  # Conjuration: draw 1 if possible, weaker binding if not


class MagicForm(StrEnum):
    WARD = "ward"
    CHARM = "charm"
    SPELL = "spell"
    CONJURATION = "conjuration"

    @property
    def min_cost(self) -> int:
        """The fewest ability points each caster pays."""
        return 1 if self in (MagicForm.WARD, MagicForm.CHARM) else 2

    @property
    def wyrd(self) -> WyrdDraw:
        return {
            MagicForm.WARD: WyrdDraw.FORBIDDEN,
            MagicForm.CHARM: WyrdDraw.REQUIRED,
            MagicForm.SPELL: WyrdDraw.REQUIRED,
            MagicForm.CONJURATION: WyrdDraw.IF_ABLE,
        }[self]
