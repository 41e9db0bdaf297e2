"""Harm, wounds, and being taken out.

RULES.md [ours, consistent with seed 001]: damage first lowers the ability it
strikes (the relevant one: [ours] the ability of the roll that went wrong); each
point past what the ability has left is a wound, and a wound fills an empty gift
slot. A wound with no empty slot to fill takes the character out. Seed 001:
wounds are far slower to mend than ability damage (only downtime heals them).

[ours] A character taken out acts no more and takes no more harm until a
downtime brings them back (a story may make it death instead).
"""

from __future__ import annotations

from wyrd.rules.wolden.encounters import settle
from wyrd.rules.wolden.enums import Ability
from wyrd.rules.wolden.errors import OutOfTurn
from wyrd.rules.wolden.events import CharacterOut, HarmTaken, WoundsHealed, WoundTaken
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["harm", "heal_wounds", "take_harm", "take_wounds", "wound"]


def take_harm(turn: Turn, name: str, ability: Ability, n: int, *, source: str | None = None) -> None:
    """``name`` takes ``n`` harm to ``ability``; what the ability can't absorb becomes wounds."""
    char = turn.character(name)
    if char.out or n <= 0:
        return
    lowered = min(char.current(ability), n)
    char.damage[ability] += lowered
    past = n - lowered
    turn.emit(HarmTaken(character=char.name, ability=ability, n=n, ability_after=char.current(ability),
                        past=past, source=source))
    take_wounds(turn, char.name, past, source=source)


def take_wounds(turn: Turn, name: str, n: int, *, source: str | None = None) -> None:
    """``name`` takes ``n`` wounds, each into an empty slot; one with no slot takes them out."""
    char = turn.character(name)
    if char.out or n <= 0:
        return
    fits = min(n, char.free_slots)
    if fits:
        char.wounds += fits
        turn.emit(WoundTaken(character=char.name, n=fits, wounds=char.wounds, free_slots=char.free_slots,
                             source=source))
    if fits < n:
        char.out = True
        turn.emit(CharacterOut(character=char.name, source=source))


def heal_wounds(turn: Turn, name: str, n: int, *, reason: str) -> int:
    """Heal up to ``n`` wounds; returns how many were healed (an event only if any were)."""
    char = turn.character(name)
    healed = min(max(n, 0), char.wounds)
    if healed:
        char.wounds -= healed
        turn.emit(WoundsHealed(character=char.name, n=healed, wounds=char.wounds, reason=reason))
    return healed


def _positive(n: int, what: str) -> None:
    if n <= 0:
        raise OutOfTurn(f"{what} must be at least 1, not {n}", rule="wolden.harm.positive")


@action
def harm(turn: Turn, name: str, ability: Ability, n: int) -> None:
    """An ad hoc consequence: ``name`` takes ``n`` harm to ``ability``."""
    turn.no_pending()
    char = turn.active(name)
    _positive(n, "harm")
    take_harm(turn, char.name, Ability(ability), n, source="consequence")
    settle(turn)


@action
def wound(turn: Turn, name: str, n: int = 1) -> None:
    """An ad hoc consequence that goes straight to wounds (seed 001: a failed step of a journey)."""
    turn.no_pending()
    char = turn.active(name)
    _positive(n, "wounds")
    take_wounds(turn, char.name, n, source="consequence")
    settle(turn)
