"""The whole state of a Thaeborn game, as plain pydantic data.

Besides the characters, the state keeps the *window*: the casts of the latest
action that cast lots (an attack, and the Mettle test it set off). Seed 004 lets
Portents change an outcome whenever lots are cast; [ours] they can change any
cast in the window, until the next action that casts lots or changes a
character's condition closes it. Each cast in the window remembers every
character's condition from just before it, so a Blot-out or a Re-tell can put
things back exactly as they were.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from wyrd.rules.defaults import empty_list
from wyrd.rules.lots.characters import Character, Condition
from wyrd.rules.lots.enums import Lot
from wyrd.rules.lots.fate import Reading
from wyrd.rules.lots.spec import CheckSpec

__all__ = ["CastRecord", "Fight", "GameState"]


class Fight(BaseModel):
    """The Counts of a fight (seed 004 glossary, Count: "A unit used to schedule Actions in combat").

    Attributes:
        ready: The Count at which each combatant's last Action resolves and their
            next may begin (everyone starts at 0).
    """

    ready: dict[str, int] = Field(default_factory=dict)


class CastRecord(BaseModel):
    """One cast of lots still open to Portents.

    Attributes:
        id: The cast's id (``c1``, ``c2``, ...), unique in the game.
        spec: What was cast for, to cast it again on a Re-tell.
        weal: The WEAL die's face.
        woe: The WOE die's face.
        lot: The lot the faces gave.
        reading: The check as read (None for bare lots).
        before: Every character's condition just before the cast.
        retell_of: The cast this one re-tells, if it is a Re-tell.
        retells: How many Re-tells led to this cast (0 for a first cast).
    """

    id: str
    spec: CheckSpec
    weal: int
    woe: int
    lot: Lot
    reading: Reading | None = None
    before: dict[str, Condition] = Field(default_factory=dict)
    retell_of: str | None = None
    retells: int = 0


class GameState(BaseModel):
    characters: dict[str, Character] = Field(default_factory=dict)
    window: list[CastRecord] = Field(default_factory=empty_list)
    casts: int = 0  # casts made so far, Re-tells included (for ids)
    fight: Fight | None = Field(default=None, exclude_if=lambda v: v is None)  # the Counts, while a fight is on
