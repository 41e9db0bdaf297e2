"""The error every refused action raises.

A :class:`RuleError` names the rule that refused the action (``rule``, a stable
dotted id such as ``abacus.spend.not-enough-points``) and says why in one
sentence. Actions raise it before they change anything, so a refused action
leaves the state exactly as it was.
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["RuleError"]


class RuleError(Exception):
    """An action broke a rule; ``rule`` names it, the message says why."""

    rule: ClassVar[str] = "rule"

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if rule is not None:
            self.rule = rule  # type: ignore[misc]

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.message,), {"rule": self.rule})
