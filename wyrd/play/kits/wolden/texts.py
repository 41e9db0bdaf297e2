"""How Wolden's events read: one line of facts per kind, for the log, the journal and the screen.

:data:`TEXTS` maps every event kind of :mod:`wyrd.rules.wolden.events`, and the play
layer's own (``scene_begun``, ``scenario_ended``, ``story_chosen``, ``enemy_acted``), to a
function from the event to its line. Only facts: the dice, the numbers before
and after, who and what; the narration is elsewhere. :func:`wyrd.play.frontends.view.describe`
cleans the text and falls back to listing the fields if an event does not read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.frontends.view import clean

__all__ = ["RECALL", "TEXTS", "ability_name", "encounter_line", "names_of"]

Text = Callable[[dict[str, Any]], str]


def ability_name(ability: object) -> str:
    return str(getattr(ability, "value", ability)).title()


def _names(items: object) -> str:
    listed = [clean(i) for i in items] if isinstance(items, list) else []
    return ", ".join(listed) if listed else "nobody"


def _called(ident: object) -> str:
    """An encounter or enemy as its event names it, read as words: an event carries its id, never its
    name ("drowned-ringer-2" reads "Drowned ringer 2"), so players are not shown a bare id."""
    words = clean(ident).replace("-", " ").strip()
    return words[:1].upper() + words[1:]


def _result(result: object) -> str:
    return str(result).replace("_", " ")


def _s(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def names_of(state: W.GameState) -> dict[str, str]:
    """The encounter under way and its enemies, id -> name."""
    found = state.encounter
    if found is None:
        return {}
    names = {found.id: found.name}
    if isinstance(found, W.Fight):
        names.update({e.id: e.name for e in found.enemies.values()})
    return names


def encounter_line(found: W.Extended | W.Fight) -> str:
    """The encounter under way, for the status."""
    acted = f"; acted: {_names(found.rounds.acted)}" if found.rounds.acted else ""
    if isinstance(found, W.Fight):
        foes = ", ".join(f"{clean(e.name)} {e.taken}/{e.harm} harm, {e.damage.notation}"
                         + (" (beaten)" if e.defeated else "") for e in found.enemies.values())
        return f"Fight: {clean(found.name)}, round {found.rounds.number}{acted}. Enemies: {foes}."
    kind = "Travel montage" if found.montage else "Extended challenge"
    danger = f"; danger {found.danger.notation}" if found.danger else ""
    return (f"{kind}: {clean(found.name)}, rating {found.rating} (from {found.start}; done at 0, lost at "
            f"{W.LOST_AT * found.start}), round {found.rounds.number}{acted}{danger}.")


def _opened(e: dict[str, Any]) -> str:
    extras = [f"the gift {_called(e['gift'])}"] if e.get("gift") else []
    extras += ["an advantage"] if e.get("advantage") else []
    extras += [f"help from {_names(e['helpers'])}"] if e.get("helpers") else []
    against = f" against {_called(e['against'])}" if e.get("against") else " (a plain roll)"
    return (f"{clean(e['lead'])} opens a roll of {ability_name(e['ability'])} {e['score']} with {e['dice']}d12"
            + (f" ({', '.join(extras)})" if extras else "") + f"{against}.")


def _rolled(e: dict[str, Any]) -> str:
    pair = ", a pair" if e["pair"] else ""
    return (f"{clean(e['lead'])} rolls {', '.join(map(str, e['faces']))}{pair}: {e['highest']} + "
            f"{ability_name(e['ability'])} {e['score']} = {e['total']}, {_result(e['result'])}.")


def _downtime(e: dict[str, Any]) -> str:
    back = "; back on their feet" if e.get("back") else ""
    return (f"{clean(e['character'])} takes a downtime in session {e['session']} ({e['choice']}): "
            f"{e['damage_healed']} ability damage and {_s(e['wounds_healed'], 'wound')} healed, "
            f"{e['slots']} gift slots now{back}.")


TEXTS: dict[str, Text] = {
    "cult_added": lambda e: f"The cult {clean(e['name'])} is in play.",
    "character_created": lambda e: (
        f"{clean(e['name'])} joins ({_called(e['cult'])}): Might {e['might']}, Agility {e['agility']}, "
        f"Mind {e['mind']}, Graces {e['graces']}; gifts {_names([_called(g) for g in e['gifts']])}; "
        f"{e['slots']} slots."),
    "session_advanced": lambda e: f"Session {e['session']} begins: everyone may take a downtime again.",
    "pool_capped": lambda e: (
        f"A pool holds at most 4d12, not {e['asked']}: the help of {_names(e['lost'])} adds no die, so "
        f"{'they stay' if len(e['lost']) > 1 else 'that helper stays'} out of {clean(e['lead'])}'s roll."),
    "check_opened": _opened,
    "check_rolled": _rolled,
    "check_cancelled": lambda e: f"{clean(e['lead'])}'s roll is called off.",
    "extended_started": lambda e: (
        f"{'Travel montage' if e['montage'] else 'Extended challenge'}: {clean(e['name'])}, "
        f"rating {e['rating']}, with {_names(e['participants'])}."),
    "situation_drawn": lambda e: f"Round {e['round']} brings a situation: {clean(e['text'])}",
    "extended_progressed": lambda e: (
        f"{_called(e['id'])}: {_result(e['result'])} moves the rating {e['change']:+d} to {e['rating']}."),
    "extended_ended": lambda e: (
        f"{_called(e['id'])} ends {e['outcome']} at rating {e['rating']}, in round {e['rounds']}."),
    # who may act is the hint's to say (it knows who is taken out; the event does not)
    "round_started": lambda e: f"Round {e['number']} of {_called(e['encounter'])} begins.",
    "turn_passed": lambda e: f"{clean(e['character'])} lets round {e['round']} go by.",
    "fight_started": lambda e: (
        f"A fight: {_names([_called(i) for i in e['enemies']])} against {_names(e['participants'])}."),
    "enemy_harmed": lambda e: (
        f"{_called(e['enemy'])} takes {e['n']} harm ({e['taken']}/{e['harm']})"
        + (": beaten." if e["defeated"] else ".")),
    "struck": lambda e: (
        f"{_called(e['source'])} strikes {clean(e['character'])}: "
        + (f"the most it can, {e['n']}." if e["maximum"]
           else f"{e['dice']} rolled {', '.join(map(str, e['faces']))}, {e['n']} harm.")),
    "enemy_acted": lambda e: (
        f"{clean(e['text'])} [It goes for {clean(e['target'])}"
        + (f", tied with {_names(e['tied'])} and first of them in the party's order" if e.get("tied") else "")
        + ".]"),
    "fight_ended": lambda e: f"The fight ends: {e['outcome']}, in round {e['rounds']}.",
    "harm_taken": lambda e: (
        f"{clean(e['character'])} takes {e['n']} harm to {ability_name(e['ability'])}, now {e['ability_after']}"
        + (f"; {e['past']} past it." if e["past"] else ".")),
    "wound_taken": lambda e: (
        f"{clean(e['character'])} takes {_s(e['n'], 'wound')}: {e['wounds']} in all, "
        f"{_s(e['free_slots'], 'slot')} free."),
    "character_out": lambda e: f"{clean(e['character'])} is taken out: no slot is left for the wound.",
    "wounds_healed": lambda e: (
        f"{clean(e['character'])} heals {_s(e['n'], 'wound')} ({clean(e['reason'])}); {e['wounds']} left."),
    "downtime_taken": _downtime,
    "table_rolled": lambda e: (
        f"{clean(e['character'])} rolls {e['face']} on the d{e['die']} {e['table']} table of "
        f"{_called(e['cult'])}: {_called(e['row'])}."),
    "gift_gained": lambda e: (
        f"{clean(e['character'])} gains the gift {_called(e['gift'])} ({_s(e['slots'], 'slot')}; "
        f"{e['free_slots']} free) by {e['source']}."),
    "item_gained": lambda e: f"{clean(e['character'])} now carries {_called(e['item'])}.",
    "ability_raised": lambda e: (
        f"{clean(e['character'])}'s {ability_name(e['ability'])} "
        + (f"rises to {e['score']}." if e["raised"] else f"is already at {e['score']}, the most it can be.")),
    "scene_begun": lambda e: (
        (f"{clean(e['way'])} " if e.get("way") else "")
        + f"Scene {e['number']}: {clean(e['title'])}" + (f", {clean(e['place'])}. " if e.get("place") else ". ")
        + clean(" ".join(str(e["text"]).split())) + (" (The last scene.)" if e["last"] else "")),
    "scenario_ended": lambda e: (
        (f"{clean(e['way'])} " if e.get("way") else "")
        + f"The end of {clean(e['title'])}. " + " ".join(clean(t) for t in e["lines"])),
    "story_chosen": lambda e: (
        f"{clean(e['title'])}. {clean(e.get('premise', ''))}"
        + (f" Ready to play: {_names(e['pregens'])} (`pregens` shows their sheets; pc take all, or pc take NAME)."
           if e.get("pregens") else "")),
}


def _named(ident: object) -> str:
    """An id as a name (``drowned-ringer`` reads ``drowned ringer``): the event holds no other."""
    return str(ident).replace("-", " ")


# The story so far as a model is told it (PlayHooks.recall): what was reached, settled and suffered.
RECALL: dict[str, Callable[[dict[str, Any]], str]] = {
    "scene_begun": lambda e: f"Scene: {e['title']}" + (f", at {e['place']}." if e.get("place") else "."),
    "check_rolled": lambda e: (
        f"{e['lead']}'s {ability_name(e['ability'])} check: {str(e['result']).replace('_', ' ')}."),
    "extended_ended": lambda e: f"{_named(e['id']).capitalize()}: {e['outcome']}.",
    "fight_started": lambda e: f"A fight began: {e['name']}.",
    "fight_ended": lambda e: f"The fight was {e['outcome']}.",
    "enemy_harmed": lambda e: f"The {_named(e['enemy'])} was " + ("beaten." if e["defeated"] else "hit."),
    "harm_taken": lambda e: f"{e['character']} was hurt.",
    "wound_taken": lambda e: f"{e['character']} was wounded.",
    "character_out": lambda e: f"{e['character']} was taken out.",
}
