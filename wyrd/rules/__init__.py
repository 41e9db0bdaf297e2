"""The strict rules core of Wyrd: one package per ruleset, and what they share.

``wyrd.rules`` imports only the standard library and pydantic: no I/O, no printing,
no global ``random`` (every die goes through :class:`wyrd.rules.dice.Dice`). The
rulesets themselves are found through :mod:`wyrd.rulesets`.
"""

from __future__ import annotations

from wyrd.rules.errors import RuleError

__all__ = ["RuleError"]
