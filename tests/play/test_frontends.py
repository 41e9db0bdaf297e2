"""Front-ends apart from the engine and from any one ruleset (issue 15, points 2 and 4).

The scripted front-end (``wyrd play --script FILE --json``) uses the console and the view
and nothing terminal-shaped; the view reads each ruleset's events by its kit; the toolbar
draws whatever pieces a kit gives; the quick start at the terminal is the chosen ruleset's
own, from its kit, for every ruleset.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.formatted_text import fragment_list_to_text

import wyrd.play.cli.play as cli_play
from wyrd.play.cli.main import main
from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.script import run_script, write_output
from wyrd.play.frontends.terminal.toolbar import toolbar_text
from wyrd.play.frontends.view import describe
from wyrd.rulesets import rulesets

ADA = "pc add Ada body=5 mind=5 soul=5"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    return tmp_path


def console_of(ruleset: str = "abacus", story: str | None = None) -> Console:
    return Console(Session.new(None, seed=1, story=story, ruleset=ruleset))


# -- the scripted front-end ----------------------------------------------------------------------


def test_a_script_is_played_to_its_quit_and_written_as_text() -> None:
    console = console_of()
    out = io.StringIO()
    assert run_script(console, [ADA, "# a comment", "quit", "scene"], as_json=False, stream=out) == 0
    text = out.getvalue().splitlines()
    assert text[0] == "Playing without a save file."
    assert any(t.startswith("Make a character") for t in text)  # the Abacus kit's opening words
    assert any(t.startswith("Ada joins") for t in text)
    assert text[-1] == "This game had no save file; it ends here."  # and the line after quit is never run
    assert console.session.state.scene is None
    console.session.close()


def test_a_script_with_json_writes_one_event_a_line() -> None:
    console = console_of("wolden")
    out = io.StringIO()
    run_script(console, ["story the-drowned-bell", "pc take all", "frobnicate"], as_json=True, stream=out)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    kinds = [e["kind"] for e in events]
    assert kinds[0] == "session_started" and events[0]["ruleset"] == "wolden"
    assert "character_created" in kinds and kinds[-1] == "refused"
    console.session.close()


def test_output_as_json_keeps_terminal_escapes_out() -> None:
    console = console_of()
    out = io.StringIO()
    write_output(console.handle("pc add 'Ada\u202e' body=5 mind=5 soul=5"), as_json=True, stream=out)
    assert "\u202e" not in out.getvalue() and "\\u202e" in out.getvalue()
    console.session.close()


@pytest.mark.parametrize("module", ["wyrd.play.frontends.script", "wyrd.play.frontends.console",
                                    "wyrd.play.frontends.view"])
def test_a_front_end_other_than_the_terminal_loads_nothing_terminal_shaped(module: str) -> None:
    code = (f"import sys, {module}; "
            "assert not [m for m in sys.modules if m.startswith(('prompt_toolkit', 'wyrd.play.frontends.terminal'))]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_play_with_a_script_and_json_goes_through_the_script_front_end(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "s.txt"
    script.write_text(f"{ADA}\nstatus\n", encoding="utf-8")
    assert main(["play", "--story", "none", "--seed", "3", "--save", str(tmp_path / "g.wyrd"),
                 "--script", str(script), "--json"]) == 0
    kinds = [json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()]
    assert kinds[:2] == ["session_started", "character_created"] and "refused" not in kinds  # status: no event


# -- the view ------------------------------------------------------------------------------------


def test_each_ruleset_reads_its_own_kinds_and_no_other_ruleset_s() -> None:
    damage = {"seq": 4, "kind": "damage", "character": "Ada", "ability": "body", "n": 2, "points_after": 3}
    line = describe(damage, "abacus")
    assert (line.text, line.style) == ("Ada loses 2 Body; 3 left.", "bad")  # the Abacus kit's words and style
    other = describe(damage, "wolden")
    assert other.text.startswith("damage: ") and "Ada loses" not in other.text  # Wolden has no such kind
    told = {"kind": "narration", "text": "Fog.\x1b[31m"}
    assert describe(told, "no-such-ruleset").text == "Fog."  # the shared kinds read whatever the ruleset


# -- the toolbar ---------------------------------------------------------------------------------


def test_the_toolbar_draws_a_kit_s_styled_pieces_or_its_one_line() -> None:
    abacus = console_of()
    abacus.handle(ADA)
    abacus.handle("scene")
    fragments = list(toolbar_text(abacus.session.hooks, abacus.session.state))
    assert ("class:toolbar.pool", "scene 1 pool 2") in [(f[0], f[1]) for f in fragments]
    assert ("class:toolbar.name", "Ada") in [(f[0], f[1]) for f in fragments]
    wolden = console_of("wolden", "the-drowned-bell")
    wolden.handle("pc take all")
    text = fragment_list_to_text(toolbar_text(wolden.session.hooks, wolden.session.state))
    assert text.startswith(" session 1 | Wenna Mt1 Ag3")  # first names: issue 18, point 10
    for console in (abacus, wolden):
        console.session.close()


# -- the quick start -----------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_every_ruleset_has_a_quick_start_that_plays(ruleset: str) -> None:
    story = hooks_for(ruleset).quick_start
    assert story is not None
    console = console_of(ruleset, story)
    try:
        opening = console.opening()
        assert not any(e.get("kind") == "refused" for e in opening.events)
        follower = console.session.follower
        assert any(getattr(follower, name, None) is not None for name in ("play", "scenario", "story"))
    finally:
        console.session.close()


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_at_the_terminal_a_first_game_starts_with_its_ruleset_s_quick_start(
    ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[Any] = []

    def play_on(session: Session, path: Path, args: Any, lines: Any) -> int:
        seen.append(session.opening_events[0]["story"])
        session.close()
        return 0

    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr(cli_play, "_play_on", play_on)
    assert main(["play", "--ruleset", ruleset, "--seed", "1", "--save", str(tmp_path / "g.wyrd")]) == 0
    assert seen == [hooks_for(ruleset).quick_start]
