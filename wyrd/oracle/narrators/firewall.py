"""The firewall between a language model's prose and the table: clean it, or refuse it.

An LLM narrator is asked to tell only the settled facts of a moment, but a model
can still write anything. :func:`check` looks at a reply against its
:class:`~wyrd.oracle.narrators.base.NarrationRequest` and returns a :class:`Verdict`:

- **Terminal safety.** Escape sequences (CSI, OSC, DCS, SOS, PM, APC, in 7-bit and
  8-bit forms, terminated or not), every other C0 and C1 control, DEL, bidi
  embeddings, overrides, isolates and marks, invisible tag characters and BOMs
  are removed; runs of whitespace become one space; Markdown ``*`` and backticks go.
  This is cleaning, not a reason to refuse.
- **Length.** A reply is cut after its third sentence (``max_sentences``), and one
  longer than ``max_chars`` after its last full sentence that fits; one with no
  sentence end inside the cap is refused. (A sentence ends at ``.``, ``!``, ``?`` or
  ``…`` before a space, so "Mr. Vell" counts as two: a cut there is early, never wrong.)
- **Contradictions** (refused, with the reason):

  * a number, in digits or words (``two``, ``seven``, ``twenty``, ``dozen``), that
    appears nowhere in the request: not in its events, its challenge, its cast, nor
    the story text it carries (place, seeds, tone notes);
  * death words (dies, dead, killed, slain, perishes ...) when the request holds no
    defeat (no ``character_defeated`` event, not a defeat moment nor a "defeated"
    postscript);
  * injury words (wounded, bleeding, injured ...) when the request holds no harm;
  * a settled challenge told the other way: a failure told with success words
    (succeeds, overcomes, triumphs, prevails ...), or an overcome challenge told with
    failure words (fails, falls short, in vain ...; "falters" is allowed when it was
    overcome only by drawing Wyrd after the roll fell short), and a roll that fell
    short told as a success;
  * a reply that speaks as an assistant ("As an AI", "Here is", "I'm sorry") or echoes
    the prompt's headings ("Tone notes", "What is settled").

  A flagged word that the request's own text uses (a denizen called "the Drowned
  Dead", a place called "Seven Wells") is allowed, and so is one negated by a word
  just before it ("does not die", "never fails", "almost fails").

**Limits, honestly.** These are keyword heuristics over English. They cannot tell who
a word is about ("the hound lies dead" after a defeat of someone else passes), miss
paraphrase ("breathes no more", "the light leaves her eyes"), and miss invented
items, places and people entirely: those are left to the prompt. The word "one" is
never checked (it is mostly not a number in prose) and neither are ordinals
("first", "second"). Negation is three words back, so "not only does she fail"
passes as negated. False alarms ("the road wound on", "a dead calm") fall back
to the table narrator: the safe direction.

:class:`StreamGuard` applies the same checks to a reply as it streams, so the
text shown live has always passed them: words are released only once complete and
checked, and an incomplete escape sequence is held back until it ends.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from wyrd.oracle.narrators.base import DEFAULT_MAX_CHARS, MomentKind, NarrationRequest, Outcome

__all__ = ["DEFAULT_MAX_CHARS", "DEFAULT_MAX_SENTENCES", "StreamGuard", "Verdict", "check", "sanitize"]

DEFAULT_MAX_SENTENCES = 3

# --- terminal safety ---------------------------------------------------------------------------------------
_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI: parameters, intermediates, a final byte
    r"|\x9b[0-?]*[ -/]*[@-~]"  # 8-bit CSI
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # OSC/DCS/SOS/PM/APC strings
    r"|\x1b(?![\[\]PX^_])[ -/]*[0-~]"  # any other escape sequence
)
_LONGEST_SEQUENCE = 1024  # an escape sequence still open after this many characters is garbage
_INTRODUCER = re.compile(r"[\x1b\x90\x98\x9b\x9d\x9e\x9f]")  # the start of a sequence that has not ended
_SPACES = re.compile(r"[\t\n\r\x0b\x0c\u2028\u2029\u0085 ]+")
_INVISIBLE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff\U000e0000-\U000e007f*`]")


def sanitize(text: str, *, final: bool = True) -> str:
    """``text`` with escape sequences, controls and bidi overrides removed and whitespace collapsed.

    With ``final=False`` (text still streaming) everything from an escape
    sequence that has not ended yet is held back; with ``final=True`` it is dropped.
    """
    text = _SEQUENCE.sub("", text)
    unfinished = _INTRODUCER.search(text)
    if unfinished is not None:
        text = text[:unfinished.start()]
    text = _SPACES.sub(" ", text)
    text = _INVISIBLE.sub("", text)
    text = re.sub(r" {2,}", " ", text).lstrip()
    return text.rstrip() if final else text


# --- what a request allows -----------------------------------------------------------------------------------
_NUMBER_WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
    "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16,
    "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50,
    "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90, "hundred": 100, "thousand": 1000,
    "million": 1_000_000, "dozen": 12, "twice": 2, "thrice": 3,
}
_TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|\d+")
# Event fields whose values are the engine's words, not the story's ("overcome", "to overcome the door").
_MACHINE_KEYS = frozenset({"kind", "status", "outcome", "category", "answer", "reason", "moment", "detail", "trait",
                           "ability", "type", "form", "id", "challenge"})
_NEGATORS = frozenset({"not", "never", "no", "nor", "nobody", "none", "neither", "without", "almost", "nearly",
                        "cannot", "hardly"})


def _words(pattern: str) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{pattern})\b")


_DEATH = _words(r"die[sd]?|dying|dead|death|deaths|deadly|kill(?:s|ed|ing)?|slain|slay(?:s|ed)?|slew|"
                r"perish(?:es|ed|ing)?|murder(?:s|ed)?|corpses?|lifeless|breathes? (?:her|his|their) last|"
                r"is no more|lies still forever")
_INJURY = _words(r"wound(?:s|ed|ing)?|injur(?:e|es|ed|y|ies|ing)|bleed(?:s|ing)?|bled|gash(?:es|ed)?|maimed|"
                 r"bloodied|bruised")
_SUCCESS = _words(r"succeed(?:s|ed|ing)?|success(?:ful|fully)?|overcomes?|overcame|triumph(?:s|ed|ant|antly)?|"
                  r"prevail(?:s|ed)?|victor(?:y|ious)|wins|won|conquer(?:s|ed)?|"
                  r"manages? to|managed to|pulls? it off|pulled it off")
_FAILURE = _words(r"fail(?:s|ed|ure)?|in vain|to no avail|thwarted|foiled|gives? up|gave up")
_FALTER = _words(r"falter(?:s|ed|ing)?|falls? short|fell short")
_ECHO = re.compile(r"\b(?:tone notes|settled facts|what is settled|the story so far|json)\b")
_ASSISTANT = re.compile(r"^(?:sure\b|certainly\b|here is\b|here's\b)|\bas an ai\b|\blanguage model\b|"
                        r"\bi'm sorry\b|\bi am sorry\b|\bi can(?:no|')t help\b")


def _strings(value: Any) -> Iterator[str]:
    """Every string value in ``value`` (not the keys), skipping fields that hold machine words."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            if key not in _MACHINE_KEYS:
                yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def _ints(value: Any) -> Iterator[int]:
    """Every whole number in ``value``, and the length of every list (a count is a fact too)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield value
    elif isinstance(value, float) and value.is_integer():
        yield int(value)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _ints(item)
    elif isinstance(value, list | tuple):
        yield len(value)
        for item in value:
            yield from _ints(item)


def _number(token: str) -> int | None:
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token)


def _normal(text: str) -> str:
    return text.lower().replace("\u2019", "'").replace("\u2018", "'")


@dataclass(frozen=True)
class _Allowed:
    """What a request lets a reply say."""

    numbers: frozenset[int]
    words: frozenset[str]
    defeat: bool
    harm: bool
    outcome: str | None  # "overcome", "overcome_wyrd", "failed", "falter" or None

    @classmethod
    def of(cls, request: NarrationRequest) -> _Allowed:
        data = request.model_dump(mode="json", exclude={"tables"})
        prose = [request.story, request.scene, request.location, *request.seeds, *request.tone, *request.denizens]
        for char in request.characters:
            prose += [char.name, char.concept, char.connection or "", *(f for fs in char.facets.values() for f in fs)]
        if request.challenge is not None:
            prose += [request.challenge.name, request.challenge.denizen or ""]
        prose += list(_strings(data["events"]))
        tokens = _TOKEN.findall(_normal(" ".join(prose)))
        numbers = {*_ints(data), *(n for t in tokens if (n := _number(t)) is not None)}
        kinds = {e.kind for e in request.events}
        defeat = (request.moment == MomentKind.DEFEAT or "character_defeated" in kinds
                  or (request.moment == MomentKind.POSTSCRIPT and request.detail == "defeated"))
        if request.death is not None:  # a kit's own moment says it
            defeat = request.death
        challenge = request.challenge
        harm = (defeat or request.moment == MomentKind.HARM or bool(kinds & {"damage", "ability_scratched"})
                or bool(challenge and (challenge.damage or challenge.scratched)))
        if request.harm is not None:
            harm = defeat or request.harm
        outcome: str | None = None
        if request.success is not None:  # a kit's roll, settled: told the other way is a contradiction
            outcome = Outcome.OVERCOME.value if request.success else "failed"
        elif request.moment == MomentKind.CHALLENGE_OUTCOME and request.detail != Outcome.BYPASSED:
            detail = request.detail or ""
            outcome = detail if detail in (Outcome.OVERCOME, Outcome.OVERCOME_WYRD) else "failed"
        elif request.moment == MomentKind.FALTER:
            outcome = "falter"
        return cls(frozenset(numbers), frozenset(tokens), defeat, harm, outcome)


def _flagged(pattern: re.Pattern[str], text: str, allowed: _Allowed) -> str | None:
    """The first match of ``pattern`` in ``text`` that is neither negated nor the request's own word."""
    for match in pattern.finditer(text):
        word = match.group(0)
        if word in allowed.words:
            continue
        before = _TOKEN.findall(text[:match.start()])[-3:]
        if any(t in _NEGATORS or t.endswith("n't") for t in before):
            continue
        return word
    return None


