"""Heroes of the Fall's vocabulary for completion: the words of each kind its verbs' ``completes`` name.

``character`` (out of action or dead noted), ``ability`` (the five attributes), ``skill``
(every skill a character has, with whose it is, or after ``try WHO`` only WHO's, and the
attributes, which stand in as untrained skills), ``pace`` (walk, jog, run, sprint) and
``scene`` (the ways on from the scene in play, marked open or shut). ``pc`` is completed whole: ``add`` or a
name, and after ``pc add NAME`` the ``key=value`` options not given yet.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wyrd.play.engine.words import UsageError, resolve
from wyrd.play.kits.feat.verbs import ATTRIBUTES, feat_state
from wyrd.rules.feat import GameState, Pace
from wyrd.stories.feat import FeatProgress

__all__ = ["PC_OPTIONS", "complete", "words"]

PC_OPTIONS = (*(f"{a}=" for a in ATTRIBUTES), "tier=", "skill=", "wyrd=", "concept=", "edge=")


def _state(game: GameState, name: str) -> str:
    char = game.characters[name]
    return "dead" if char.dead else "out of action" if char.out_of_action else char.concept


def _skills(game: GameState, who: str | None = None) -> dict[str, str]:
    """Skills with whose they are (only ``who``'s, once a character is named), then the attributes."""
    found: dict[str, list[str]] = {}
    for char in game.characters.values():
        if who is None or char.name == who:
            for skill in char.skills:
                found.setdefault(skill, []).append(char.name)
    return {**{s: ", ".join(names) for s, names in sorted(found.items())}, **dict.fromkeys(ATTRIBUTES, "attribute")}


def _named(game: GameState, word: str) -> str | None:
    """The character ``word`` names (as the verbs read names: whole, or a unique beginning)."""
    try:
        return resolve(word, list(game.characters), "character")
    except UsageError:
        return None


# Verbs whose skill follows the names of those who use it: the skill is the last of them's.
_SKILL_AFTER = {"try": 1, "oppose": 2}


def _scenes(follower: object) -> dict[str, str]:
    """The ways on from the scene in play, open ones first and marked so (Issue 18, point 2)."""
    if not isinstance(follower, FeatProgress) or follower.story is None:
        return {}
    story = follower.story
    if follower.current is None:
        return {} if follower.ended else {story.scenes[0].id: f"{story.scenes[0].title} (open now)"}
    open_now = follower.next_scenes()
    shut = [i for i in story.exits(follower.current) if i not in open_now]
    return {**{i: f"{story.scene(i).title} (open now)" for i in open_now},
            **{i: f"{story.scene(i).title} (shut)" for i in shut}}


def words(kind: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The words of ``kind``, each with its note; None for a kind this ruleset does not know."""
    game = feat_state(state)
    if kind == "character":
        return {name: _state(game, name) for name in game.characters}
    if kind == "ability":
        return dict.fromkeys(ATTRIBUTES, "")
    if kind == "skill":
        return _skills(game)
    if kind == "pace":
        return {p.value: "" for p in Pace}
    if kind == "scene":
        return _scenes(follower)
    return None


def complete(verb: str, done: Sequence[str], typed: str, state: Any, follower: object = None) -> dict[str, str] | None:
    """The choices for ``pc``, whose words are not positional, and the skills of the character
    named for ``try`` and ``oppose`` (None for the other verbs and places)."""
    if verb in _SKILL_AFTER and len(done) == _SKILL_AFTER[verb]:
        game = feat_state(state)
        who = _named(game, done[0])
        return _skills(game, who) if who is not None else None
    if verb != "pc":
        return None
    story = follower.story if isinstance(follower, FeatProgress) else None
    if not done:
        take = {"take": "the story's heroes not in play yet"} if story is not None else {}
        return {"add": "a new character", **take, **(words("character", state) or {})}
    if done[0].casefold() == "take":
        left = {c.name: c.concept for c in story.cast if c.name not in feat_state(state).characters} if story else {}
        return ({"all": ""} if len(done) == 1 and left else {}) | left
    if done[0].casefold() != "add" or len(done) < 2:
        return {}  # a sheet to look at, or the new character's name, which is the player's to invent
    used = {w.split("=", 1)[0].casefold() + "=" for w in done if "=" in w and not w.startswith(("skill=", "edge="))}
    return {o: "" for o in PC_OPTIONS if o not in used}
