"""``wyrd odds``: the exact odds of a roll, each kind added by the ruleset it belongs to.

A ruleset's description (:class:`~wyrd.rulesets.Ruleset`) may name an odds module
(its ``odds`` field). That module has one function, ``add(kinds)``, which adds
the ruleset's kinds (``wyrd odds challenge``, ``wyrd odds wolden`` ...) to the
command's subparsers, each with a ``handler`` that imports the rules only when
it runs. So an installed fifth ruleset brings its own odds with no edit here,
and ``wyrd --version`` loads no rules.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Protocol, cast

from wyrd.rulesets import Ruleset, rulesets

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["OddsModule", "add_odds", "odds_module"]


class OddsModule(Protocol):
    """What a ruleset's odds module offers the ``wyrd odds`` command."""

    def add(self, kinds: Subparsers) -> None:
        """Add this ruleset's kinds to the subparsers of ``wyrd odds``."""


def odds_module(ruleset: Ruleset) -> OddsModule | None:
    """The odds module of ``ruleset``, imported; None if it has none."""
    if ruleset.odds is None:
        return None
    module = ruleset.part("odds")
    if not callable(getattr(module, "add", None)):
        raise TypeError(f"{ruleset.odds}, the odds module of the ruleset {ruleset.id!r}, has no add(kinds)")
    return cast(OddsModule, module)


def add_odds(subparsers: Subparsers, *, kinds: bool = True) -> None:
    """Add ``wyrd odds`` with the kinds of every ruleset that has an odds module.

    Args:
        subparsers: The subparsers of the ``wyrd`` command.
        kinds: False adds the command for the top-level help only, without importing any
            ruleset's odds module (the parser built to run another subcommand).
    """
    odds = subparsers.add_parser(
        "odds",
        help="exact odds of a roll",
        description="Exact odds of a roll, as fractions and percentages.",
    )
    if not kinds:
        return
    by_kind = odds.add_subparsers(dest="kind", metavar="KIND", required=True)
    for ruleset in rulesets():
        module = odds_module(ruleset)
        if module is not None:
            module.add(by_kind)
