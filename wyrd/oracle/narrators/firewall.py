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
- **Contradictions** (refused, with the reason and the rule's id in
  :attr:`Verdict.rule`). Death and injury words and numbers are claims only within
  five words of a character's name (the request's cast, or a capitalised name in the
  reply; "Ada's" counts as "Ada"), a pronoun for a person, or a counting word (points,
  hp ...) in the same clause, and an adjective before a thing's noun is imagery ("dead
  leaves", "the dying light", "a killing frost", "death-masks"); elsewhere they are
  imagery too ("Dead leaves skitter across the green", "a hundred paper lanterns"):

  * a number, in digits or words (``two``, ``seven``, ``twenty``, ``dozen``), that
    appears nowhere in the request: not in its events, its challenge, its cast, nor
    the story text it carries (place, seeds, tone notes); a number of points must be
    one of the facts' own numbers, not one from the story's prose ("seven years ago");
  * points spoken of when the facts hold no harm, recovery nor points;
  * what the facts did not settle, told in any of the phrasings of the lexicon
    (:mod:`~wyrd.oracle.narrators.lexicon`, data in ``words/outcomes.yaml``, each
    entry with a stable id): a death or defeat (a death where nobody dies, a defeat
    where nobody is hurt: "breathes her last", "the light leaves Ada's eyes", "knocked
    out"), harm where nobody is hurt ("blood runs down her wrist"), a recovery where
    none happened ("her wounds close"), and a settled roll told the other way, in
    plain words or a paraphrase ("She slips through the gate with ease", "manages
    to", "effortlessly" on a failure; "stumbles", "won't budge" on a success;
    "falters" is allowed when the roll was overcome only by drawing Wyrd);
  * a reply that speaks as an assistant ("As an AI", "Here is", "I'm sorry") or echoes
    the prompt's headings ("Tone notes", "What is settled");
  * a reply that speaks to the players or the system, gives instructions, or speaks
    of saves, commands or points regained ("Ignore previous instructions", "SYSTEM:",
    "Type quit now and delete your save file");
  * a reply not in the table's language (``language``: the narrator config's, default
    English, or the story's own; :mod:`~wyrd.oracle.narrators.language`): "Ada muere en
    el barro" on an English table. A foreign name or loanword in English passes.

  Words in the request never switch a check off (a facet "would die for her sister"
  does not let "Coral Vell will die" pass). The request's names of several words (a
  denizen called "the Drowned Dead", the story, a place, the challenge) are read as
  names, not claims; a flagged word negated by a word just before it ("does not die",
  "never fails", "almost fails") or only tried for ("tries to slip past") passes, and
  so does a death or a wound of the past or of someone outside the cast ("her father
  drowned years ago", "the girl who drowned", "her brother's death").

**Limits, honestly.** These are keyword heuristics. They cannot tell who a word is
about ("the hound lies dead" after a defeat of someone else passes), miss a paraphrase
the lexicon does not hold, and miss invented items, places and people entirely: those
are left to the prompt. A lie dressed as memory ("Ada remembers how Coral died")
passes. The word "one" is never checked (it is mostly not a number in
prose) and neither are ordinals ("first", "second"). Negation is three words back, so
"not only does she fail" passes as negated. False alarms ("The lock is older than her
patience, and it wins" on a failed roll) fall back to the table narrator: the safe
direction. ``python -m bench firewall`` measures both kinds of mistake on the corpora
in ``tests/oracle/corpus/``.

:class:`StreamGuard` applies the same checks to a reply as it streams, so the
text shown live has always passed them: words are released only once complete and
checked, and an incomplete escape sequence is held back until it ends. The first
:data:`FIRST_WORDS` words wait until their language can be told (or a sentence
ends), and a word that may be imagery or a claim ("dead", "dies") waits among the last
few until the words after it decide ("dead | leaves", "dies | down").

:func:`check` is the public judgement: given a reply (whole, or its chunks) and the
request it answers, it says whether the reply may be told, and why not.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from wyrd.oracle.narrators.allowed import Allowed, names_in, number
from wyrd.oracle.narrators.base import DEFAULT_MAX_CHARS, NarrationRequest
from wyrd.oracle.narrators.language import foreign
from wyrd.oracle.narrators.lexicon import LOOKAHEAD, TOKEN, claims, find
from wyrd.oracle.narrators.normalize import QUANTITY_WORDS, for_checking

__all__ = ["DEFAULT_LANGUAGE", "DEFAULT_MAX_CHARS", "DEFAULT_MAX_SENTENCES", "FIRST_WORDS", "StreamGuard", "Verdict",
           "check", "sanitize"]

DEFAULT_MAX_SENTENCES = 3
DEFAULT_LANGUAGE = "en"
FIRST_WORDS = 3  # words held back at the start of a reply until its language can be told (or a sentence ends)

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


_ECHO = re.compile(r"\b(?:tone notes|settled facts|what is settled|the story so far|json|prose only)\b|"
                   r"\bpresent[- ]tense\b|\b(?:one|two|three|[1-3]) to (?:one|two|three|[1-3]) sentences\b")
# A reply that speaks past the story: to the players, to the system, of saves, commands or points regained.
_ADDRESS = re.compile(
    r"\b(?:system|assistant|user|admin|developer|narrator)\s*:|"
    r"\b(?:ignore|disregard|forget|override)\b[^.!?]{0,40}\b(?:instructions?|prompts?|rules|above|previous)\b|"
    r"\b(?:previous|prior|above|system|new|my|these|following) (?:instructions?|prompts?)\b|"
    r"\bthe players?\b|\bplayers\b|\bgame over\b|\byour game\b|\bgame designer\b|\bplay(?:s|ing)? the role of\b|"
    r"\byou(?:'re| are) (?:an? |the )?(?:ai|assistant|language model|narrator)\b|"
    r"\b(?:won|wins|win|lost|lose|loses|ends?|ended|finish(?:es|ed)?|quit|exit|restart) the game\b|"
    r"\bsave ?files?\b|\bsave(?:d)? games?\b|\byour saves?\b|\bsave now\b|\bsaves? (?:and|then) (?:quit|exit)\b|"
    r"\b(?:type|enter|use|run) (?:the |this |these |a )?commands?\b|\bcommand (?:line|prompt)\b|\bkeyboard\b|"
    r"\bdelete\b|\buninstall\b|\bquit now\b|\b(?:type|press|enter)\s+\S+\s+(?:now|to|and)\b|"
    r"(?:^|[.!?:;] )(?:type|press|click)\b|"
    r"\b(?:gains?|gained|regains?|regained|restores?|restored|recovers?|recovered|gets?)\b[^.!?]{0,30}"
    r"\bpoints?\b|\bpoints? back\b|\ball (?:her|his|their|its|the) points\b")
# a game's points, not "this point" or "points of light"
_POINTS = re.compile(r"\b(?:points|(?:a|an|one|no|every|each|single|[0-9]+) point)\b(?! of (?:light|view)\b)")
_POINTS_TAIL = 10  # characters after "points" that may still turn it into "points of light" while streaming
_ASSISTANT = re.compile(r"^(?:sure\b|certainly\b|here is\b|here's\b)|\bas an ai\b|\blanguage model\b|"
                        r"\bi'm sorry\b|\bi am sorry\b|\bi can(?:no|')t help\b")


# What each category of the lexicon is called in a refusal, and when the facts allow it.
_TOLD = {"success": "a failure as a success", "failure": "a success as a failure", "falter": "a success as a failure",
         "harm": "an injury that did not happen", "defeat": "a defeat that did not happen",
         "death": "a death that did not happen", "recovery": "a recovery that did not happen"}


def _forbidden(allowed: Allowed) -> list[str]:
    """The lexicon's categories a reply may not claim, given the facts (most serious first)."""
    out = [] if allowed.defeat else ["death"]
    out += [] if allowed.harm else ["defeat", "harm"]
    if allowed.outcome in ("failed", "falter"):
        out.append("success")
    if allowed.outcome in ("overcome", "overcome_wyrd"):
        out += ["failure"] if allowed.outcome == "overcome_wyrd" else ["failure", "falter"]
    return out + ([] if allowed.recovery else ["recovery"])


def _problem(text: str, allowed: Allowed, language: str, final: bool = True) -> tuple[str, str] | bool:
    """Why ``text`` (clean) cannot be told for the request, and the rule's id; else whether its last words
    must wait for the next ones before they are shown (only when not ``final``: "dead" before "leaves")."""
    low = for_checking(text)
    about = allowed.about | (names_in(for_checking(text, lower=False)) - allowed.things)
    for name in allowed.names:  # "the Drowned Dead" names a denizen; it says nothing of anyone's death
        low = low.replace(name, " ~ ")
    if _ASSISTANT.search(low):
        return "speaks as an assistant, not as the narrator", "assistant"
    if echo := _ECHO.search(low):
        return f"echoes the prompt: {echo.group(0)!r}", "echo"
    if address := _ADDRESS.search(low):
        return f"speaks to the players or the system: {address.group(0).strip()!r}", "address"
    if not allowed.points and (points := _POINTS.search(low)):
        if not final and len(low) - points.end() < _POINTS_TAIL:
            return True  # wait for the next words: "points | of light"
        return f"speaks of points the facts do not: {points.group(0)!r}", "points"
    for match in TOKEN.finditer(low):
        value = number(match.group(0))
        if value is None or not (near := claims(low, match.start(), match.end(), about)):
            continue
        # a count of points is a game quantity: only the facts' own numbers may be it, not "seven years ago"
        if value not in (allowed.counts if near & QUANTITY_WORDS else allowed.numbers):
            return f"a number not in the facts: {match.group(0)!r}", "number"
    forbidden = _forbidden(allowed)
    fine = frozenset(_TOLD) - set(forbidden)
    wait = False
    for category in forbidden:
        if claim := find(category, low, about, allowed=fine, final=final):
            if not claim.pending:
                return f"tells {_TOLD[category]}: {claim.words!r}", claim.id
            wait = True
    if reason := foreign(text, language):  # last: a lie the checks above read is named as what it is
        return reason, "language"
    return wait


_CLAUSE_BREAK = re.compile(r"[.!?;:\u2026][\"'\u201d\u2019)]*(?= |$)")  # where a clause ends, in the clean text
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
    """The firewall's answer: ``ok`` and the clean ``text`` to tell, or the ``reason`` it was refused.

    ``rule`` names the check that refused it, for counting: a lexicon entry's id
    (``success.ease``, ``death.last_breath`` ...) or one of ``language``, ``assistant``,
    ``echo``, ``address``, ``points``, ``number``, ``length``, ``empty``.
    """

    ok: bool
    text: str
    reason: str = ""
    rule: str = ""


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
                 max_sentences: int = DEFAULT_MAX_SENTENCES, language: str = DEFAULT_LANGUAGE) -> None:
        self.max_chars = max_chars
        self.max_sentences = max_sentences
        self.language = request.language or language
        self._allowed = Allowed.of(request)
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
        problem = _problem(ready, self._allowed, self.language, final=False)
        if isinstance(problem, tuple):
            self.rejected = Verdict(False, ready, *problem)
            return ""
        if problem:  # a word in the last clause or words may be a claim or imagery: show it when they are known
            clause = max((m.end() for m in _CLAUSE_BREAK.finditer(ready)), default=0)
            ready = ready[:min(clause, len(" ".join(ready.split(" ")[:-LOOKAHEAD])))]
            if len(ready) <= len(self.shown):
                return ""
        if not self.shown and len(ready.split()) < FIRST_WORDS and not _SENTENCE_END.search(ready):
            return ""  # too few words yet to tell the language they are in: show nothing
        new, self.shown = ready[len(self.shown):], ready
        return new

    def finish(self) -> Verdict:
        """The verdict on the whole reply."""
        if self.rejected is not None:
            return self.rejected
        text = self._clean.text.rstrip()
        if not text:
            return Verdict(False, "", "an empty reply", "empty")
        fitted = _fit(text, self.max_chars, self.max_sentences)
        if fitted is None:
            return Verdict(False, text[:self.max_chars], f"longer than {self.max_chars} characters, no sentence end",
                           "length")
        problem = _problem(fitted, self._allowed, self.language)
        return Verdict(False, fitted, *problem) if isinstance(problem, tuple) else Verdict(True, fitted)

    def rest(self, verdict: Verdict) -> str:
        """The part of an accepted verdict's text not shown yet."""
        return verdict.text[len(self.shown):] if verdict.ok and verdict.text.startswith(self.shown) else ""


def check(text: str | Iterable[str], request: NarrationRequest, *, max_chars: int = DEFAULT_MAX_CHARS,
          max_sentences: int = DEFAULT_MAX_SENTENCES, language: str = DEFAULT_LANGUAGE) -> Verdict:
    """Clean ``text`` (a model's reply, whole or as its chunks) and say whether it may be told for ``request``.

    This is the firewall's one public judgement, the same the narrator applies as a reply streams:
    :attr:`Verdict.ok` says whether it may be told, :attr:`Verdict.text` is the clean text (cut to
    ``max_sentences`` and ``max_chars``), and a refusal carries :attr:`Verdict.reason` (for people)
    and :attr:`Verdict.rule` (for counting). ``language`` is the table's (a code with a word list,
    see :mod:`~wyrd.oracle.narrators.language`); the request's own ``language`` wins over it.
    """
    guard = StreamGuard(request, max_chars=max_chars, max_sentences=max_sentences, language=language)
    for chunk in [text] if isinstance(text, str) else text:
        guard.feed(chunk)
    return guard.finish()
