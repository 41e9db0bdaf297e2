"""Reading a command line: words, numbers, names and keyword options.

Commands are short and forgiving: names are case-insensitive and a unique prefix
is enough (``spend ad 2`` for Ada), quoted strings keep their spaces, and a word
that is not understood is refused with a suggestion. Everything here is about
reading text; what a command does is elsewhere.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence

__all__ = ["UsageError", "Words", "pick_names", "resolve", "split_line", "suggest"]


class UsageError(Exception):
    """The line could not be read as a command; the message says how to fix it."""

    rule = "usage"


def split_line(line: str) -> list[str]:
    """Split a line into words, honouring quotes; commas separate words too."""
    if not line.isascii():
        try:
            line.encode("utf-8")
        except UnicodeEncodeError:  # lone surrogates: no save file or terminal can hold them
            raise UsageError("the line holds characters that are not text") from None
    lexer = shlex.shlex(line, posix=True, punctuation_chars=",")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        words = list(lexer)
    except ValueError as exc:
        raise UsageError(f"could not read the line: {exc}") from None
    return [w for w in words if w != ","]


def suggest(word: str, choices: Iterable[str]) -> str:
    """' (did you mean X?)' for the closest choice, or ''."""
    import difflib  # only for a word that is not known: most lines never need it

    close = difflib.get_close_matches(word.casefold(), [c.casefold() for c in choices], n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def resolve(word: str, choices: Sequence[str], what: str) -> str:
    """The one choice ``word`` names: exactly (any case), or as a unique prefix."""
    folded = word.casefold()
    for choice in choices:
        if choice.casefold() == folded:
            return choice
    hits = [c for c in choices if c.casefold().startswith(folded)]
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise UsageError(f"{word!r} could be any of {', '.join(sorted(hits))}; say more of the {what}")
    known = f"; known: {', '.join(choices)}" if choices and len(choices) <= 12 else ""
    raise UsageError(f"no {what} called {word!r}{suggest(word, choices)}{known}")


class Words:
    """A cursor over the words of a command, taking them in the order a verb wants."""

    def __init__(self, words: Sequence[str], usage: str) -> None:
        self.words = list(words)
        self.usage = usage

    def fail(self, why: str) -> UsageError:
        return UsageError(f"{why}; usage: {self.usage}")

    @property
    def empty(self) -> bool:
        return not self.words

    def peek(self) -> str | None:
        return self.words[0] if self.words else None

    def take(self, what: str) -> str:
        if not self.words:
            raise self.fail(f"missing {what}")
        return self.words.pop(0)

    def take_optional(self) -> str | None:
        return self.words.pop(0) if self.words else None

    def take_name(self, what: str, choices: Sequence[str], kind: str = "character") -> str:
        """A name that may be several words (``Maud Ellery``), or a unique beginning of one.

        ``what`` names the missing word in usage errors; ``kind`` what the name is of.
        """
        for k in range(min(len(self.words), 5), 1, -1):
            joined = " ".join(self.words[:k]).casefold()
            if any(c.casefold() == joined for c in choices):
                found = resolve(" ".join(self.words[:k]), choices, kind)
                del self.words[:k]
                return found
        if not self.words:
            raise self.fail(f"missing {what}")
        found = resolve(self.words[0], choices, kind)  # consumed only if it names someone
        del self.words[0]
        return found

    def take_int(self, what: str, *, low: int | None = None, high: int | None = None) -> int:
        return parse_int(self.take(what), what, low=low, high=high, usage=self.usage)

    def take_choice(self, what: str, choices: Sequence[str]) -> str:
        return resolve(self.take(what), choices, what)

    def keyword(self, word: str) -> bool:
        """Consume ``word`` if it comes next (any case)."""
        if self.words and self.words[0].casefold() == word:
            self.words.pop(0)
            return True
        return False

    def until(self, *stops: str) -> list[str]:
        """Words up to (not including) the first of ``stops``."""
        out: list[str] = []
        while self.words and self.words[0].casefold() not in stops:
            out.append(self.words.pop(0))
        return out

    def option(self, key: str, default: str | None = None) -> str | None:
        """Take a ``key=value`` word from anywhere in what is left."""
        for i, word in enumerate(self.words):
            name, eq, value = word.partition("=")
            if eq and name.casefold() == key:
                del self.words[i]
                return value
        return default

    def option_int(self, key: str, default: int | None = None, *, low: int | None = None,
                   high: int | None = None) -> int | None:
        text = self.option(key)
        if text is None:
            return default
        return parse_int(text, key, low=low, high=high, usage=self.usage)

    def pairs(self) -> list[tuple[str, str]]:
        """Take the ``name=value`` words that come next, in order."""
        out: list[tuple[str, str]] = []
        while self.words and "=" in self.words[0]:
            name, _, value = self.words.pop(0).partition("=")
            if not name or not value:
                raise self.fail(f"{name}={value} needs a name and a value")
            out.append((name, value))
        return out

    def done(self) -> None:
        """Refuse anything left over, so a typo is never silently ignored."""
        if self.words:
            raise self.fail(f"did not understand {' '.join(self.words)!r}")


def pick_names(words: Sequence[str], names: Sequence[str], kind: str, taken: Iterable[str] = ()) -> list[str]:
    """The ``names`` that ``words`` name, in order (``pc take NAME ...``): ``all`` for every one
    not ``taken`` yet, else each a name of several words or a unique beginning of one, named once."""
    if [w.casefold() for w in words] == ["all"]:
        gone = set(taken)
        left = [n for n in names if n not in gone]
        if names and not left:
            raise UsageError(f"every {kind} is in play already: `pc` shows their sheets")
        return left
    reader = Words(words, "pc take NAME [NAME ...] | pc take all")
    picked: list[str] = []
    while not reader.empty:
        name = reader.take_name("NAME", names, kind)
        if name not in picked:
            picked.append(name)
    return picked


# Bigger numbers than these are typing slips, and they keep arithmetic small.
MAX_NUMBER = 1000


def parse_int(text: str, what: str, *, low: int | None = None, high: int | None = None,
              usage: str = "") -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise UsageError(f"{what} must be a whole number, not {text!r}") from None
    top = MAX_NUMBER if high is None else high
    bottom = -MAX_NUMBER if low is None else low
    if not bottom <= value <= top:
        raise UsageError(f"{what} must be from {bottom} to {top}, not {value}")
    return value