def _problem(text: str, allowed: _Allowed) -> str | None:
    """Why ``text`` (clean) cannot be told for the request, or None."""
    low = _normal(text)
    if _ASSISTANT.search(low):
        return "speaks as an assistant, not as the narrator"
    if (echo := _ECHO.search(low)) and echo.group(0) not in allowed.words:
        return f"echoes the prompt: {echo.group(0)!r}"
    for token in _TOKEN.findall(low):
        value = _number(token)
        if value is not None and value not in allowed.numbers:
            return f"a number not in the facts: {token!r}"
    if not allowed.defeat and (word := _flagged(_DEATH, low, allowed)):
        return f"tells a death that did not happen: {word!r}"
    if not allowed.harm and (word := _flagged(_INJURY, low, allowed)):
        return f"tells an injury that did not happen: {word!r}"
    if allowed.outcome in ("failed", "falter") and (word := _flagged(_SUCCESS, low, allowed)):
        return f"tells a failure as a success: {word!r}"
    if allowed.outcome in ("overcome", "overcome_wyrd"):
        word = _flagged(_FAILURE, low, allowed)
        if word is None and allowed.outcome == "overcome":
            word = _flagged(_FALTER, low, allowed)
        if word is not None:
            return f"tells a success as a failure: {word!r}"
    return None


