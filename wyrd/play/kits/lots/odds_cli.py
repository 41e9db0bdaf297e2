"""``wyrd odds lots``: the exact odds of a Thaeborn check (seed 004), before the lots are cast.

A check succeeds when the Attribute meets the Difficulty, then two d4 (WEAL and
WOE) give one lot of sixteen casts that may turn it: a CRIT lifts a failure, a
FUMBLE sinks a success (both within the Rule of Fours), a WASTE makes it
neither. The numbers come from :mod:`wyrd.rules.lots.odds`, which is imported only
when the command runs, so ``wyrd --help`` stays light.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from wyrd.play.cli.output import EXIT_OK, chance_cells, columns, print_json, print_lines

if TYPE_CHECKING:
    from wyrd.rules.lots.odds import CheckOdds

__all__ = ["LIMIT", "add"]

LIMIT = 100
"""Tiers run 0 to 10; modifiers may push a value outside, but never this far."""


def _number(text: str) -> int:
    """An argparse type: a whole number from -LIMIT to LIMIT."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not -LIMIT <= number <= LIMIT:
        raise argparse.ArgumentTypeError(f"must be between {-LIMIT} and {LIMIT} (got {number})")
    return number


def add(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``lots`` to the kinds of ``wyrd odds``."""
    lots = kinds.add_parser(
        "lots",
        help="a Thaeborn check: attribute against difficulty, then the lots (two d4)",
        description=(
            "The chance of each lot and of success, failure and waste for a Thaeborn check, "
            "counted over all 16 casts of the WEAL and WOE dice."
        ),
    )
    lots.add_argument("--attribute", "-a", type=_number, required=True, metavar="A", help="the attribute used")
    lots.add_argument("--difficulty", "-d", type=_number, required=True, metavar="D", help="the difficulty")
    lots.add_argument(
        "--proficiency", type=_number, default=None, metavar="P",
        help="the proficiency for the Rule of Fours (default: the attribute; for a check with a modifier, "
        "give the attribute before it here, as `check` does)",
    )
    lots.add_argument(
        "--tier", type=_number, default=None, metavar="T",
        help="the tier for the Rule of Fours (default: the difficulty)",
    )
    lots.add_argument(
        "--attack", action="store_true",
        help="an attack: the attribute is the Offense, the difficulty the target's Defense, +1 when it "
        "actively defends; a CRIT lands it whatever the gap",
    )
    lots.add_argument(
        "--undefended", action="store_true",
        help="with --attack: the target does not actively defend (no +1)",
    )
    lots.add_argument("--json", action="store_true", help="print JSON (fractions as strings)")
    lots.set_defaults(handler=_run)


def _run(args: argparse.Namespace) -> int:
    from wyrd.rules.lots.odds import attack_spec_numbers, check_odds

    attribute, difficulty, proficiency, tier = args.attribute, args.difficulty, args.proficiency, args.tier
    if args.attack:
        # The same numbers the attack verb casts with: Defense + 1 for an actively defended target.
        attribute, difficulty, own, defense = attack_spec_numbers(
            attribute, difficulty, defended=not args.undefended
        )
        proficiency = own if proficiency is None else proficiency
        tier = defense if tier is None else tier
    odds = check_odds(attribute, difficulty, proficiency=proficiency, tier=tier, attack=args.attack)
    if args.json:
        print_json({"kind": "lots_odds", "gap": odds.gap, **odds.model_dump(mode="json")})
    else:
        print_lines(_lines(odds))
    return EXIT_OK


_LOT_FACES = {
    "crit": "both dice 4",
    "fumble": "both dice 1",
    "waste": "WEAL 4, WOE 1",
    "weal": "WEAL 4",
    "woe": "WOE 1",
    "none": "anything else",
}


def _lot_effect(odds: CheckOdds, lot: str) -> str:
    """What a lot does to this particular check."""
    success = odds.base.value == "success"
    if lot == "crit":
        if success:
            return "a success, with a heightened WEAL"
        if odds.crit_barred:
            return "still a failure (Rule of Fours), with a heightened WEAL"
        return "turns the failure into a success, with a heightened WEAL"
    if lot == "fumble":
        if not success:
            return "a failure, with a heightened WOE"
        if odds.fumble_barred:
            return "still a success (Rule of Fours), with a heightened WOE"
        return "turns the success into a failure, with a heightened WOE"
    if lot == "waste":
        return "neither success nor failure: the effort is lost"
    outcome = odds.base.value
    if lot == "weal":
        return f"a {outcome}, with a WEAL"
    if lot == "woe":
        return f"a {outcome}, with a WOE"
    return f"a {outcome}"


def _lines(odds: CheckOdds) -> list[str]:
    base = "a success" if odds.base.value == "success" else "a failure"
    if odds.attack:
        plus = odds.difficulty - odds.tier
        against = f"Defense {odds.tier}" + (" + 1 (actively defended)" if plus == 1 else " (undefended)")
        if plus not in (0, 1):
            against = f"difficulty {odds.difficulty}"
        head = f"Attack: Offense {odds.attribute} against {against}"
    else:
        head = f"Check: attribute {odds.attribute} against difficulty {odds.difficulty}"
    lines = [f"{head} is {base} unless the lots turn it."]
    if odds.crit_barred:
        lines.append(
            f"Rule of Fours: tier {odds.tier} is 4 or more above proficiency {odds.proficiency}, "
            "so it cannot succeed at all, not even on a CRIT."
        )
    elif odds.attack and odds.base.value == "failure":
        lines.append("An attack: a CRIT lands it whatever the gap.")
    if odds.fumble_barred:
        lines.append(
            f"Rule of Fours: proficiency {odds.proficiency} is 4 or more above tier {odds.tier}, "
            "so not even a FUMBLE makes it fail."
        )
    lines.append("")
    rows = [
        [share.lot.value.upper(), _LOT_FACES[share.lot.value], f"{share.casts}/16", *chance_cells(share.p),
         _lot_effect(odds, share.lot.value)]
        for share in odds.lots
    ]
    lines += columns(["lot", "faces", "casts", "chance", "", "for this check"], rows, right={2, 3, 4})
    lines.append("")
    rows = [[share.result.value, f"{share.casts}/16", *chance_cells(share.p)] for share in odds.results]
    lines += columns(["outcome", "casts", "chance", ""], rows, right={1, 2, 3})
    changed = [share for share in odds.changes if share.casts and share.change.value != "none"]
    if changed:
        lines += ["", "How the lots change it:"]
        rows = [[_CHANGES[s.change.value], f"{s.casts}/16", *chance_cells(s.p)] for s in changed]
        lines += columns(None, rows, right={1, 2, 3}, indent="  ")
    lines.append("")
    extras = [
        ["a WEAL (benefit)", "", *chance_cells(odds.p_weal)],
        ["a WOE (consequence)", "", *chance_cells(odds.p_woe)],
    ]
    if not odds.attack:
        extras.append(["may try again (able, but spoiled by fate)", "", *chance_cells(odds.p_retry)])
    lines += columns(None, extras, right={2, 3})
    return lines


_CHANGES = {
    "crit_succeeds": "a CRIT turns failure into success",
    "crit_barred": "a CRIT is barred by the Rule of Fours",
    "fumble_fails": "a FUMBLE turns success into failure",
    "fumble_barred": "a FUMBLE is barred by the Rule of Fours",
    "fours_barred": "the Rule of Fours bars the success the attribute would give",
    "wasted": "a WASTE: neither, the effort lost",
}
