"""How Thaeborn reads: one line per event, the odds a check was cast at, and the narration.

Each Thaeborn event kind (the rules core's, and the scenario's ``scene_opened``,
``scene_call`` and ``story_closed``) has one function here from the event to a
line of text; :data:`TEXTS` is what :class:`~wyrd.play.engine.kits.PlayHooks` hands the
renderer, which cleans every line of control characters. A check's line shows
its odds (from :func:`wyrd.rules.lots.check_odds`, the function the rules settle
checks with) before the faces that fell. Re-tells and Blot-outs say which casts
they replace or erase: a Re-tell is not an undo, and both casts stay in the log.
The narration is :mod:`wyrd.play.kits.lots.narration`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from wyrd.rules.lots import Discipline, check_odds, mettle_odds
from wyrd.rules.lots.enums import IncapacityReason

__all__ = ["RECALL", "TEXTS", "disciplines", "fraction", "n_of", "shown_chance"]

Event = dict[str, Any]


def n_of(n: int, word: str) -> str:
    """``1 Portent``, ``2 Portents``."""
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def fraction(p: Fraction) -> str:
    """A chance as it reads: ``88% (7/8)``, the percentage first, or ``none`` and ``certain``."""
    if p == 0:
        return "none"
    return "certain" if p == 1 else f"{float(p):.0%} ({p})"


def disciplines(values: Mapping[Any, int]) -> str:
    """``Willpower 4, Prowess 5, ...`` in the rules' order (a missing one is 0)."""
    return ", ".join(f"{d.value.title()} {values.get(d, values.get(d.value, 0))}" for d in Discipline)


def _title(value: object) -> str:
    return str(value).replace("_", " ").title() if value else ""


def _quoted(text: object) -> str:
    return f' "{text}"' if text else ""


_LOT = {"crit": ", a CRIT", "fumble": ", a FUMBLE", "waste": ", a WASTE", "weal": ", a WEAL", "woe": ", a WOE",
        "none": ""}
_RESULT = {"success": "success", "failure": "failure", "waste": "neither success nor failure"}
_CHANGE = {
    "none": "",
    "crit_succeeds": " (the CRIT lifts it)",
    "crit_barred": " (the Rule of Fours holds: not even a CRIT carries it)",
    "fours_barred": " (the Rule of Fours: the Tier is 4 or more above the Proficiency, so it cannot succeed)",
    "fumble_fails": " (the FUMBLE sinks it)",
    "fumble_barred": " (the Rule of Fours holds: too able to fail outright)",
    "wasted": " (time and effort lost)",
}
_FORTUNE = {"none": "", "weal": "; a WEAL comes with it", "great_weal": "; a heightened WEAL comes with it",
            "woe": "; a WOE comes with it", "great_woe": "; a heightened WOE comes with it"}


def _cast_head(e: Event) -> str:
    told = f", re-telling {e['retell_of']}" if e.get("retell_of") else ""
    return f"[{e['cast']}{told}] "


def shown_chance(e: Event) -> tuple[str, Fraction]:
    """The chance a check's line shows before its faces, read from the numbers it was cast at.

    A Mettle test shows the chance of holding steady (neither reeling nor
    overcome); every other cast its chance of success.
    """
    a, d = int(e["attribute"]), int(e["difficulty"])
    if str(e["form"]) == "mettle":
        return "holds steady", mettle_odds(a, d).p_steady
    odds = check_odds(a, d, proficiency=int(e["proficiency"]), tier=int(e["tier"]), attack=e["form"] == "attack")
    return "success", odds.p_success