_SENTENCE_END = re.compile(r"[.!?\u2026][\"'\u201d\u2019)]*(?= |$)")


def _fit(text: str, max_chars: int, max_sentences: int) -> str | None:
    """``text`` cut to ``max_sentences`` sentences, then after its last full sentence within ``max_chars``.

    None if it is too long and no sentence ends within the cap.
    """
    ends = [m.end() for m in _SENTENCE_END.finditer(text)]
    if len(ends) >= max_sentences:
        text = text[:ends[max_sentences - 1]]
    if len(text) <= max_chars:
        return text
    ends = [end for end in ends if end <= max_chars]
    return text[:ends[-1]] if ends else None


@dataclass(frozen=True)
class Verdict:
    """The firewall's answer: ``ok`` and the clean ``text`` to tell, or the ``reason`` it was refused."""

    ok: bool
    text: str
    reason: str = ""


class _Cleaner:
    """:func:`sanitize` done a chunk at a time: each chunk is cleaned once, never the whole reply again.

    Only an escape sequence that has not ended yet is held back (raw) until the next chunk;
    one held past :data:`_LONGEST_SEQUENCE` characters never ends as far as the reader
    cares: it and everything after it are dropped (as :func:`sanitize` drops them at the
    end) and :attr:`dropped` says so. :attr:`text` equals ``sanitize(everything fed,
    final=False)`` but for its trailing space.
    """

    def __init__(self) -> None:
        self.text = ""
        self.dropped = False
        self._held = ""

    def feed(self, chunk: str) -> bool:
        """Take one more chunk; True if the clean text grew."""
        if self.dropped:
            return False
        raw, self._held, pos, parts = self._held + chunk, "", 0, []
        for start in _INTRODUCER.finditer(raw):
            if start.start() < pos:
                continue  # inside a sequence already removed
            parts.append(raw[pos:start.start()])
            sequence = _SEQUENCE.match(raw, start.start())
            if sequence is None:
                self._held = raw[start.start():]
                self.dropped = len(self._held) > _LONGEST_SEQUENCE
                pos = len(raw)
                break
            pos = sequence.end()
        parts.append(raw[pos:])
        piece = re.sub(" {2,}", " ", _INVISIBLE.sub("", _SPACES.sub(" ", "".join(parts))))
        if piece.startswith(" ") and (not self.text or self.text.endswith(" ")):
            piece = piece[1:]
        self.text += piece
        return bool(piece)


