"""``wyrd odds feat``: exact odds of a Heroes of the Fall feat (the ``feat`` ruleset).

Four forms, each with ``--json`` (fractions as strings such as ``"3/10"``):

* ``wyrd odds feat``: the whole Feat table, -8 to +8.
* ``wyrd odds feat LEVEL``: one Feat level.
* ``wyrd odds feat --skill 6/81 --difficulty 7``: a skill with its d100 step-up.
* ``wyrd odds feat --attribute 5 --difficulty 8``: an attribute as it is (a shock test, say).

``--eights N`` asks for up to N Wyrd-bought 8s (5 Wyrd points each, one per die read).
Bad values are reported in one line and exit 2 (the entry point turns the
``ValueError`` raised here into that). Nothing heavy is imported until the
handler runs, so ``wyrd --version`` stays fast.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import TYPE_CHECKING

from wyrd.play.cli.output import EXIT_OK, columns, percent, print_json, print_lines

if TYPE_CHECKING:
    from wyrd.rules.feat.odds import FeatOdds, SkillOdds

__all__ = ["MAX_DIFFICULTY", "add"]


def chance(p: Fraction) -> str:
    """A chance as a player reads it first, the exact fraction after it: ``33.3% (1/3)`` (Issue 18, point 4)."""
    return f"{percent(p)} ({p})"

MAX_DIFFICULTY = 99


def add(kinds: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``feat`` to the kinds of ``wyrd odds``."""
    parser = kinds.add_parser(
        "feat",
        help="a Heroes of the Fall feat: 3d8 read on the Feat table",
        description=(
            "Exact odds of a feat in Heroes of the Fall: for one Feat level (Difficulty minus the "
            "character's level, -8 to +8), for a skill LEVEL/MODIFIER with its d100 step-up against a "
            "Difficulty, or for an attribute against a Difficulty. With no arguments, the whole table."
        ),
    )
    parser.add_argument("level", nargs="?", metavar="LEVEL", help="a Feat level from -8 to +8")
    parser.add_argument("--skill", "-s", metavar="LEVEL/MOD", help="a skill such as 6/81 (with --difficulty)")
    parser.add_argument("--attribute", "-a", metavar="N", help="an attribute, 0 to 9 (with --difficulty)")
    parser.add_argument("--difficulty", "-d", metavar="D", help="the Difficulty (0 or more)")
    parser.add_argument(
        "--eights", "-e", metavar="N", default="0", help="Wyrd-bought 8s, 0 to 3 (5 Wyrd points each)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.set_defaults(handler=_run_feat)


def _whole(text: str, what: str, low: int, high: int) -> int:
    try:
        number = int(text)
    except ValueError:
        raise ValueError(f"{what}: expected a whole number, got {text!r}") from None
    if not low <= number <= high:
        raise ValueError(f"{what} runs from {low} to {high} (got {number})")
    return number


def _run_feat(args: argparse.Namespace) -> int:
    from wyrd.rules.feat.odds import attribute_odds, feat_odds, feat_table, skill_odds
    from wyrd.rules.feat.skills import SkillRating

    eights = _whole(args.eights, "--eights", 0, 3)
    if args.skill is not None and args.attribute is not None:
        raise ValueError("give --skill or --attribute, not both")
    against = args.skill is not None or args.attribute is not None
    if args.level is not None and (against or args.difficulty is not None):
        raise ValueError("give either a LEVEL or a --skill/--attribute with --difficulty, not both")
    if against != (args.difficulty is not None):
        raise ValueError("--skill and --attribute need --difficulty, and --difficulty needs one of them")
    if args.level is not None:
        odds = feat_odds(_whole(args.level, "LEVEL", -8, 8), eights)
        _out(args.json, {"kind": "feat_odds", **_dump(odds)}, _level_lines(odds))
    elif args.difficulty is None:
        rows = feat_table(eights)
        data = {"kind": "feat_table", "eights": eights, "rows": [_dump(row) for row in rows]}
        _out(args.json, data, _table_lines(rows, eights))
    elif args.skill is not None:
        rating = SkillRating.parse(args.skill)
        difficulty = _whole(args.difficulty, "--difficulty", 0, MAX_DIFFICULTY)
        skill = skill_odds(rating.level, rating.modifier, difficulty, eights)
        data = {"kind": "skill_feat_odds", **skill.model_dump(mode="json"), "p_failure": str(skill.p_failure)}
        _out(args.json, data, _skill_lines(skill, eights))
    else:
        attribute = _whole(args.attribute, "--attribute", 0, 9)
        difficulty = _whole(args.difficulty, "--difficulty", 0, MAX_DIFFICULTY)
        odds = attribute_odds(attribute, difficulty, eights)
        data = {"kind": "attribute_feat_odds", "attribute": attribute, "difficulty": difficulty, **_dump(odds)}
        lines = [f"Attribute {attribute} against Difficulty {difficulty} (no d100 for an attribute)."]
        _out(args.json, data, lines + _level_lines(odds))
    return EXIT_OK


def _dump(odds: FeatOdds) -> dict[str, object]:
    return {**odds.model_dump(mode="json"), "p_failure": str(odds.p_failure)}


def _out(as_json: bool, data: dict[str, object], lines: list[str]) -> None:
    if as_json:
        print_json(data)
    else:
        print_lines(lines)


def _signed(level: int) -> str:
    return f"{level:+d}" if level else "0"


def _rule(odds: FeatOdds) -> str:
    minimums = ", ".join(str(m) for m in odds.minimums)
    if odds.dice_read == 1:
        return f"the first die must show {minimums} or more"
    if odds.needs == "all":
        return f"the first {odds.dice_read} dice must each reach their minimum ({minimums}, in order)"
    return f"one of the first {odds.dice_read} dice must reach its minimum ({minimums}, in order)"


def _bought(odds: FeatOdds) -> list[str]:
    if not odds.eights:
        return []
    s = "" if odds.eights == 1 else "s"
    return [f"Buying {odds.eights} automatic 8{s} for {odds.wyrd_cost} Wyrd points."]


def _level_lines(odds: FeatOdds) -> list[str]:
    return [
        f"Feat level {_signed(odds.level)}: roll 3d8; {_rule(odds)}.",
        *_bought(odds),
        f"  success  {chance(odds.p_success)}",
        f"  failure  {chance(odds.p_failure)}",
    ]


def _table_lines(table: list[FeatOdds], eights: int) -> list[str]:
    lines = ["The Feat table: 3d8, the dice read in the order rolled, die by die against the minimums."]
    if eights:
        lines.append(f"With up to {eights} Wyrd-bought 8s (only what a level can use is bought, 5 points each).")
    rows = []
    for row in table:
        minimums = ",".join(str(m) for m in row.minimums) + f" ({row.needs})"
        rows.append(
            [_signed(row.level), minimums, str(row.p_success), percent(row.p_success),
             str(row.p_failure), percent(row.p_failure)]
        )
    lines += columns(["level", "minimums", "success", "", "failure", ""], rows, right={0, 3, 5})
    return lines


def _skill_lines(skill: SkillOdds, eights: int) -> list[str]:
    lines = [
        f"Skill {skill.level}/{skill.modifier} against Difficulty {skill.difficulty}.",
        f"The d100 reaches {skill.modifier} with chance {chance(skill.p_step_up)}: "
        f"then the skill works at level {skill.level + 1} for this feat.",
        "",
        f"  stepped up (level {skill.level + 1}), chance {chance(skill.p_step_up)}:",
        *("    " + line for line in _level_lines(skill.stepped)),
        f"  not stepped up (level {skill.level}), chance {chance(1 - skill.p_step_up)}:",
        *("    " + line for line in _level_lines(skill.plain)),
        "",
        f"Success {chance(skill.p_success)}; failure {chance(skill.p_failure)}.",
    ]
    if eights and skill.expected_wyrd:
        lines.append(f"Wyrd points spent on average: {skill.expected_wyrd}.")
    return lines
