"""The story from a save file: the transcript (``log``) and the Markdown journal.

Both read only what the save recorded (commands, dice, events, narration), so
neither ever needs the rules or a language model again. The audit transcript
also shows undone commands and the undos that took them back. How an event
reads, and how a text is made safe to show, are the caller's (a front-end's
view): they come in as :class:`Wording`, so the engine imports no front-end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any, NamedTuple

from wyrd.play.engine.savefile import Record, Roll, SaveFile

__all__ = ["Wording", "journal", "transcript"]


class Wording(NamedTuple):
    """How a front-end words what the save holds."""

    # one event as one line of text
    describe: Callable[[dict[str, Any]], str]
    # any text from the save (a command, a title), made safe to show
    clean: Callable[[object], str]
    # the event kinds that open a scene: each is a heading of the journal
    scene_opens: frozenset[str] = frozenset({"scene_started"})


def _records(save: SaveFile, audit: bool) -> list[Record]:
    return list(save.all_commands() if audit else save.live_commands())


def transcript(save: SaveFile, wording: Wording, *, audit: bool = False) -> list[str]:
    """One line per command and one per event; with ``audit``, undone ones marked."""
    lines: list[str] = []
    for record in _records(save, audit):
        if record.undoes is not None:
            lines.append(f"[{record.seq}] undo (took back {wording.clean(record.undoes)})")  # a hand-edited save
            continue
        mark = " (undone)" if record.status != "live" else ""
        if record.parsed.get("verb") != "start":
            lines.append(f"[{record.seq}] > {wording.clean(record.text)}{mark}")
        lines.extend(f"    {wording.describe(e)}" for e in record.events)
    return lines


# The fields of an event that hold the faces of dice it shows (the rules' and the oracle's).
_FACE_KEYS = frozenset({"dice", "die", "face", "faces", "roll", "rolls", "rolled", "weal", "woe", "d100", "d12s",
                        "twist_faces", "own_dice"})


def _faces_shown(value: object) -> Counter[int]:
    """Every whole number in ``value`` (faces, however nested)."""
    if isinstance(value, bool):
        return Counter()
    if isinstance(value, int):
        return Counter([value])
    found: Counter[int] = Counter()
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        for item in value:
            found += _faces_shown(item)
    return found


def _dice_by_event(record: Record) -> dict[int, list[Roll]]:
    """Each roll of ``record`` placed at the event that shows its faces, so the journal keeps them together.

    Rolls are matched in order, each to the first event from the last one matched on whose dice
    fields still hold all its faces (an event showing two rolls, as a WEAL and a WOE, takes both).
    A roll no event shows goes with the last event before the narration (or the last event)."""
    events = record.events
    shown = [_faces_shown({k: v for k, v in e.items() if k in _FACE_KEYS}) if e.get("kind") != "narration"
             else Counter[int]() for e in events]
    told = next((i for i, e in enumerate(events) if e.get("kind") == "narration"), len(events))
    fallback = max(told - 1, 0) if told else len(events) - 1
    placed: dict[int, list[Roll]] = {}
    at = 0
    for roll in record.dice:
        need = Counter(roll.faces)
        hit = next((i for i in range(at, len(events)) if not need - shown[i]), None)
        if hit is None:
            hit = max(at, fallback) if events else -1
        else:
            shown[hit] -= need
            at = hit
        placed.setdefault(hit, []).append(roll)
    return placed


def _title(save: SaveFile) -> str:
    """The story's title as its `story` command told it, else its id from the save, else none."""
    for record in save.live_commands():
        for event in record.events:
            if event.get("kind") == "story_chosen" and event.get("title"):
                return str(event["title"])
    return str(save.meta.get("story") or "An unwritten story")


def _ruleset_name(ident: object) -> str:
    from wyrd.rulesets import UnknownRuleset, find_ruleset

    try:
        return find_ruleset(str(ident)).name
    except UnknownRuleset:
        return str(ident)


def journal(save: SaveFile, wording: Wording) -> str:
    """A Markdown journal of the story as it stands, every mechanical change included.

    It is titled with the story's title, and each roll's dice follow the line of the event that
    shows them (issue 18, point 10), before what the narration made of it."""
    meta = save.meta
    clean = wording.clean
    out = [f"# {clean(_title(save))}", "",
           f"Ruleset: {clean(_ruleset_name(meta.get('ruleset')))}, seed {clean(meta.get('seed'))}.", ""]

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    def dice(rolls: list[Roll]) -> None:
        faces = "; ".join(f"{r.purpose}: {', '.join(map(str, r.faces))}" for r in rolls)
        out.append(f"  - *dice: {clean(faces)}*")

    for record in save.live_commands():
        placed = _dice_by_event(record)
        if -1 in placed:  # rolls with no event at all
            dice(placed[-1])
        for index, event in enumerate(record.events):
            kind = event.get("kind")
            text = wording.describe(event)
            if kind in wording.scene_opens:  # its first sentence the heading, the rest below it
                head, _, rest = text.partition(". ")
                blank()
                out += [f"## {head.rstrip('.')}", "", *([rest, ""] if rest else [])]
            elif kind == "narration":
                blank()
                out += [f"> {text}", ""]
            elif kind != "session_started":
                out.append(f"- {text}")
            if index in placed:
                dice(placed[index])
    return "\n".join(out).strip() + "\n"
