"""Filling table text: placeholders, their fallbacks, and names in a sentence.

Table rows and story entries write ``{character}``, ``{challenge}``, ``{location}``
and the like; :func:`fill` replaces them from a context mapping. A placeholder the
context does not supply (or supplies empty) never raises: it takes the fallback
written in the text itself (``{denizen|a tinker}``), else the default fallback for
that name in :data:`FALLBACKS`, else ``something``. ``{{`` and ``}}`` stand for
literal braces. :func:`check_template` is the load-time check that every brace in
a text is one of these forms, so filling can never fail at play time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

__all__ = [
    "FALLBACKS",
    "PLACEHOLDER",
    "Layered",
    "capitalise",
    "check_template",
    "fill",
    "join_names",
    "placeholders",
    "the_name",
]

# The fallbacks keep a sentence readable when a story has not supplied the fact.
FALLBACKS: dict[str, str] = {
    "character": "someone",
    "lead": "someone",
    "asker": "the one who asked",
    "hurt": "someone",
    "party": "the others",
    "others": "the others",
    "present": "everyone",
    "concept": "a stranger to the Vale",
    "connection": "an old friend",
    "facet": "stubborn",
    "ability": "nerve",
    "challenge": "the trouble",
    "challenge_name": "the trouble",
    "denizen": "a stranger",
    "location": "the lane",
    "place": "the lane",
    "story": "the story",
    "scene": "the scene",
    "question": "the question",
    "form": "working",
    "inspiration": "what they have seen",
    "rule": "the old custom",
    "clock": "what is coming",
    "counter": "the tally",
    "servant": "the thing they called",
    "seed": "the day wears on",
    "roll": "",
}
DEFAULT_FALLBACK = "something"

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z_][a-z0-9_]*)(?:\|([^{}]*))?\}")
_BRACE = re.compile(r"[{}]")
_SPACES = re.compile(r"[ \t]{2,}")
_ARTICLES = ("the ", "a ", "an ")


class Layered(Mapping[str, object]):
    """Several mappings read as one: the first that has a key wins. Values are read only when asked for."""

    def __init__(self, *maps: Mapping[str, object]) -> None:
        self.maps = maps

    def __getitem__(self, key: str) -> object:
        for mapping in self.maps:
            if key in mapping:
                return mapping[key]
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for mapping in self.maps:
            for key in mapping:
                if key not in seen:
                    seen.add(key)
                    yield key

    def __len__(self) -> int:
        return len(set().union(*self.maps))


def placeholders(template: str) -> list[str]:
    """The placeholder names a text uses, in order."""
    return [m.group(1) for m in PLACEHOLDER.finditer(template) if m.group(1)]


def check_template(template: str) -> str | None:
    """``None`` if every brace in ``template`` is a placeholder or an escape, else why not."""
    stripped = PLACEHOLDER.sub("", template)
    stray = _BRACE.search(stripped)
    if stray is None:
        return None
    return (f"stray {stray.group(0)!r} in text: write placeholders as {{name}} or {{name|fallback}} "
            "(lower case), and literal braces as {{ or }}")


def _render(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, Iterable):
        return join_names([_render(v) for v in value])
    return str(value)


def fill(template: str, context: Mapping[str, object] | None = None, *, capital: bool = True) -> str:
    """``template`` with its placeholders filled from ``context``; never raises.

    The first letter is upper-cased unless ``capital`` is false (text meant for the middle of a sentence).
    """
    context = context or {}

    def replace(match: re.Match[str]) -> str:
        token = match.group(0)
        if token == "{{":
            return "{"
        if token == "}}":
            return "}"
        name, fallback = match.group(1), match.group(2)
        value = _render(context.get(name))
        if value:
            return value
        if fallback is not None:
            return fallback.strip()
        return FALLBACKS.get(name, DEFAULT_FALLBACK)

    text = PLACEHOLDER.sub(replace, template)
    text = _SPACES.sub(" ", text).strip()
    text = text.replace(" .", ".").replace(" ,", ",")
    return capitalise(text) if capital else text


def capitalise(text: str) -> str:
    """Upper-case the first letter (after any opening quote or bracket), leave the rest."""
    for i, ch in enumerate(text):
        if ch.isalpha():
            return text[:i] + ch.upper() + text[i + 1 :]
        if ch not in "\"'([\u2018\u201c":
            return text
    return text


def join_names(names: Iterable[str]) -> str:
    """``Ada``, ``Ada and Bo``, ``Ada, Bo and Cy``."""
    items = [n for n in names if n]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def the_name(name: str) -> str:
    """A challenge or thing's name as it reads inside a sentence.

    "Locked gate" -> "the locked gate" (sentence case is a common noun);
    "Night Hound" -> "the Night Hound" (title case is kept); "Run for the Road" stays as it
    is (a phrase with an article inside); "The Barrow Door" ->
    "the Barrow Door"; a possessive ("Squire Hale's knife") stands without an article.
    """
    text = name.strip()
    if not text:
        return ""
    lowered = text.casefold()
    for article in _ARTICLES:
        if lowered.startswith(article):
            return article + text[len(article):]
    if "'s " in text or "\u2019s " in text:
        return text
    words = text.split()
    if any(w in ("the", "a", "an") for w in words[1:]):
        return text  # a phrase ("Reading the Stone", "Run for the Road") takes no article of its own
    rest_lower = all(not w[:1].isupper() for w in words[1:])
    if rest_lower and not (len(words[0]) > 1 and words[0].isupper()):
        text = text[:1].lower() + text[1:]
    return "the " + text
