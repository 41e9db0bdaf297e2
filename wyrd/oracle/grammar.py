"""How a name reads in a sentence: referents, their forms, and the plain reading of a bare name.

A :class:`Referent` is anything a table text speaks of (a character, a challenge, an
enemy, a place): its name, whether that name is a proper name or a common noun, the
article it takes (``the``, ``a``, ``an`` or none), whether it is plural, and its
pronouns. :meth:`Referent.form` gives the words a placeholder asks for:

=================  ===========================================  ===================================
form               what it gives                                e.g.
=================  ===========================================  ===================================
(none)             the noun phrase as it reads mid-sentence     ``the vicar's evasions``
``name``           the bare name, as written                    ``The Vicar's Evasions``
``they``           subject pronoun                              ``she``
``them``           object pronoun                               ``her``
``their``          possessive before a noun                     ``her``
``theirs``         possessive standing alone                    ``hers``
``themself``       reflexive                                    ``herself``
``is``             ``is`` or ``are``, agreeing with the name    ``are``
``was``            ``was`` or ``were``                          ``were``
``has``            ``has`` or ``have``                          ``have``
``s``, ``es``      a present verb's ending, or nothing          ``walk{lead.s}``, ``go{hurt.es}``
``are``            after the pronoun: ``is`` or ``are``         ``she is``, ``they are``
``were``           after the pronoun: ``was`` or ``were``       (also ``have``, ``do``)
``who``            a facet as a relative clause (below)         ``who knows every road``
=================  ===========================================  ===================================

A character's facet is a free phrase ("stubborn", "a bad knee", "knows every back road",
"her mother was fen-born"); :func:`who_clause` reads it as a relative clause that fits
after a name whatever kind of phrase it is ("who is stubborn", "who has a bad knee",
"who knows every back road", "whose mother was fen-born").

A bare string is read by :func:`reading`, the simplest safe way: a name that starts with
an article keeps it (in lower case); a capitalised title of two or more words is a proper
name and takes no article ("Tamsin Runs", "Night Hound"); anything else is a common noun
in lower case with ``the`` ("Locked gate" -> "the locked gate"). A possessive ("Hale's
knife") or a phrase with an article inside ("Run for the Road") is kept as written.

Referents are plain named tuples, cheap to make for every line told; the story formats
(which cannot import the oracle) carry the same facts as optional fields
(:class:`wyrd.stories.wording.Wording`), read here by :func:`worded`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from wyrd.stories.wording import FORMS as STORY_FORMS
from wyrd.stories.wording import Wording, pronoun_key

__all__ = [
    "ARTICLES",
    "FORMS",
    "PRONOUNS",
    "Pronouns",
    "Referent",
    "group",
    "person",
    "reading",
    "referent",
    "who_clause",
    "worded",
]

ARTICLES = ("the", "a", "an")


class Pronouns(NamedTuple):
    """One set of pronouns; ``plural`` says whether a verb after the subject form takes the plural."""

    they: str
    them: str
    their: str
    theirs: str
    themself: str
    plural: bool


PRONOUNS: dict[str, Pronouns] = {
    "they": Pronouns("they", "them", "their", "theirs", "themself", True),
    "she": Pronouns("she", "her", "her", "hers", "herself", False),
    "he": Pronouns("he", "him", "his", "his", "himself", False),
    "it": Pronouns("it", "it", "its", "its", "itself", False),
}
FORMS = STORY_FORMS | {""}
_AGREE = {"is": ("is", "are"), "was": ("was", "were"), "has": ("has", "have"), "s": ("s", ""), "es": ("es", "")}
# The same verbs after the subject pronoun ({lead.they} {lead.are}): they agree with the pronoun, not the name.
_AFTER_PRONOUN = {"are": ("is", "are"), "were": ("was", "were"), "have": ("has", "have"), "do": ("does", "do")}


class Referent(NamedTuple):
    """Something a text refers to, and how (see the module docstring)."""

    name: str
    proper: bool = True
    article: str = ""  # "the", "a", "an" or "" (none)
    plural: bool = False
    pronouns: str = "they"  # a key of PRONOUNS
    prose: str = ""  # the noun phrase mid-sentence, when the story wrote it out

    @property
    def phrase(self) -> str:
        """The noun phrase as it reads mid-sentence."""
        if self.prose:
            return self.prose
        name = self.name.strip()
        if not name:
            return ""
        if not self.proper:
            name = _lower_first(name)
        return f"{self.article} {name}" if self.article else name

    def form(self, form: str) -> str:
        """The words for ``{x.form}`` (see :data:`FORMS`); an unknown form gives the phrase."""
        if form in ("", "name"):
            return self.phrase if form == "" else self.name.strip()
        if form in _AGREE:
            singular, plural = _AGREE[form]
            return plural if self.plural else singular
        if form == "who":
            return who_clause(self.phrase)
        pronouns = PRONOUNS.get(self.pronouns, PRONOUNS["they"])
        if self.plural:
            pronouns = PRONOUNS["they"]
        if form in _AFTER_PRONOUN:
            singular, plural = _AFTER_PRONOUN[form]
            return plural if pronouns.plural else singular
        return str(getattr(pronouns, form, self.phrase))

    def __str__(self) -> str:
        return self.phrase


def _lower_first(text: str) -> str:
    """A common noun in lower case ("Drowned Ringer" -> "drowned ringer"); an acronym ("UFO") keeps its case."""
    return " ".join(w if len(w) > 1 and w.isupper() else w[:1].lower() + w[1:] for w in text.split(" "))


def _is_title(words: list[str]) -> bool:
    """Every word capitalised but short joining words ("Run for the Road", "Tamsin Runs")."""
    small = {"the", "a", "an", "of", "for", "in", "on", "at", "to", "and", "or", "by", "with", "under", "from"}
    return len(words) >= 2 and words[0][:1].isupper() and all(w[:1].isupper() or w in small for w in words[1:])


def reading(name: str, *, person: bool = False) -> Referent:
    """A bare name read the simplest safe way (see the module docstring); ``person``: a character's name."""
    text = " ".join(name.split())
    if not text:
        return Referent(name="")
    if person:
        return Referent(name=text, plural=" and " in text)
    words = text.split(" ")
    first = words[0].casefold()
    if first in ARTICLES and len(words) > 1:
        rest = " ".join(words[1:])
        proper = rest[:1].isupper()
        return Referent(name=rest, proper=proper, article=first)
    if "'s " in text or "\u2019s " in text or text.endswith(("'s", "\u2019s")):
        return Referent(name=text, proper=True)
    if any(w in ARTICLES for w in words[1:]) or _is_title(words):
        return Referent(name=text, proper=True)
    return Referent(name=text, proper=False, article="the")


