"""Turning events and states into text for people.

The rules core writes structured events; this module alone decides how they read
on a screen: one short line per event, with a style name the REPL colours, plus
character sheets, the odds of an open roll, and the steps the rules say are due.
Any text that came from outside (names, inspirations, narration) passes through
:func:`clean` first, so no escape sequence ever reaches the terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict

from wyrd.play.engine.journal import Wording
from wyrd.rules.abacus import Ability, GameState, RollStage, Step, due, effective_value
from wyrd.rules.abacus.steps import StepKind

__all__ = ["Line", "clean", "describe", "json_line", "odds_lines", "sheet", "steps_lines", "wording"]

_CONTROL = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b.|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
    # bidi overrides can make a line read differently from what it says
    r"|[\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)
# JSON escapes C0 controls itself; these others would reach the terminal raw.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def clean(text: object) -> str:
    """Text safe to print on one line: escape sequences and control characters removed,
    tabs and line breaks turned into spaces."""
    return _CONTROL.sub("", str(text)).replace("\t", " ").replace("\n", " ")


def json_line(event: dict[str, Any]) -> str:
    """One event as a JSON line that is safe to print to a terminal."""
    text = json.dumps(event, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class Line(BaseModel):
    """One line to show, with the name of its style (see play/style.py)."""

    model_config = ConfigDict(frozen=True)

    text: str
    style: str = "plain"


def _n(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _chances(chances: object) -> str:
    """The exact odds an answer was asked at, as percentages (shown before what was rolled)."""
    if not isinstance(chances, dict):
        return ""
    from fractions import Fraction

    words = {"yes_and": "yes-and", "yes": "yes", "no": "no", "no_but": "no-but", "twist": "twist"}
    parts = [f"{words.get(k, k)} {float(Fraction(str(v))):.0%}" for k, v in chances.items()]
    return " [" + ", ".join(parts) + "]"


def _title(value: object) -> str:
    return clean(value).title() if value else "-"


Renderer = Callable[[dict[str, Any]], Line]

_RENDER: dict[str, Renderer] = {
    "session_started": lambda e: Line(text=f"A new session (seed {e['seed']}).", style="scene"),
    "character_created": lambda e: Line(
        text=f"{clean(e['name'])} joins: Body {e['body']}, Mind {e['mind']}, Soul {e['soul']}"
        + (f", {e['wyrd']} Wyrd" if e["wyrd"] else "") + ".", style="info"),
    "scene_started": lambda e: Line(
        text=f"Scene {e['number']} ({clean(e['scene'])}) begins with {', '.join(map(clean, e['present']))}; "
        f"the Wyrd pool holds {e['pool']}.", style="scene"),
    "challenge_placed": lambda e: Line(
        text=f"Challenge: {clean(e['name'])} [{e['id']}], {e['type']} {e['value']}.", style="challenge"),
    "challenge_modified": lambda e: Line(
        text=f"{clean(e['challenge'])} is now {e['value']} ({e['change']:+d}, {clean(e['reason'])}).",
        style="challenge"),
    "roll_opened": lambda e: Line(
        text=f"{clean(e['lead'])} leads against {clean(e.get('name') or e['challenge'])} (value {e['value']}).",
        style="challenge"),
    "points_spent": lambda e: Line(
        text=f"{clean(e['character'])} spends {e['n']} {_title(e['ability'])}"
        + (f" on {clean(e['challenge'])}" if e["challenge"] else "")
        + (f" (it cost {e['wyrd_cost']} Wyrd)" if e.get("wyrd_cost") else "")
        + (f"; {e['points_after']} left." if e.get("points_after") is not None else "."), style="spend"),
    "wyrd_drawn": lambda e: Line(
        text=f"{clean(e['character'])} draws {e['n']} Wyrd {clean(e['reason'])}; pool {e['pool_after']}"
        + (f", personal {e['personal_after']}." if e["personal_after"] is not None else " (a defeated player's gift)."),
        style="wyrd"),
    "challenge_rolled": lambda e: Line(
        text=f"Rolled {e['die']} + {e['points']} points" + (f" + {e['bonus']}" if e.get("bonus") else "")
        + f" = {e['total']} against {e['value']}: " + ("overcome!" if e["overcome"] else "short."),
        style="good" if e["overcome"] else "bad"),
    "challenge_resolved": lambda e: Line(
        text=f"{clean(e.get('name') or e['challenge'])}: {e['status']}"
        + (f" with {e['boost']} Wyrd" if e.get("boost") else "") + ".",
        style="good" if e["overcome"] else "bad"),
    "damage": lambda e: Line(
        text=f"{clean(e['character'])} loses {e['n']} {_title(e['ability'])}; {e['points_after']} left.", style="bad"),
    "ability_scratched": lambda e: Line(
        text=f"{clean(e['character'])}'s {_title(e['ability'])} is scratched out.", style="bad"),
    "character_defeated": lambda e: Line(
        text=f"{clean(e['character'])} is defeated"
        + (" and will stand against the others." if e["impediment"] else "."),
        style="bad"),
    "influence_rolled": lambda e: Line(
        text=f"{clean(e['character'])} rolls {_title(e['trait'])}: {e['dice'] or '(no dice)'} -> {e['result']}"
        + (f" ({clean(e['reason'])})" if e.get("reason") else "") + ".",
        style="wyrd" if e["trait"] == "wyrd" else "info"),
    "contest_decided": lambda e: Line(text=f"{clean(e['winner'])} comes out on top.", style="info"),
    "points_recovered": lambda e: Line(
        text=f"{clean(e['character'])} recovers {e['n']} {_title(e['ability'])} ({clean(e['reason'])}); "
        f"{e['points_after']} now.", style="good"),
    "scene_ended": lambda e: Line(
        text=f"Scene {clean(e['scene'])} ends; {_n(e['pool_lost'], 'Wyrd point')} left in the pool fade.",
        style="scene"),
    "clock_advanced": lambda e: Line(
        text=f"Clock {clean(e['clock'])} stands at {e['value']}"
        + (f": it reaches {', '.join(map(str, e['thresholds']))}!" if e.get("thresholds") else "."), style="wyrd"),
    "counter_changed": lambda e: Line(text=f"{clean(e['counter'])} rises to {e['value']}.", style="bad"),
    "counter_fired": lambda e: Line(
        text=f"{clean(e['character'])}'s Wyrd of {e['result']} is at or under {clean(e['counter'])} ({e['value']}).",
        style="bad"),
    "stage_rule_added": lambda e: Line(text=f"Stage rule in play: {clean(e['name'])} [{e['rule']}].", style="info"),
    "stage_rule_fired": lambda e: Line(
        text=f"{clean(e['name'])} takes effect" + (f" on {clean(e['subject'])}" if e.get("subject") else "")
        + (f": {clean(e['text'])}" if e.get("text") else "."), style="wyrd"),
    "magic_cast": lambda e: Line(
        text=f"{', '.join(map(clean, e['casters']))} work a {e['form']}, inspired by {clean(e['inspiration'])}"
        + ("" if e["wyrd_bound"] else " (unbound by the Wyrd)") + ".", style="wyrd"),
    "servant_loose": lambda e: Line(text=f"The servant {clean(e['servant'])} breaks loose!", style="bad"),
    "story_ended": lambda e: Line(
        text="The story ends. " + "; ".join(f"{clean(k)}: {v}" for k, v in e["results"].items()) + ".", style="scene"),
    "twist": lambda e: Line(
        text=f"Twist ({clean(e.get('category', ''))}) for {clean(e['character'])}: {clean(e.get('text', ''))}",
        style="wyrd"),
    "narration": lambda e: Line(text=clean(e["text"]), style="narration"),
    "answer": lambda e: Line(
        text=f"Asked at {e['odds']} ({e['chance']}){_chances(e.get('chances'))}: rolled {e['roll']}: "
        + {"yes_and": "yes, and...", "yes": "yes.", "no": "no.", "no_but": "no, but..."}.get(str(e["answer"]),
                                                                                           str(e["answer"]))
        + (" A twist comes with it." if e.get("twist") else ""), style="wyrd"),
    "narration_failed": lambda e: Line(text=f"(The narrator falls silent: {clean(e['reason'])})", style="hint"),
    "inspiration": lambda e: Line(text=f"Inspiration: {clean(e['action'])} / {clean(e['theme'])}.", style="wyrd"),
    "scene_test": lambda e: Line(
        text={"expected": "The scene goes as expected.",
              "altered": "The scene is altered: something ordinary intrudes.",
              "interrupted": f"The scene is interrupted: {', '.join(map(clean, e.get('interrupted_by', [])))} "
              "brings a twist."}.get(str(e["outcome"]), str(e["outcome"])), style="wyrd"),
    "story_chosen": lambda e: Line(
        text=f"{clean(e['title'])}. {clean(e.get('premise', ''))}".strip()
        + (f" Ready to play: {', '.join(map(clean, e['pregens']))} (pc take all, or pc take NAME)."
           if e.get("pregens") else ""), style="scene"),
    "stage_rules_evident": lambda e: Line(
        text=f"In force here: {', '.join(map(clean, e['names']))}.", style="info"),
    "postscript": lambda e: Line(text=f"{clean(e['character'])} ({e['result']}): {clean(e['text'])}",
                                 style="narration"),
    "undone": lambda e: Line(text=f"Undone: {clean(e['command'])}", style="info"),
    "refused": lambda e: Line(text=f"Refused: {clean(e['reason'])}", style="refused"),
}


def describe(event: dict[str, Any], ruleset: str = "abacus") -> Line:
    """The line that tells ``event``: the ruleset's own words for its kinds, then the shared
    ones; an unknown kind (or one that does not read) still shows its fields."""
    kind = str(event.get("kind"))
    try:
        if ruleset != "abacus":
            from wyrd.play.engine.kits import hooks_for

            own = hooks_for(ruleset).texts.get(kind)
            if own is not None:
                return Line(text=clean(own(event)), style=_STYLE_OF.get(kind, "info"))
        render = _RENDER.get(kind)
        if render is not None:
            return render(event)
    except (KeyError, TypeError, ValueError, LookupError):
        pass  # a field missing or of another shape: fall back to the plain listing
    fields = ", ".join(f"{k}={clean(v)}" for k, v in event.items() if k not in ("seq", "kind"))
    return Line(text=f"{clean(kind)}: {fields}")


def wording(ruleset: str) -> Wording:
    """How the journal and the transcript word a save of ``ruleset``: as this view does."""
    return Wording(describe=lambda event: describe(event, ruleset).text, clean=clean)


# Styles for other rulesets' kinds, by the shape of what they tell.
_STYLE_OF = {"refused": "refused", "narration": "narration"}


def sheet(state: GameState, name: str) -> list[str]:
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


def odds_lines(state: GameState) -> list[str]:
    """The exact chances of the open roll, as points stand now and with one more."""
    pending = state.pending
    if pending is None or state.scene is None:
        return []
    from wyrd.rules.odds import challenge_odds  # not before a roll is open: the first prompt has none

    challenge = state.scene.challenges[pending.challenge]
    value = effective_value(state, challenge)
    pool = state.scene.pool + sum(state.scene.ghost.values())
    if pending.stage == RollStage.ROLLED:
        short = value - ((pending.die or 0) + pending.points + pending.bonus + pending.boost)
        return [f"Short by {short}: draw that much Wyrd (pool {state.scene.pool}) or accept the failure."]
    now = challenge_odds(value, pending.points, pool)
    more = challenge_odds(value, pending.points + 1, pool)
    return [
        f"Odds against {clean(challenge.name)} ({value}) with {pending.points} points: "
        f"{now.p_overcome} ({float(now.p_overcome):.0%}), {now.p_with_pool} ({float(now.p_with_pool):.0%}) "
        f"with the pool of {pool} behind you; one more point: {more.p_overcome} ({float(more.p_overcome):.0%})."
    ]


def steps_lines(state: GameState, *, wyrd_roll: bool = True) -> list[str]:
    """What the rules say is owed now; ``wyrd_roll=False`` leaves out the scene's Wyrd roll."""
    return [_STEP_TEXT[s.kind](s) for s in due(state) if wyrd_roll or s.kind != StepKind.WYRD_ROLL]


_STEP_TEXT: dict[StepKind, Callable[[Step], str]] = {
    StepKind.ASSIGN_OR_ROLL: lambda s: f"Assign points (spend WHO N) or roll against {s.challenge}.",
    StepKind.DRAW_OR_ACCEPT: lambda s: f"The roll fell short: draw WHO N, or accept ({', '.join(s.who)} may draw).",
    StepKind.WYRD_ROLL: lambda s: "No Wyrd roll yet this scene: `wyrd` rolls for everyone present.",
    StepKind.GHOST_WYRD: lambda s: f"{', '.join(s.who)}'s player may still give Wyrd (spend ... via NAME, draw NAME).",
    StepKind.FINALE: lambda s: "Everyone has fallen: `finale` ends the story.",
}
