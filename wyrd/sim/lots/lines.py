"""A Thaeborn story made ready for the plain-data table once a process, with the proof that its lines read true.

The table (:mod:`wyrd.sim.lots.table`) applies the bots' moves without typing them, so
it takes for granted that a session would read each move's line as the move: the
names, the Discipline, the numbers and the purpose as the move has them, nothing
taken for a modifier, an option or a character's name, and each check's outcome kept
under the check the move made. That holds for any plain story, but a story's own
texts could break it (a purpose in quotes, a lots purpose that begins a character's
name, two checks of a scene with one purpose). :func:`story_for` reads the story
once a process and parses every line the bots could type in it with the kit's own
verbs; if one does not read as its move, the story is not played on the table (its
runs go through sessions).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import wyrd.rules.lots as L
from wyrd.sim.lots.moves import Assess, Check, Enlist, Lots, Move, NextScene, Rest, Retell, Strike, line
from wyrd.stories.lots import Scenario, ScenarioError, ScenarioPlay, find_scenario

__all__ = ["Story", "every_move", "expected", "story_for"]

EFFORTS = range(3)  # what the bots add to a fight's effort (bold: 2, random: 0 to 2)


@dataclass(frozen=True)
class Story:
    """A scenario ready for the table: its characters built by the rules, by name."""

    scenario: Scenario
    pregens: dict[str, L.Character]
    npcs: dict[str, L.Character]


@lru_cache(maxsize=32)
def story_for(ident: str, content: tuple[Path, ...], players: int | None) -> Story | None:
    """The story ``ident`` ready for the table, or None if a session might read its lines otherwise."""
    from wyrd.play.engine.storyplay import content_dirs
    from wyrd.play.engine.words import pick_names
    from wyrd.play.kits.lots.kit import KIT

    try:
        scenario = find_scenario(ident, content_dirs(content))
    except ScenarioError:
        return None
    story = Story(scenario, {p.name: p.character() for p in scenario.pregens},
                  {n.name: n.character(npc=True) for n in scenario.npcs})
    state = L.GameState(characters={**story.pregens, **story.npcs})
    for move in every_move(scenario, players):
        try:
            parsed = KIT.verbs.parse(line(move), state).args
        except Exception:  # a line the kit refuses: the session would refuse it too
            return None
        if parsed != expected(move):
            return None
        if isinstance(move, Enlist) and move.names and pick_names(move.names, list(story.pregens), "") != list(
                move.names):
            return None
    if not _calls_found(scenario) or not _purposes_name_no_one(scenario):
        return None
    return story


def every_move(scenario: Scenario, players: int | None) -> Iterator[Move]:
    """Every move the bots could make in ``scenario``, by every one of its pregenerated characters."""
    party = [p.name for p in scenario.pregens]
    yield Enlist(tuple(party[:players]) if players else ())
    yield NextScene()
    for who in party:
        yield Retell(who)
        yield Rest(who)
    for scene in scenario.scenes:
        yield from (Lots(purpose) for purpose in scene.lots)
        for who in party:
            yield from (Check(who, call) for call in scene.checks)
            yield from (Assess(who, call) for call in scene.assess)
            if scene.fight is not None:
                fight = scene.fight
                yield Strike("defend", who, fight.npc, fight.effort)
                yield from (Strike("attack", who, fight.npc, fight.effort + extra) for extra in EFFORTS)


def expected(move: Move) -> dict[str, Any]:
    """The arguments a session must read from ``move``'s line for the table to play it alike."""
    cast = {"edition": 2, "faces": []}
    if isinstance(move, Check):
        c = move.call
        return {"who": move.who, "discipline": c.discipline.value, "value": None, "difficulty": c.difficulty,
                "modifier": 0, "effort": c.effort, "tier": None, "proficiency": None, "purpose": c.purpose, **cast}
    if isinstance(move, Assess):
        a = move.call
        return {"who": move.who, "discipline": a.discipline.value, "tier": a.tier, "commitment": a.commitment.value,
                "minutes": None, "rushed": False, "living": a.living, "subject": a.subject, "edition": 2}
    if isinstance(move, Lots):
        return {"who": None, "purpose": move.purpose, **cast}
    if isinstance(move, Strike):
        blow = {"effort": move.effort, "offense": None, "defense": None, "armour": None}
        if move.verb == "defend":
            return {"defender": move.who, "attacker": move.npc, **blow, "purpose": "", **cast}
        return {"attacker": move.who, "target": move.npc, **blow, "defended": True, "purpose": "", **cast}
    if isinstance(move, Retell):
        return {"who": move.who, "cast": None, **cast}
    if isinstance(move, Rest):
        return {"who": move.who, "edition": 2}
    if isinstance(move, Enlist):
        return {"take": list(move.names) or ["all"], "edition": 2}
    return {"id": None, "edition": 2}


def _calls_found(scenario: Scenario) -> bool:
    """Whether the story finds each check it follows from its cast, as the session's follower does."""
    for scene in scenario.scenes:
        place = ScenarioPlay(scenario, [scene.id])
        for call in scene.checks:
            if place.call_for(call.purpose, call.discipline, call.difficulty) is not call:
                return False
    return True


def _purposes_name_no_one(scenario: Scenario) -> bool:
    """Whether no lots purpose could be read as a character's name, whoever is in play at the time."""
    names = [s.name.casefold() for s in [*scenario.pregens, *scenario.npcs]]
    return not any(n.startswith(p.casefold()) for s in scenario.scenes for p in s.lots for n in names)
