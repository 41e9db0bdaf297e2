"""What the LLM narrator tells a model about a moment: the facts, what they settle, the tone, the story so far.

A short prompt is a fast one on a small local model, and small models follow a few
plain lines far better than a JSON dump (issue 19, point 5: the median prompt under
400 tokens). So :func:`render_facts` gives only what this moment needs, one fact a
line: the moment, the story and the place, who it is about (the subject with its
concept, the others it names by name; everyone present only when it names nobody),
the challenge, the kit's own words for it (its placeholders' values: what a check
was for, whom a blow struck), the words of its events where the kit gives none, and
at most :data:`MAX_SEEDS` of the story's narration seeds. Never a character's whole
sheet, the story's tables, dice or sequence numbers. :func:`settled` says in one or
two plain sentences what the facts settle, and what they rule out ("Ada did NOT
overcome the barrow door. Nobody dies."); :func:`tone` keeps the first of the story's
tone notes (its voice) within :data:`TONE_CHARS`.

:class:`StoryMemory` is the story so far: a few short lines of fact that the play
layer adds as the game goes on (a scene reached, an outcome settled, who was hurt:
:func:`wyrd.play.engine.narration.recall`), capped in number and in characters, so a
long session never grows the prompt. A model's own replies are never fed back.

Pure: no langchain here.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from typing import Any

from wyrd.oracle.narrators.base import ANSWER_SAID, MomentKind, NarrationRequest, Outcome

__all__ = [
    "EMPTY_SUMMARY",
    "MAX_SEEDS",
    "SUMMARY_HEADING",
    "TONE_CHARS",
    "StoryMemory",
    "facts_dict",
    "render_facts",
    "settled",
    "tone",
]

# Nothing told yet: no line at all (a small model echoes a placeholder like "the story begins here")
EMPTY_SUMMARY = ""
SUMMARY_HEADING = "Earlier in the story:"
MAX_SEEDS = 2  # the story's narration seeds a model is shown for one moment
TONE_CHARS = 160  # the tone notes a model is shown, at most (the first note always, cut at a word)
_MAX_NAMED = 5  # the characters named in one moment's facts, at most
_MAX_CONCEPT = 80
_MAX_WORDS = 160  # one value of the kit's or an event's words
# Fields of an event that say nothing a model may tell (ids, tables, counts are left out as numbers).
_NOT_WORDS = frozenset({"kind", "seq", "id", "table", "row", "source", "scene", "story", "cast", "challenge",
                        "category", "reason", "ruleset", "odds", "status", "via", "form", "choice", "detail"})
# Events a challenge block already sums up (outcome, lead, damage, scratches, Wyrd drawn): left out beside it.
_SUMMED_UP = frozenset({"roll_opened", "challenge_rolled", "challenge_resolved", "points_spent", "damage",
                        "ability_scratched", "wyrd_drawn"})
_SHARED_MOMENTS = frozenset(m.value for m in MomentKind)  # a kit of its own names its moments apart
# A character's name in the kit's words for a moment: each of these keys names one.
_NAMED_KEYS = ("character", "attacker", "target", "rival", "winner", "lead", "asker")


def _cut(text: str, limit: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + "..."


def _full(request: NarrationRequest, name: str) -> str:
    """The character ``name`` names: by their name, or by their first name alone (as some kits say it)."""
    known = [c.name for c in request.characters]
    if name in known:
        return name
    first = [n for n in known if n.split(" ", 1)[0] == name]
    return first[0] if len(first) == 1 else ""


def _named(request: NarrationRequest) -> list[str]:
    """Who this moment is about: the subject, then everyone its challenge and its kit's words name."""
    names: list[str] = [request.subject] if request.subject else []
    ch = request.challenge
    if ch is not None:
        names += [n for n in (ch.lead, *ch.involved, *ch.damage, *ch.scratched) if n]
    names += [str(request.values[k]) for k in _NAMED_KEYS if isinstance(request.values.get(k), str)]
    found = [n for n in dict.fromkeys(_full(request, n) for n in names) if n]
    if not found and not request.subject:  # a moment about no one: everyone still standing is there
        found = [c.name for c in request.characters if not c.defeated]
    return found[:_MAX_NAMED]


