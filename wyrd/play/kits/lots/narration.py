"""Thaeborn's narration: a command's first moment, the WEAL or WOE of its first cast, then its next moment.

Before any prose it adds what Thaeborn's signs of fate bring (:mod:`wyrd.play.kits.lots.signs`):
the scene test when a scene opens, and the twist of a heightened WEAL or WOE or a Portent spent.

:class:`LotsNarration` is the kit's narration hook. Each event worth a line
becomes a :class:`LotsMoment` (with whether a check succeeded, a blow landed,
someone was hurt, for the firewall), told from the oracle's ``lots/...`` tables
or by a model; the narration event names the table it was told from. A scene
that opens may add one of its own narration seeds, as written. The WEAL and WOE
lines speak to the players, whose part it is to describe their fortune.

The shared ``ask`` is told too (``lots/answer/<yes_and|yes|no|no_but>``): the world
showing the oracle's answer as it fell, on the narrator's own dice, never as a cast
of the lots. Its request says the question and the answer, which stands.
"""

from __future__ import annotations

from enum import StrEnum
from functools import partial
from typing import Any

from wyrd.oracle.events import field
from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.grammar import Referent, person
from wyrd.oracle.narrators.base import ANSWER_SAID, NarrationRequest
from wyrd.oracle.narrators.telling import Command, KitNarration, Told, setting
from wyrd.oracle.text import the_name
from wyrd.play.kits.lots.signs import scene_test, sign_twists
from wyrd.rules.actions import Event
from wyrd.rules.lots import GameState
from wyrd.stories.lots import ScenarioPlay

__all__ = ["NARRATION", "LotsMoment", "LotsNarration"]


class LotsMoment(StrEnum):
    """The moments of a Thaeborn game worth a line (the prompts in ``prompts/lots`` claim them)."""

    CHECK = "lots/check"  # detail: success, failure or waste
    FORTUNE = "lots/fortune"  # detail: weal, great-weal, woe, great-woe
    BARE = "lots/bare"  # lots cast with no check
    BLOW = "lots/blow"  # detail: landed or missed
    METTLE = "lots/mettle"  # detail: steady, reeling or down
    PORTENT = "lots/portent"  # detail: retell or blot-out
    ASSESS = "lots/assess"  # detail: exact, small or large
    REST = "lots/rest"
    STORY_POINTS = "lots/story-points"
    DEVELOP = "lots/develop"
    ARRIVAL = "lots/arrival"
    SCENE = "lots/scene"
    SCENE_SEED = "lots/scene-seed"  # a scene's own narration seed
    ENDING = "lots/ending"
    INTERPRETATION = "lots/interpretation"  # a model's reading of an answer, a twist or an inspiration
    ANSWER = "lots/answer"  # the oracle's answer to `ask`; detail: yes_and, yes, no or no_but


_ALL = "everyone here"  # who a world's cast falls on, in narration
_BLOW = {True: "lots/blow/landed", False: "lots/blow/missed"}
_GAP = {"none": "lots/assess/exact", "small": "lots/assess/small", "large": "lots/assess/large"}
_WON = frozenset({"success", "landed"})
_LOST = frozenset({"failure", "missed"})


def _moment(event: Event) -> tuple[str, dict[str, Any]] | None:
    """The table that tells an event, and what its placeholders are filled with (None: untold)."""
    get = partial(field, event)  # the fields of the kind just checked
    kind = event.kind
    who = {"character": get("character") or get("name") or _ALL}
    if kind == "check_cast" and get("form") == "check":
        return f"lots/check/{get('outcome')}", {**who, "purpose": get("purpose")}
    if kind == "lots_cast":
        return "lots/bare", {**who, "purpose": get("purpose")}
    if kind == "attack_resolved":
        return _BLOW[bool(get("landed"))], {"attacker": get("attacker"), "target": get("target")}
    if kind == "mettle_tested":
        state = "down" if get("incapacitated") else ("reeling" if get("outcome") != "success" else "steady")
        return f"lots/mettle/{state}", who
    if kind == "portent_spent":
        return f"lots/portent/{str(get('use')).replace('_', '-')}", who
    if kind == "assessed" and get("via") == "assess":
        return _GAP[str(get("gap_size"))], {**who, "subject": get("subject")}
    simple = {"rested": "lots/rest", "story_points_awarded": "lots/story-points", "development": "lots/develop",
              "story_closed": "lots/ending"}
    if kind in simple:
        return simple[str(kind)], {**who, "title": get("title")}
    if kind == "character_created" and not get("npc"):
        return "lots/arrival", {**who, "concept": get("concept")}
    if kind == "scene_opened":
        return "lots/scene", {"title": the_name(str(get("title")))}
    if kind == "answer" and get("answer") in ANSWER_SAID:
        asker = get("asker")
        return f"lots/answer/{get('answer')}", {"asker": asker} if asker else {}
    return None


