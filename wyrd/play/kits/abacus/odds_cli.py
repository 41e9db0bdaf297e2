"""``wyrd odds challenge`` and ``wyrd odds influence``: the exact odds of Wyrd Abacus rolls.

Seed 000: a challenge roll is one d6 plus the points assigned against the
challenge's value, with the scene's Wyrd pool drawn after a failed roll (+1 a
point); an influence or Wyrd roll is the highest of N d6 (no dice counts as 1).
The numbers come from :mod:`wyrd.rules.odds`, imported only when a command runs,
so ``wyrd --version`` stays fast.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from wyrd.play.cli.args import whole
from wyrd.play.cli.output import EXIT_OK, chance_cells, columns, print_json, print_lines

if TYPE_CHECKING:
    from wyrd.rules.odds import ChallengeOdds, Chance, InfluenceOdds

__all__ = ["MAX_DICE", "MAX_EXACT_DICE", "MAX_VALUE", "add"]

# Generous limits that keep an answer instant and its table readable.
MAX_VALUE = 1000
MAX_DICE = 100
# Past 9 dice the fractions (over 6^n) are too long to read: the text shows percentages only,
# JSON keeps the fractions.
MAX_EXACT_DICE = 9


def add(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``challenge`` and ``influence`` to the kinds of ``wyrd odds``."""
    challenge = kinds.add_parser(
        "challenge",
        help="a challenge roll: 1d6 + points against a value",
        description=(
            "The chance that one d6 plus the points assigned reaches VALUE, for each number "
            "of points from 0 up to --points (or up to the points that make it certain), "
            "without and with the scene's Wyrd pool drawn after a failed roll (+1 a point)."
        ),
    )
    challenge.add_argument("value", metavar="VALUE", type=whole(high=MAX_VALUE), help="challenge value")
    challenge.add_argument(
        "--points",
        "-p",
        type=whole(high=MAX_VALUE),
        default=None,
        metavar="N",
        help="points you mean to assign (the table shows 0 to N)",
    )
    challenge.add_argument(
        "--pool",
        "-w",
        type=whole(high=MAX_VALUE),
        default=0,
        metavar="W",
        help="Wyrd points left in the scene pool (default 0)",
    )
    challenge.add_argument("--json", action="store_true", help="print JSON")
    challenge.set_defaults(handler=_run_challenge)

    influence = kinds.add_parser(
        "influence",
        help="an influence or Wyrd roll: the highest of N d6",
        description="The chance of each result when N d6 are rolled and the highest counts.",
    )
    influence.add_argument("dice", metavar="N", type=whole(high=MAX_DICE), help="number of dice")
    influence.add_argument("--json", action="store_true", help="print JSON")
    influence.set_defaults(handler=_run_influence)


def _run_challenge(args: argparse.Namespace) -> int:
    from wyrd.rules.odds import certain_points, challenge_table

    value: int = args.value
    pool: int = args.pool
    points: int | None = args.points
    top = points if points is not None else certain_points(value)
    table = challenge_table(value, top, pool)
    if args.json:
        print_json(
            {
                "kind": "challenge_odds",
                "value": value,
                "pool": pool,
                "points": points,
                "rows": [row.model_dump(mode="json") for row in table],
            }
        )
    else:
        print_lines(_challenge_lines(table, value, pool, points))
    return EXIT_OK


def _challenge_lines(table: list[ChallengeOdds], value: int, pool: int, points: int | None) -> list[str]:
    lines = [f"Challenge {value}: one d6 plus the points assigned must reach {value}."]
    if pool:
        s = "" if pool == 1 else "s"
        lines.append(f"Scene pool: {pool} Wyrd point{s}, each +1 if drawn after a failed roll.")
    lines.append("")
    header = ["points", "overcome", ""]
    if pool:
        header += ["with the pool", "", "avg draws"]
    rows = []
    for row in table:
        cells = [str(row.points), *chance_cells(row.p_overcome)]
        if pool:
            cells += [*chance_cells(row.p_with_pool), str(row.expected_draws)]
        rows.append(cells)
    lines += columns(header, rows, right={0, 2, 4, 5})
    if pool and points is not None:
        chosen = table[points]
        lines += ["", f"With {points} point{'' if points == 1 else 's'}, Wyrd draws needed:"]
        detail = [[_draws_label(c.outcome), *chance_cells(c.p)] for c in chosen.draws]
        detail.append(["more than the pool", *chance_cells(chosen.p_out_of_reach)])
        lines += columns(None, detail, right={2}, indent="  ")
    return lines


def _draws_label(n: int) -> str:
    return "none (the die does it)" if n == 0 else f"{n}"


def _run_influence(args: argparse.Namespace) -> int:
    from wyrd.rules.odds import influence_odds

    odds = influence_odds(args.dice)
    if args.json:
        print_json({"kind": "influence_odds", **odds.model_dump(mode="json")})
    else:
        print_lines(_influence_lines(odds))
    return EXIT_OK


def _influence_lines(odds: InfluenceOdds) -> list[str]:
    n = odds.dice
    exact = n <= MAX_EXACT_DICE
    if n == 0:
        lines = ["No dice: the result counts as 1 (and no die shows it)."]
    else:
        lines = [f"Influence roll of {n} d6: the result is the highest die."]
    if not exact:
        lines.append("(Percentages only for so many dice; --json gives the exact fractions.)")
    lines.append("")
    lines += columns(
        ["result", "chance", ""],
        [[str(c.outcome), *chance_cells(c.p, exact)] for c in odds.highest],
        right={0, 2},
    )
    lines.append("")
    mean = str(odds.mean) if exact else ""
    lines += columns(
        None,
        [
            ["any 6 (on a Wyrd roll, a twist)", *chance_cells(odds.p_any_six, exact)],
            ["a best of 1 or 2 (on a Wyrd roll, an intrusion)", *chance_cells(odds.p_low, exact)],
            ["average result", mean, f"{float(odds.mean):.2f}"],
        ],
        right={2},
    )
    if n:
        lines += ["", "Dice showing the result (breaks ties):"]
        lines += _distribution_lines(odds.ties, exact)
        lines += ["", "Number of 6s:"]
        lines += _distribution_lines(odds.sixes, exact)
    return lines


def _distribution_lines(chances: tuple[Chance, ...], exact: bool) -> list[str]:
    """One row per outcome; outcomes under 0.1% are folded into one line to keep it short."""
    from fractions import Fraction

    shown = [c for c in chances if c.p >= Fraction(1, 1000)]
    rows = [[str(c.outcome), *chance_cells(c.p, exact)] for c in shown]
    if len(shown) < len(chances):
        rest = sum((c.p for c in chances if c not in shown), Fraction(0))
        rows.append(["others", *chance_cells(rest, exact)])
    return columns(None, rows, right={0, 2}, indent="  ")
