"""The ``wyrd`` command: argument parsing and one handler per subcommand.

Each subcommand is added to the parser by its own ``_add_*`` function, listed in
``_SUBCOMMANDS``, and sets ``handler`` to a function that takes the parsed
arguments and returns an exit code. Handlers import what they need when they
run, so ``wyrd --version`` and ``wyrd --help`` load nothing heavy (no pydantic).

Exit codes: 0 success, 1 a failure while running, 2 invalid input (bad
arguments or values the rules refuse). Invalid input is reported on stderr in
one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from wyrd.play.cli import play as cli_play
from wyrd.play.cli import story as cli_story
from wyrd.play.cli.args import whole
from wyrd.play.cli.simulate import add_simulate
from wyrd.play.kits.feat import odds_cli as cli_odds_feat
from wyrd.play.kits.lots import odds_cli as cli_odds_lots
from wyrd.play.kits.wolden import odds_cli as cli_odds_wolden

if TYPE_CHECKING:
    from fractions import Fraction

    from wyrd.rules.odds import ChallengeOdds, Chance, InfluenceOdds

__all__ = ["build_parser", "main"]

PROG = "wyrd"
FALLBACK_VERSION = "0.1.0"

# Generous limits that keep an answer instant and its table readable.
MAX_VALUE = 1000
MAX_DICE = 100
# Past 9 dice the fractions (over 6^n) are too long to read: the text shows percentages only,
# JSON keeps the fractions.
MAX_EXACT_DICE = 9

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2

Handler = Callable[[argparse.Namespace], int]


def _version() -> str:
    """The installed distribution's version, or the source tree's if it isn't installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wyrd")
    except PackageNotFoundError:
        return FALLBACK_VERSION