class StreamGuard:
    """The firewall for a reply that arrives in pieces: what may be shown now, and the verdict at the end.

    Feed it every chunk; :meth:`feed` returns the newly shown text (complete words
    that passed every check; possibly empty). After a refusal, :attr:`rejected`
    holds the verdict and nothing more is shown. When the reply has run past the
    cap :attr:`full` is set: read no further. :meth:`finish` gives the verdict; its
    text starts with everything shown (except when cut back to a full sentence).
    """

    def __init__(self, request: NarrationRequest, *, max_chars: int = DEFAULT_MAX_CHARS,
                 max_sentences: int = DEFAULT_MAX_SENTENCES) -> None:
        self.max_chars = max_chars
        self.max_sentences = max_sentences
        self._allowed = _Allowed.of(request)
        self._clean = _Cleaner()
        self.shown = ""
        self.full = False
        self.rejected: Verdict | None = None

    def feed(self, chunk: str) -> str:
        """Take one more piece of the reply; return the text that may be shown now."""
        if self.rejected is not None or self.full:
            return ""
        if not self._clean.feed(chunk):  # nothing new a reader could see: no need to look again
            self.full = self._clean.dropped
            return ""
        clean = self._clean.text
        ends = [m.end() for m in _SENTENCE_END.finditer(clean) if m.end() < len(clean)]  # followed by a space
        if len(ends) >= self.max_sentences and ends[self.max_sentences - 1] <= self.max_chars:
            self.full = True  # enough said: the rest would be cut anyway
            ready = clean[:ends[self.max_sentences - 1]]
        elif len(clean) > self.max_chars:
            self.full = True
            ready = clean[:max(clean.rfind(" ", 0, self.max_chars + 1), 0)]
        else:
            ready = clean[:max(clean.rfind(" "), 0)]
        if len(ready) <= len(self.shown):
            return ""
        problem = _problem(ready, self._allowed)
        if problem is not None:
            self.rejected = Verdict(False, ready, problem)
            return ""
        new, self.shown = ready[len(self.shown):], ready
        return new

    def finish(self) -> Verdict:
        """The verdict on the whole reply."""
        if self.rejected is not None:
            return self.rejected
        text = self._clean.text.rstrip()
        if not text:
            return Verdict(False, "", "an empty reply")
        fitted = _fit(text, self.max_chars, self.max_sentences)
        if fitted is None:
            return Verdict(False, text[:self.max_chars], f"longer than {self.max_chars} characters, no sentence end")
        problem = _problem(fitted, self._allowed)
        return Verdict(False, fitted, problem) if problem else Verdict(True, fitted)

    def rest(self, verdict: Verdict) -> str:
        """The part of an accepted verdict's text not shown yet."""
        return verdict.text[len(self.shown):] if verdict.ok and verdict.text.startswith(self.shown) else ""


def check(text: str | Iterable[str], request: NarrationRequest, *, max_chars: int = DEFAULT_MAX_CHARS,
          max_sentences: int = DEFAULT_MAX_SENTENCES) -> Verdict:
    """Clean ``text`` (a string, or its chunks) and say whether it may be told for ``request``."""
    guard = StreamGuard(request, max_chars=max_chars, max_sentences=max_sentences)
    for chunk in [text] if isinstance(text, str) else text:
        guard.feed(chunk)
    return guard.finish()
