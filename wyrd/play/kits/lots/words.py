"""Thaeborn's vocabulary for completion: the words of each kind its verbs' ``completes`` name.

``character`` (NPCs and the incapacitated noted), ``discipline`` (prowess, willpower ...),
``cast`` (the casts still open to Portents and Re-tells, by id), ``points`` (what Story
Points become) and ``scene`` (the scenario's scenes not played yet). ``pc`` is completed
whole: ``add`` or ``take`` or a name, the pregenerated characters to take, and after
``pc add NAME`` the ``key=value`` options not given yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import wyrd.rules.lots as L
from wyrd.play.kits.lots.verbs import DISCIPLINES, lots_state
from wyrd.stories.lots import Scenario, ScenarioPlay

__all__ = ["PC_OPTIONS", "complete", "words"]

PC_OPTIONS = (*(f"{d}=" for d in DISCIPLINES), "mettle=", "armour=", "portents=", "concept=", "npc")


def _scenario(follower: object) -> Scenario | None:
    return follower.scenario if isinstance(follower, ScenarioPlay) else None


def _note(char: L.Character) -> str:
    marks = [m for m, on in (("NPC", char.npc), ("incapacitated", char.condition.incapacitated)) if on]
    return ", ".join(marks) or char.concept


def words(kind: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The words of ``kind``, each with its note; None for a kind Thaeborn does not know."""
    game = lots_state(state)
    if kind == "character":
        return {c.name: _note(c) for c in game.characters.values()}
    if kind == "discipline":
        return dict.fromkeys(DISCIPLINES, "")
    if kind == "cast":
        return {r.id: f"{r.spec.roller or 'the world'}, {r.spec.form.value}, {r.lot.value}"
                for r in reversed(game.window)}
    if kind == "points":
        return {"portents": "", "dp": "development points"}
    if kind == "scene":
        story = _scenario(follower)
        if story is None or not isinstance(follower, ScenarioPlay):
            return {}
        from wyrd.play.kits.lots.looks import fight_won  # the looks import the verbs: not at module import

        ways = follower.ways(fight_won(state, follower)) if follower.current is not None else []
        if ways and follower.current is not None and follower.current.exits:
            return {w.to: f"{'open' if o else 'not settled yet' if o is None else 'shut'}: "
                          f"{follower.title_of(w.to)}" for w, o in ways if o is not False}
        return {s.id: s.title for s in story.scenes if s.id not in follower.played}
    return None


def complete(verb: str, done: Sequence[str], typed: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The choices for ``pc``, whose words are not positional (None for the other verbs)."""
    if verb != "pc":
        return None
    story = _scenario(follower)
    if not done:
        return {"add": "a new character", "take": "the scenario's pregenerated characters",
                **(words("character", state) or {})}
    first = done[0].casefold()
    if first == "take":
        taken = {w.casefold() for w in done[1:]}
        pregens = {p.name: p.concept for p in story.pregens if p.name.casefold() not in taken} if story else {}
        return ({"all": ""} if len(done) == 1 else {}) | pregens
    if first != "add" or len(done) < 2:
        return {}  # a sheet to look at, or the new character's name, which is the player's to invent
    used = {w.split("=", 1)[0].casefold() + ("=" if "=" in w else "") for w in done[2:]}
    return {o: "" for o in PC_OPTIONS if o not in used}
