"""The specific ways the Wyrd Abacus refuses an action.

Each class names a family of rules; each raise names the exact rule in ``rule``
(for instance ``abacus.spend.not-enough-points``) and says why.
"""

from __future__ import annotations

from wyrd.rules.abacus.characters import CreationError
from wyrd.rules.errors import RuleError

__all__ = [
    "CreationError",
    "MagicError",
    "NotEnoughPoints",
    "NotEnoughWyrd",
    "OutOfTurn",
    "RuleError",
    "UnknownName",
]


class UnknownName(RuleError):
    """No character, challenge, clock or rule goes by that name."""

    rule = "abacus.unknown"


class OutOfTurn(RuleError):
    """The action does not fit the moment (no scene, a roll already open, ...)."""

    rule = "abacus.timing"


class NotEnoughPoints(RuleError):
    """A character has fewer ability points than the action asks."""

    rule = "abacus.points"


class NotEnoughWyrd(RuleError):
    """The scene pool (or the drawer) cannot give the Wyrd the action needs."""

    rule = "abacus.wyrd"


class MagicError(RuleError):
    rule = "abacus.magic"
