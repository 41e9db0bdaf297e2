"""The story as text from a save file: the transcript (``log``) and the Markdown journal.

Both read only what the save recorded (commands, dice, events, narration), so
neither ever needs the rules or a language model again. The audit transcript
also shows undone commands and the undos that took them back.
"""

from __future__ import annotations

from wyrd.play.engine.savefile import Record, SaveFile
from wyrd.play.frontends.view import clean, describe

__all__ = ["journal", "transcript"]


def _records(save: SaveFile, audit: bool) -> list[Record]:
    return list(save.all_commands() if audit else save.live_commands())


def transcript(save: SaveFile, *, audit: bool = False) -> list[str]:
    """One line per command and one per event; with ``audit``, undone ones marked."""
    ruleset = str(save.meta.get("ruleset", "abacus"))
    lines: list[str] = []
    for record in _records(save, audit):
        if record.undoes is not None:
            lines.append(f"[{record.seq}] undo (took back {record.undoes})")
            continue
        mark = " (undone)" if record.status != "live" else ""
        if record.parsed.get("verb") != "start":
            lines.append(f"[{record.seq}] > {clean(record.text)}{mark}")
        lines.extend(f"    {describe(e, ruleset).text}" for e in record.events)
    return lines


def journal(save: SaveFile) -> str:
    """A Markdown journal of the story as it stands, every mechanical change included."""
    meta = save.meta
    ruleset = str(meta.get("ruleset", "abacus"))
    title = meta.get("story") or "An unwritten story"
    out = [f"# {clean(title)}", "", f"Ruleset: {meta.get('ruleset', 'abacus')}, seed {meta.get('seed')}.", ""]
    for record in save.live_commands():
        for event in record.events:
            kind = event.get("kind")
            text = describe(event, ruleset).text
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
