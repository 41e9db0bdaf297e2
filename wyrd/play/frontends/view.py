"""Turning events into text for people, for every front-end and every ruleset.

The rules core writes structured events; this module decides how they read on a
screen, in a script's output or over a network: one short :class:`Line` per event,
with a style name a front-end may colour (the terminal does), or one JSON line per
event. Each ruleset's own kinds read as its kit says (``PlayHooks.texts`` and
``styles``); the kinds every ruleset shares (the session's, the oracle's, the
stories') read here. Any text that came from outside (names, inspirations, narration) passes through
:func:`clean` first, so no escape sequence ever reaches the terminal.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict

from wyrd.play.engine.events import Recorded, plain
from wyrd.play.engine.journal import Wording
from wyrd.play.engine.kits import PlayHooks, hooks_for
from wyrd.play.frontends.cleaning import clean
from wyrd.rules.actions import Event

__all__ = ["Line", "clean", "describe", "json_line", "short_names", "wording"]

# JSON escapes C0 controls itself; these others would reach the terminal raw.
_JSON_UNSAFE = re.compile(r"[\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def short_names(names: Iterable[str], longest: int = 12) -> dict[str, str]:
    """A short name for each of ``names``, cleaned, where room is scarce (the toolbar): the first
    word; with an initial when two share it, and the whole name when that is not enough either."""
    names = list(names)
    words = {n: clean(n).split() or [clean(n)] for n in names}

    def first(n: str) -> str:
        return words[n][0][:longest]

    def initial(n: str) -> str:
        return first(n) + (f" {words[n][-1][0]}." if len(words[n]) > 1 else "")

    out: dict[str, str] = {}
    for n in names:
        for short in (first, initial):
            if sum(short(m) == short(n) for m in names) == 1:
                out[n] = short(n)
                break
        else:
            out[n] = clean(n)
    return out


def json_line(event: dict[str, Any]) -> str:
    """One event as a JSON line that is safe to print to a terminal."""
    text = json.dumps(event, ensure_ascii=False)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class Line(BaseModel):
    """One line to show, with the name of its style (the terminal colours it: frontends/terminal/style.py)."""

    model_config = ConfigDict(frozen=True)

    text: str
    style: str = "plain"


def _chances(chances: object) -> str:
    """The exact odds an answer was asked at, as percentages (shown before what was rolled)."""
    if not isinstance(chances, dict):
        return ""
    from fractions import Fraction

    words = {"yes_and": "yes-and", "yes": "yes", "no": "no", "no_but": "no-but", "twist": "twist"}
    parts = [f"{words.get(k, k)} {float(Fraction(str(v))):.0%}" for k, v in chances.items()]
    return " [" + ", ".join(parts) + "]"


Renderer = Callable[[dict[str, Any]], Line]


def _each_brings(names: list[str]) -> str:
    """"Ada brings a twist", "Ada and Bo each bring a twist": the verb agrees with the names."""
    shown = [clean(n) for n in names]
    if len(shown) < 2:
        return f"{''.join(shown) or 'someone'} brings a twist"
    return f"{', '.join(shown[:-1])} and {shown[-1]} each bring a twist"

# The kinds every ruleset shares: the session's own, and what the oracle and the stories add.
# Each ruleset's own kinds read as its kit says (PlayHooks.texts and .styles).
_RENDER: dict[str, Renderer] = {
    "session_started": lambda e: Line(text=f"A new session (seed {e['seed']}).", style="scene"),
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
    # a model's reading of an answer, a twist or an inspiration: a suggestion, shown apart from what was settled
    "interpretation": lambda e: Line(text=f"One reading: {clean(e['text'])}", style="hint"),
    "scene_test": lambda e: Line(
        text={"expected": "The scene goes as expected.",
              "altered": "The scene is altered: something ordinary intrudes.",
              "interrupted": f"The scene is interrupted: {_each_brings(e.get('interrupted_by', []))}."}.get(
                  str(e["outcome"]), str(e["outcome"])), style="wyrd"),
    "story_chosen": lambda e: Line(
        text=f"{clean(e['title'])}. {clean(e.get('premise', ''))}".strip()
        + (f" Ready to play: {', '.join(map(clean, e['pregens']))} (`pregens` shows their sheets; "
           "pc take all, or pc take NAME)."
           if e.get("pregens") else ""), style="scene"),
    "stage_rules_evident": lambda e: Line(
        text=f"In force here: {', '.join(map(clean, e['names']))}.", style="info"),
    "postscript": lambda e: Line(text=f"{clean(e['character'])} ({e['result']}): {clean(e['text'])}",
                                 style="narration"),
    "undone": lambda e: Line(text=f"Undone: {clean(e['command'])}", style="info"),
    "refused": lambda e: Line(text=f"Refused: {clean(e['reason'])}", style="refused"),
}


def describe(found: Recorded | Event | Mapping[str, Any], ruleset: str) -> Line:
    """The line that tells an event: the ruleset's own words for its kinds (its kit's texts and
    styles), then the shared ones; an unknown kind (or one that does not read) still shows its fields.

    The view is an edge: a typed event (or one with its number) is read as its JSON here,
    as the journal reads the saved ones. An event may come from a shared save whose every field
    was written by hand, so the whole line is cleaned, numbers and field names included."""
    line = _describe(found, ruleset)
    return Line(text=clean(line.text), style=line.style)


def _describe(found: Recorded | Event | Mapping[str, Any], ruleset: str) -> Line:
    event = plain([found])[0]
    kind = str(event.get("kind"))
    try:
        hooks: PlayHooks | None = hooks_for(ruleset)
    except LookupError:
        hooks = None  # a ruleset that cannot be played here: its events still read, field by field
    try:
        own = hooks.texts.get(kind) if hooks is not None else None
        if own is not None and hooks is not None:
            style = hooks.styles.get(kind)
            return Line(text=clean(own(event)),
                        style=style(event) if style is not None else _STYLE_OF.get(kind, "info"))
        render = _RENDER.get(kind)
        if render is not None:
            return render(event)
    except (KeyError, TypeError, ValueError, LookupError):
        pass  # a field missing or of another shape: fall back to the plain listing
    fields = ", ".join(f"{clean(k)}={clean(v)}" for k, v in event.items() if k not in ("seq", "kind"))
    return Line(text=f"{clean(kind)}: {fields}")


def wording(ruleset: str) -> Wording:
    """How the journal and the transcript word a save of ``ruleset``: as this view does."""
    try:
        opens = hooks_for(ruleset).scene_opens or frozenset({"scene_started"})
    except LookupError:
        opens = frozenset({"scene_started"})
    return Wording(describe=lambda event: describe(event, ruleset).text, clean=clean, scene_opens=opens)


# Styles for other rulesets' kinds, by the shape of what they tell.
_STYLE_OF = {"refused": "refused", "narration": "narration"}