def _character(request: NarrationRequest, name: str) -> dict[str, Any]:
    char = request.character(name)
    said = request.referents.get(name)
    pronouns = said.pronouns if said is not None else char.pronouns
    subject = name == _full(request, request.subject or "") or len(request.characters) == 1
    concept = _cut(char.concept, _MAX_CONCEPT) if subject else ""
    return {"name": name, "concept": concept or None, "pronouns": pronouns if pronouns != "they" else None,
            "defeated": char.defeated or None}


def _words(values: Mapping[str, Any], leave: set[str]) -> dict[str, str]:
    """The words among ``values`` (names and texts, not numbers, flags or ids), each cut short."""
    out = {}
    for key, value in values.items():
        if key in _NOT_WORDS or key in leave or isinstance(value, bool) or not isinstance(value, str | list):
            continue
        text = ", ".join(str(v) for v in value if isinstance(v, str)) if isinstance(value, list) else value
        if text.strip():
            out[key] = _cut(text, _MAX_WORDS)
    return out


def facts_dict(request: NarrationRequest) -> dict[str, Any]:
    """The facts of ``request`` a model needs for this moment, and no more (see the module docstring)."""
    named = _named(request)
    data: dict[str, Any] = {
        "moment": str(request.moment) + (f" ({request.detail})" if request.detail else ""),
        "story": request.story or None, "place": request.location or None,
        "characters": [_character(request, n) for n in named]}
    if request.aside and request.scene:  # a reading is grounded in the scene as the story frames it
        data["scene"] = request.scene
    if request.challenge is not None:
        ch = request.challenge
        data["challenge"] = ch.name + (f", a {ch.type}" if ch.type else "")
    said = settled(request) + " " + data.get("challenge", "")
    shown = set(named) | {request.story, request.location} | {request.character(n).concept for n in named}
    if request.challenge is not None and request.challenge.denizen:
        shown.add(request.challenge.denizen)  # an id here: the story's name for it is the challenge's

    def told(value: Any) -> bool:  # said already: a name in the facts, a twist's text in what is settled
        return isinstance(value, str) and (value in shown or value in said)

    words = _words(request.values, {k for k, v in request.values.items() if told(v)})
    if not words and not request.values:  # no words of the kit's own: the events' (not those the challenge sums up)
        for event in request.events[-2:]:
            if request.challenge is None or event.kind not in _SUMMED_UP:
                dumped = event.model_dump(mode="json")
                words.update(_words(dumped, {k for k, v in dumped.items() if told(v)}))
    if words:
        data["details"] = words
    # A scene's seeds go with its opening: requests of the shared moments carry them all scene long,
    # a kit of its own sends them with its scene moments alone.
    if request.seeds and (request.own_words or request.moment in (MomentKind.SCENE_OPENING, MomentKind.PROLOGUE)
                          or request.moment not in _SHARED_MOMENTS):
        data["seeds"] = [_cut(s, _MAX_WORDS) for s in request.seeds[:MAX_SEEDS]]
    return data


def _person(char: Mapping[str, Any]) -> str:
    notes = [n for n in (char.get("concept"), char.get("pronouns"), "defeated" if char.get("defeated") else None)
             if n]
    return str(char["name"]) + (f" ({'; '.join(notes)})" if notes else "")


def render_facts(request: NarrationRequest) -> str:
    """The facts of ``request``, one short line each (``Moment: check (success)``)."""
    data = facts_dict(request)
    lines = [f"Moment: {data['moment']}"]
    if data.get("story"):
        lines.append(f"Story: {data['story']}")
    if data.get("place"):
        lines.append(f"Place: {data['place']}")
    if data.get("scene"):
        lines.append(f"Scene: {data['scene']}")
    if data["characters"]:
        lines.append("Who: " + ", ".join(_person(c) for c in data["characters"]))
    if data.get("challenge"):
        lines.append(f"Challenge: {data['challenge']}")
    lines += [f"{k.replace('_', ' ').capitalize()}: {v}" for k, v in data.get("details", {}).items()]
    lines += [f"Seed: {s}" for s in data.get("seeds", [])]
    return "\n".join(lines)


def tone(request: NarrationRequest) -> str:
    """The story's tone notes a model is shown: the first whole, the rest while they fit :data:`TONE_CHARS`."""
    notes = [" ".join(t.split()) for t in request.tone if t.strip()]
    if not notes:
        return "plain and grounded, third person"
    said = _cut(notes[0], TONE_CHARS)
    for note in notes[1:]:
        if len(said) + 2 + len(note) > TONE_CHARS:
            break
        said += "; " + note
    return said


