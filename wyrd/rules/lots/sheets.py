"""The character sheet over time: entering the game, Story Points, development.

Seed 004: entertaining, memorable play earns Story Points; they can be turned
into Development Points, which develop Disciplines, or into Portents. Raising a
Discipline by one costs its new value in Development Points (from 3 to 4 costs 4).

[ours] Story Points convert one for one into either (RULES.md), at any time,
and without closing the Portent window (a player may convert to afford a
Re-tell). Without a narrator, the table awards Story Points by agreement
(``award``). A Discipline is developed one step at a time, up to 10.
"""

from __future__ import annotations

from collections.abc import Mapping

from wyrd.rules.lots.characters import TIER_MAX, Character, create_character
from wyrd.rules.lots.enums import Conversion, Discipline, Stat
from wyrd.rules.lots.errors import BadValue, NotEnoughPoints, OutOfTurn
from wyrd.rules.lots.events import CharacterCreated, Development, StoryPointsAwarded, StoryPointsConverted
from wyrd.rules.lots.turn import Turn, action

__all__ = ["add_character", "award", "convert", "develop", "development_cost", "enlist"]


def development_cost(new_value: int) -> int:
    """Development Points to raise a Discipline to ``new_value``: the new value itself."""
    return new_value


def _enter(turn: Turn, char: Character) -> None:
    if any(k.casefold() == char.name.casefold() for k in turn.state.characters):
        raise OutOfTurn(f"there is already a character called {char.name}", rule="lots.character.unique-name")
    turn.state.characters[char.name] = char
    turn.emit(CharacterCreated(
        name=char.name, npc=char.npc, disciplines=dict(char.disciplines), mettle=char.mettle, armour=char.armour,
        portents=char.portents, concept=char.concept, stats=dict(char.stats),
    ))


@action
def add_character(
    turn: Turn, name: str, disciplines: Mapping[Discipline, int] | Mapping[str, int], *, mettle: int | None = None,
    armour: int = 0, portents: int = 0, npc: bool = False, concept: str = "",
    stats: Mapping[Stat, int] | Mapping[str, int] | None = None,
) -> None:
    """Create a character (a player's, or with ``npc`` a non-player one) and bring them in."""
    _enter(turn, create_character(
        name, disciplines, mettle=mettle, armour=armour, portents=portents, npc=npc, concept=concept, stats=stats,
    ))


@action
def enlist(turn: Turn, character: Character) -> None:
    """Bring in a ready character (a story's), checked by the same rules as a new one."""
    checked = create_character(
        character.name, character.disciplines, mettle=character.mettle, armour=character.armour,
        portents=character.portents, npc=character.npc, concept=character.concept, stats=character.stats,
    )
    _enter(turn, checked)


@action
def award(turn: Turn, who: str, n: int, reason: str = "") -> None:
    """``who`` earns ``n`` Story Points (for a self-prescribed result the table enjoyed, say)."""
    char = turn.player(who, "earn Story Points")
    if n < 1:
        raise BadValue(f"Story Points are awarded 1 or more at a time, not {n}", rule="lots.story.positive")
    char.story_points += n
    turn.emit(StoryPointsAwarded(character=char.name, n=n, reason=reason, story_points_after=char.story_points))


@action
def convert(turn: Turn, who: str, n: int, into: Conversion) -> None:
    """``who`` turns ``n`` Story Points into as many Portents or Development Points."""
    char = turn.player(who, "convert Story Points")
    target = Conversion(into)
    if n < 1:
        raise BadValue(f"Story Points are converted 1 or more at a time, not {n}", rule="lots.story.positive")
    if char.story_points < n:
        raise NotEnoughPoints(
            f"{char.name} has {char.story_points} Story Point{'' if char.story_points == 1 else 's'}, not {n}",
            rule="lots.story.not-enough",
        )
    char.story_points -= n
    if target == Conversion.PORTENTS:
        char.portents += n
    else:
        char.development += n
    turn.emit(StoryPointsConverted(
        character=char.name, n=n, into=target, story_points_after=char.story_points,
        portents_after=char.portents, development_after=char.development,
    ))


@action
def develop(turn: Turn, who: str, discipline: Discipline) -> None:
    """``who`` raises a Discipline by one, paying its new value in Development Points."""
    char = turn.player(who, "develop Disciplines")
    which = Discipline(discipline)
    new = char.discipline(which) + 1
    if new > TIER_MAX:
        raise OutOfTurn(
            f"{char.name}'s {which.value.title()} is already {TIER_MAX}, the top of the scale",
            rule="lots.development.max",
        )
    cost = development_cost(new)
    if char.development < cost:
        raise NotEnoughPoints(
            f"raising {char.name}'s {which.value.title()} to {new} costs {cost} Development Points; "
            f"{char.name} has {char.development}",
            rule="lots.development.cost",
        )
    char.development -= cost
    char.disciplines[which] = new
    turn.emit(Development(
        character=char.name, discipline=which, value=new, cost=cost, development_after=char.development,
    ))
