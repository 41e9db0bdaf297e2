"""A fifth ruleset from a package installed beside Wyrd, with no edit to Wyrd (issue 15, point 1).

The test writes a tiny package of its own, ``wyrd-tally``: a pure rules module
(a ``GameState`` and one action), a play kit (one verb in its table and its
:class:`~wyrd.play.engine.kits.PlayHooks`), an odds module, and a pyproject whose
entry point in ``wyrd.rulesets`` names its :class:`~wyrd.rulesets.Ruleset`. pip
builds and installs it into a folder of the test's own (``--target``, no network,
nothing written to the project's environment), and ``wyrd`` run with that folder on
its path plays a scripted game by it, saves it, resumes it, and offers its odds, as
it does for the four bundled rulesets. The kit uses only the engine's public API:
``Verb``, a ``VerbTable`` sharing ``SHARED``, a ``PlayHooks`` named ``KIT``, and a
result with ``state`` and ``events``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "wyrd-tally"
version = "0.1.0"
description = "A fifth ruleset for Wyrd, made by a test."
requires-python = ">=3.11"

[project.entry-points."wyrd.rulesets"]
tally = "wyrd_tally:RULESET"

[tool.setuptools]
packages = ["wyrd_tally"]
"""

INIT = '''\
"""Tally: each mark rolls a d6 onto a character's tally; the first to 10 has it."""

from wyrd.rulesets import Ruleset

__all__ = ["RULESET"]

RULESET = Ruleset(id="tally", name="Tally", seed="a test's own", rules="wyrd_tally.rules",
                  kit="wyrd_tally.kit", odds="wyrd_tally.odds")
'''

RULES = '''\
"""Tally's rules: pure, every die through the Dice handed in."""

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError

__all__ = ["GOAL", "GameState", "Marked", "Outcome", "mark"]

GOAL = 10


class GameState(BaseModel):
    tallies: dict[str, int] = {}
    winner: str | None = None


class Marked(Event):
    kind: Literal["marked"] = "marked"
    name: str
    die: int
    total: int


class Done(RuleError):
    rule = "tally.done"


@dataclass
class Outcome:
    state: GameState
    events: list[BaseModel]


def mark(state: GameState, dice: Dice, name: str) -> Outcome:
    if state.winner is not None:
        raise Done(f"{state.winner} has already won")
    die = dice.d6(1, f"mark for {name}").faces[0]
    after = state.model_copy(deep=True)
    after.tallies[name] = after.tallies.get(name, 0) + die
    if after.tallies[name] >= GOAL:
        after.winner = name
    return Outcome(after, [Marked(name=name, die=die, total=after.tallies[name])])
'''

KIT = '''\
"""Playing Tally: the verb ``mark`` and the kit the shared play layer calls."""

from wyrd.play.engine.events import EventKinds
from wyrd.play.engine.kits import PlayHooks
from wyrd.play.engine.verbs import SHARED, Verb, VerbTable
from wyrd_tally import rules

__all__ = ["KIT", "Mark"]

VERBS = VerbTable(shared=SHARED)


@VERBS.register
class Mark(Verb):
    """mark NAME

    Roll a d6 onto NAME's tally.
    """

    key = "mark"

    def parse(self, words, state):
        name = words.take("NAME")
        words.done()
        return {"name": name}

    def apply(self, state, dice, args):
        return rules.mark(state, dice, args["name"])


KIT = PlayHooks(
    ruleset="tally",
    verbs=VERBS,
    events=EventKinds(rules.Marked),  # every kind a game of Tally records
    texts={"marked": lambda e: f"{e['name']} marks {e['die']}: {e['total']} in all."},
    tell=lambda before, after, events, dice: [],  # the marks speak for themselves
    status=lambda state: [f"{n}: {t}" for n, t in sorted(state.tallies.items())],
)
'''

ODDS = '''\
"""``wyrd odds tally``: the chance a mark reaches the goal."""

from fractions import Fraction

from wyrd.play.cli.output import EXIT_OK, chance, print_lines

__all__ = ["add"]


def add(kinds):
    parser = kinds.add_parser("tally", help="a Tally mark: one d6 onto a tally")
    parser.add_argument("total", type=int)
    parser.set_defaults(handler=run)


def run(args):
    need = max(0, 10 - args.total)
    print_lines([f"From {args.total}, one mark reaches 10 with {chance(Fraction(max(0, 7 - need), 6))}."])
    return EXIT_OK
'''


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder pip installed ``wyrd-tally`` into (outside the project's environment)."""
    root = tmp_path_factory.mktemp("fifth")
    source = root / "wyrd-tally"
    package = source / "wyrd_tally"
    package.mkdir(parents=True)
    (source / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    for name, text in {"__init__.py": INIT, "rules.py": RULES, "kit.py": KIT, "odds.py": ODDS}.items():
        (package / name).write_text(text, encoding="utf-8")
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index",
         "--no-cache-dir", "--target", str(target), str(source)],
        check=True, capture_output=True, text=True, cwd=root,
    )
    return target


