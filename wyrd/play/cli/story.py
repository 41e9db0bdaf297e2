"""The ``wyrd`` subcommands for story authors: stories, check, schema.

Only argparse is imported at the top; each handler imports the story modules
when it runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["add_check", "add_oracle", "add_schema", "add_stories"]


def add_stories(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("stories", help="list the stories you can play")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR")
    p.set_defaults(handler=run_stories)


def add_check(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("check", help="check story files for mistakes (errors and warnings)")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH", help="a story file, or a folder of them")
    p.set_defaults(handler=run_check)


def add_schema(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("schema", help="write the JSON Schema of story files, for editors")
    p.add_argument("-o", "--output", type=Path, help="where to write it (default: standard output)")
    p.set_defaults(handler=run_schema)


def add_oracle(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("oracle", help="the oracle's own checks")
    tools = p.add_subparsers(dest="tool", metavar="TOOL", required=True)
    test = tools.add_parser("selftest", help="compare every table's exact odds with a large seeded sample (chi-square)")
    test.add_argument("--samples", type=int, default=None, help="rolls per table")
    test.add_argument("--seed", type=int, default=1)
    test.set_defaults(handler=run_selftest)


def run_selftest(args: argparse.Namespace) -> int:
    from wyrd.oracle.selftest import main

    argv = ["--seed", str(args.seed)] + (["--samples", str(args.samples)] if args.samples else [])
    return main(argv)


def run_stories(args: argparse.Namespace) -> int:
    from wyrd.play.engine.storyplay import content_dirs, list_stories
    from wyrd.play.frontends.view import clean

    for info in list_stories(content_dirs(args.content)):
        kind = " (freeform)" if info.freeform else ""
        broken = f"  [does not load: {len(info.problems)} problems; wyrd check {info.path}]" if info.problems else ""
        print(f"{clean(info.id)}: {clean(info.title)}{kind}, {info.players[0]}-{info.players[1]} players{broken}")
    return 0


def run_check(args: argparse.Namespace) -> int:
    from wyrd.stories.lint import check_file, errors
    from wyrd.stories.loader import story_files

    files: list[Path] = []
    for path in args.paths:
        if path.is_dir():
            files += story_files(path)
        elif path.exists():
            files.append(path)
        else:
            print(f"wyrd: there is no {path}", file=sys.stderr)
            return 2
    failed = 0
    for file in files:
        problems = check_file(file)
        for problem in problems:
            print(problem)
        bad = errors(problems)
        failed += bool(bad)
        verdict = f"{len(bad)} errors" if bad else "ok"
        print(f"{file}: {verdict}, {len(problems) - len(bad)} warnings")
    return 1 if failed else 0


def run_schema(args: argparse.Namespace) -> int:
    from wyrd.stories.schema import json_schema

    text = json.dumps(json_schema(), indent=2) + "\n"
    if args.output:
        args.output.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0
