"""How a reply tells an outcome: the phrasings of success, failure, harm, defeat, death and recovery.

The phrasings live in ``words/outcomes.yaml``, each entry with a stable id
(``success.ease``, ``death.last_breath`` ...), so that a refusal names what it saw
and the figures count by it. The firewall asks :func:`find` for a category the
facts do not allow ("success" on a failed roll, "death" where nobody dies) and
gets the first claim of it, or None.

A phrase's verbs are matched in every form ("slip+": slip, slips, slipped,
slipping), on the reply as the player reads it
(:func:`~wyrd.oracle.narrators.normalize.for_checking`). A match is not a claim:

- when a negating word is among the three before it ("does not die", "never
  fails"), or it is what someone tries to do ("tries to slip past");
- when one of the entry's ``unless`` words follows it ("the fire dies down");
- inside a phrase of plain imagery ("the dead of night", "scared to death");
- for harm, defeat, death and recovery: unless a person or a count is near it,
  in its clause (a name of the cast, a pronoun for a person, "points": see
  :func:`claims`), or when it is an adjective before a thing's noun ("dead
  leaves", "the dying light", "a killing frost", "death-masks"), or when its
  clause tells the past or someone outside the cast ("years ago", "remembers the
  night her father drowned", "the girl who drowned", "her brother's death").

These are still keywords. A paraphrase outside the lexicon passes; the lexicon is
data, so a phrasing seen in the wild is one line to add.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from typing import Any

import yaml

__all__ = ["CATEGORIES", "TOKEN", "Claim", "Lexicon", "claims", "find", "forms", "lexicon"]

CATEGORIES = ("success", "failure", "falter", "harm", "defeat", "death", "recovery")
TOKEN = re.compile(r"[a-z]+(?:'[a-z]+)*|\d+")
NEAR = 5  # how many words either side a person or a count makes a word a claim
_CLAUSE_END = re.compile(r"[.!?;:\u2026]")
_NEGATORS = frozenset({"not", "never", "no", "nor", "nobody", "none", "neither", "without", "almost", "nearly",
                       "cannot", "hardly"})
# "tries to", "refuses to", "fails to": what follows is not claimed (a success after "fails to" is none)
_ATTEMPTS = frozenset({"try", "tries", "tried", "trying", "attempt", "attempts", "attempted", "attempting",
                       "refuse", "refuses", "refused", "refusing", "declines", "declined", "fail", "fails", "failed",
                       "failing",
                       "strive", "strives", "strains", "struggles", "struggling", "hopes", "hoping", "wants",
                       "wanting", "wishes", "longs", "fights", "means", "meant", "threatens", "threatening"})
LOOKAHEAD = 3  # words at the end of a streaming reply not judged yet: "dead | of night", "dies | down"
# Words that put a clause in the past or in someone's memory: a death there is not one of this moment.
_BACKSTORY = frozenset({"ago", "remembers", "remembered", "remember", "recalls", "recalled", "recall", "memory",
                        "memories", "mourns", "mourned", "grieves", "grieved", "widow", "widowed", "orphan",
                        "orphaned", "late"})
_SLOTS = {"{poss}": r"(?:her|his|their|its|my|your|the|(?:[a-z]+ ){0,2}[a-z]+'s)",  # "Coral Vell's" too
          "{obj}": r"(?:her|him|them|it)", "{any}": r"[a-z']+"}
_VOWELS = "aeiou"


def forms(lemma: str, irregular: dict[str, list[str]] | None = None) -> list[str]:
    """Every form of ``lemma`` as a verb (or a noun's plural): slip, slips, slipped, slipping."""
    if irregular and lemma in irregular:
        return [lemma, *irregular[lemma]]
    groups = re.findall(f"[{_VOWELS}]+", lemma)
    last3 = lemma[-3:]
    double = (len(groups) == 1 and len(last3) == 3 and last3[0] not in _VOWELS and last3[1] in _VOWELS
              and last3[2] not in _VOWELS + "wxy")
    if lemma.endswith(("s", "x", "z", "ch", "sh", "o")):
        third = lemma + "es"
    elif lemma.endswith("y") and lemma[-2:-1] not in _VOWELS:
        third = lemma[:-1] + "ies"
    else:
        third = lemma + "s"
    if lemma.endswith("e"):
        past = lemma + "d"
    elif lemma.endswith("y") and lemma[-2:-1] not in _VOWELS:
        past = lemma[:-1] + "ied"
    else:
        past = lemma + (lemma[-1] if double else "") + "ed"
    if lemma.endswith("ie"):
        ing = lemma[:-2] + "ying"
    elif lemma.endswith("e") and not lemma.endswith("ee"):
        ing = lemma[:-1] + "ing"
    else:
        ing = lemma + (lemma[-1] if double else "") + "ing"
    return [lemma, third, past, ing]


def _phrase(phrase: str, irregular: dict[str, list[str]]) -> str:
    """The regex for one phrase of the lexicon."""
    parts = []
    for word in phrase.split():
        if word in _SLOTS:
            parts.append(_SLOTS[word])
            continue
        alternatives: list[str] = []
        for alt in word.split("/"):
            alternatives += forms(alt[:-1], irregular) if alt.endswith("+") else [alt]
        parts.append("(?:" + "|".join(re.escape(a) for a in sorted(set(alternatives), key=len, reverse=True)) + ")")
    return r"\s+".join(parts)


def _all_strings(value: Any, where: str = "outcomes.yaml") -> None:
    if isinstance(value, dict):
        for key, item in value.items():
            _all_strings(item, f"{where}: {key}")
    elif isinstance(value, list):
        for item in value:
            _all_strings(item, where)
    elif not isinstance(value, str | bool) or (isinstance(value, bool) and not where.endswith("about")):
        raise ValueError(f"{where}: {value!r} is not a word (quote it)")


@dataclass(frozen=True)
class _Entry:
    id: str
    category: str
    about: bool
    pattern: re.Pattern[str]
    unless: re.Pattern[str] | None
    unless_allowed: frozenset[str]  # categories whose being allowed lets this entry pass


@dataclass(frozen=True)
class Claim:
    """One claim found: the lexicon entry's ``id``, the words that made it and where they start.

    ``pending``: among the last words of a reply still streaming, not judged yet.
    """

    id: str
    words: str
    start: int = 0
    pending: bool = False


@dataclass(frozen=True)
class Lexicon:
    """The loaded ``outcomes.yaml``."""

    entries: tuple[_Entry, ...]
    imagery: re.Pattern[str]
    attributive: frozenset[str]
    person_nouns: frozenset[str]
    linking: frozenset[str]

    @classmethod
    def parse(cls, data: dict[str, Any]) -> Lexicon:
        """The lexicon in ``data`` (the YAML read).

        Raises:
            ValueError: an unknown category, an id used twice, or a word YAML read as something else
                (an unquoted ``on`` or ``no`` is a boolean).
        """
        _all_strings(data)
        irregular = {str(k): [str(f) for f in v] for k, v in data["irregular"].items()}
        entries = []
        for category, section in data["categories"].items():
            if category not in CATEGORIES:
                raise ValueError(f"outcomes.yaml: unknown category {category!r}")
            for entry in section["entries"]:
                body = "|".join(_phrase(str(p), irregular) for p in entry["phrases"])
                unless = entry.get("unless")
                entries.append(_Entry(
                    str(entry["id"]), category, bool(section["about"]), re.compile(rf"\b(?:{body})\b"),
                    re.compile(r"\s+(?:{poss}\s+)?(?:".replace("{poss}", _SLOTS["{poss}"])
                               + "|".join(_phrase(str(u), irregular) for u in unless) + r")\b")
                    if unless else None, frozenset(map(str, entry.get("unless_allowed", [])))))
        ids = [e.id for e in entries]
        if len(set(ids)) != len(ids):
            raise ValueError("outcomes.yaml: an id is used twice")
        imagery = re.compile(r"\b(?:" + "|".join(_phrase(str(p), irregular) for p in data["imagery"]) + r")\b")
        return cls(tuple(entries), imagery, frozenset(map(str, data["attributive"])),
                   frozenset(map(str, data["person_nouns"])), frozenset(map(str, data["linking"])))

    def ids(self) -> list[str]:
        """Every entry's id, in the file's order."""
        return [e.id for e in self.entries]


@cache
def lexicon() -> Lexicon:
    """The bundled lexicon (read once)."""
    text = files("wyrd.oracle.narrators").joinpath("words", "outcomes.yaml").read_text(encoding="utf-8")
    return Lexicon.parse(yaml.safe_load(text))


def claims(text: str, start: int, end: int, about: frozenset[str]) -> frozenset[str]:
    """What the words at ``text[start:end]`` say something about (empty: nothing of a character or a game
    quantity): the names, pronouns for a person and counting words within a few words of it, in its clause
    ("Ada's" counts as "Ada")."""
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    clause_end = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    before = TOKEN.findall(text[clause_start:start])[-NEAR:]
    after = TOKEN.findall(text[end:clause_end])[:NEAR]
    inside = TOKEN.findall(text[start:end])  # "the light leaves Ada's eyes" names her inside the phrase
    return frozenset(w for t in (*before, *inside, *after) if (w := t.removesuffix("'s")) in about)


def _excused(text: str, start: int) -> bool:
    """A match at ``start`` that is negated, or only tried for."""
    before = TOKEN.findall(text[:start])[-3:]
    if any(t in _NEGATORS or t.endswith("n't") for t in before):
        return True
    return "to" in before and any(t in _ATTEMPTS for t in before[:before.index("to")])


def _of_the_past(lex: Lexicon, text: str, start: int, end: int) -> bool:
    """A match that tells the past or someone outside the cast: "years ago", "remembers the night her father
    drowned", "the girl who drowned", "her brother's death" (harm and death only: the moment's own are told
    in the present)."""
    clause_start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)
    clause_end = next((m.start() for m in _CLAUSE_END.finditer(text, end)), len(text))
    if _BACKSTORY & set(TOKEN.findall(text[clause_start:clause_end])):
        return True
    before = TOKEN.findall(text[clause_start:start])[-2:]
    if before and before[-1] == "who":
        return True
    return bool(before) and before[-1].endswith("'s") and before[-1].removesuffix("'s") in lex.person_nouns