def wyrd(installed: Path, home: Path, *argv: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """Run ``python -m wyrd`` with the installed package on its path, from a folder of its own."""
    env = {**os.environ, "PYTHONPATH": str(installed), "WYRD_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "wyrd", *argv], input=stdin, capture_output=True, text=True,
                          env=env, cwd=home, timeout=120)


def events(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines()]


def test_the_package_went_where_it_was_told(installed: Path) -> None:
    """The fifth ruleset is in the test's folder only: the project's environment is untouched."""
    assert (installed / "wyrd_tally" / "kit.py").is_file()
    assert any(p.name.startswith("wyrd_tally-") and p.suffix == ".dist-info" for p in installed.iterdir())
    assert importlib.util.find_spec("wyrd_tally") is None
    from wyrd.rulesets import rulesets

    assert "tally" not in {r.id for r in rulesets()}


def test_a_scripted_game_by_the_fifth_ruleset(installed: Path, tmp_path: Path) -> None:
    """Issue 15 point 1: `wyrd play --ruleset tally --script ... --json` plays by the installed rules."""
    script = tmp_path / "game.txt"
    script.write_text("mark Ada\nmark Bo\nmark\nmark Ada\nquit\n", encoding="utf-8")
    save = tmp_path / "tally.wyrd"
    done = wyrd(installed, tmp_path, "play", "--ruleset", "tally", "--seed", "7", "--save", str(save),
                "--script", str(script), "--json")
    assert done.returncode == 0, done.stderr
    played = events(done.stdout)
    assert played[0] | {"seq": None} == {"seq": None, "kind": "session_started", "story": None, "ruleset": "tally",
                                         "seed": 7}
    assert {e["kind"] for e in played} == {"session_started", "marked", "refused"}
    marks = [e for e in played if e["kind"] == "marked"]
    assert [e["name"] for e in marks] == ["Ada", "Bo", "Ada"]
    assert all(1 <= e["die"] <= 6 for e in marks)
    assert marks[2]["total"] == marks[0]["die"] + marks[2]["die"]  # the state carried from command to command
    (refused,) = [e for e in played if e["kind"] == "refused"]
    assert refused["command"] == "mark" and refused["rule"] == "usage"
    numbered = [e["seq"] for e in played if e["seq"] is not None]  # a refused line is not numbered
    assert numbered == list(range(1, len(numbered) + 1))

    # The same seed and script give the same game: the dice are the session's, seeded per command.
    again = wyrd(installed, tmp_path, "play", "--ruleset", "tally", "--seed", "7", "--script", str(script), "--json")
    assert [e for e in events(again.stdout) if e["kind"] == "marked"] == marks

    # The save resumes by replaying the installed rules with the faces it recorded, and play goes on.
    resumed = wyrd(installed, tmp_path, "resume", str(save), "--script", "-", "--json", stdin="mark Bo\n")
    assert resumed.returncode == 0, resumed.stderr
    (more,) = events(resumed.stdout)
    assert more["kind"] == "marked" and more["name"] == "Bo"
    assert more["total"] == marks[1]["total"] + more["die"]
    assert more["seq"] == numbered[-1] + 1


def test_the_command_line_offers_the_fifth_ruleset(installed: Path, tmp_path: Path) -> None:
    """Issue 15 point 1: the `--ruleset` choices and the kinds of `wyrd odds` come from the registry."""
    helped = wyrd(installed, tmp_path, "play", "--help")
    assert "tally (Tally)" in helped.stdout
    odds = wyrd(installed, tmp_path, "odds", "--help")
    assert "a Tally mark" in odds.stdout
    assert "challenge" in odds.stdout  # the bundled kinds are all still there
    shown = wyrd(installed, tmp_path, "odds", "tally", "7")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout == "From 7, one mark reaches 10 with 2/3 (66.7%).\n"
    # Without the package, the choice is refused as any unknown ruleset is.
    alone = subprocess.run([sys.executable, "-m", "wyrd", "play", "--ruleset", "tally", "--script", "-"],
                           input="", capture_output=True, text=True, cwd=tmp_path,
                           env={**os.environ, "WYRD_HOME": str(tmp_path)})
    assert alone.returncode == 2
    assert "invalid choice: 'tally'" in alone.stderr

