"""The working context of one Heroes of the Fall action, and its ``@action`` decorator.

An action is written as ``@action def f(turn, ...)`` and called as
``f(state, dice, ...) -> Outcome`` (see :mod:`wyrd.rules.actions`): it works on a deep
copy of the state and, if it raises, the dice are rewound, so a refused action
leaves no trace. This module adds the lookups actions share: characters by name
(any case), the checks that a character can take part, and the reading of a
trait (a skill or an attribute) as level/modifier.

Games saved before Wyrd followed seed 003 on a feat of an attribute named as a
skill and on a shock held replay as they were played: inside :func:`first_reading`
``try WHO ATTRIBUTE N`` reads the attribute as an untrained skill (with its d100),
and a shock test passed leaves a character already out of action out. The play
kit plays an old command that way; everything new follows the text.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeAlias

from wyrd.rules.actions import Outcome as BaseOutcome
from wyrd.rules.actions import Reading, action_for, find_named
from wyrd.rules.actions import Turn as BaseTurn
from wyrd.rules.feat.characters import Character, skill_key
from wyrd.rules.feat.enums import Attribute
from wyrd.rules.feat.errors import FeatError, NotAble, NotEnoughWyrd, UnknownName
from wyrd.rules.feat.skills import SkillRating, untrained
from wyrd.rules.feat.state import GameState
from wyrd.rules.feat.table import DICE_ROLLED, WYRD_PER_EIGHT, clamp_level, eight_positions

__all__ = ["Outcome", "Turn", "action", "first_reading"]

# Commands saved before an edition changed these rules replay inside ``first_reading()``.
_READING = Reading("feat")
first_reading = _READING.first


# What every Heroes of the Fall action returns: the new game state and its events.
Outcome: TypeAlias = BaseOutcome[GameState]


class Turn(BaseTurn[GameState]):
    """An action's working copy of a Heroes of the Fall game, with shared lookups."""

    @property
    def legacy(self) -> bool:
        """Whether this action replays a command saved under the first reading of the rules."""
        return _READING.legacy

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

    def fresh(self, char: Character, drawn_on: Attribute | None) -> None:
        """Refuse a physical feat (one of Vigour, or of a skill it drives) to an exhausted character.

        Seed 003: a character pushed on until exhausted must take a Mettle roll or rest;
        [ours] one who failed that roll does no physical feat until they rest.
        """
        if char.exhausted and drawn_on is Attribute.VIGOUR:
            raise NotAble(
                f"{char.name} is exhausted and can't keep up physical effort until they rest",
                rule="feat.able.exhausted",
            )

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

    def check_wyrd(self, char: Character, eights: int, levels: Iterable[int]) -> None:
        """Refuse bought 8s beyond one per die, or more than the character can pay for.

        ``eights`` is a ceiling: a level buys only the 8s it can use (one where any die
        will do), so the price checked is that of the 8s the feat's level will buy.
        ``levels`` are the raw Feat levels the feat can still land at before its dice
        (two for a skill's d100, more for an opposed feat): the dearest is checked,
        before anything is rolled.
        """
        if not 0 <= eights <= DICE_ROLLED:
            raise NotEnoughWyrd(
                f"at most one bought 8 per die: 0 to {DICE_ROLLED}, not {eights}", rule="feat.wyrd.one-per-die"
            )
        if eights == 0 and char.wyrd >= 0:  # nothing bought costs nothing: most feats, checked at once
            return
        needs = {clamp_level(level): len(eight_positions(clamp_level(level), eights)) for level in levels}
        level, bought = max(needs.items(), key=lambda item: (item[1], item[0]), default=(0, 0))
        cost = WYRD_PER_EIGHT * bought
        if cost > char.wyrd:
            shown = f"{level:+d}" if level else "0"
            where = f"at Feat level {shown}" if len(needs) == 1 else f"it may land at Feat level {shown}, where"
            eights_bought = "one 8" if bought == 1 else f"{bought} 8s"
            raise NotEnoughWyrd(
                f"{char.name} has {char.wyrd} Wyrd points; {where} the feat buys {eights_bought} for {cost}",
                rule="feat.wyrd.not-enough",
            )


action = action_for(Turn)
