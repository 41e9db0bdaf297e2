"""``wyrd odds wolden DICE ABILITY``: the exact odds of a Wolden roll.

Seed 001: a pool of 1 to 4 d12; the highest die plus the ability; 6 or less a
failure, 7 to 12 a partial success, 13 or more a success; a pair makes a failure
or a success critical. The table lists the five results (they never overlap), as
fractions and percentages; ``--json`` prints the fractions as strings ("1/3").

Nothing heavy is imported until the handler runs, so ``wyrd --help`` stays fast.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from wyrd.play.cli.output import EXIT_OK, columns, percent, print_json, print_lines

if TYPE_CHECKING:
    from wyrd.rules.wolden.odds import CheckOdds

__all__ = ["MAX_ABILITY", "MAX_DICE", "add"]

MAX_DICE = 4
"""Seed 001: a pool holds at most 4d12."""
MAX_ABILITY = 10
"""Scores stop at 5; room above for bonuses a story may grant."""

# What each result is, in the order the rules core lists them (worst first).
_LABELS = {
    "critical_failure": ("critical failure", "6 or less, with a pair"),
    "failure": ("failure", "6 or less"),
    "partial": ("partial success", "7 to 12"),
    "success": ("success", "13 or more"),
    "critical_success": ("critical success", "13 or more, with a pair"),
}


def _ranged(low: int, high: int, *, d12: bool = False) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high`` (``2`` or, with ``d12``, ``2d12``)."""

    def parse(text: str) -> int:
        clean = text.strip().casefold()
        if d12:
            clean = re.sub(r"d12$", "", clean)
        try:
            number = int(clean)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not low <= number <= high:
            raise argparse.ArgumentTypeError(f"must be {low} to {high} (got {number})")
        return number

    return parse


def add(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``wolden`` to ``wyrd odds``."""
    parser = kinds.add_parser(
        "wolden",
        help="a Wolden roll: the highest of 1-4 d12 plus an ability",
        description=(
            "The chance of each result of a Wolden roll: DICE d12 (1 to 4: one, +1 for a gift, "
            "+1 for an advantage, +1 per helper), the highest die plus ABILITY. 6 or less fails, "
            "7 to 12 is a partial success, 13 or more succeeds; a pair makes a failure or a success "
            "critical."
        ),
    )
    parser.add_argument("dice", metavar="DICE", type=_ranged(1, MAX_DICE, d12=True),
                        help="dice in the pool, 1 to 4 (2 or 2d12)")
    parser.add_argument("ability", metavar="ABILITY", type=_ranged(0, MAX_ABILITY),
                        help=f"the ability added to the highest die, 0 to {MAX_ABILITY}")
    parser.add_argument("--json", action="store_true", help="print JSON, fractions as strings")
    parser.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from wyrd.rules.wolden.odds import check_odds

    odds = check_odds(args.dice, args.ability)
    if args.json:
        print_json(_as_json(odds))
    else:
        print_lines(_lines(odds))
    return EXIT_OK


def _as_json(odds: CheckOdds) -> dict[str, object]:
    return {
        "kind": "wolden_odds",
        "dice": odds.dice,
        "ability": odds.ability,
        "results": {result.value: str(p) for result, p in odds.outcomes},
        "any_failure": str(odds.p_any_failure),
        "any_success": str(odds.p_any_success),
        "expected_rating_change": str(odds.expected_rating_change),
    }


def _lines(odds: CheckOdds) -> list[str]:
    lines = [f"Wolden roll: {odds.dice}d12, the highest die + {odds.ability}."]
    if odds.dice == 1:
        lines.append("One die can't show a pair, so nothing is critical.")
    lines.append("")
    rows = []
    for result, p in odds.outcomes:
        name, total = _LABELS[result.value]
        rows.append([name, total, str(p), percent(p)])
    lines += columns(["result", "total", "chance", ""], rows, right={2, 3})
    change = odds.expected_rating_change
    lines += [
        "",
        f"Any failure (in a fight, the enemy hits): {odds.p_any_failure} ({percent(odds.p_any_failure)}).",
        f"Any success: {odds.p_any_success} ({percent(odds.p_any_success)}).",
        f"An extended challenge's rating moves {change} a roll on average ({float(change):+.2f}).",
    ]
    return lines
