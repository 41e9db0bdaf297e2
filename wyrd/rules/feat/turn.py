"""The working context of one Heroes of the Fall action, and its ``@action`` decorator.

An action is written as ``@action def f(turn, ...)`` and called as
``f(state, dice, ...) -> Outcome`` (see :mod:`wyrd.rules.actions`): it works on a deep
copy of the state and, if it raises, the dice are rewound, so a refused action
leaves no trace. This module adds the lookups actions share: characters by name
(any case), the checks that a character can take part, and the reading of a
trait (a skill or an attribute) as level/modifier.
"""

from __future__ import annotations

from typing import TypeAlias

from wyrd.rules.actions import Outcome as BaseOutcome
from wyrd.rules.actions import Turn as BaseTurn
from wyrd.rules.actions import action_for, find_named
from wyrd.rules.feat.characters import Character, skill_key
from wyrd.rules.feat.enums import Attribute
from wyrd.rules.feat.errors import FeatError, NotAble, NotEnoughWyrd, UnknownName
from wyrd.rules.feat.skills import SkillRating, untrained
from wyrd.rules.feat.state import GameState
from wyrd.rules.feat.table import DICE_ROLLED, WYRD_PER_EIGHT

__all__ = ["Outcome", "Turn", "action"]

# What every Heroes of the Fall action returns: the new game state and its events.
Outcome: TypeAlias = BaseOutcome[GameState]


class Turn(BaseTurn[GameState]):
    """An action's working copy of a Heroes of the Fall game, with shared lookups."""

    def character(self, name: str) -> Character:
        """The character called ``name`` (exact, then ignoring case)."""
        found = find_named(self.state.characters, name)
        if found is not None:
            return found
        raise UnknownName(f"there is no character called {name!r}", rule="feat.unknown.character")

    def alive(self, name: str) -> Character:
        """A character who is not dead (may be out of action)."""
        char = self.character(name)
        if char.dead:
            raise NotAble(f"{char.name} is dead", rule="feat.able.dead")
        return char

    def able(self, name: str) -> Character:
        """A character who can act: alive and not out of action after a failed shock test."""
        char = self.alive(name)
        if char.out_of_action:
            raise NotAble(
                f"{char.name} is out of action after a shock and can't act until recovered",
                rule="feat.able.out-of-action",
            )
        return char

    def two(self, a: str, b: str) -> tuple[Character, Character]:
        """Two different living characters."""
        first, second = self.alive(a), self.alive(b)
        if first.name == second.name:
            raise FeatError("this takes two different characters", rule="feat.opposed.two")
        return first, second

    def rating(self, char: Character, trait: str, attribute: Attribute | None = None) -> tuple[str, SkillRating]:
        """A trait as level/modifier, with the label events use for it.

        A skill the character has trained is read from the Skill Rank table. An
        attribute's name, or an untrained skill with ``attribute`` named, is read
        through the rank-0 row: an inherent skill with no training (seed 003).
        """
        named = Attribute.lookup(trait)
        if named is not None and skill_key(trait) not in char.skills:
            return named.value, untrained(char.attribute(named))
        rating = char.rating(trait)
        if rating is not None:
            return skill_key(trait), rating
        if not skill_key(trait):
            raise UnknownName("name a skill or an attribute", rule="feat.unknown.trait")
        if attribute is None:
            raise UnknownName(
                f"{char.name} has no training in {skill_key(trait)!r}; name the attribute to use untrained",
                rule="feat.skill.untrained",
            )
        return skill_key(trait), untrained(char.attribute(attribute))

    def check_wyrd(self, char: Character, eights: int) -> None:
        """Refuse bought 8s beyond one per die, or more than the character can pay for."""
        if not 0 <= eights <= DICE_ROLLED:
            raise NotEnoughWyrd(
                f"at most one bought 8 per die: 0 to {DICE_ROLLED}, not {eights}", rule="feat.wyrd.one-per-die"
            )
        cost = WYRD_PER_EIGHT * eights
        if cost > char.wyrd:
            raise NotEnoughWyrd(
                f"{char.name} has {char.wyrd} Wyrd points; {eights} bought 8s cost {cost}",
                rule="feat.wyrd.not-enough",
            )


action = action_for(Turn)
