"""A model's short reading of what the oracle gave: an answer, a twist, an inspiration.

With a language model in charge of the prose, each answer of ``ask``, each twist and
each ``inspire`` may get one or two sentences of interpretation ("what this might
mean here"), offered after the dice's own lines and saved as an ``interpretation``
event. A reading decides nothing: the answer, the twist and the two words stand as
the dice gave them, whatever it says, and the players may ignore it.

:func:`reading_requests` makes the moments to ask for, one per answer, twist or
inspiration among a command's events, grounded in the scene (its title, place and
text), who is present and the words the dice gave. Each is an ``aside`` request (a
narrator shows it whole and does not remember it as the story so far) that settles
no success, no harm and no death, so the firewall refuses a reading that tells any;
an answer's request says whether it was a yes (``success``) so the firewall refuses
a no told as a success. :func:`reading_problem` adds what the firewall does not know
to look for in a reading: an answer overruled ("the answer is really yes" to a no),
numbers (the dice's own included), and instructions to the table. :func:`trimmed`
keeps the first two sentences.

Only a model reads: when it fails, is slow or is refused there is no reading, and
the tables never invent one. Pure: no langchain, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from wyrd.oracle.events import field
from wyrd.oracle.facts import CharacterFacts
from wyrd.oracle.narrators.base import MomentKind, NarrationRequest
from wyrd.oracle.narrators.normalize import for_checking
from wyrd.rules.actions import Event

__all__ = ["ANSWERS_READ", "READ_KINDS", "reading_problem", "reading_requests", "scene_words", "trimmed"]

# The kinds of event a reading is offered for.
READ_KINDS = ("answer", "twist", "inspiration")
_YES = frozenset({"yes", "yes_and"})
#: The oracle's answers as a reading (or a telling that must not take it for a cast) words them.
ANSWERS_READ = {"yes_and": "yes, and more besides", "yes": "yes", "no": "no",
                "no_but": "no, but something else turns up"}
_SCENE_CHARS = 360  # the scene's words given to the model, at most

_NEGATED = re.compile(r"\b(?:not|never|no|isn't|wasn't|nor)\W+(?:\w+\W+)?$")
# An answer overruled, whatever it was: the reading says the dice or the oracle got it wrong.
_OVERRULED = re.compile(
    r"\b(?:oracle|dice|die|answer|roll)\b[^.!?]{0,24}\b(?:wrong|mistaken|lies|lied|lying|false|a lie|misread|"
    r"does not matter|doesn't matter)\b|"
    r"\b(?:despite|regardless of|ignore|ignoring|overrule|overrules|reverse|reverses) (?:the|this|that) "
    r"(?:answer|oracle|dice|roll)\b|"
    r"\b(?:real|true|actual|other) answer\b|\banswer is (?:really|actually|truly|in truth|in fact)\b")
# A "no" told as a yes.
_YES_SAID = re.compile(
    r"\byes\b|\b(?:is|was|it's) (?:really|actually|truly|in fact) (?:true|so)\b|"
    r"\b(?:really|actually|truly|secretly|in truth|in fact) (?:does|did|is|was|has|had|will|can)\b")
# A "yes" told as a no.
_NO_SAID = re.compile(
    r"(?:^|[.!?] )no[,.!]|\banswer\b[^.!?]{0,20}\b(?:no|not so|false)\b|"
    r"\b(?:is|was|are|were|it's) (?:really|actually|truly|in fact) (?:false|not|no|untrue)\b|"
    r"\b(?:really|actually|truly|secretly|in truth|in fact) (?:does not|doesn't|did not|didn't|is not|isn't|"
    r"was not|wasn't|has not|hasn't|will not|won't|cannot|can't)\b")
# Instructions to the table (what to do, ask, roll or spend), or its dice: a reading only suggests a meaning.
_COMMANDS = re.compile(
    r"\b(?:you|we|they|players?|everyone) (?:should|must|need to|have to|ought to|had better)\b|"
    r"\b(?:ask|roll|try|cast) (?:it |that |this )?again\b|\bre-?roll|\b(?:dice|odds|percent)\b")
_DIGIT = re.compile(r"\d")
_SENTENCE_END = re.compile(r"[.!?\u2026][\"'\u201d\u2019)]*(?= |$)")
_SENTENCE_END_SPLIT = re.compile(r"(?<=[.!?])\s+")


def scene_words(lines: Sequence[str]) -> str:
    """The scene as the story frames it (``look``'s first lines: its title and place, then its text),
    without the lines that show commands, cut at a word to a few hundred characters."""
    sentences = [s for line in lines[:2] for s in _SENTENCE_END_SPLIT.split(" ".join(line.split()))]
    text = " ".join(s for s in sentences if s and "`" not in s)
    if len(text) <= _SCENE_CHARS:
        return text
    cut = text.rfind(" ", 0, _SCENE_CHARS)
    return text[:cut if cut > 0 else _SCENE_CHARS].rstrip(",;:") + "..."


def _said(event: Event) -> tuple[str, str | None, str | None, bool | None] | None:
    """What the dice gave in ``event``, plainly: (the sentence, its detail, its subject, a yes?)."""
    kind = event.kind
    if kind == "answer":
        answer = str(field(event, "answer"))
        asker = field(event, "asker")
        asked = f"{asker} asked the oracle" if asker else "The oracle was asked"
        said = (f"{asked}: {str(field(event, 'question'))!r}. The dice answered {ANSWERS_READ.get(answer, answer)}; "
                "that answer stands.")
        return said, answer, asker, answer in _YES
    if kind == "twist":
        character = str(field(event, "character", ""))
        said = f"A twist ({field(event, 'category', '')}) came to {character}: {field(event, 'text', '')}"
        return said.rstrip(": "), str(field(event, "category", "")) or None, character or None, None
    if kind == "inspiration":
        said = (f"The oracle gave two words for what comes next: {field(event, 'action', '')} "
                f"and {field(event, 'theme', '')}.")
        return said, None, None, None
    return None


def reading_requests(events: Sequence[Event], *, moment: str = MomentKind.INTERPRETATION.value, scene: str = "",
                     present: Sequence[str] = ()) -> list[NarrationRequest]:
    """A reading to ask for each answer, twist and inspiration in ``events``, in their order.

    Args:
        events: a command's events (the rules', the verb's and what the narration added).
        moment: the ruleset's moment kind for a reading (its prompts claim it).
        scene: the scene's own words (:func:`scene_words`).
        present: who is present and able to act.
    """
    cast = [CharacterFacts(name=name) for name in present if name]
    out: list[NarrationRequest] = []
    for event in events:
        found = _said(event)
        if found is None:
            continue
        said, detail, subject, yes = found
        if present:
            said += f" Present: {', '.join(present)}."
        out.append(NarrationRequest(
            moment=moment, detail=detail, subject=subject, characters=cast, scene=scene, said=said,
            success=yes, harm=False, death=False, aside=True, marks={"of": event.kind}))
    return out


def _said_outright(pattern: re.Pattern[str], text: str) -> str | None:
    """The first match of ``pattern`` in ``text`` that no negation just before takes back."""
    for match in pattern.finditer(text):
        if not _NEGATED.search(text[:match.start()]):
            return match.group(0).strip()
    return None


def reading_problem(text: str, request: NarrationRequest) -> str | None:
    """Why a reading the firewall let through still may not be offered (None: it may).

    Read as the player reads it (:func:`~wyrd.oracle.narrators.normalize.for_checking`).
    A reading never overrules the answer, never gives a number (not even the dice's
    own) and never tells the table what to do.
    """
    low = for_checking(text)
    if _DIGIT.search(low):
        return "a reading gives no numbers"
    if overruled := _OVERRULED.search(low):
        return f"overrules what the dice gave: {overruled.group(0).strip()!r}"
    if request.success is False and (said := _said_outright(_YES_SAID, low)):
        return f"tells the answer no as a yes: {said!r}"
    if request.success is True and (said := _said_outright(_NO_SAID, low)):
        return f"tells the answer yes as a no: {said!r}"
    if command := _COMMANDS.search(low):
        return f"tells the table what to do, or speaks of the dice: {command.group(0).strip()!r}"
    return None


def trimmed(text: str, sentences: int = 2) -> str:
    """``text`` cut after its ``sentences``-th sentence."""
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    return text[:ends[sentences - 1]] if len(ends) >= sentences else text
