"""Setting up a game: the cults in play and the characters who join.

Cults are content the caller passes in (RULES.md: write your own), installed
before any character names them. A new character is made by the creation rules
(:func:`~wyrd.rules.wolden.characters.create_character`); a ready sheet (a story's
pregenerated character, perhaps advanced past creation) is checked for
soundness instead: a known cult, scores 0 to 5, damage within the scores, and
gifts and wounds that fit the slots.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.wolden.characters import ABILITY_MAX, Character, create_character
from wyrd.rules.wolden.cults import Cult
from wyrd.rules.wolden.enums import Ability
from wyrd.rules.wolden.errors import CreationError, OutOfTurn
from wyrd.rules.wolden.events import CharacterCreated, CultAdded
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["add_character", "enlist", "install"]


@action
def install(turn: Turn, cults: Sequence[Cult]) -> None:
    """Bring cults into play (a cult with the same id is replaced)."""
    for cult in cults:
        turn.state.cults[cult.id] = cult.model_copy(deep=True)
        turn.emit(CultAdded(cult=cult.id, name=cult.name))


def _enter(turn: Turn, char: Character) -> None:
    if any(k.casefold() == char.name.casefold() for k in turn.state.characters):
        raise OutOfTurn(f"there is already a character called {char.name}", rule="wolden.character.unique-name")
    turn.state.characters[char.name] = char
    turn.emit(CharacterCreated(
        name=char.name, cult=char.cult, might=char.scores[Ability.MIGHT], agility=char.scores[Ability.AGILITY],
        mind=char.scores[Ability.MIND], graces=char.scores[Ability.GRACES], gifts=[g.id for g in char.gifts],
        slots=char.slots, concept=char.concept,
    ))


@action
def add_character(
    turn: Turn, name: str, cult: str, *, might: int, agility: int, mind: int, graces: int,
    gifts: Sequence[str] | None = None, concept: str = "",
) -> None:
    """Create a character by the creation rules and bring them into the game."""
    found = turn.cult(cult)
    _enter(turn, create_character(name, found, might=might, agility=agility, mind=mind, graces=graces,
                                  gifts=gifts, concept=concept))


@action
def enlist(turn: Turn, character: Character) -> None:
    """Bring in a ready character sheet, checked for soundness."""
    char = character.model_copy(deep=True)
    cult = turn.cult(char.cult)
    char.cult = cult.id
    if not char.name.strip():
        raise CreationError("a character needs a name", rule="wolden.character.name")
    if set(char.scores) != set(Ability) or set(char.damage) != set(Ability):
        raise CreationError(f"{char.name}'s sheet must list all four abilities", rule="wolden.character.sheet")
    for ability in Ability:
        if not 0 <= char.scores[ability] <= ABILITY_MAX:
            raise CreationError(f"{char.name}'s {ability.value.title()} is {char.scores[ability]}; "
                                f"an ability is 0 to {ABILITY_MAX}", rule="wolden.character.sheet")
        if not 0 <= char.damage[ability] <= char.scores[ability]:
            raise CreationError(f"{char.name}'s {ability.value.title()} damage is {char.damage[ability]}",
                                rule="wolden.character.sheet")
    if char.wounds < 0 or char.free_slots < 0:
        raise CreationError(f"{char.name}'s gifts and wounds take {char.used_slots} of {char.slots} slots",
                            rule="wolden.character.sheet")
    _enter(turn, char)
