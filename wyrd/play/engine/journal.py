"""The story from a save file: the transcript (``log``) and the Markdown journal.

Both read only what the save recorded (commands, dice, events, narration), so
neither ever needs the rules or a language model again. The audit transcript
also shows undone commands and the undos that took them back. How an event
reads, and how a text is made safe to show, are the caller's (a front-end's
view): they come in as :class:`Wording`, so the engine imports no front-end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from wyrd.play.engine.savefile import Record, SaveFile

__all__ = ["Wording", "journal", "transcript"]


class Wording(NamedTuple):
    """How a front-end words what the save holds."""

    # one event as one line of text
    describe: Callable[[dict[str, Any]], str]
    # any text from the save (a command, a title), made safe to show
    clean: Callable[[object], str]


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


def journal(save: SaveFile, wording: Wording) -> str:
    """A Markdown journal of the story as it stands, every mechanical change included."""
    meta = save.meta
    clean = wording.clean
    title = meta.get("story") or "An unwritten story"
    out = [f"# {clean(title)}", "", f"Ruleset: {clean(meta.get('ruleset'))}, seed {clean(meta.get('seed'))}.", ""]
    for record in save.live_commands():
        for event in record.events:
            kind = event.get("kind")
            text = wording.describe(event)
            if kind == "scene_started":
                out += ["", f"## {text}", ""]
            elif kind == "narration":
                out += ["", f"> {text}", ""]
            elif kind != "session_started":
                out.append(f"- {text}")
        if record.dice:
            faces = "; ".join(f"{r.purpose}: {', '.join(map(str, r.faces))}" for r in record.dice)
            out.append(f"  - *dice: {clean(faces)}*")
    return "\n".join(out).strip() + "\n"
