"""The same verbs mean the same thing in every ruleset, and `help` lists them all (issue 18, points 9 and 10).

Issue 18, point 9: "The same verbs mean the same thing everywhere (`pc take all` is refused in
Heroes of the Fall today)." Point 10: "pregens can be read before they are taken; `help` lists
every verb" (it listed `pc add` but not `pc take`).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.rulesets import rulesets

RULESETS = [r.id for r in rulesets()]

# What every ruleset's players can type, with what it is for.
COMMON = ["pc", "pregens", "story", "scene", "status", "challenges", "undo", "log", "export", "save", "narrator",
          "help", "quit", "look", "rules", "exits", "turn", "recap", "ask", "chances", "inspire", "odds"]
COMMON_ALIASES = {"?": "help", "st": "status", "exit": "quit", "character": "pc"}


@pytest.fixture(params=RULESETS)
def console(request: pytest.FixtureRequest) -> Iterator[Console]:
    found = Console(Session.new(None, seed=1, ruleset=request.param))
    yield found
    found.session.close()


def help_text(console: Console) -> str:
    return "\n".join(line.text for line in console.handle("help").lines)


def test_help_lists_every_verb_every_form_and_every_alias(console: Console) -> None:
    text = help_text(console)
    rows = text.splitlines()
    verbs = console.session.kit.verbs
    for key, verb in verbs.verbs().items():
        for form in verb.forms():
            assert f"  {form}" in rows, (key, form)
    for alias, key in verbs.aliases().items():
        assert f"{alias} ({key})" in rows[-1], alias
    assert "  pc take NAME [NAME ...] | pc take all" in rows
    assert "  pc [NAME]" in rows
    assert "  pregens" in rows


def test_help_verb_explains_each_one(console: Console) -> None:
    for key in console.session.kit.verbs.verbs():
        lines = [line.text for line in console.handle(f"help {key}").lines]
        assert len(lines) >= 3 and lines[0].split()[0] == key, key  # the usage, a blank line, the help


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_common_verbs_and_their_forms_are_in_every_ruleset(ruleset: str) -> None:
    verbs = hooks_for(ruleset).verbs
    assert set(COMMON) <= set(verbs.verbs()), ruleset
    assert COMMON_ALIASES.items() <= verbs.aliases().items()
    forms = [form.split()[:2] for form in verbs.verbs()["pc"].forms()]
    assert ["pc", "add"] in forms and ["pc", "take"] in forms and ["pc", "[NAME]"] in forms
    session = Session.new(None, seed=1, ruleset=ruleset)
    try:
        for line, key in (("pc take all", "take"), ("pc take Some One", "take"), ("pregens", None)):
            args = session.parse(line).args
            assert key is None or args[key] in (["all"], ["Some", "One"]), (ruleset, line, args)
    finally:
        session.close()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_pc_take_without_a_story_says_there_are_no_pregens(ruleset: str) -> None:
    console = Console(Session.new(None, seed=1, ruleset=ruleset))
    try:
        out = console.handle("pc take all")
        [line] = [shown.text for shown in out.lines]
        assert line.startswith("Refused: no ") and line.endswith("so there are no pregenerated characters"), line
    finally:
        console.session.close()


def test_pc_take_in_heroes_of_the_fall_takes_the_story_s_heroes_or_says_they_are_in_play() -> None:
    """It was refused as "no character called 'take'"; the story's heroes come in with `story`."""
    story = hooks_for("feat").quick_start
    console = Console(Session.new(None, seed=1, ruleset="feat", story=story))
    try:
        out = console.handle("pc take all")
        assert out.lines[0].text.startswith("Refused: already in play: Wenna Tarr, Ansel Brack, Maud Penhallow")
        assert "no character called" not in out.lines[0].text
        assert console.handle("pc take an").lines[0].text.startswith("Refused: already in play: Ansel Brack")
        refused = console.handle("pc take nobody").lines[0].text
        assert refused.startswith("Refused: no pregenerated character called 'nobody'")
    finally:
        console.session.close()