def _check(e: Event) -> str:
    form, who = str(e["form"]), e.get("character") or "the world"
    label, chance = shown_chance(e)
    a, d = e["attribute"], e["difficulty"]
    what = {
        "check": f"{who} checks {_title(e.get('discipline')) or _title(e.get('stat')) or 'a value'} {a} vs {d}",
        "attack": f"{who} attacks, Offense {a} vs Defense {e['tier']}" + (" + 1 (defended)" if d != e["tier"] else ""),
        "defence": f"{who} defends, Defense {a} vs Offense {d}" + (" (a tie: the defence holds)" if a == d else ""),
        "mettle": f"{who} Tests their Mettle, {a} vs Pain {d}",
    }[form]
    extra = (" (a second try)" if e.get("retry") else "") + (f", effort {e['effort']}" if e.get("effort") else "")
    lost = f"; {e['effort_lost']} effort lost" if e.get("effort_lost") else ""
    again = f"; {who} may try again" if e.get("may_retry") else ""
    return (f"{_cast_head(e)}{what}{_quoted(e.get('purpose'))}{extra} [{label} {fraction(chance)}]: "
            f"WEAL {e['weal']}, WOE {e['woe']}{_LOT[str(e['lot'])]}: {_RESULT[str(e['outcome'])]}"
            f"{_CHANGE[str(e['change'])]}{_FORTUNE[str(e['fortune'])]}{lost}{again}.")


def _bare(e: Event) -> str:
    lot = _LOT[str(e["lot"])].lstrip(", ") or "no lot"
    return (f"{_cast_head(e)}Lots cast for {e.get('character') or 'the world'}{_quoted(e.get('purpose'))}: "
            f"WEAL {e['weal']}, WOE {e['woe']}: {lot}{_FORTUNE[str(e['fortune'])]}.")


_WHOSE = {"own": "their own cast", "player": "another player's cast", "npc": "an NPC's or the world's cast"}


def _portent(e: Event) -> str:
    cast, erased = e["cast"], [c for c in e.get("erased", []) if c != e["cast"]]
    head = (f"{e['character']} spends {n_of(int(e['cost']), 'Portent')} ({_WHOSE[str(e['whose'])]}; "
            f"{e['portents_after']} left) to ")
    also = f"; {', '.join(erased)} go with it" if erased else ""
    if e["use"] == "retell":
        return f"{head}re-tell {cast}: {cast} is told again and only the new telling counts{also}."
    lost = f"; {e['effort_lost']} effort lost" if e.get("effort_lost") else ""
    return f"{head}blot out {cast}: {cast} never happened{also}{lost}."


def _assessed(e: Event) -> str:
    subject = f" {e['subject']}" if e.get("subject") else " it"
    found = {"none": f"Tier {e['tier']}, exactly",
             "small": "just beyond them, but within reach (a small gap)",
             "large": "past anything they know (a large gap)"}[str(e["gap_size"])]
    minutes = f"; {n_of(int(e['minutes']), 'minute')}" if e.get("minutes") is not None else ""
    if e.get("via") == "check":
        return f"{e['character']} learns the measure of {_quoted(e.get('subject')).strip() or 'the task'}: {found}."
    how = f"{_title(e.get('discipline'))} {e['proficiency']}, {e['commitment']}, effective {e['effective']}"
    return f"{e['character']} assesses{subject} ({how}): {found}{minutes}."


def _blow(e: Event) -> str:
    went = "lands" if e["landed"] else "does not land"
    return f"[{e['cast']}] {e['attacker']}'s blow on {e['target']} {went} (Accuracy {int(e['accuracy']):+d})."


def _pain(e: Event) -> str:
    how = [f"damage {e['damage']} - armour {e['armour']}"] if e.get("damage") is not None else []
    how += [str(e["source"])] if e.get("source") else []
    said = f" ({'; '.join(how)})" if how else ""
    return f"{e['character']} takes {e['n']} Pain{said}: {e['pain_after']} in all."


def _mettle(e: Event) -> str:
    if e["incapacitated"]:
        went = "is overcome"
    elif e["loses_action"]:
        went = "reels, and will lose their next action"
    else:
        went = "holds steady"
    head = f"[{e['cast']}] " if e.get("cast") else ""
    lots = "" if e.get("cast") else ", no lots cast: only players roll"
    return f"{head}{e['character']} {went} (Mettle {e['mettle']} against Pain {e['pain']}{lots})."


def _fight(e: Event) -> str:
    return f"A fight begins at Count 0: {', '.join(e['combatants'])}."


