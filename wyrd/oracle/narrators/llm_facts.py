"""What the LLM narrator tells a model about a moment: the facts, what they settle, the story so far.

:func:`render_facts` turns a :class:`~wyrd.oracle.narrators.base.NarrationRequest` into
compact JSON (empty fields left out, sequence numbers dropped, events that the
challenge block sums up left out, the story's own tables left out: they are the
table narrator's business). A short prompt is a fast one on a small local model. :func:`settled` says in
one or two plain sentences what the facts settle, which small models follow far
better than JSON ("Ada did NOT overcome the barrow door. Nobody dies.").

:class:`StoryMemory` is the rolling summary of the story so far: the last few
moments told (by the model or, after a fallback, by the tables), each as one
line, capped in number and in characters so a long session never grows the prompt.

Pure: no langchain here.
"""

from __future__ import annotations

import json
from collections import deque
from typing import Any

from wyrd.oracle.narrators.base import MomentKind, NarrationRequest, Outcome

__all__ = ["EMPTY_SUMMARY", "StoryMemory", "facts_dict", "render_facts", "settled"]

EMPTY_SUMMARY = "(nothing yet: the story begins here)"
_MAX_EVENTS = 12
_DROP_KEYS = frozenset({"seq"})
# Events a challenge block already sums up (outcome, lead, damage, scratches, Wyrd drawn): left out beside it.
_SUMMED_UP = frozenset({"roll_opened", "challenge_rolled", "challenge_resolved", "points_spent", "damage",
                        "ability_scratched", "wyrd_drawn"})


def _compact(value: Any) -> Any:
    """``value`` without empty fields (None, "", [], {}), recursively."""
    if isinstance(value, dict):
        out = {k: _compact(v) for k, v in value.items() if k not in _DROP_KEYS}
        return {k: v for k, v in out.items() if v not in (None, "", [], {})}
    if isinstance(value, list | tuple):
        return [_compact(v) for v in value]
    return value


def facts_dict(request: NarrationRequest) -> dict[str, Any]:
    """The facts of ``request`` a model needs, as a JSON-ready dict."""
    characters = []
    for char in request.characters:
        facets = [f for fs in char.facets.values() for f in fs]
        said = request.referents.get(char.name)
        pronouns = said.pronouns if said is not None else char.pronouns
        characters.append({"name": char.name, "concept": char.concept, "facets": facets,
                           "connection": char.connection, "defeated": char.defeated or None,
                           "pronouns": pronouns if pronouns != "they" else None})  # they: left unsaid
    challenge = None
    if request.challenge is not None:
        ch = request.challenge
        challenge = {"name": ch.name, "type": ch.type, "ability": ch.ability,
                     "denizen": ch.denizen, "lead": ch.lead, "involved": ch.involved, "outcome": ch.outcome,
                     "wyrd_drawn": ch.wyrd_drawn or None, "damage": ch.damage, "scratched": ch.scratched}
    data: dict[str, Any] = {
        "moment": str(request.moment), "detail": request.detail, "subject": request.subject,
        "story": request.story, "scene": request.scene, "location": request.location,
        "characters": characters, "challenge": challenge, "denizens": request.denizens,
        "events": [e.model_dump(mode="json") for e in request.events[-_MAX_EVENTS:]
                   if challenge is None or e.kind not in _SUMMED_UP],
    }
    if request.moment in (MomentKind.SCENE_OPENING, MomentKind.PROLOGUE):
        data["narration_seeds"] = request.seeds
    compact: dict[str, Any] = _compact(data)
    return compact


def render_facts(request: NarrationRequest) -> str:
    """The facts of ``request`` as one line of compact JSON."""
    return json.dumps(facts_dict(request), ensure_ascii=False, separators=(",", ":"), sort_keys=False)


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
        answer = {"yes_and": "yes, and more", "no_but": "no, but something else", "yes": "yes", "no": "no"}
        said = f"The answer to {question!r} is {answer.get(detail, detail)}."
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
    """The story so far, as the last ``max_items`` moments told, at most ``max_chars`` characters in all."""

    def __init__(self, max_items: int = 8, max_chars: int = 1200) -> None:
        self.max_items = max_items
        self.max_chars = max_chars
        self._lines: deque[str] = deque(maxlen=max_items)

    def add(self, line: str) -> None:
        """Remember one line (cut to ``max_chars``), forgetting the oldest beyond the caps."""
        line = " ".join(line.split())[:self.max_chars]
        if not line:
            return
        self._lines.append(line)
        while len(self._lines) > 1 and len(self.summary()) > self.max_chars:
            self._lines.popleft()

    def remember(self, request: NarrationRequest, text: str) -> None:
        """Remember a moment as it was told."""
        where = f"{request.scene}: " if request.scene else ""
        self.add(f"[{where}{request.moment}] {text}")

    @property
    def lines(self) -> list[str]:
        return list(self._lines)

    def summary(self) -> str:
        """The lines remembered, oldest first, one per line."""
        return "\n".join(self._lines) if self._lines else EMPTY_SUMMARY

    def clear(self) -> None:
        self._lines.clear()
