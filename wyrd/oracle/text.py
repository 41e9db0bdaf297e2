"""Filling table text: placeholders, their fallbacks, and names in a sentence.

Table rows and story entries write ``{character}``, ``{challenge}``, ``{location}``
and the like; :func:`fill` replaces them from a context mapping. A placeholder the
context does not supply (or supplies empty) never raises: it takes the fallback
written in the text itself (``{denizen|a tinker}``), else the default fallback for
that name in :data:`FALLBACKS`, else ``something``. ``{{`` and ``}}`` stand for
literal braces. :func:`check_template` is the load-time check that every brace in
a text is one of these forms, so filling can never fail at play time.

The forms of a placeholder (the grammar is :mod:`wyrd.oracle.grammar`)::

    {challenge}         the noun phrase as it reads mid-sentence: "the vicar's evasions", "Tamsin"
    {Challenge}         the same, capitalised (at the start of a sentence)
    {challenge.name}    the bare name, as the story wrote it
    {lead.they}         they / she / he / it (also .them, .their, .theirs, .themself)
    {lead.is}           is or are, agreeing with the name (also .was, .has; .s and .es: "walk{lead.s}")
    {lead.are}          is or are after the pronoun: "{lead.they} {lead.are}" (also .were, .have, .do)
    {facet.who}         a facet as a clause after a name: "who is stubborn", "who knows the roads"
    {denizen|a tinker}  any of these with a fallback, used when the value is missing

A value may be a :class:`~wyrd.oracle.grammar.Referent` (the story says how the thing
reads) or a plain string. A plain string naming a thing (the placeholders in :data:`THINGS`)
is read the simplest safe way (:func:`~wyrd.oracle.grammar.reading`: a capitalised title is
a proper name, anything else takes "the"); any other plain string is written as it is, and a
form of it reads it so too (a person's name, in :data:`PEOPLE`, is always a proper name).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping

from wyrd.stories.wording import FORMS as _FORMS

__all__ = [
    "FALLBACKS",
    "PEOPLE",
    "PLACEHOLDER",
    "THINGS",
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
# The placeholders that name things: a plain string there is read as a noun phrase ("Locked gate" reads
# "the locked gate", "The Saltmere causeway" mid-sentence "the Saltmere causeway").
THINGS = frozenset({"challenge", "enemy", "denizen", "location", "place", "thing", "item", "scene", "story",
                    "title", "subject", "clock", "counter"})
# The placeholders that name people: a plain string there is a proper name, never "the ...".
PEOPLE = frozenset({"character", "lead", "asker", "hurt", "party", "others", "present", "winner", "rival",
                    "attacker", "target", "casters", "name", "subject", "standing", "helpers", "connection"})

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([A-Za-z_][a-z0-9_]*)(?:\.([a-z]+))?(?:\|([^{}]*))?\}")
_BRACE = re.compile(r"[{}]")
_SPACES = re.compile(r"[ \t]{2,}")


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
    return [m.group(1).lower() for m in PLACEHOLDER.finditer(template) if m.group(1)]


def check_template(template: str) -> str | None:
    """``None`` if every brace in ``template`` is a placeholder or an escape, else why not."""
    for match in PLACEHOLDER.finditer(template):
        name, form = match.group(1), match.group(2)
        if name and name[1:] != name[1:].lower():
            return f"{{{name}}}: only a placeholder's first letter may be a capital"
        if form is not None and form not in _FORMS:
            return (f"{{{name}.{form}}}: unknown form {form!r}; the forms are "
                    + ", ".join(sorted(_FORMS)))
    stripped = PLACEHOLDER.sub("", template)
    stray = _BRACE.search(stripped)
    if stray is None:
        return None
    return (f"stray {stray.group(0)!r} in text: write placeholders as {{name}}, {{Name}}, {{name.form}} "
            f"or {{name|fallback}}, and literal braces as {{{{ or }}}}")


def _render(value: object, name: str = "", form: str | None = None) -> str:
    if value is None:
        return ""
    if isinstance(value, str) and form is None and (name not in THINGS or not value.strip()):
        return value.strip()
    from wyrd.oracle.grammar import Referent, group, reading, who_clause  # the grammar only when a text asks for it

    if isinstance(value, str) and form == "who":
        return who_clause(value)  # a facet: a phrase of any kind, never a name

    if isinstance(value, Referent):
        return value.form(form or "")
    if isinstance(value, str):
        if not value.strip():
            return ""
        return reading(value, person=name in PEOPLE).form(form or "")
    if isinstance(value, Iterable):
        members = [v if isinstance(v, Referent) else str(v) for v in value]
        return group(members).form(form or "")
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
        written, form, fallback = match.group(1), match.group(2), match.group(3)
        name = written.lower()
        given = context.get(name)
        present = _render(given, name) if given is not None else ""
        backup = fallback.strip() if fallback is not None else FALLBACKS.get(name, DEFAULT_FALLBACK)
        # a form may rightly be empty ("walk{hurt.s}" for several); a missing value takes the fallback's form
        value = (present or backup) if form is None else _render(given if present else backup, name, form)
        return capitalise(value) if written[:1].isupper() else value

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
    """A challenge or thing's name as it reads inside a sentence, read the simplest safe way.

    "Locked gate" -> "the locked gate" (sentence case is a common noun); "Night Hound" stays
    as it is (a capitalised title is a proper name); "The Barrow Door" -> "the Barrow Door";
    a possessive ("Squire Hale's knife") or a phrase with an article inside ("Run for the
    Road") stands as written. See :func:`wyrd.oracle.grammar.reading`.
    """
    from wyrd.oracle.grammar import reading

    return reading(name).phrase
