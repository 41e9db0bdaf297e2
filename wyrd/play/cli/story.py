"""The ``wyrd`` subcommands for story authors: stories, check, schema; and the ruleset of a story.

Every ruleset's stories are listed, checked and described by its own story format
(:mod:`wyrd.stories.formats`), found through the registry. Only argparse is imported
at the top; each handler imports the story modules when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from wyrd.play.cli.rulesets import ruleset_name

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["RulesetMismatch", "add_check", "add_oracle", "add_schema", "add_stories", "play_ruleset"]


def add_stories(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("stories", help="list the stories you can play")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR")
    p.set_defaults(handler=run_stories)


def add_check(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("check", help="check story files of any ruleset for mistakes (errors and warnings)")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                   help="a story file (read by the format of its `ruleset:`), or a folder of them")
    p.set_defaults(handler=run_check)


def add_schema(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("schema", help="write the JSON Schema of a ruleset's story files, for editors")
    p.add_argument("--ruleset", metavar="ID", help="whose story files (default: the default ruleset's)")
    p.add_argument("-o", "--output", type=Path,
                   help="where to write it (default: standard output; never a save, an existing file only "
                        "with --force)")
    p.add_argument("--force", action="store_true", help="replace OUTPUT if it exists (a save is never replaced)")
    p.set_defaults(handler=run_schema)


def add_oracle(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("oracle", help="the oracle's own checks")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    test = tools.add_parser("selftest", help="compare every table's exact odds with a large seeded sample (chi-square)")
    test.add_argument("--samples", type=int, default=None, help="rolls per table")
    test.add_argument("--seed", type=int, default=1)
    test.add_argument("--threshold", type=float, default=None, help="the p-value under which a table fails")
    test.set_defaults(handler=run_selftest)


def run_selftest(args: argparse.Namespace) -> int:
    """``wyrd oracle selftest``: 0 when every table and the question oracle match their exact odds."""
    from wyrd.oracle.selftest import DEFAULT_SAMPLES, DEFAULT_THRESHOLD, selftest

    report = selftest(samples=args.samples or DEFAULT_SAMPLES, seed=args.seed,
                      threshold=DEFAULT_THRESHOLD if args.threshold is None else args.threshold)
    print(report.text())
    return 0 if report.ok else 1


class RulesetMismatch(ValueError):
    """``wyrd play --story ID --ruleset R`` where the story is another ruleset's."""


def play_ruleset(story: str | None, chosen: str | None, content: Sequence[Path]) -> str:
    """The ruleset ``wyrd play`` plays by: the story's own, else the one chosen, else the default.

    Raises:
        RulesetMismatch: ``chosen`` is not the story's ruleset.
    """
    from wyrd.rulesets import default_ruleset

    found = None
    if story is not None and story != "none":
        from wyrd.play.engine.storyplay import content_dirs
        from wyrd.stories.formats import story_ruleset

        found = story_ruleset(story, content_dirs(content))
    if found is not None and chosen is not None and chosen != found:
        theirs, mine = ruleset_name(found), ruleset_name(chosen)
        raise RulesetMismatch(f"the story {story!r} is played by {theirs} (ruleset {found}), not {mine}: "
                              f"leave out --ruleset, or give --ruleset {found}")
    return found or chosen or default_ruleset().id


def run_stories(args: argparse.Namespace) -> int:
    from wyrd.play.engine.storyplay import content_dirs
    from wyrd.play.frontends.view import clean
    from wyrd.stories.formats import discover

    for info in discover([d for d in content_dirs(args.content) if d.is_dir()]):
        kind = " (freeform)" if info.freeform else ""
        players = f", {info.players[0]}-{info.players[1]} players" if info.players else ""
        broken = f"  [does not load: {len(info.problems)} problems; wyrd check {info.path}]" if info.problems else ""
        # Every part may come from a story file (the path too): the whole line is cleaned.
        print(clean(f"{info.id}: {info.title}{kind}{players} [{ruleset_name(info.ruleset)}]{broken}"))
    return 0


def run_check(args: argparse.Namespace) -> int:
    from wyrd.play.frontends.view import clean
    from wyrd.stories.check import check_file, check_targets
    from wyrd.stories.problems import errors

    for path in args.paths:
        if not path.exists() and not path.is_symlink():
            print(f"wyrd: there is no {clean(path)}", file=sys.stderr)
            return 2
    # Everything printed here comes from the files (field names, values, paths): cleaned of escapes.
    files, refused = check_targets(list(args.paths))
    for problem in refused:
        print(clean(problem))
    failed = len(refused)
    for file in files:
        problems = check_file(file)
        for problem in problems:
            print(clean(problem))
        bad = errors(problems)
        failed += bool(bad)
        verdict = f"{len(bad)} errors" if bad else "ok"
        print(f"{clean(file)}: {verdict}, {len(problems) - len(bad)} warnings")
    return 1 if failed else 0


def run_schema(args: argparse.Namespace) -> int:
    from wyrd.rulesets import UnknownRuleset
    from wyrd.stories.formats import NoStoryFormat, default_ruleset, format_for

    try:
        schema = format_for(args.ruleset or default_ruleset()).json_schema()
    except (UnknownRuleset, NoStoryFormat) as exc:
        print(f"wyrd: {exc.args[0]}", file=sys.stderr)
        return 2
    text = json.dumps(schema, indent=2) + "\n"
    if args.output:
        from wyrd.play.engine.overwrite import OverwriteRefused, write_new
        from wyrd.play.frontends.view import clean

        try:
            write_new(args.output, text, force=args.force)
        except (OverwriteRefused, OSError) as exc:
            print(f"wyrd: {clean(str(exc))}", file=sys.stderr)
            return 1
    else:
        sys.stdout.write(text)
    return 0
