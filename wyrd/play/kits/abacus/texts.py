"""How the Wyrd Abacus's events and characters read: one line of facts per event kind, and the sheets.

:data:`TEXTS` maps every event kind of :mod:`wyrd.rules.abacus.events` to a function from the
event to its line, and :data:`STYLES` to the name of the line's style (``good`` for a challenge
overcome, ``bad`` for damage ...), which a front-end colours as it likes. Only facts; the
narration is elsewhere. :func:`wyrd.play.frontends.view.describe` cleans the text and falls
back to listing the fields if an event does not read.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from wyrd.play.frontends.view import clean
from wyrd.rules.abacus import Ability, GameState

__all__ = ["RECALL", "STYLES", "TEXTS", "sheet"]

Text = Callable[[dict[str, Any]], str]


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _title(value: object) -> str:
    return clean(value).title() if value else "-"


_REFUSED: dict[str, str] = {
    "abacus.recovery.faced-a-challenge": "faced no challenge this scene",
    "abacus.recovery.scratched": "has it scratched out",
    "abacus.recovery.nothing-spent": "has spent none of it",
    "abacus.recovery.connection": "has no connection to draw on",
}


def _refused(e: dict[str, Any]) -> str:
    why = _REFUSED.get(str(e["rule"]), f"is refused ({clean(e['rule'])})")
    return (f"{clean(e['character'])} cannot recover {_title(e['ability'])}: {why}"
            " (the rest of the scene's end stands).")


def _label(event: dict[str, Any], field: str) -> str:
    """A clock's or counter's name (saves from before names were kept: its id, made readable)."""
    name = event.get("name") or str(event[field]).replace("-", " ").capitalize()
    return clean(name)


def _and(items: Any) -> str:
    words = [str(i) for i in items]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _contest(e: dict[str, Any]) -> str:
    """How a contest was decided: the highest die, then how many dice show it, then re-rolls (seed 000).

    The winner is told once, by the narration that follows; this line gives the dice's verdict.
    """
    ranking, results, ties = list(e["ranking"]), e.get("results") or {}, e.get("ties") or {}
    head = f"{_title(e['trait'])} contest"
    if len(ranking) < 2 or not results:
        tail = f", a tie settled by {_n(e['rerolls'], 're-roll')}" if e.get("rerolls") else ""
        return f"{head}: {clean(e['winner'])} first{tail}."
    first, second = ranking[0], ranking[1]
    a, b = clean(first), clean(second)
    if results.get(first) != results.get(second):
        return f"{head}: {a}'s {results.get(first)} against {b}'s {results.get(second)}."
    if ties.get(first) != ties.get(second):
        return (f"{head}: both best at {results.get(first)}; the tie goes by how many dice show it, "
                f"{a} {ties.get(first)} against {b} {ties.get(second)}.")
    return (f"{head}: a dead heat at {results.get(first)}, {ties.get(first)} of it each; "
            f"{_n(e.get('rerolls') or 1, 're-roll')} of a die each settled it for {a}.")


TEXTS: dict[str, Text] = {
    "character_created": lambda e: (
        f"{clean(e['name'])} joins: Body {e['body']}, Mind {e['mind']}, Soul {e['soul']}"
        + (f", {e['wyrd']} Wyrd" if e["wyrd"] else "") + "."),
    "scene_started": lambda e: (
        f"Scene {e['number']} begins with {', '.join(map(clean, e['present']))}; "
        f"the Wyrd pool holds {e['pool']}."),
    "challenge_placed": lambda e: f"Challenge: {clean(e['name'])} [{e['id']}], {e['type']} {e['value']}.",
    "challenge_modified": lambda e: (
        f"{clean(e.get('name') or e['challenge'])} is now {e['value']} ({e['change']:+d}, {clean(e['reason'])})."),
    "roll_opened": lambda e: (
        f"{clean(e['lead'])} leads against {clean(e.get('name') or e['challenge'])} (value {e['value']})."),
    "points_spent": lambda e: (
        f"{clean(e['character'])} spends {e['n']} {_title(e['ability'])}"
        + (" on the roll" if e["challenge"] else "")
        + (f" (it cost {e['wyrd_cost']} Wyrd)" if e.get("wyrd_cost") else "")
        + (f"; {e['points_after']} left." if e.get("points_after") is not None else ".")),
    "wyrd_drawn": lambda e: (
        f"{clean(e['character'])} draws {e['n']} Wyrd {clean(e['reason'])}; pool {e['pool_after']}"
        + (f", personal {e['personal_after']}." if e["personal_after"] is not None
           else " (a defeated player's gift).")),
    "challenge_rolled": lambda e: (
        f"Rolled {e['die']} + {e['points']} points" + (f" + {e['bonus']}" if e.get("bonus") else "")
        + f" = {e['total']} against {e['value']}: " + ("overcome!" if e["overcome"] else "short.")),
    "challenge_resolved": lambda e: (
        f"{clean(e.get('name') or e['challenge'])}: {e['status']}"
        + (f" with {e['boost']} Wyrd" if e.get("boost") else "") + "."),
    "damage": lambda e: f"{clean(e['character'])} loses {e['n']} {_title(e['ability'])}; {e['points_after']} left.",
    "ability_scratched": lambda e: f"{clean(e['character'])}'s {_title(e['ability'])} is scratched out.",
    "character_defeated": lambda e: (
        f"{clean(e['character'])} is defeated" + (" and will stand against the others." if e["impediment"] else ".")),
    "influence_rolled": lambda e: (
        f"{clean(e['character'])} rolls {_title(e['trait'])}: {e['dice'] or '(no dice)'} -> {e['result']}"
        + (f" ({clean(e['reason'])})" if e.get("reason") else "") + "."),
    "contest_decided": lambda e: _contest(e),
    "points_recovered": lambda e: (
        f"{clean(e['character'])} recovers {e['n']} {_title(e['ability'])} ({clean(e['reason'])}); "
        f"{e['points_after']} now."),
    "recovery_refused": _refused,
    "scene_ended": lambda e: (
        f"The scene ends; {_n(e['pool_lost'], 'Wyrd point')} left in the pool fade."),
    "clock_advanced": lambda e: (
        f"{_label(e, 'clock')} {'moves on' if e['change'] > 0 else 'goes back'} {abs(e['change'])}, to {e['value']}"
        + (f": it has reached {_and(map(str, e['thresholds']))}." if e.get("thresholds") else ".")),
    "counter_changed": lambda e: (
        f"{_label(e, 'counter')} {'rises' if e['change'] > 0 else 'drops'} by {abs(e['change'])}, to {e['value']}."),
    "counter_fired": lambda e: (
        f"{clean(e['character'])}'s Wyrd of {e['result']} is at or under {_label(e, 'counter')} ({e['value']})."),
    "scene_framed": lambda e: (
        f"{clean(e['title'])}" + (f", at {clean(e['place'])}" if e.get("place") else "") + "."
        + (f" {clean(e['text'])}" if e.get("text") else "")),
    "ending": lambda e: clean(e["text"]),
    "stage_rule_added": lambda e: f"Stage rule in play: {clean(e['name'])} (`rules` says what it does).",
    "stage_rule_fired": lambda e: (
        f"{clean(e['name'])} takes effect" + (f" on {clean(e['subject'])}" if e.get("subject") else "")
        + (f": {clean(e['text'])}" if e.get("text") else ".")),
    "magic_cast": lambda e: (
        f"{', '.join(map(clean, e['casters']))} work a {e['form']}, inspired by {clean(e['inspiration'])}"
        + ("" if e["wyrd_bound"] else " (unbound by the Wyrd)") + "."),
    "servant_loose": lambda e: f"The servant {clean(e['servant'])} breaks loose!",
    "story_ended": lambda e: (
        "The story ends. " + "; ".join(f"{clean(k)}: {v}" for k, v in e["results"].items()) + "."),
}


def _always(style: str) -> Callable[[dict[str, Any]], str]:
    return lambda event: style


def _good_or_bad(event: dict[str, Any]) -> str:
    return "good" if event["overcome"] else "bad"


STYLES: dict[str, Callable[[dict[str, Any]], str]] = {
    **{kind: _always("scene") for kind in ("scene_started", "scene_ended", "story_ended", "scene_framed")},
    "ending": _always("narration"),
    **{kind: _always("challenge") for kind in ("challenge_placed", "challenge_modified", "roll_opened")},
    **{kind: _always("bad") for kind in ("damage", "ability_scratched", "character_defeated", "counter_changed",
                                        "counter_fired", "servant_loose")},
    **{kind: _always("wyrd") for kind in ("wyrd_drawn", "clock_advanced", "stage_rule_fired", "magic_cast")},
    **{kind: _always("info") for kind in ("character_created", "contest_decided", "stage_rule_added",
                                          "recovery_refused")},
    "points_spent": _always("spend"),
    "points_recovered": _always("good"),
    "challenge_rolled": _good_or_bad,
    "challenge_resolved": _good_or_bad,
    "influence_rolled": lambda e: "wyrd" if e["trait"] == "wyrd" else "info",
}


def sheet(state: GameState, name: str) -> list[str]:
    """One character's sheet: points over scores per ability (scratched marked), facets, Wyrd."""
    char = state.characters[name]
    lines = [f"{clean(char.name)}" + (f", {clean(char.concept)}" if char.concept else "")
             + (" (defeated)" if char.defeated else "")]
    for ability in Ability:
        mark = " scratched" if char.is_scratched(ability) else ""
        facets = "; ".join(map(clean, char.facets.get(ability, [])))
        lines.append(f"  {ability.value.title():5} {char.points[ability]}/{char.scores[ability]}{mark}"
                     + (f"  ({facets})" if facets else ""))
    lines.append(f"  Wyrd  {char.wyrd}" + (f"   connection: {clean(char.connection)}" if char.connection else ""))
    return lines


def _fate(e: dict[str, Any]) -> str:
    fates = {"held": "is held by the Vale", "freed": "goes free", "defeated": "was ended by the story"}
    return "The story ended: " + "; ".join(f"{k} {fates.get(str(v), v)}" for k, v in e["results"].items()) + "."


# The story so far as a model is told it (PlayHooks.recall): what was reached, settled and suffered.
RECALL: dict[str, Text] = {
    "scene_framed": lambda e: f"Scene: {e['title']}" + (f", at {e['place']}." if e.get("place") else "."),
    "challenge_resolved": lambda e: (
        f"{e.get('name') or e['challenge']}: " + ("overcome." if e["overcome"] else f"{e['status']}.")),
    "damage": lambda e: f"{e['character']} was hurt.",
    "ability_scratched": lambda e: f"{e['character']} lost the use of their {e['ability']} for good.",
    "character_defeated": lambda e: f"{e['character']} was defeated.",
    "servant_loose": lambda e: "A servant broke loose.",
    "magic_cast": lambda e: f"{_and(e['casters'])} worked a {e['form']}.",
    "contest_decided": lambda e: f"{e['winner']} won a contest of {e['trait']}.",
    "story_ended": _fate,
}
