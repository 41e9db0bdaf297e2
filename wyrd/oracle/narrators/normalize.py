"""A model's reply as a reader sees it, for the firewall to check: one plain lowercase Latin spelling.

A reply can hide a word from a keyword check and still show it to the player:
"Ada d\\u200bies" (a zero-width space), "d\\u0435ad" (a Cyrillic ie), "loses ⁷ points" (a
superscript), "loses VII points" or "loses \\u0667 points" (a Roman numeral, an
Arabic-Indic digit). :func:`for_checking` undoes all of these:

- Unicode NFKC (superscripts, full-width letters, ligatures and the Roman numeral
  characters become their plain forms);
- every format character (category Cf: zero-width spaces and joiners, word joiner,
  soft hyphen, bidi marks and isolates, BOM, tag characters) is removed;
- letters that look like Latin ones (Cyrillic, Greek, ...) become those Latin
  letters, from the Unicode confusables data of the ``confusable_homoglyphs`` package;
- digits of every script become ASCII digits, and other characters with a whole
  numeric value (``Ⅻ`` after NFKC is ``XII``; ``七``) become that number in digits;
- a Roman numeral written in capitals (``VII``), or in any case just before a word
  that counts something (``vii points``), becomes its number in digits.

The text returned is for checking only; what the player sees is the sanitized reply.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

__all__ = ["QUANTITY_WORDS", "for_checking", "roman"]

# Words that count a game quantity: a number just before one is read as a number even when it is a Roman numeral.
QUANTITY_WORDS = frozenset({"point", "points", "pts", "hp", "wounds", "lives", "hits", "dice", "die"})
_ROMAN = re.compile(r"^M{0,3}(CM|CD|D?C{0,3})(XC|XL|L?X{0,3})(IX|IV|V?I{0,3})$")
_ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
_WORD = re.compile(r"[A-Za-z]+")


def roman(token: str) -> int | None:
    """The value of ``token`` as a well-formed Roman numeral (any case), or None."""
    upper = token.upper()
    if not upper or not _ROMAN.match(upper):
        return None
    total = 0
    for here, after in zip(upper, upper[1:] + " ", strict=True):
        value = _ROMAN_VALUES[here]
        total += -value if after != " " and _ROMAN_VALUES[after] > value else value
    return total


# A plain vertical stroke reads as "l" in a word ("ki\u04cf\u04cfed" looks like "killed"); the confusables data
# says "i" for some of them.
_STROKES = {"\u04cf": "l", "\u04c0": "l", "\u01c0": "l", "\u05c0": "l"}


@lru_cache(maxsize=4096)
def _latin(char: str) -> str:
    """``char`` as the Latin letter it looks like, or ``char`` itself."""
    if char in _STROKES:
        return _STROKES[char]
    # The confusables data is loaded on first use: only a reply from a model ever needs it. It comes with the
    # llm extra, as the models do; without it letters are left as they are.
    try:
        from confusable_homoglyphs import confusables  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - the llm extra is installed wherever a model narrates
        return char

    found = confusables.is_confusable(char, greedy=True, preferred_aliases=["latin"]) or []
    for entry in found:
        for glyph in entry.get("homoglyphs", []):
            latin = glyph.get("c", "")
            if latin.isascii() and latin.isalpha():
                return str(latin)
    return char


def _plain(char: str) -> str:
    """One character of NFKC text as the checks read it (possibly empty, possibly several characters)."""
    if char.isascii():
        return char
    if unicodedata.category(char) == "Cf":
        return ""
    digit = unicodedata.decimal(char, None)
    if digit is not None:
        return str(digit)
    value = unicodedata.numeric(char, None)
    if value is not None and float(value).is_integer():
        return f" {int(value)} "
    if char.isalpha():
        return _latin(char)
    return char


def _romans(text: str) -> str:
    """``text`` with Roman numerals that name a quantity written in digits."""
    out: list[str] = []
    last = 0
    for match in _WORD.finditer(text):
        token = match.group(0)
        value = roman(token)
        if value is None:
            continue
        after = _WORD.search(text, match.end())
        counts = after is not None and after.group(0).lower() in QUANTITY_WORDS
        if (token.isupper() and len(token) >= 2) or counts:
            out += [text[last:match.start()], str(value)]
            last = match.end()
    return "".join(out) + text[last:]


_CONTRACTIONS = {"won't": "will not", "can't": "cannot", "shan't": "shall not"}
_CONTRACTED = re.compile(r"\b([a-z]+)n't\b", re.IGNORECASE)


def for_checking(text: str, *, lower: bool = True) -> str:
    """``text`` normalised for the firewall's checks: NFKC, no format characters, Latin letters, ASCII digits,
    Roman numerals that count read as numbers, typographic apostrophes made plain, and lowercase (unless
    ``lower`` is False)."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(_plain(c) for c in text)
    text = unicodedata.normalize("NFKC", text)
    text = _romans(text)
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    # A contraction read whole: "won't" is no "won", "can't" no "can"
    text = _CONTRACTED.sub(lambda m: _CONTRACTIONS.get(m.group(0).lower(), m.group(1) + " not"), text)
    return text.lower() if lower else text
