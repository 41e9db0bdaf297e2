"""Wolden's narration: a command's weightiest moments, one or two, told from the ``wolden/...`` tables.

:class:`WoldenNarration` is the kit's narration hook. It reads a command's
events into typed moments (:class:`WoldenMoment`, with the facts a prompt needs
and whether the roll succeeded or someone was hurt, for the firewall), keeps the
two weightiest (a fight's end before a blow, a blow before a new round), and
hands them, in the order they happened, to the storyteller, which tells them
from the tables of ``oracle/tables/wolden.yaml`` or with a model. The table a
moment is told from is what its narration event names as its ``moment``.

The oracle's answer to ``ask`` is a moment too (:attr:`WoldenMoment.ANSWER`, told from
``wolden/answer/...``, whose rows never turn the answer round); what it settles, as the model
and the firewall read it, names the question and the answer. A doubled answer's twist stays a
line of its own, as a critical's does.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import wyrd.rules.wolden as W
from wyrd.oracle.events import field
from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.grammar import Referent, worded
from wyrd.oracle.narrators.base import ANSWER_SAID, NarrationRequest
from wyrd.oracle.narrators.telling import Command, KitNarration, Told, setting
from wyrd.play.kits.wolden.texts import ability_name, names_of
from wyrd.play.kits.wolden.verbs import SceneBegun, wolden
from wyrd.rules.actions import Event
from wyrd.stories.wolden.progress import ScenarioProgress
from wyrd.stories.wording import Wording

__all__ = ["NARRATION", "WoldenMoment", "WoldenNarration"]


class WoldenMoment(StrEnum):
    """The moments of a Wolden game worth a line (the prompts in ``prompts/wolden`` claim them)."""

    CHECK = "wolden/check"  # a roll's result (detail: the result)
    ENCOUNTER_START = "wolden/encounter/start"  # an extended challenge or a montage begins
    ENCOUNTER_END = "wolden/encounter/end"  # ... and ends (detail: done, lost, abandoned)
    ROUND = "wolden/round"
    FIGHT_START = "wolden/fight/start"
    FIGHT_END = "wolden/fight/end"  # detail: won, withdrew, lost
    ENEMY_HARMED = "wolden/fight/enemy"  # detail: hit or beaten
    STRUCK = "wolden/fight/struck"  # an enemy's blow lands
    HARM = "wolden/harm"
    WOUND = "wolden/wound"
    OUT = "wolden/out"  # taken out: no slot left for the wound
    DOWNTIME = "wolden/downtime"  # detail: the choice
    ANSWER = "wolden/answer"  # the oracle's answer to `ask` (detail: yes_and, yes, no or no_but)
    INTERPRETATION = "wolden/interpretation"  # a model's reading of an answer, a twist or an inspiration


_HURT = frozenset({WoldenMoment.STRUCK, WoldenMoment.HARM, WoldenMoment.WOUND, WoldenMoment.OUT})
_SUCCESS = {W.Result.SUCCESS.value: True, W.Result.CRITICAL_SUCCESS.value: True, W.Result.FAILURE.value: False,
            W.Result.CRITICAL_FAILURE.value: False}


@dataclass(frozen=True)
class _Found:
    """One candidate moment: how weighty, where it happened, which table tells it and with what."""

    priority: int
    order: int
    moment: WoldenMoment
    detail: str
    table: str
    context: dict[str, object]
    event: Event


def _moment(event: Event, names: Mapping[str, str], last: dict[str, str],
            montages: set[str]) -> tuple[int, WoldenMoment, str, str, dict[str, object]] | None:
    """Priority, moment, detail, table and placeholders for one event (None: untold)."""
    kind = event.kind

    def name(key: str) -> str:
        return names.get(str(field(event, key)), str(field(event, key)))

    if kind == "check_rolled":
        last.update(character=field(event, "lead"), ability=ability_name(field(event, "ability")))
        result = str(field(event, "result"))
        return 2, WoldenMoment.CHECK, result, f"wolden/check/{result}", {**last}
    if kind == "extended_started":
        group = "montage" if field(event, "montage") else "extended"
        return 3, WoldenMoment.ENCOUNTER_START, group, f"wolden/{group}/start", {"challenge": field(event, "name")}
    if kind == "extended_ended":
        outcome = str(field(event, "outcome"))
        group = "montage" if field(event, "id") in montages and outcome != "abandoned" else "extended"
        return 4, WoldenMoment.ENCOUNTER_END, outcome, f"wolden/{group}/{outcome}", {"challenge": name("id")}
    if kind == "round_started" and field(event, "number") > 1:
        return 0, WoldenMoment.ROUND, "", "wolden/round", {}
    if kind == "fight_started":
        enemy = names.get(field(event, "enemies")[0], field(event, "enemies")[0])
        return 3, WoldenMoment.FIGHT_START, "", "wolden/fight/start", {"enemy": enemy}
    if kind == "fight_ended":
        outcome = str(field(event, "outcome"))
        return 4, WoldenMoment.FIGHT_END, outcome, f"wolden/fight/{outcome}", {}
    if kind == "enemy_harmed":
        detail = "beaten" if field(event, "defeated") else "hit"
        return (3 if field(event, "defeated") else 1), WoldenMoment.ENEMY_HARMED, detail, f"wolden/fight/{detail}", {
            **last, "enemy": name("enemy")}
    if kind == "struck" and field(event, "source") in names and field(event, "source") not in montages:
        return 1, WoldenMoment.STRUCK, "", "wolden/fight/struck", {"character": field(event, "character"),
                                                                     "enemy": name("source")}
    if kind in ("struck", "harm_taken") and field(event, "source") in ("consequence", *montages):
        return 1, WoldenMoment.HARM, "", "wolden/harm", {**last, "character": field(event, "character")}
    if kind == "wound_taken":
        return 2, WoldenMoment.WOUND, "", "wolden/wound", {**last, "character": field(event, "character")}
    if kind == "character_out":
        return 4, WoldenMoment.OUT, "", "wolden/out", {"character": field(event, "character")}
    if kind == "downtime_taken":
        choice = str(field(event, "choice"))
        return 3, WoldenMoment.DOWNTIME, choice, f"wolden/downtime/{choice}", {"character": field(event, "character"),
                                                                                **last}
    if kind == "answer":  # an `ask`: the world answers its question (its twist, if any, reads as its own line)
        answer, asker = str(field(event, "answer")), field(event, "asker")
        return 2, WoldenMoment.ANSWER, answer, f"wolden/answer/{answer}", {"asker": asker} if asker else {}
    if kind == "item_gained":
        last["item"] = names.get(str(field(event, "item")), str(field(event, "item")))
    return None


def _referents(follower: object) -> tuple[dict[str, Referent], dict[str, str]]:
    """How the scenario refers to its enemies and encounters by name, and each pregen's pronouns."""
    story = follower.scenario if isinstance(follower, ScenarioProgress) else None
    if story is None:
        return {}, {}
    found: dict[str, Referent] = {}
    things: list[tuple[str, Wording]] = [(e.name, e) for e in story.enemies]
    things += [(e.name, e) for e in story.extended]
    things += [(m.name, m) for m in story.montages]
    things += [(f.name, f) for f in story.fights]
    for name, wording in things:
        said = worded(name, wording)
        if said is not None:
            found[name] = said
    for enemy in story.enemies:  # a second of a kind in a fight is "Name 2" (wyrd.play.kits.wolden.enemies)
        for n in range(2, 10):
            numbered = worded(f"{enemy.name} {n}", enemy)
            if numbered is not None:
                found[f"{enemy.name} {n}"] = numbered
    return found, {p.name: str(p.pronouns) for p in story.pregens if p.pronouns}