_NEXT_WORD = re.compile(r"(?:-|\s+)([a-z]+)")


def _describes_a_thing(lex: Lexicon, text: str, match: re.Match[str], about: frozenset[str]) -> bool:
    """``match`` is one adjective before a thing's noun: "dead leaves", "a killing frost", "death-masks"."""
    if match.group(0) not in lex.attributive:
        return False
    following = _NEXT_WORD.match(text, match.end())
    if following is None:
        return False
    noun = following.group(1)
    return not (noun in lex.linking or noun in lex.person_nouns or noun in about or noun.endswith("ly"))


def find(category: str, text: str, about: frozenset[str], *, allowed: frozenset[str] = frozenset(),
         final: bool = True) -> Claim | None:
    """The first claim of ``category`` in ``text`` (normalised, lowercase), or None.

    ``about`` holds the words that make a word near them a claim (the cast's names, pronouns for a
    person, counting words); it is used for the categories whose entries say ``about``. ``allowed``
    names the categories the facts allow: an entry that says ``unless_allowed`` one of them passes
    ("the wound on his arm heals" in a recovery). With ``final`` False (a reply still streaming) a
    match among the last few words, or (for a claim about someone) in a clause not yet ended, is not
    judged yet, since the words after it may make it imagery ("dead" before "leaves", "died at sea
    years ago"); it comes back as a claim with ``pending`` set, to hold it unshown.
    """
    lex = lexicon()
    text = _blanked(text)
    horizon = len(text) if final else _horizon(text)
    pending: Claim | None = None
    for entry in lex.entries:
        if entry.category != category or entry.unless_allowed & allowed:
            continue
        for match in entry.pattern.finditer(text):
            # a claim about someone is judged with its whole clause ("died at sea years ago" is the past)
            unclosed = entry.about and not final and _CLAUSE_END.search(text, match.end()) is None
            if match.start() >= horizon or unclosed:
                if pending is None or match.start() < pending.start:
                    pending = Claim(entry.id, match.group(0), match.start(), pending=True)
                break
            if entry.unless is not None and entry.unless.match(text, match.end()):
                continue
            if _excused(text, match.start()):
                continue
            if entry.about and (not claims(text, match.start(), match.end(), about)
                                or _describes_a_thing(lex, text, match, about)
                                or _of_the_past(lex, text, match.start(), match.end())):
                continue
            return Claim(entry.id, match.group(0), match.start())
    return pending


@lru_cache(maxsize=64)
def _blanked(text: str) -> str:
    """``text`` with its phrases of imagery blanked out (same length): each category looks at the same text."""
    return lexicon().imagery.sub(lambda m: " " * len(m.group(0)), text)


def _horizon(text: str) -> int:
    """Where the last few words of ``text`` begin: what comes after a match there is not known yet."""
    starts = [m.start() for m in TOKEN.finditer(text)]
    return starts[-LOOKAHEAD] if len(starts) >= LOOKAHEAD else 0
