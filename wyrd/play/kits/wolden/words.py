"""Wolden's vocabulary for completion: the words of each kind its verbs' ``completes`` name.

``character`` (taken out ones noted), ``ability`` (might, agility, mind, graces),
``target`` (in a fight, the enemies standing; in an extended challenge, the challenge),
``enemy`` (the scenario's enemies and its fights, to begin one), ``challenge`` and
``montage`` (the scenario's extended challenges and travel montages), ``downtime`` (the
activities), ``exit`` (the ways on from the scene, noted open or shut).
``pc`` is completed whole: ``add`` or ``take`` or a name, the pregenerated
characters to take, and after ``pc add NAME`` the cult and then the ``key=value`` options
not given yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.kits.wolden.verbs import ACTIVITIES, wolden
from wyrd.stories.wolden import Scenario, ScenarioProgress

__all__ = ["PC_OPTIONS", "complete", "words"]

PC_OPTIONS = ("might=", "agility=", "mind=", "graces=", "gifts=", "concept=")


def _scenario(follower: object) -> Scenario | None:
    return follower.scenario if isinstance(follower, ScenarioProgress) else None


def _targets(game: W.GameState) -> dict[str, str]:
    """What a roll may be against: the enemies standing in a fight, or the challenge under way."""
    found = game.encounter
    if isinstance(found, W.Fight):
        return {e.id: f"{e.name}, {e.taken}/{e.harm} harm" for e in found.enemies.values() if not e.defeated}
    return {found.id: found.name} if found is not None else {}


def _enemies(story: Scenario | None) -> dict[str, str]:
    """What a fight may begin with: the scenario's enemies, and its fights whole."""
    if story is None:
        return {}
    return {**{e.id: e.name for e in story.enemies}, **{f.id: f"the fight {f.name}" for f in story.fights}}


def words(kind: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The words of ``kind``, each with its note; None for a kind Wolden does not know."""
    game, story = wolden(state), _scenario(follower)
    if kind == "character":
        return {c.name: "taken out" if c.out else c.cult for c in game.characters.values()}
    if kind == "ability":
        return {a.value: "" for a in W.Ability}
    if kind == "target":
        return _targets(game)
    if kind == "enemy":
        return _enemies(story)
    if kind == "challenge":
        return {e.id: e.name for e in story.extended} if story is not None else {}
    if kind == "montage":
        return {m.id: m.name for m in story.montages} if story is not None else {}
    if kind == "downtime":
        return dict.fromkeys(ACTIVITIES, "")
    if kind == "exit":
        return _exits(follower)
    return None


def _exits(follower: object) -> dict[str, str]:
    """The ways on from the scene under way, each noted open or shut (and what opens it)."""
    if not isinstance(follower, ScenarioProgress) or follower.scenario is None or follower.ended:
        return {}
    names = follower.exit_names()
    out: dict[str, str] = {}
    for way in follower.exits():
        state = "open" if way.opens(follower.outcomes) else "shut"
        out.setdefault(way.to, f"{names[way.to]}, {state}")
        if state == "open":
            out[way.to] = f"{names[way.to]}, open"
    return out


def _pc(done: Sequence[str], typed: str, game: W.GameState, story: Scenario | None) -> dict[str, str]:
    if not done:
        return {"add": "a new character", "take": "the scenario's pregenerated characters",
                **(words("character", game) or {})}
    first = done[0].casefold()
    if first == "take":
        return {"all": "", **{p.name: p.concept for p in story.pregens}} if story is not None and len(done) == 1 else {}
    if first != "add" or len(done) < 2:
        return {}  # a sheet to look at, or the new character's name, which is the player's to invent
    if len(done) == 2:  # the cult: one in play, or one the scenario brings
        return {**{c.id: c.name for c in game.cults.values()}, **dict.fromkeys(story.cults if story else [], "")}
    used = {w.split("=", 1)[0].casefold() + "=" for w in done if "=" in w}
    return {o: "" for o in PC_OPTIONS if o not in used}


def complete(verb: str, done: Sequence[str], typed: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The choices for ``pc``, whose words are not positional (None for the other verbs)."""
    if verb == "pc":
        return _pc(done, typed, wolden(state), _scenario(follower))
    return None
