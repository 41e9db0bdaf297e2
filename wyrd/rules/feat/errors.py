"""The specific ways Heroes of the Fall refuses an action.

Each class names a family of rules; each raise names the exact rule in ``rule``
(for instance ``feat.level.range`` or ``feat.wyrd.not-enough``) and says why in
one sentence. Actions raise them before anything changes (or the safe-action
wrapper rewinds), so a refused action leaves state and dice as they were.
"""

from __future__ import annotations

from wyrd.rules.errors import RuleError
from wyrd.rules.feat.characters import CreationError

__all__ = [
    "CreationError",
    "FeatError",
    "NotAble",
    "NotEnoughWyrd",
    "RuleError",
    "UnknownName",
]


class UnknownName(RuleError):
    """No character, skill or attribute goes by that name."""

    rule = "feat.unknown"


class NotAble(RuleError):
    """The character cannot take this part: dead, or out of action after a shock."""

    rule = "feat.able"


class NotEnoughWyrd(RuleError):
    """Bought 8s the character cannot pay for, or more than one on a die."""

    rule = "feat.wyrd"


class FeatError(RuleError):
    """A feat asked for in a way the rules don't allow (level off the table, a repeated search...)."""

    rule = "feat.feat"
