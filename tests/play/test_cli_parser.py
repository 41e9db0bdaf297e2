"""The ``wyrd`` parser builds only the subcommand a command line names (issue 21, point 2).

Building all fourteen subcommands was most of the parser's cost before a game's first prompt. For
each subcommand, the parser built for it reads its command line exactly as the whole parser does
(its help, word for word, and its values); a word that names no subcommand gets the whole parser,
which refuses it with the list of every one.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from wyrd.play.cli.main import _SUBCOMMANDS, build_parser, main


def _help(name: str | None, argv: list[str]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        build_parser(name).parse_args(argv)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(_SUBCOMMANDS))
def test_the_parser_built_for_a_subcommand_reads_it_as_the_whole_parser_does(name: str) -> None:
    alone, whole = build_parser(name), build_parser()
    [chosen] = [a for a in alone._subparsers._group_actions]  # type: ignore[union-attr]
    assert list(chosen.choices) == [name]  # type: ignore[arg-type]
    assert _help(name, [name, "--help"]) == _help(None, [name, "--help"])
    if name == "play":
        argv = ["play", "--story", "hollow-fair", "--seed", "3"]
        assert alone.parse_args(argv) == whole.parse_args(argv)


def test_a_word_that_names_no_subcommand_is_refused_with_the_list_of_every_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plya"]) == 2
    refused = capsys.readouterr().err
    assert "invalid choice: 'plya'" in refused
    assert all(f"'{name}'" in refused for name in _SUBCOMMANDS)


def test_the_top_level_help_lists_every_subcommand() -> None:
    shown = _help(None, ["--help"])
    assert all(name in shown for name in _SUBCOMMANDS)
