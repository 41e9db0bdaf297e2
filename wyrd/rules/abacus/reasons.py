"""Why the Wyrd is rolled or drawn and points come back: the rules' own words, as enums.

Each reason is a :class:`~enum.StrEnum` whose value is the word the events have
always carried, so an event's JSON is unchanged while the code that reads it (the
kit's moments, its scene test, the twists) matches the enum, never English.

A Wyrd roll or a recovery carries a :data:`Reason`: one of the rules' own reasons
(the enum), or the players' own words for a roll they called (``wyrd Ada Bo
because the bell tolls``), which stay text. A Wyrd draw's reason is a sentence
that begins with a :class:`DrawReason` and names what it was for
(``"to overcome Barrow door"``): :meth:`DrawReason.of` reads which.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import BeforeValidator

__all__ = ["DrawReason", "Reason", "RecoveryReason", "RollReason", "reason_of"]


class RollReason(StrEnum):
    """Why a Wyrd roll (an ``influence_rolled`` event of the Wyrd) happened, or a point came back
    (``points_recovered``: at a rest, or at the scene's end)."""

    CALLED = "called"  # the players call for it (`wyrd`), giving no words of their own
    DEFEAT = "defeat"
    FINALE = "finale"
    SCENE_TEST = "scene test"  # a scene's first roll (DESIGN.md, "The scene test")
    SCENE_END = "scene end"
    REST = "rest"
    STAGE_RULE = "called by a stage rule"
    SINGLED_OUT = "singled out by a stage rule"


class RecoveryReason(StrEnum):
    """Why a point came back other than a rest or the scene's end (:class:`RollReason`)."""

    CONNECTION = "connection"  # a bond to a character who overcame a challenge


class DrawReason(StrEnum):
    """Why Wyrd was drawn: the start of a ``wyrd_drawn`` event's reason (the rest names what for)."""

    OVERCOME = "to overcome"  # after a roll fell short (challenge.py)
    WORK = "to work"  # the cost of magic (magic.py)
    BIND = "to bind"
    PRICE = "as the price of attempting"
    SPEND = "for"  # another's ability or an absent helper

    @classmethod
    def of(cls, reason: object) -> DrawReason | None:
        """The reason a draw's text begins with (the longest that fits), or None."""
        text = str(reason or "")
        found = [r for r in cls if text == r.value or text.startswith(r.value + " ")]
        return max(found, key=lambda r: len(r.value), default=None)

    def said(self, what: str) -> str:
        """The draw's reason for ``what``: ``DrawReason.OVERCOME.said("Barrow door")``."""
        return f"{self.value} {what}"


def reason_of(value: object) -> object:
    """One of the rules' reasons as its enum; anything else (the players' words) as it is."""
    if type(value) is str:  # an enum member is a str too, and is already what it should be
        return _BY_WORD.get(value, value)
    return value


# Every reason by its word, looked up once per event rather than tried enum by enum.
_BY_WORD: dict[str, StrEnum] = {m.value: m for enum in (RollReason, RecoveryReason) for m in enum}


# A roll's or a recovery's reason: the rules' enum, or the players' own words.
Reason = Annotated[RollReason | RecoveryReason | str, BeforeValidator(reason_of)]
