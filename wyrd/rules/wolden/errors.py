"""The specific ways Wolden refuses an action.

Each class names a family of rules; each raise names the exact rule in ``rule``
(for instance ``wolden.pool.max-dice``) and says why in one sentence. Every
refusal happens before anything changes, so state and dice stay as they were.
"""

from __future__ import annotations

from wyrd.rules.errors import RuleError

__all__ = [
    "CreationError",
    "DowntimeError",
    "OutOfTurn",
    "PoolError",
    "RuleError",
    "UnknownName",
]


class CreationError(RuleError):
    """A character the creation rules forbid."""

    rule = "wolden.character"


class UnknownName(RuleError):
    """No character, cult, enemy, challenge, gift or item goes by that name."""

    rule = "wolden.unknown"


class OutOfTurn(RuleError):
    """The action does not fit the moment (a roll already open, a round already acted in, ...)."""

    rule = "wolden.timing"


class PoolError(RuleError):
    """The dice pool cannot be assembled that way."""

    rule = "wolden.pool"


class DowntimeError(RuleError):
    """Downtime asked for when or how the rules don't allow it."""

    rule = "wolden.downtime"