def _fortune(events: list[Event]) -> tuple[str, dict[str, Any]] | None:
    """The WEAL or WOE of the command's first cast, to help its player describe it."""
    for event in events:
        if event.kind in ("check_cast", "lots_cast"):
            fortune = str(field(event, "fortune", "none"))
            if fortune == "none":
                return None
            return f"lots/fortune/{fortune.replace('_', '-')}", {"character": field(event, "character") or _ALL}
    return None


def _people(follower: object) -> dict[str, Referent]:
    """The scenario's people (pregens and NPCs) with the pronouns it gives them."""
    story = follower.scenario if isinstance(follower, ScenarioPlay) else None
    sheets = [*story.pregens, *story.npcs] if story is not None else []
    return {s.name: person(s.name, s.pronouns) for s in sheets if s.pronouns}


def _request(table: str, context: dict[str, Any], event: Event | None,
             cast: list[CharacterFacts]) -> NarrationRequest:
    moment = max((m for m in LotsMoment if table == m.value or table.startswith(m.value + "/")), key=len)
    detail = table[len(moment.value) + 1:]
    success = True if detail in _WON else (False if detail in _LOST else None)
    subject = context.get("character") or context.get("attacker") or context.get("asker")
    hurt = (moment == LotsMoment.METTLE and detail != "steady") or (moment == LotsMoment.BLOW and detail == "landed")
    said = f"For {subject or _ALL}: {moment.value.split('/', 1)[1]}" + (f", {detail}" if detail else "") + "."
    if moment == LotsMoment.ANSWER and event is not None:
        said = _answered(event)
    return NarrationRequest(
        moment=moment, detail=detail or None, events=[dict(event)] if event else [], characters=cast,
        subject=str(subject) if subject else None, told_by=[table], values=context, success=success,
        harm=hurt, death=False, marks={"table": table}, said=said)


def _answered(event: Event) -> str:
    """What an answer settles, for the model and the firewall: the question, and the answer as it stands."""
    from wyrd.oracle.narrators.readings import ANSWERS_READ  # worded as a reading of it is

    asker = field(event, "asker")
    answer = str(field(event, "answer"))
    asked = f"{asker} asked the oracle" if asker else "The oracle was asked"
    return (f"{asked}: {str(field(event, 'question'))!r}. The answer is {ANSWERS_READ.get(answer, answer)}; it stands "
            "as given. It was not a cast of the lots.")


class LotsNarration(KitNarration):
    """The Thaeborn kit's narration hook (see the module docstring)."""


    def tell(self, command: Command) -> Told:
        events = list(command.events)
        after = command.after
        options = {"tables": command.tables, "deck": command.deck}
        added = [*scene_test(events, after, command.dice, command.follower, **options),
                 *sign_twists(events, after, command.dice, command.follower, **options)]
        if not command.prose:
            return Told(added=added)
        cast = [CharacterFacts(name=c.name, concept=c.concept)
                for c in (after.characters.values() if isinstance(after, GameState) else [])]
        found = [(m, e) for e in events if (m := _moment(e)) is not None]
        fortune = _fortune(events)
        first_cast = next((e for e in events if e.kind in ("check_cast", "lots_cast")), None)
        chosen = found[:1] + ([(fortune, first_cast)] if fortune else []) + found[1:]
        told = [_request(table, context, event, cast) for (table, context), event in chosen[:2]]
        opened = [e for e in events if e.kind == "scene_opened" and field(e, "seeds")]
        seeds = [s for e in opened for s in field(e, "seeds", [])]
        if seeds and len(told) < 2:
            told.append(NarrationRequest(
                moment=LotsMoment.SCENE_SEED, events=[dict(opened[0])], characters=cast, seeds=seeds,
                scene=str(field(opened[0], "title", "")), own_words=True, harm=False, death=False, marks={}))
        people = _people(command.follower)
        follower = command.follower if isinstance(command.follower, ScenarioPlay) else None
        scene = follower.current if follower is not None else None
        where = setting(follower.scenario if follower is not None else None, scene.where if scene else None)
        update = {**where, **({"referents": people} if people else {})}
        return Told(added=added, moments=[r.model_copy(update=update) for r in told], setting=where)


NARRATION = LotsNarration()
