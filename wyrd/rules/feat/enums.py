"""The fixed vocabularies of Heroes of the Fall: attributes, tiers, how a feat is read, paces.

Seed 003 names four attributes a character's feats draw on (Vigour, Mettle, Wit,
Glamour); RULES.md adds Spirit [pub]. Every attribute runs from 0 to 9.

The Feat table reads its dice in one of two ways (RULES.md): above level 0 every
die read must reach its minimum (:attr:`Needs.ALL`); at 0 and below one die
reaching its minimum is enough (:attr:`Needs.ANY`).

Tiers (Novice, Journeyman, Expert) set a new character's budgets; the seed gives
no numbers for them, so the budgets in :mod:`wyrd.rules.feat.characters` are [ours].
Paces and slope directions are for :mod:`wyrd.rules.feat.movement`; Edges (only
speed has a rule in the seed) for :mod:`wyrd.rules.feat.attributes`.
"""

from __future__ import annotations

from enum import StrEnum
from functools import lru_cache

__all__ = ["Attribute", "Edge", "Going", "Needs", "Pace", "Tier"]


class Attribute(StrEnum):
    """The five attributes, each 0 to 9."""

    VIGOUR = "vigour"  # strength and agility: physical feats, who acts first, races
    METTLE = "mettle"  # resolve: shock, fatigue, survival; at 0 the character dies
    WIT = "wit"  # intelligence, cunning and the senses: searching, stalking
    GLAMOUR = "glamour"  # allure and presence: how others react
    SPIRIT = "spirit"  # [pub] named by the published game; no rule of the seed uses it

    @classmethod
    def lookup(cls, name: str) -> Attribute | None:
        """The attribute called ``name`` (any case, unique prefix), or None."""
        return _attribute_named(name)


@lru_cache(maxsize=1024)  # every feat reads its trait's name: skills and attributes are few
def _attribute_named(name: str) -> Attribute | None:
    folded = name.strip().casefold()
    if not folded:
        return None
    exact = [a for a in Attribute if a.value == folded]
    if exact:
        return exact[0]
    found = [a for a in Attribute if a.value.startswith(folded)]
    return found[0] if len(found) == 1 else None


class Edge(StrEnum):
    """The Edges seed 003 gives a rule for.

    Seed 003: "If a character has an Edge of speed he may activate it in this situation
    to ensure that he acts first" (the situation: who reacts first). The text names no
    other Edge and no price for activating one.
    """

    SPEED = "speed"

    @classmethod
    def lookup(cls, name: str) -> Edge | None:
        """The Edge called ``name`` (any case), or None."""
        folded = name.strip().casefold()
        return next((e for e in cls if e.value == folded), None)


class Tier(StrEnum):
    """How seasoned a new character is; each tier has its own creation budget [ours]."""

    NOVICE = "novice"
    JOURNEYMAN = "journeyman"
    EXPERT = "expert"


class Needs(StrEnum):
    """How the dice read are matched against the minimums of a Feat level."""

    ALL = "all"  # levels +1 to +8: every die read must reach its minimum
    ANY = "any"  # levels -8 to 0: one die read reaching its minimum is enough


class Pace(StrEnum):
    """How fast a character moves in a one-second round ([ours] base rates)."""

    WALK = "walk"
    JOG = "jog"
    RUN = "run"
    SPRINT = "sprint"


class Going(StrEnum):
    """Which way a character crosses a slope: it slows climbers more than descenders."""

    UP = "up"
    DOWN = "down"
