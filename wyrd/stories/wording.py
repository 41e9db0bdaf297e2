"""How a story says a thing is referred to in prose: the optional fields every story format shares.

A challenge, an enemy, a named character the players meet or a place may say how it
reads in the middle of a sentence, when its name alone would read wrong there::

    name: What Tamsin Whispers
    prose: Tamsin's whispering       # the noun phrase mid-sentence, exactly as written

or, instead of writing the phrase out::

    name: Gleaner
    proper: false                    # a common noun: "the gleaner"
    article: the                     # the, a, an, or none
    plural: true                     # "the hounds are", not "is"

Characters (pregens, and named people the players meet) say their pronouns:
``pronouns: she`` (``they``, ``she``, ``he`` or ``it``, also written ``she/her``; ``they`` when left out).

The table texts use these through the placeholder forms of
:mod:`wyrd.oracle.text` (``{challenge}``, ``{Challenge}``, ``{lead.their}``, ``{enemy.is}``);
:data:`FORMS` lists them, so a story's own texts are checked without the oracle.
"""

import re
from collections.abc import Collection
from typing import Annotated, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, StringConstraints

from wyrd.rules.defaults import left_out_unset

__all__ = ["FORMS", "PRONOUN_WORDS", "Article", "LanguageCode", "PronounWord", "Wording", "placeholder_fault",
           "pronoun_key"]

PRONOUN_WORDS = ("they", "she", "he", "it")


def pronoun_key(text: str) -> str:
    """The pronoun set a story's ``pronouns:`` names: ``she`` for "she" or "she/her" ("" for none)."""
    return text.split("/", 1)[0].strip().casefold()


def _known_pronouns(value: object) -> object:
    if isinstance(value, str) and value.strip() and pronoun_key(value) not in PRONOUN_WORDS:
        raise ValueError(f"unknown pronouns {value!r}: write 'they', 'she', 'he' or 'it' (or 'she/her' ...)")
    return value.strip() if isinstance(value, str) else value


# A character's pronouns as a story writes them: "she", or "she/her" (kept as written).
PronounWord = Annotated[str, BeforeValidator(_known_pronouns)]
Article = Literal["the", "a", "an", "none"]
# The language a story's prose is told in ("fr"); empty: the narrator config's (English by default).
LanguageCode = Annotated[str, StringConstraints(pattern=r"^([a-z]{2,3})?$")]
# The forms a placeholder may ask for after a dot ({lead.their}); see wyrd.oracle.grammar.
FORMS = frozenset({"name", "they", "them", "their", "theirs", "themself", "is", "was", "has", "s", "es", "who",
                   "are", "were", "have", "do"})


_BRACED = re.compile(r"\{\{|\}\}|\{([^{}]*)\}|[{}]")


def placeholder_fault(text: str, names: Collection[str]) -> str | None:
    """Why ``text``'s placeholders are not ``{name}``, ``{Name}``, ``{name.form}`` or ``{name|fallback}``
    with a name of ``names`` (None: they all are)."""
    for match in _BRACED.finditer(text):
        token = match.group(0)
        if token in ("{{", "}}"):
            continue
        inner = match.group(1)
        if inner is None:
            return f"stray {token!r} (write {{{{ or }}}} for a brace itself)"
        base, _, form = inner.split("|", 1)[0].partition(".")
        if base[:1].lower() + base[1:] not in names or (form and form not in FORMS):
            known = ", ".join("{" + n + "}" for n in sorted(names))
            return f"unknown placeholder {{{inner}}}: the placeholders here are {known}, and their forms"
    return None


# How a thing reads mid-sentence, when the name alone will not do ("the old mill").
_Prose = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]


class Wording(BaseModel):
    """How a thing with a name reads mid-sentence (every field optional: left out, the name is read)."""

    model_config = ConfigDict(extra="forbid")
    # Left out of a dump when unset, so a story saved with a game reads as it did before these fields.
    prose: _Prose | None = left_out_unset()
    proper: bool | None = left_out_unset()
    article: Article | None = left_out_unset()
    plural: bool | None = left_out_unset()
    pronouns: PronounWord | None = left_out_unset()

    def wording(self) -> dict[str, object]:
        """The fields set, for :func:`wyrd.oracle.grammar.referent`."""
        return {k: getattr(self, k) for k in ("prose", "proper", "article", "plural", "pronouns")
                if getattr(self, k) is not None}