def _said(found: _Found) -> str:
    """What the moment settles, in the words the firewall and the model read."""
    if found.moment == WoldenMoment.ANSWER:
        question = str(field(found.event, "question", "") or "the question")
        return f"the answer to {question!r} is {ANSWER_SAID.get(found.detail, found.detail)}"
    said = f"{found.moment.value.split('/', 1)[1].replace('/', ' ')}" + (f": {found.detail}" if found.detail else "")
    return said.replace("_", " ")


def _request(found: _Found, cast: list[CharacterFacts], referents: dict[str, Referent]) -> NarrationRequest:
    subject = found.context.get("character") or found.context.get("asker")
    success = _SUCCESS.get(found.detail) if found.moment == WoldenMoment.CHECK else None
    said = _said(found)
    return NarrationRequest(
        moment=found.moment, detail=found.detail or None, events=[dict(found.event)], characters=cast,
        subject=str(subject) if subject else None, told_by=[found.table], values=found.context,
        said=f"For {subject or 'everyone'}: {said}.", success=success,
        harm=found.moment in _HURT, death=False, marks={"moment": found.table}, referents=referents)


class WoldenNarration(KitNarration):
    """Wolden's narration hook: one or two moments a command, the weightiest, in the order they happened."""


    def tell(self, command: Command) -> Told:
        old, new = wolden(command.before), wolden(command.after)
        events = command.events
        added = _fated(events, new, command)
        if not command.prose:
            return Told(added=added)
        names = {**names_of(old), **names_of(new)}
        montages = {e.id for e in (old.encounter, new.encounter) if isinstance(e, W.Extended) and e.montage}
        montages |= {str(field(e, "id")) for e in events if e.kind == "extended_started" and field(e, "montage")}
        last: dict[str, str] = {}
        for event in events:
            if event.kind == "item_gained":
                _moment(event, names, last, montages)
        found: list[_Found] = []
        for order, event in enumerate(events):
            moment = _moment(event, names, last, montages)
            if moment is not None:
                found.append(_Found(moment[0], order, moment[1], moment[2], moment[3], moment[4], event))
        chosen: list[_Found] = []
        for candidate in sorted(found, key=lambda c: (-c.priority, c.order)):
            if len(chosen) < 2 and candidate.table not in {c.table for c in chosen}:
                chosen.append(candidate)
        referents, pronouns = _referents(command.follower)
        cast = [CharacterFacts(name=c.name, concept=c.concept, pronouns=pronouns.get(c.name, "they"))
                for c in new.characters.values()]
        progress = command.follower if isinstance(command.follower, ScenarioProgress) else None
        story = progress.scenario if progress is not None else None
        scene = story.scene(progress.played[-1]) if story is not None and progress and progress.played else None
        update = setting(story, scene.place if scene is not None else None)
        return Told(added=added, moments=[_request(c, cast, referents).model_copy(update=update)
                                          for c in sorted(chosen, key=lambda c: c.order)], setting=update)


def _fated(events: Sequence[Event], game: W.GameState, command: Command) -> list[Event]:
    """The scene test of a scene that opens, then a twist for every critical (:mod:`~wyrd.play.kits.wolden.fate`)."""
    from wyrd.play.kits.wolden.fate import critical_twists, scene_test
    from wyrd.play.kits.wolden.narrator import present

    out: list[Event] = []
    begun = next((e for e in events if isinstance(e, SceneBegun)), None)
    if begun is not None:
        out += scene_test(begun.id, present(game), command.dice, command.follower, command.deck)
    return out + critical_twists(events, command.dice, command.follower, command.deck)


NARRATION = WoldenNarration()
