"""The ``wyrd`` command: argument parsing and one handler per subcommand.

Each subcommand is added to the parser by its own ``add_*`` function, listed in
``_SUBCOMMANDS``, and sets ``handler`` to a function that takes the parsed
arguments and returns an exit code. Handlers import what they need when they
run, so ``wyrd --version`` and ``wyrd --help`` load nothing heavy (no pydantic).
What depends on the rulesets (the ``--ruleset`` choices, the kinds of ``wyrd
odds``) is asked of the registry (:mod:`wyrd.rulesets`): this module names no
ruleset and imports no kit.

Exit codes: 0 success, 1 a failure while running, 2 invalid input (bad
arguments or values the rules refuse). Invalid input is reported on stderr in
one line, never as a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from wyrd.play.cli import play as cli_play
from wyrd.play.cli import story as cli_story
from wyrd.play.cli.odds import add_odds
from wyrd.play.cli.output import EXIT_FAILURE, EXIT_OK, EXIT_USAGE
from wyrd.play.cli.simulate import add_simulate
from wyrd.play.cli.table import add_host, add_join

__all__ = ["build_parser", "main"]

PROG = "wyrd"

Handler = Callable[[argparse.Namespace], int]


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
        print(_version_line())
        parser.exit(EXIT_OK)


def _version_line() -> str:
    from wyrd import __version__

    return f"{PROG} {__version__}"


# --- the entry point ---------------------------------------------------------------------------

#: Each subcommand's name and the function that adds it to the parser.
_SUBCOMMANDS: dict[str, Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = {
    "play": cli_play.add_play,
    "resume": cli_play.add_resume,
    "log": cli_play.add_log,
    "export": cli_play.add_export,
    "saves": cli_play.add_saves,
    "backup": cli_play.add_backup,
    "stories": cli_story.add_stories,
    "check": cli_story.add_check,
    "schema": cli_story.add_schema,
    "oracle": cli_story.add_oracle,
    "odds": add_odds,
    "simulate": add_simulate,
    "host": add_host,
    "join": add_join,
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``wyrd`` argument parser, with every subcommand in ``_SUBCOMMANDS``.

    Args:
        command: The subcommand about to run, if known. Only that one is added when it names
            one (building all fourteen is most of the parser's cost, about 3 ms before a game's
            first prompt); any other word, or None, gets them all, so that a mistyped command
            is refused with the list of every one, and ``wyrd --help`` lists them. The kinds of
            ``wyrd odds`` come from every ruleset's odds module, so they are added only when
            ``command`` is ``odds`` or None (a parser for any command line).
    """
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Tabletop role-playing without a narrator.",
    )
    parser.add_argument("--version", action=_VersionAction)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    chosen = [command] if command in _SUBCOMMANDS else list(_SUBCOMMANDS)
    for name in chosen:
        add = _SUBCOMMANDS[name]
        if add is add_odds:
            add_odds(subparsers, kinds=command in (None, "odds"))
        else:
            add(subparsers)
    return parser


def _command_of(argv: Sequence[str]) -> str:
    """The subcommand word of a command line ("" when there is none: ``wyrd``, ``wyrd --help``)."""
    # The top-level parser has options but no option takes a value, so the first word
    # that isn't an option is the subcommand.
    return next((word for word in argv if not word.startswith("-")), "")


def _spare_pydantic_plugins() -> None:
    """Tell pydantic, by its own switch, that no installed package declares a plugin for it.

    Otherwise its first validator reads every installed package's metadata to look for one
    (a few milliseconds before each first prompt). Whether there is any is kept between starts
    (:mod:`wyrd.installed`); a switch the player has set is left as it is.
    """
    from wyrd.installed import declared

    if not declared("pydantic"):
        os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")


def main(argv: list[str] | None = None) -> int:
    """Run the ``wyrd`` command.

    Args:
        argv: The arguments after the program name; ``sys.argv[1:]`` when None.

    Returns:
        The exit code: 0 on success, 1 on a failure, 2 on invalid input.
    """
    if argv is None:
        argv = sys.argv[1:]
    from wyrd.kept import keep_in
    from wyrd.play.engine.paths import cache_dir

    keep_in(cache_dir)  # a start reads the story's and the bundled tables' kept readings
    if argv[:1] == ["--version"]:
        # Answered before the subcommands are added: their --ruleset choices read installed packages' metadata.
        print(_version_line())
        return EXIT_OK
    _spare_pydantic_plugins()
    parser = build_parser(_command_of(argv))
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
    except ValueError as error:  # a value the rules refuse (its words may quote a file's: cleaned)
        from wyrd.play.frontends.view import clean

        print(f"{PROG}: error: " + "\n".join(clean(line) for line in str(error).splitlines()), file=sys.stderr)
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
