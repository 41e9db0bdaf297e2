"""The fixed vocabularies of Thaeborn: lots, results, disciplines, commitment, portents.

Seed 004: a check casts two d4, the WEAL die and the WOE die; the special
combinations are the lots (CRIT, FUMBLE, WASTE, WEAL, WOE). A check ends in a
success, a failure, or (on a WASTE) neither. Characters have six Disciplines.
An assessment is made with one of three degrees of commitment. Portents are
spent to Blot-out or Re-tell a cast, at a price that depends on whose roll it was.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "Change",
    "CheckForm",
    "Commitment",
    "Conversion",
    "Discipline",
    "Fortune",
    "GapSize",
    "IncapacityReason",
    "Lot",
    "PortentUse",
    "Result",
    "Stat",
    "Whose",
]


class Lot(StrEnum):
    """What fate made of one cast. Read in this order; the first that applies is the lot."""

    CRIT = "crit"  # both dice show 4
    FUMBLE = "fumble"  # both dice show 1
    WASTE = "waste"  # WEAL die 4 and WOE die 1
    WEAL = "weal"  # WEAL die 4 (the WOE die not 1 or 4)
    WOE = "woe"  # WOE die 1 (the WEAL die not 4 or 1)
    NONE = "none"  # nothing special: the check stands as compared


class Result(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    WASTE = "waste"  # neither: the action stalls, its time and effort are lost


class Change(StrEnum):
    """How the lot changed the result that attribute and difficulty gave."""

    NONE = "none"  # the result stands as compared
    CRIT_SUCCEEDS = "crit_succeeds"  # a CRIT turned a failure into a success
    CRIT_BARRED = "crit_barred"  # a CRIT on a failure the Rule of Fours keeps a failure
    FOURS_BARRED = "fours_barred"  # the Attribute meets the Difficulty, but the Tier is 4+ above the Proficiency
    FUMBLE_FAILS = "fumble_fails"  # a FUMBLE turned a success into a failure
    FUMBLE_BARRED = "fumble_barred"  # a FUMBLE on a success the Rule of Fours keeps a success
    WASTED = "wasted"  # a WASTE made it neither


class Fortune(StrEnum):
    """The benefit or consequence fate attaches to a cast, whatever the result.

    A CRIT brings a heightened WEAL, a FUMBLE a heightened WOE; a WASTE brings
    neither, since the action itself is lost.
    """

    NONE = "none"
    WEAL = "weal"
    GREAT_WEAL = "great_weal"
    WOE = "woe"
    GREAT_WOE = "great_woe"

    @property
    def is_weal(self) -> bool:
        return self in (Fortune.WEAL, Fortune.GREAT_WEAL)

    @property
    def is_woe(self) -> bool:
        return self in (Fortune.WOE, Fortune.GREAT_WOE)


class CheckForm(StrEnum):
    """What a cast of lots was for; a Re-tell makes the same kind of cast again."""

    CHECK = "check"  # an attribute against a difficulty
    ATTACK = "attack"  # the attacker's cast: Offense against Defense
    DEFENCE = "defence"  # the defender's cast: Defense against Offense
    METTLE = "mettle"  # Test Your Mettle: Mettle against total Pain
    BARE = "bare"  # lots cast with no check at all (a secret roll)


class Discipline(StrEnum):
    WILLPOWER = "willpower"
    PROWESS = "prowess"
    SURVIVAL = "survival"
    SUBTERFUGE = "subterfuge"
    INTUITION = "intuition"
    INGENUITY = "ingenuity"


class Stat(StrEnum):
    """Seed 004 glossary: "a tracked character value such as Mettle, Capacity, Bulk, Hindrance,
    or Mobility, used as a quick reference during play" (Mettle has its own place on the sheet)."""

    CAPACITY = "capacity"
    BULK = "bulk"
    HINDRANCE = "hindrance"
    MOBILITY = "mobility"


class Commitment(StrEnum):
    """How closely a character handles what they assess."""

    OBSERVE = "observe"  # looking only: Tier counts 1 lower
    TOUCH = "touch"  # a cautious touch or basic inspection: Tier as it is
    AGGRESSIVE = "aggressive"  # prodding, prying, tool use: Tier counts 1 higher (risky)

    @property
    def modifier(self) -> int:
        return {Commitment.OBSERVE: -1, Commitment.TOUCH: 0, Commitment.AGGRESSIVE: 1}[self]


class GapSize(StrEnum):
    """How far a target's Tier lies above the assessor's (the hint a narrator would give)."""

    NONE = "none"  # met or exceeded: the Tier is known exactly
    SMALL = "small"  # 1 to 3 above: beyond the character now, but success is possible
    LARGE = "large"  # 4 or more above: past the Rule of Fours, beyond anything they know


class PortentUse(StrEnum):
    BLOT_OUT = "blot_out"  # the act never happened; its effort is lost
    RETELL = "retell"  # cast again and keep only the new outcome; the effort still counts


class Whose(StrEnum):
    """Whose cast a Portent changes, which sets its price."""

    OWN = "own"
    PLAYER = "player"  # another player's character
    NPC = "npc"  # the narrator's roll; without a narrator, an NPC's or the world's

    @property
    def cost(self) -> int:
        return {Whose.OWN: 1, Whose.PLAYER: 2, Whose.NPC: 3}[self]


class Conversion(StrEnum):
    """What Story Points can become (one for one, [ours])."""

    PORTENTS = "portents"
    DEVELOPMENT = "development"


class IncapacityReason(StrEnum):
    """Why a character is incapacitated: the Pain reached twice their Mettle, or a FUMBLE on the Mettle test."""

    FUMBLE = "fumble"
    PAIN = "pain"
