"""The firewall between a language model's prose and the table: clean it, or refuse it.

An LLM narrator is asked to tell only the settled facts of a moment, but a model
can still write anything. :func:`check` looks at a reply against its
:class:`~wyrd.oracle.narrators.base.NarrationRequest` and returns a :class:`Verdict`:

- **Terminal safety.** Escape sequences (CSI, OSC, DCS, SOS, PM, APC, in 7-bit and
  8-bit forms, terminated or not), every other C0 and C1 control, DEL, bidi
  embeddings, overrides, isolates and marks, zero-width spaces and joiners, word
  joiners, soft hyphens, invisible tag characters and BOMs are removed; runs of
  whitespace become one space; Markdown ``*`` and backticks go.
  This is cleaning, not a reason to refuse.
- **Length.** A reply is cut after its third sentence (``max_sentences``), and one
  longer than ``max_chars`` after its last full sentence that fits; one with no
  sentence end inside the cap is refused. (A sentence ends at ``.``, ``!``, ``?`` or
  ``…`` before a space, so "Mr. Vell" counts as two: a cut there is early, never wrong.)
- **What is checked** is the reply as the player reads it
  (:func:`~wyrd.oracle.narrators.normalize.for_checking`): NFKC, no format
  characters, lookalike Cyrillic and Greek letters read as Latin, digits of every
  script, superscripts and counting Roman numerals read as numbers.
- **Contradictions** (refused, with the reason). Death and injury words and numbers
  are claims only within five words of a character's name (the request's cast, or a
  capitalised name in the reply), a pronoun for a person, or a counting word
  (points, hp ...) in the same clause; elsewhere they are imagery ("Dead leaves
  skitter across the green", "a hundred paper lanterns") and pass:

  * a number, in digits or words (``two``, ``seven``, ``twenty``, ``dozen``), that
    appears nowhere in the request: not in its events, its challenge, its cast, nor
    the story text it carries (place, seeds, tone notes); a number of points must be
    one of the facts' own numbers, not one from the story's prose ("seven years ago");
  * death words (dies, dead, killed, slain, perishes ...) when the request holds no
    defeat (no ``character_defeated`` event, not a defeat moment nor a "defeated"
    postscript);
  * injury words (wounded, bleeding, injured ...) when the request holds no harm;
  * points spoken of when the facts hold no harm nor points;
  * a settled challenge told the other way: a failure told with success words
    (succeeds, overcomes, triumphs, prevails ...), or an overcome challenge told with
    failure words (fails, falls short, in vain ...; "falters" is allowed when it was
    overcome only by drawing Wyrd after the roll fell short), and a roll that fell
    short told as a success;
  * a reply that speaks as an assistant ("As an AI", "Here is", "I'm sorry") or echoes
    the prompt's headings ("Tone notes", "What is settled");
  * a reply that speaks to the players or the system, gives instructions, or speaks
    of saves, commands or points regained ("Ignore previous instructions", "SYSTEM:",
    "Type quit now and delete your save file").

  Words in the request never switch a check off (a facet "would die for her sister"
  does not let "Coral Vell will die" pass). The request's names of several words (a
  denizen called "the Drowned Dead", a place, the challenge) are read as names, not
  claims; a flagged word negated by a word just before it ("does not die", "never
  fails", "almost fails") passes.

**Limits, honestly.** These are keyword heuristics over English. They cannot tell who
a word is about ("the hound lies dead" after a defeat of someone else passes), miss
paraphrase ("breathes no more", "the light leaves her eyes"), and miss invented
items, places and people entirely: those are left to the prompt. The word "one" is
never checked (it is mostly not a number in prose) and neither are ordinals
("first", "second"). Negation is three words back, so "not only does she fail"
passes as negated. False alarms ("She steps over dead leaves": a pronoun is near)
fall back to the table narrator: the safe direction.

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
from wyrd.oracle.narrators.normalize import QUANTITY_WORDS, for_checking

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
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
    "\ufff9-\ufffb\U000e0000-\U000e007f*`]")


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
# A reply that speaks past the story: to the players, to the system, of saves, commands or points regained.
_ADDRESS = re.compile(
    r"\b(?:system|assistant|user|admin|developer|narrator)\s*:|"
    r"\b(?:ignore|disregard|forget|override)\b[^.!?]{0,40}\b(?:instructions?|prompts?|rules|above|previous)\b|"
    r"\b(?:previous|prior|above|system|new|my|these|following) (?:instructions?|prompts?)\b|"
    r"\bthe players?\b|\bplayers\b|\bgame over\b|"
    r"\b(?:won|wins|win|lost|lose|loses|ends?|ended|finish(?:es|ed)?|quit|exit|restart) the game\b|"
    r"\bsave ?files?\b|\bsave(?:d)? games?\b|\byour saves?\b|\bsave now\b|\bsaves? (?:and|then) (?:quit|exit)\b|"
    r"\b(?:type|enter|use|run) (?:the |this |these |a )?commands?\b|\bcommand (?:line|prompt)\b|\bkeyboard\b|"
    r"\bdelete\b|\buninstall\b|\bquit now\b|\b(?:type|press|enter)\s+\S+\s+(?:now|to|and)\b|"
    r"(?:^|[.!?:;] )(?:type|press|click)\b|"
    r"\b(?:gains?|gained|regains?|regained|restores?|restored|recovers?|recovered|gets?)\b[^.!?]{0,30}"
    r"\bpoints?\b|\bpoints? back\b|\ball (?:her|his|their|its|the) points\b")
_POINTS = _words(r"points?")
# Who a word can be about: a word like "dead" or a number is a claim only within a few words of one of these
# (a character's name, a pronoun for a person, a word that counts a game quantity).
_PEOPLE = frozenset({"he", "she", "they", "him", "her", "them", "himself", "herself", "themselves", "everyone",
                     "everybody", "someone", "somebody", "i", "we", "you", "us"})
_NEAR = 5
_CLAUSE_END = re.compile(r"[.!?;:\u2026]")
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


@dataclass(frozen=True)
class _Allowed:
    """What a request lets a reply say."""

    numbers: frozenset[int]
    counts: frozenset[int]  # the numbers of the facts themselves (not of the story's prose): what points may be
    about: frozenset[str]  # words that make a word near them a claim: names, pronouns, quantities
    names: tuple[str, ...]  # the request's multi-word names ("the drowned dead"), read as names, not claims
    things: frozenset[str]  # words of the request's names for things and places: a capital there is no person
    points: bool  # the facts speak of points lost or spent
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
        tokens = _TOKEN.findall(for_checking(" ".join(prose)))
        numbers = {*_ints(data), *(n for t in tokens if (n := _number(t)) is not None)}
        # people: the cast and the story's persons (a referent said "he" or "she"; "it" and "they" name things,
        # challenges and crowds, whose words like "straw" or "fair" would make imagery a claim)
        people = [c.name for c in request.characters] + [request.subject or ""]
        people += [name for name, said in request.referents.items() if said.pronouns in ("he", "she")]
        if request.challenge is not None:
            people += [request.challenge.lead or "", *request.challenge.involved, *request.challenge.damage]
        about = set(_PEOPLE | QUANTITY_WORDS)
        about.update(t for name in people for t in _TOKEN.findall(for_checking(name))
                     if len(t) > 1 and t not in _NOT_NAMES)
        if request.challenge is not None and request.challenge.ability:
            about.update(_TOKEN.findall(for_checking(request.challenge.ability)))
        names = {for_checking(n).strip() for n in [request.location, request.scene, *request.denizens,
                                                    *(([request.challenge.name, request.challenge.denizen])
                                                      if request.challenge is not None else [])] if n}
        things = [name for name, said in request.referents.items() if said.pronouns not in ("he", "she")]
        things += [n for n in names if n]
        thing_words = {t for name in things for t in _TOKEN.findall(for_checking(name))} - about
        events = " ".join(str(e.model_dump(mode="json")) for e in request.events)
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
        points = harm or "point" in events or bool(challenge and challenge.damage)
        multiword = tuple(sorted((n for n in names if " " in n), key=len, reverse=True))
        return cls(frozenset(numbers), frozenset(_ints(data)), frozenset(about), multiword, frozenset(thing_words),
                   points, defeat, harm, outcome)


def _claims(text: str, start: int, end: int, about: frozenset[str]) -> frozenset[str]:
    """What the words at ``text[start:end]`` say something about (empty: nothing of a character or a game
    quantity): the names, pronouns for a person and counting words within a few words of it, in its clause."""
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    clause_end = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    before = _TOKEN.findall(text[clause_start:start])[-_NEAR:]
    after = _TOKEN.findall(text[end:clause_end])[:_NEAR]
    return frozenset(t for t in (*before, *after) if t in about)


def _flagged(pattern: re.Pattern[str], text: str, about: frozenset[str] | None = None) -> str | None:
    """The first match of ``pattern`` in ``text`` that is not negated (and, given ``about``, makes a claim
    about one of those words: a character or a game quantity)."""
    for match in pattern.finditer(text):
        word = match.group(0)
        if about is not None and not _claims(text, match.start(), match.end(), about):
            continue
        before = _TOKEN.findall(text[:match.start()])[-3:]
        if any(t in _NEGATORS or t.endswith("n't") for t in before):
            continue
        return word
    return None


_NAMED = re.compile(r"[A-Z][a-z]+(?:'[a-z]+)?")
# Capitalised words that are not names; at a sentence's start a capital is a name only before one of _BEING.
_NOT_NAMES = frozenset({"the", "a", "an", "and", "but", "or", "in", "on", "at", "of", "to", "for", "with", "by",
                        "from", "as", "then", "there", "here", "now", "when", "while", "it", "its", "this", "that",
                        "these", "those", "somewhere", "nothing", "no", "not", "beyond", "above", "below", "over",
                        "under", "after", "before", "all", "every", "each", "some", "few", "many", "one"})
_BEING = frozenset({"is", "was", "lies", "lay", "will", "has", "had", "falls", "fell", "dies", "died", "bleeds", "bled",
                    "loses", "lost", "gets", "gains", "takes", "took", "can", "must"})


def _names_in(text: str) -> frozenset[str]:
    """The words of ``text`` (normalised, case kept) written as names: someone a reply may claim things of,
    though the request never named them ("Grub is wounded")."""
    found = set()
    for match in _NAMED.finditer(text):
        word = match.group(0).lower()
        if word in _NOT_NAMES:
            continue
        head = text[:match.start()].rstrip()
        if head and head[-1] not in ".!?;:\"\u201c(":  # inside a sentence: a capital says name
            found.add(word)
            continue
        following = _TOKEN.findall(text[match.end():].lower())[:1]
        if following and following[0] in _BEING:
            found.add(word)
    return frozenset(found)


def _problem(text: str, allowed: _Allowed) -> str | None:
    """Why ``text`` (clean) cannot be told for the request, or None."""
    low = for_checking(text)
    about = allowed.about | (_names_in(for_checking(text, lower=False)) - allowed.things)
    for name in allowed.names:  # "the Drowned Dead" names a denizen; it says nothing of anyone's death
        low = low.replace(name, " ~ ")
    if _ASSISTANT.search(low):
        return "speaks as an assistant, not as the narrator"
    if echo := _ECHO.search(low):
        return f"echoes the prompt: {echo.group(0)!r}"
    if address := _ADDRESS.search(low):
        return f"speaks to the players or the system: {address.group(0).strip()!r}"
    if not allowed.points and (points := _POINTS.search(low)):
        return f"speaks of points the facts do not: {points.group(0)!r}"
    for match in _TOKEN.finditer(low):
        value = _number(match.group(0))
        if value is None or not (near := _claims(low, match.start(), match.end(), about)):
            continue
        # a count of points is a game quantity: only the facts' own numbers may be it, not "seven years ago"
        if value not in (allowed.counts if near & QUANTITY_WORDS else allowed.numbers):
            return f"a number not in the facts: {match.group(0)!r}"
    if not allowed.defeat and (word := _flagged(_DEATH, low, about)):
        return f"tells a death that did not happen: {word!r}"
    if not allowed.harm and (word := _flagged(_INJURY, low, about)):
        return f"tells an injury that did not happen: {word!r}"
    if allowed.outcome in ("failed", "falter") and (word := _flagged(_SUCCESS, low)):
        return f"tells a failure as a success: {word!r}"
    if allowed.outcome in ("overcome", "overcome_wyrd"):
        word = _flagged(_FAILURE, low)
        if word is None and allowed.outcome == "overcome":
            word = _flagged(_FALTER, low)
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
