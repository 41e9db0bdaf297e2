"""The specific ways Thaeborn refuses an action.

Each class names a family of rules; each raise names the exact rule in ``rule``
(for instance ``lots.portent.cost``) and says why in one sentence.
"""

from __future__ import annotations

from wyrd.rules.errors import RuleError
from wyrd.rules.lots.characters import CreationError

__all__ = [
    "BadValue",
    "CreationError",
    "NotEnoughPoints",
    "NotEnoughPortents",
    "OutOfTurn",
    "RuleError",
    "UnknownName",
]


class UnknownName(RuleError):
    """No character (or cast) goes by that name."""

    rule = "lots.unknown"


class OutOfTurn(RuleError):
    """The action does not fit the moment (incapacitated, nothing to change, ...)."""

    rule = "lots.timing"


class BadValue(RuleError):
    """A number the rules can't take (negative effort, no attribute, ...)."""

    rule = "lots.value"


class NotEnoughPortents(RuleError):
    rule = "lots.portent"


class NotEnoughPoints(RuleError):
    """Too few Story Points or Development Points for what was asked."""

    rule = "lots.points"
