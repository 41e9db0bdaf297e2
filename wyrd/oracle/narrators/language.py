"""Is a reply in the table's language? A function-word test over word lists kept as data.

A reply must be told in the language the table plays in: the narrator config's
``language`` (default ``en``), or the story's own when it names one
(:attr:`~wyrd.oracle.narrators.base.NarrationRequest.language`). A model that
writes "Ada muere en el barro" on an English table tells a lie the English checks
cannot read, so :func:`foreign` refuses it.

**How.** Each known language has a list of its short, common words (articles,
prepositions, pronouns, auxiliaries, and a few verbs a lie needs) in
``words/<code>.yaml``; the words a list shares with another are no evidence
between those two. Each sentence of a reply is judged apart (so one foreign sentence
after two English ones is still seen):

- it is foreign when at least two of its words belong to another language's list
  alone and they outnumber the table language's own words ("Ada muere en el barro");
- a finished sentence of three words or more with none of the table language's
  words and one of another's is foreign too ("Ada ist tot.");
- a reply mostly in another script (Cyrillic, Greek, Han, Arabic ...) than the table
  language's is foreign.

So English prose with a foreign name or a loanword passes ("Señora Vell pours the
tea", "She feels a déjà vu"): a name is one word, and the English around it
outweighs it.

**Why not a detector library.** The statistical detectors judge a whole string by
its letters, and a short English line with a foreign name reads to them as foreign:
lingua-language-detector 2.1 (a 96 MB wheel, 2 s to load its models) calls "Señora Vell
smiles." Spanish, "She feels a déjà vu." French and "Coral Vell." Italian. Word
lists are small, read in microseconds, and their mistakes can be read and fixed.

**Limits.** Only the languages with a word list are known (English, Spanish,
French, German, Italian, Portuguese, Dutch); a table language without one is not
checked. A reply in a language with no list and the table's script passes.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

import yaml

__all__ = ["LANGUAGES", "foreign", "language_name"]

_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")
_SENTENCE = re.compile(r"[^.!?\u2026]+[.!?\u2026]*")
_MIN_FOREIGN = 2  # words of another language's own in one sentence before it can outweigh the table's
_MIN_SENTENCE = 3  # words in a finished sentence before a lone foreign word with no table word says foreign


def _fold(word: str) -> str:
    """``word`` lowercase without accents ("Está" and "esta" are one word here)."""
    decomposed = unicodedata.normalize("NFKD", word.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class _Language:
    code: str
    name: str
    words: frozenset[str]


@cache
def _languages() -> dict[str, _Language]:
    """Every language with a word list in ``words/``, by code."""
    found = {}
    for path in sorted(files("wyrd.oracle.narrators").joinpath("words").iterdir(), key=lambda p: p.name):
        if not path.name.endswith(".yaml") or path.name == "outcomes.yaml":
            continue
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        code = path.name.removesuffix(".yaml")
        found[code] = _Language(code, str(data["name"]), frozenset(_fold(w) for w in str(data["words"]).split()))
    return found


LANGUAGES: tuple[str, ...] = ("de", "en", "es", "fr", "it", "nl", "pt")  # the codes with a word list


def language_name(code: str) -> str:
    """The name of the language ``code`` (``"en"``: ``"English"``), or the code itself if it has no list."""
    known = _languages().get(code)
    return known.name if known else code


def _latin_share(text: str) -> float:
    letters = [c for c in text if c.isalpha()]
    if not letters:
        return 1.0
    return sum(1 for c in letters if "LATIN" in unicodedata.name(c, "")) / len(letters)


def _sentence_problem(words: list[str], length: int, finished: bool, table: _Language,
                      others: list[_Language]) -> str | None:
    """Why one sentence (``words``: those that can tell its language; ``length``: all of them) is foreign."""
    for other in others:
        theirs = [w for w in words if w in other.words and w not in table.words]
        if not theirs:
            continue
        ours = sum(1 for w in words if w in table.words and w not in other.words)
        if (len(theirs) >= _MIN_FOREIGN and len(theirs) > ours) or (
                finished and ours == 0 and length >= _MIN_SENTENCE):
            shown = ", ".join(repr(w) for w in dict.fromkeys(theirs))
            return f"not in {table.name}: reads as {other.name} ({shown})"
    return None


def foreign(text: str, language: str = "en") -> str | None:
    """Why ``text`` is not in ``language`` (a code with a word list), or None if it may be.

    ``text`` is the reply as the checks read it (normalised); its last sentence may be unfinished
    (a reply still streaming), and is judged by the weaker test alone.
    """
    languages = _languages()
    table = languages.get(language)
    if table is None:
        return None
    letters = sum(1 for c in text if c.isalpha())
    if letters >= 4 and _latin_share(text) < 0.5:  # every listed language is written in Latin letters
        return f"not in {table.name}: written in another script"
    others = [lang for code, lang in languages.items() if code != language]
    for match in _SENTENCE.finditer(text):
        sentence = match.group(0)
        written = _WORD.findall(sentence)
        # A capitalised word inside a sentence is a name, and so is a particle before one ("Van Tassel",
        # "Da Silva", "Le Fay"): neither says what language the sentence is in.
        words = [_fold(w) for i, w in enumerate(written)
                 if not w[:1].isupper() or (i == 0 and not (len(written) > 1 and written[1][:1].isupper()))]
        finished = sentence.rstrip()[-1:] in ".!?\u2026"
        if problem := _sentence_problem(words, len(written), finished, table, others):
            return problem
    return None