def referent(name: str, *, prose: str | None = None, proper: bool | None = None, article: str | None = None,
             plural: bool | None = None, pronouns: str | None = None) -> Referent:
    """A referent from a story's fields: what the story leaves out is read from the name."""
    base = reading(name)
    if proper is not None or article is not None:
        art = base.article if article is None else ("" if article == "none" else article)
        base = base._replace(proper=base.proper if proper is None else proper, article=art)
    if plural is not None:
        base = base._replace(plural=plural)
    if pronouns and pronoun_key(pronouns) in PRONOUNS:
        base = base._replace(pronouns=pronoun_key(pronouns))
    elif base.plural:
        base = base._replace(pronouns="they")
    else:
        base = base._replace(pronouns="it")
    if prose:
        base = base._replace(prose=" ".join(prose.split()))
    return base


def worded(name: str, wording: Wording) -> Referent | None:
    """The referent a story's wording fields give ``name`` (None: it says nothing, so the name is read)."""
    if not wording.wording():
        return None
    return referent(name, prose=wording.prose, proper=wording.proper, article=wording.article,
                    plural=wording.plural, pronouns=wording.pronouns)


def person(name: str, pronouns: str | None = None) -> Referent:
    """A character: a proper name, with their pronouns ("she" or "she/her"; ``they`` when the story does not say)."""
    key = pronoun_key(pronouns or "")
    return Referent(name=" ".join(name.split()), pronouns=key if key in PRONOUNS else "they")


def group(members: Iterable[Referent | str]) -> Referent:
    """Several referents as one ("Ada, Bo and Cy"): plural when more than one."""
    items = [m if isinstance(m, Referent) else reading(m, person=True) for m in members]
    items = [m for m in items if m.phrase]
    if len(items) == 1:
        return items[0]
    phrases = [m.phrase for m in items]
    joined = "".join(phrases) if len(phrases) <= 1 else ", ".join(phrases[:-1]) + " and " + phrases[-1]
    return Referent(name=joined, plural=len(items) > 1, pronouns="they")


# Words a facet may start with that make it a verb phrase already ("knows every road", "was crowned").
_VERBS = frozenset({
    'am', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'had', 'does', 'do', 'did', 'would', 'will',
    'can', 'could', 'cannot', "can't", "won't", "wouldn't", 'shall', 'should', 'may', 'might', 'must', 'never',
    'always', 'still', 'once', 'often', 'rarely', 'hardly', 'just', 'knows', 'sings', 'owes', 'walks', 'hates',
    'reads', 'lies', 'carries', 'corrects', 'misses', 'loves', 'remembers', 'believes', 'fears', 'trusts', 'keeps',
    'talks', 'laughs', 'writes', 'speaks', 'sees', 'hears', 'wants', 'needs', 'likes', 'swears', 'prays', 'drinks',
    'works', 'plays', 'wears', 'counts', 'collects', 'dreams', 'hides', 'runs', 'fights', 'notices', 'forgets',
    'refuses', 'dislikes', 'prefers', 'mutters', 'whistles', 'hums', 'smokes', 'sleeps', 'watches', 'listens',
    'worries', 'lives', 'grew', 'took', 'lost', 'saw', 'left', 'came', 'went', 'knew', 'made', 'met', 'found',
    'gave', 'kept', 'sang', 'ran', 'fought', 'swore', 'bites', 'chews', 'cries', 'smiles', 'frowns', 'stammers',
    'stutters', 'limps', 'thinks', 'feels', 'reckons', 'doubts', 'wonders',
})
_POSSESSIVES = frozenset({"her", "his", "their", "my", "its", "our", "your"})
_ADJECTIVE_LINKS = frozenset({"as", "to", "at", "and", "than", "of", "in", "about", "on", "for", "but", "yet"})


def who_clause(facet: str) -> str:
    """A facet as a relative clause after a name: "who is stubborn", "who has a bad knee", "whose mother ..."."""
    text = " ".join(facet.split()).rstrip(".")
    if not text:
        return ""
    words = text.split(" ")
    first = re.sub(r"[^a-z']", "", words[0].casefold())
    if first in _POSSESSIVES and len(words) > 1:
        return "whose " + " ".join(words[1:])
    if first in _VERBS:
        return "who " + text
    if first in ARTICLES or first in ("no", "some", "one", "two", "three"):
        return "who has " + text
    if len(words) == 1:
        plural_noun = first.endswith("s") and not first.endswith(("ss", "ous", "less"))
        return ("who has " if plural_noun else "who is ") + text
    second = re.sub(r"[^a-z]", "", words[1].casefold())
    if second in _ADJECTIVE_LINKS or words[0].endswith(","):
        return "who is " + text
    return "who has " + text
