"""Wolden characters: four abilities, a cult, gift slots, wounds, and how they are made.

RULES.md [ours]: the abilities are Might, Agility, Mind and Graces; a new
character puts 3, 2, 1 and 0 into them in any order, and no score ever goes past
5. Every character belongs to a cult (by id) and starts with 4 gift slots, 2 of
them holding gifts of that cult. A slot holds a gift or a wound (RULES.md
[ours]); what is left over is free.

Ability damage lowers an ability for now (the score stays, the damage is healed
at downtime); [ours] a roll adds the ability as it stands, score minus damage.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel, Field

from wyrd.rules.defaults import empty_list
from wyrd.rules.wolden.cults import STARTING_GIFTS, Cult, Gift, Item
from wyrd.rules.wolden.enums import Ability
from wyrd.rules.wolden.errors import CreationError

__all__ = [
    "ABILITY_MAX",
    "STARTING_SCORES",
    "STARTING_SLOTS",
    "Character",
    "create_character",
]

STARTING_SCORES = (3, 2, 1, 0)
"""RULES.md [ours]: the four starting scores, one per ability in any order."""
ABILITY_MAX = 5
"""RULES.md [ours]: no ability ever goes past this."""
STARTING_SLOTS = 4
"""RULES.md: gift slots a new character has."""


def _no_damage() -> dict[Ability, int]:
    return dict.fromkeys(Ability, 0)


class Character(BaseModel):
    """A character sheet.

    Attributes:
        scores: Each ability's score (0 to 5).
        damage: Ability damage taken, healed at downtime (never more than the score).
        slots: Gift slots, each holding a gift, a wound, or nothing.
        gifts: The gifts held (each takes its ``slots``).
        wounds: Wounds, one slot each.
        items: Items of import carried (they take no slots).
        out: Taken out by a wound with no slot to fill: acts no more until a downtime.
    """

    name: str
    cult: str
    concept: str = ""
    scores: dict[Ability, int]
    damage: dict[Ability, int] = Field(default_factory=_no_damage)
    slots: int = STARTING_SLOTS
    gifts: list[Gift] = Field(default_factory=empty_list)
    wounds: int = 0
    items: list[Item] = Field(default_factory=empty_list)
    out: bool = False

    def current(self, ability: Ability) -> int:
        """The ability as it stands: the score less its damage."""
        return self.scores[ability] - self.damage[ability]

    @property
    def used_slots(self) -> int:
        return sum(g.slots for g in self.gifts) + self.wounds

    @property
    def free_slots(self) -> int:
        return self.slots - self.used_slots

    def gift(self, ident: str) -> Gift | None:
        """A gift held, by id or name (case-insensitive)."""
        folded = ident.casefold()
        return next((g for g in self.gifts if folded in (g.id.casefold(), g.name.casefold())), None)


def create_character(
    name: str,
    cult: Cult,
    *,
    might: int,
    agility: int,
    mind: int,
    graces: int,
    gifts: Sequence[str] | None = None,
    concept: str = "",
) -> Character:
    """Build a character, refusing anything the creation rules forbid.

    Args:
        name: The character's name (not blank).
        cult: The cult the character belongs to.
        might, agility, mind, graces: 3, 2, 1 and 0 in some order.
        gifts: Ids (or names) of the two cult gifts taken; may be left out when the
            cult offers exactly two.
        concept: A few words about the character.

    Raises:
        CreationError: Naming the rule broken (``wolden.character.*``).
    """
    clean = name.strip()
    if not clean:
        raise CreationError("a character needs a name", rule="wolden.character.name")
    scores = {Ability.MIGHT: might, Ability.AGILITY: agility, Ability.MIND: mind, Ability.GRACES: graces}
    if sorted(scores.values(), reverse=True) != list(STARTING_SCORES):
        shown = ", ".join(f"{a.value.title()} {s}" for a, s in scores.items())
        raise CreationError(
            f"{clean} has {shown}; the four abilities start at 3, 2, 1 and 0 in any order",
            rule="wolden.character.scores",
        )
    chosen = _starting_gifts(clean, cult, gifts)
    used = sum(g.slots for g in chosen)
    if used > STARTING_SLOTS:
        raise CreationError(
            f"{clean}'s gifts take {used} slots; a new character has {STARTING_SLOTS}",
            rule="wolden.character.slots",
        )
    return Character(name=clean, cult=cult.id, concept=concept, scores=scores, gifts=chosen)


def _starting_gifts(name: str, cult: Cult, gifts: Sequence[str] | None) -> list[Gift]:
    if gifts is None:
        if len(cult.gifts) != STARTING_GIFTS:
            offered = ", ".join(g.id for g in cult.gifts)
            raise CreationError(
                f"{name} must choose {STARTING_GIFTS} of the gifts of {cult.name} ({offered})",
                rule="wolden.character.gifts",
            )
        return list(cult.gifts)
    chosen: list[Gift] = []
    for ident in gifts:
        found = cult.gift(ident)
        if found is None:
            raise CreationError(f"{cult.name} offer no gift {ident!r}", rule="wolden.character.gifts")
        if found in chosen:
            raise CreationError(f"{name} can take {found.name} only once", rule="wolden.character.gifts")
        chosen.append(found)
    if len(chosen) != STARTING_GIFTS:
        raise CreationError(
            f"{name} takes {STARTING_GIFTS} cult gifts to begin with, not {len(chosen)}",
            rule="wolden.character.gifts",
        )
    return chosen