def _names(names: list[str] | tuple[str, ...]) -> str:
    names = [n for n in names if n]
    if len(names) <= 1:
        return names[0] if names else "someone"
    return ", ".join(names[:-1]) + " and " + names[-1]


def _challenge_settled(request: NarrationRequest) -> str:
    ch = request.challenge
    who = _names(ch.involved or [ch.lead or request.subject or ""]) if ch else (request.subject or "someone")
    name = ch.name if ch else "the challenge"
    detail = request.detail or ""
    if detail == Outcome.BYPASSED:
        return f"{name} no longer stands in the way: another way past it was found."
    if detail == Outcome.OVERCOME:
        return f"{who} overcame {name}."
    if detail == Outcome.OVERCOME_WYRD:
        return f"{who} fell short at first, then overcame {name} by drawing on the Wyrd."
    harm = []
    if ch is not None:
        harm += [f"{c} is hurt" for c in ch.damage]
        harm += [f"{c} loses the use of their {a} for good" for c, a in ch.scratched.items()]
    said = f"{who} did NOT overcome {name}: a failure."
    return said + (" " + "; ".join(harm) + "." if harm else "")


def settled(request: NarrationRequest) -> str:
    """What the facts of ``request`` settle, in one or two plain sentences (and what they rule out)."""
    moment, detail, subject = request.moment, request.detail or "", request.subject or "someone"
    first = request.events[0] if request.events else None
    if moment == MomentKind.CHALLENGE_OUTCOME:
        said = _challenge_settled(request)
    elif moment == MomentKind.FALTER:
        name = request.challenge.name if request.challenge else "the challenge"
        said = f"{subject}'s roll fell short against {name}; nothing is settled yet, neither success nor failure."
    elif moment == MomentKind.DEFEAT:
        said = f"{subject} is defeated: out of the fight, not dead unless the facts say so."
        if detail == "impediment":
            said += f" {subject} now stands in the others' way."
    elif moment == MomentKind.ANSWER:
        question = next((str(q) for e in request.events if (q := getattr(e, "question", None))), "the question")
        said = f"The answer to {question!r} is {ANSWER_SAID.get(detail, detail)}."
    elif moment == MomentKind.TWIST:
        text = next((str(t) for e in request.events if (t := getattr(e, "text", None))), "")
        said = f"A twist ({detail}) for {subject}: {text}".rstrip(": ")
    elif moment == MomentKind.POSTSCRIPT:
        said = f"After the story, {subject} is {detail}."
    elif moment == MomentKind.SCENE_OPENING:
        present = getattr(first, "present", None) or [c.name for c in request.characters if not c.defeated]
        where = f" at {request.location}" if request.location else ""
        said = f"The scene {request.scene or getattr(first, 'scene', '')!s} begins{where}; present: {_names(present)}."
    elif moment == MomentKind.SCENE_TEST:
        said = f"The scene goes {'as expected' if detail == 'expected' else detail}."
    elif request.said:
        said = request.said
    else:
        said = f"Only what the events say: {first.kind if first is not None else moment}."
    kinds = {e.kind for e in request.events}
    dies = request.death if request.death is not None else (
        moment == MomentKind.DEFEAT or "character_defeated" in kinds or detail == "defeated")
    if not dies:
        said += " Nobody dies."
    return said


class StoryMemory:
    """The story so far: the last ``max_items`` lines of fact added, at most ``max_chars`` characters in all."""

    def __init__(self, max_items: int = 5, max_chars: int = 400) -> None:
        self.max_items = max_items
        self.max_chars = max_chars
        self._lines: deque[str] = deque(maxlen=max_items)

    def add(self, line: str) -> None:
        """Remember one line (cut to ``max_chars``), forgetting the oldest beyond the caps."""
        line = " ".join(line.split())[:self.max_chars]
        if not line:
            return
        self._lines.append(line)
        while len(self._lines) > 1 and len("\n".join(self._lines)) > self.max_chars:  # the lines, not the heading
            self._lines.popleft()

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    def summary(self) -> str:
        """The lines remembered, oldest first, one per line under their heading; empty when there are none.

        It closes the prompt, after the moment's own facts: put first, a small model's reply began by
        copying it ("The story so far:"), in 41 of 96 moments of ``python -m bench narration``."""
        return "\n".join([SUMMARY_HEADING, *self._lines]) if self._lines else EMPTY_SUMMARY

    def clear(self) -> None:
        self._lines.clear()