class _VersionAction(argparse.Action):
    """``--version``: looks the version up only when asked (argparse's own action can't)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show the version and exit", **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(f"{PROG} {_version()}")
        parser.exit(EXIT_OK)


# --- wyrd odds ---------------------------------------------------------------------------------


def _add_odds(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    odds = subparsers.add_parser(
        "odds",
        help="exact odds of a roll",
        description="Exact odds of a roll, as fractions and percentages.",
    )
    kinds = odds.add_subparsers(dest="kind", metavar="KIND", required=True)

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
    challenge.set_defaults(handler=_run_odds_challenge)

    influence = kinds.add_parser(
        "influence",
        help="an influence or Wyrd roll: the highest of N d6",
        description="The chance of each result when N d6 are rolled and the highest counts.",
    )
    influence.add_argument("dice", metavar="N", type=whole(high=MAX_DICE), help="number of dice")
    influence.add_argument("--json", action="store_true", help="print JSON")
    influence.set_defaults(handler=_run_odds_influence)
    for add in ODDS_KINDS:
        add(kinds)


# Other rulesets' `wyrd odds KIND ...`: each module adds its own parser (and imports lazily).
ODDS_KINDS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    cli_odds_wolden.add_wolden,
    cli_odds_feat.add_feat,
    cli_odds_lots.add_lots,
]


def _run_odds_challenge(args: argparse.Namespace) -> int:
    from wyrd.rules.odds import certain_points, challenge_table

    value: int = args.value
    pool: int = args.pool
    points: int | None = args.points
    top = points if points is not None else certain_points(value)
    table = challenge_table(value, top, pool)
    if args.json:
        _print_json(
            {
                "kind": "challenge_odds",
                "value": value,
                "pool": pool,
                "points": points,
                "rows": [row.model_dump(mode="json") for row in table],
            }
        )
    else:
        _print_lines(_challenge_lines(table, value, pool, points))
    return EXIT_OK


def _challenge_lines(
    table: list[ChallengeOdds], value: int, pool: int, points: int | None
) -> list[str]:
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
        cells = [str(row.points), *_chance_cells(row.p_overcome)]
        if pool:
            cells += [*_chance_cells(row.p_with_pool), str(row.expected_draws)]
        rows.append(cells)
    lines += _columns(header, rows, right={0, 2, 4, 5})
    if pool and points is not None:
        chosen = table[points]
        lines += ["", f"With {points} point{'' if points == 1 else 's'}, Wyrd draws needed:"]
        detail = [[_draws_label(c.outcome), *_chance_cells(c.p)] for c in chosen.draws]
        detail.append(["more than the pool", *_chance_cells(chosen.p_out_of_reach)])
        lines += _columns(None, detail, right={2}, indent="  ")
    return lines


def _draws_label(n: int) -> str:
    return "none (the die does it)" if n == 0 else f"{n}"


def _run_odds_influence(args: argparse.Namespace) -> int:
    from wyrd.rules.odds import influence_odds

    odds = influence_odds(args.dice)
    if args.json:
        _print_json({"kind": "influence_odds", **odds.model_dump(mode="json")})
    else:
        _print_lines(_influence_lines(odds))
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
    lines += _columns(
        ["result", "chance", ""],
        [[str(c.outcome), *_chance_cells(c.p, exact)] for c in odds.highest],
        right={0, 2},
    )
    lines.append("")
    mean = str(odds.mean) if exact else ""
    lines += _columns(
        None,
        [
            ["any 6 (on a Wyrd roll, a twist)", *_chance_cells(odds.p_any_six, exact)],
            ["a best of 1 or 2 (on a Wyrd roll, an intrusion)", *_chance_cells(odds.p_low, exact)],
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
    rows = [[str(c.outcome), *_chance_cells(c.p, exact)] for c in shown]
    if len(shown) < len(chances):
        rest = sum((c.p for c in chances if c not in shown), Fraction(0))
        rows.append(["others", *_chance_cells(rest, exact)])
    return _columns(None, rows, right={0, 2}, indent="  ")


# --- formatting helpers ------------------------------------------------------------------------


def _percent(p: Fraction) -> str:
    """A percentage that never rounds a possibility to 0% or 100%."""
    if p == 0:
        return "0%"
    if p == 1:
        return "100%"
    text = f"{float(p) * 100:.1f}%"
    if text == "100.0%":
        return ">99.9%"
    if text == "0.0%":
        return "<0.1%"
    return text


def _chance_cells(p: Fraction, exact: bool = True) -> list[str]:
    """A fraction and its percentage, or just the percentage when ``exact`` is False."""
    return [str(p) if exact else "", _percent(p)]


def _columns(
    header: list[str] | None, rows: list[list[str]], *, right: set[int], indent: str = ""
) -> list[str]:
    """Align cells in columns; column numbers in ``right`` are right-aligned."""
    table = ([header] if header else []) + rows
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    out = []
    for r in table:
        cells = [
            cell.rjust(width) if i in right else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(r, widths, strict=True))
        ]
        out.append((indent + "  ".join(cells)).rstrip())
    return out


def _print_lines(lines: list[str]) -> None:
    print("\n".join(lines))


def _print_json(data: object) -> None:
    print(json.dumps(data, indent=2))


# --- the entry point ---------------------------------------------------------------------------

_SUBCOMMANDS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    cli_play.add_play,
    cli_play.add_resume,
    cli_play.add_log,
    cli_play.add_export,
    cli_play.add_saves,
    cli_story.add_stories,
    cli_story.add_check,
    cli_story.add_schema,
    cli_story.add_oracle,
    _add_odds,
    add_simulate,
]


def build_parser() -> argparse.ArgumentParser:
    """The ``wyrd`` argument parser, with every subcommand in ``_SUBCOMMANDS``."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Tabletop role-playing without a narrator.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in _SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the ``wyrd`` command.

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit code: 0 on success, 1 on a failure, 2 on invalid input.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # argparse exits on --help, --version and bad arguments
        if exit_.code is None:
            return EXIT_OK
        return exit_.code if isinstance(exit_.code, int) else EXIT_USAGE
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        # `wyrd` alone starts a game, as `wyrd play` does.
        args = parser.parse_args(["play"])
        handler = args.handler
    try:
        return handler(args)
    except ValueError as error:  # a value the rules refuse
        print(f"{PROG}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `wyrd odds ... | head`: the reader left, nothing to report
        # Point stdout at devnull so the interpreter's final flush doesn't complain again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FAILURE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
