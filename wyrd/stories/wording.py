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
``pronouns: she`` (``they``, ``she``, ``he`` or ``it``; ``they`` when left out).

The table texts use these through the placeholder forms of
:mod:`wyrd.oracle.text` (``{challenge}``, ``{Challenge}``, ``{lead.their}``, ``{enemy.is}``);
:data:`FORMS` lists them, so a story's own texts are checked without the oracle.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

__all__ = ["FORMS", "Article", "PronounWord", "Wording", "unset"]

PronounWord = Literal["they", "she", "he", "it"]
Article = Literal["the", "a", "an", "none"]
# The forms a placeholder may ask for after a dot ({lead.their}); see wyrd.oracle.grammar.
FORMS = frozenset({"name", "they", "them", "their", "theirs", "themself", "is", "was", "has", "s", "who"})


def unset(value: object) -> bool:
    """A wording field left out (so a dump leaves it out too)."""
    return value is None


class Wording(BaseModel):
    """How a thing with a name reads mid-sentence (every field optional: left out, the name is read)."""

    model_config = ConfigDict(extra="forbid")
    # Left out of a dump when unset, so a story saved with a game reads as it did before these fields.
    prose: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)] | None = Field(
        default=None, exclude_if=unset)
    proper: bool | None = Field(default=None, exclude_if=unset)
    article: Article | None = Field(default=None, exclude_if=unset)
    plural: bool | None = Field(default=None, exclude_if=unset)
    pronouns: PronounWord | None = Field(default=None, exclude_if=unset)

    def wording(self) -> dict[str, object]:
        """The fields set, for :func:`wyrd.oracle.grammar.referent`."""
        return {k: getattr(self, k) for k in ("prose", "proper", "article", "plural", "pronouns")
                if getattr(self, k) is not None}