def _counts(e: Event) -> str:
    up = ", ".join(e.get("up") or []) or "no one"
    return (f"{e['character']}'s Action takes {n_of(int(e['counts']), 'Count')} (Count {e['count']} to "
            f"{e['resolves']}); the fight moves to Count {e['now']}: {up} up.")


def _created(e: Event) -> str:
    who = f"{e['name']} (NPC)" if e.get("npc") else e["name"]
    concept = f", {e['concept']}" if e.get("concept") else ""
    portents = "" if e.get("npc") else f", {n_of(int(e['portents']), 'Portent')}"
    stats = "".join(f", {_title(k)} {v}" for k, v in (e.get("stats") or {}).items())
    return (f"{who} enters{concept}: {disciplines(e['disciplines'])}; Mettle {e['mettle']}{stats}, "
            f"armour {e['armour']}{portents}.")


def _closed(e: Event) -> str:
    standing = f" Standing at the end: {', '.join(e['standing'])}." if e.get("standing") else ""
    fallen = f" Fallen: {', '.join(e['fallen'])}." if e.get("fallen") else ""
    return f"{e['title']} ends. {e['text']}{standing}{fallen}"


TEXTS: dict[str, Callable[[Event], str]] = {
    "character_created": _created,
    "fight_begun": _fight,
    "counts_taken": _counts,
    "fight_ended": lambda e: "The fight is over: Counts are no longer kept.",
    "check_cast": _check,
    "lots_cast": _bare,
    "portent_spent": _portent,
    "assessed": _assessed,
    "attack_resolved": _blow,
    "pain_taken": _pain,
    "mettle_tested": _mettle,
    "incapacitated": lambda e: f"{e['character']} is incapacitated ("
    + ("the Pain is twice their Mettle or more" if IncapacityReason(e["reason"]) is IncapacityReason.PAIN
       else "a FUMBLE on the Mettle test")
    + "): out of it until rest eases the Pain.",
    "action_lost": lambda e: f"{e['character']} spends this {e['action']} reeling: the lost action is used up.",
    "rested": lambda e: f"{e['character']} rests: "
    + (f"{e['n']} Pain eased, {e['pain_after']} left" if int(e["n"]) else f"no Pain to ease, {e['pain_after']} left")
    + ("; back on their feet." if e["recovered"] else "."),
    "story_points_awarded": lambda e: f"{e['character']} "
    + (f"earns {n_of(int(e['n']), 'Story Point')}" if int(e["n"]) >= 0
       else f"loses {n_of(-int(e['n']), 'Story Point')}")
    + (f" ({e['reason']})" if e.get("reason") else "") + f": {e['story_points_after']} now.",
    "story_points_converted": lambda e: f"{e['character']} turns {n_of(int(e['n']), 'Story Point')} into "
    + ("Portents" if e["into"] == "portents" else "Development Points")
    + f": {e['portents_after']} Portents, {e['development_after']} DP, {e['story_points_after']} SP left.",
    "development": lambda e: f"{e['character']} raises {_title(e['discipline'])} to {e['value']} for "
    f"{n_of(int(e['cost']), 'Development Point')} ({e['development_after']} left).",
    "scene_opened": lambda e: f"Scene {e['number']}: {e['title']}. {e['text']}",
    "scene_call": lambda e: f"Called for: {e['command']}",
    "scene_framed": lambda e: str(e["text"]),
    "story_closed": _closed,
}


def _check_recalled(e: dict[str, Any]) -> str:
    if e.get("form") != "check":
        return ""
    return f"{e['character']} tried to {e['purpose']}: {_RESULT.get(str(e['outcome']), e['outcome'])}."


# The story so far as a model is told it (PlayHooks.recall): what was reached, settled and suffered.
RECALL: dict[str, Callable[[dict[str, Any]], str]] = {
    "scene_opened": lambda e: f"Scene: {e['title']}.",
    "check_cast": _check_recalled,
    "attack_resolved": lambda e: f"{e['attacker']}'s blow on {e['target']} " + (
        "landed." if e["landed"] else "missed."),
    "pain_taken": lambda e: f"{e['character']} was hurt.",
    "incapacitated": lambda e: f"{e['character']} was overcome.",
}
