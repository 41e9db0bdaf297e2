"""The registry of rulesets and what asks it (issue 15, points 1 and 2).

Each ruleset is described once, in ``wyrd/rulesets/<id>.py``, and found through
the ``wyrd.rulesets`` entry-point group; the ``--ruleset`` choices and default,
the kinds of ``wyrd odds`` and the kit a session plays all come from there.
"""

from __future__ import annotations

import argparse
import importlib.metadata
import subprocess
import sys
from collections.abc import Iterator
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import pytest

import wyrd.rulesets as registry
from wyrd.play.cli.main import build_parser, main
from wyrd.play.cli.rulesets import add_ruleset_option
from wyrd.play.cli.story import play_ruleset
from wyrd.play.engine.kits import hooks_for
from wyrd.rulesets import (
    ENTRY_POINTS,
    Ruleset,
    RulesetWarning,
    UnknownRuleset,
    default_ruleset,
    find_ruleset,
    resource,
    rulesets,
)

BUNDLED = {"abacus", "wolden", "feat", "lots"}


@pytest.fixture
def scratch_registry(monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Ruleset]]:
    """The registry as it is, in a copy the test may add to (the real one is left as it was)."""
    rulesets()  # scanned first, so the copy holds every installed ruleset
    copy = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_REGISTRY", copy)
    yield copy


def fake(ident: str, **fields: object) -> Ruleset:
    return Ruleset(id=ident, name=ident.title(), seed="none", rules="json", kit="json", **fields)  # type: ignore[arg-type]


def test_every_bundled_ruleset_comes_through_the_entry_point_group() -> None:
    """DESIGN.md (Pygments, pytest): the bundled rulesets register through the same door as anyone's."""
    points = {p.name: p.value for p in entry_points(group=ENTRY_POINTS)}
    assert set(points) >= BUNDLED
    for ident in BUNDLED:
        assert points[ident] == f"wyrd.rulesets.{ident}:RULESET"
        assert find_ruleset(ident).id == ident
    assert [r.id for r in rulesets()] == sorted(r.id for r in rulesets())


@pytest.mark.parametrize("ident", sorted(BUNDLED))
def test_every_part_a_ruleset_names_is_there(ident: str) -> None:
    """A description names real modules: rules with a GameState, a kit that registers its hooks, an odds
    command with ``add(kinds)``, its tables."""
    ruleset = find_ruleset(ident)
    assert ruleset.load().GameState().model_dump(mode="json") is not None
    assert ruleset.part("kit").__name__ == ruleset.kit
    assert hooks_for(ident).ruleset == ident
    assert callable(ruleset.part("odds").add)
    assert ruleset.tables, f"{ident} names no narration tables"
    for name in ruleset.tables:
        assert resource(name).locate().is_file(), name
    if ruleset.prompts is not None:
        assert any(p.name.endswith(".yaml") for p in resource(ruleset.prompts).locate().iterdir())


def test_an_unknown_ruleset_is_refused_with_the_known_ones() -> None:
    with pytest.raises(UnknownRuleset, match="known: abacus, feat, lots, wolden"):
        find_ruleset("chess")
    with pytest.raises(LookupError, match="no ruleset 'chess'"):
        hooks_for("chess")


def test_a_missing_part_is_a_lookup_error() -> None:
    with pytest.raises(LookupError, match="has no odds"):
        fake("plain").part("odds")


def test_the_default_ruleset_is_decided_in_one_place(scratch_registry: dict[str, Ruleset]) -> None:
    """Issue 15 point 2: the default is the registry's marked ruleset, the Wyrd Abacus, not a literal."""
    assert [r.id for r in rulesets() if r.default] == ["abacus"]
    assert default_ruleset().id == "abacus"
    registry.register(fake("aaa"))  # first by id, but not marked
    assert default_ruleset().id == "abacus"
    registry.register(fake("aab", default=True))  # two marked: the first by id
    assert default_ruleset().id == "aab"
    scratch_registry.clear()
    registry.register(fake("zed"))
    registry.register(fake("yew"))  # none marked: the first by id
    assert default_ruleset().id == "yew"
    scratch_registry.clear()
    with pytest.raises(UnknownRuleset, match="no ruleset is installed"):
        default_ruleset()


def test_the_command_takes_its_ruleset_choices_and_default_from_the_registry(
    scratch_registry: dict[str, Ruleset],
) -> None:
    registry.register(fake("zz-extra"))
    parser = build_parser()
    # `wyrd play` leaves the ruleset to the story; with none, the registry's default plays.
    assert parser.parse_args(["play"]).ruleset is None
    assert play_ruleset(None, None, []) == default_ruleset().id
    assert parser.parse_args(["play", "--ruleset", "zz-extra"]).ruleset == "zz-extra"
    with pytest.raises(SystemExit):
        parser.parse_args(["play", "--ruleset", "chess"])

    def defaulted() -> str:
        one = argparse.ArgumentParser()
        add_ruleset_option(one)
        return str(one.parse_args([]).ruleset)

    assert defaulted() == default_ruleset().id
    registry.register(fake("abacus"))  # the registry's marked default is gone
    assert defaulted() == "abacus"
    scratch_registry.pop("abacus")
    assert defaulted() == "feat"


def test_odds_kinds_come_from_each_rulesets_odds_module(
    scratch_registry: dict[str, Ruleset], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Issue 15 point 1: `wyrd odds` and its help list what the registered odds modules add."""
    (tmp_path / "coin_odds.py").write_text(
        '"""odds of a coin"""\n'
        "def add(kinds):\n"
        "    p = kinds.add_parser('coin', help='a coin toss: heads or tails')\n"
        "    p.set_defaults(handler=lambda args: print('heads 1/2') or 0)\n",
        encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    registry.register(fake("coin", odds="coin_odds"))
    registry.register(fake("mute"))  # no odds command: nothing added
    assert main(["odds", "--help"]) == 0
    helped = capsys.readouterr().out
    assert "a coin toss: heads or tails" in helped
    for kind in ("challenge", "influence", "wolden", "feat", "lots"):
        assert f"    {kind}" in helped
    assert main(["odds", "coin"]) == 0
    assert capsys.readouterr().out == "heads 1/2\n"

    # Without its ruleset the kind is unknown: the command keeps no list of its own.
    scratch_registry.pop("coin")
    assert main(["odds", "coin"]) == 2
    assert "invalid choice: 'coin'" in capsys.readouterr().err


def test_a_broken_declaration_is_left_out_with_a_warning(
    scratch_registry: dict[str, Ruleset], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
) -> None:
    """A package whose entry point does not load, or names something else, costs only its own ruleset."""
    points = [
        EntryPoint(name="gone", value="wyrd_no_such_module:RULESET", group=ENTRY_POINTS),
        EntryPoint(name="odd", value="json:dumps", group=ENTRY_POINTS),
        *entry_points(group=ENTRY_POINTS),
    ]
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: points)
    monkeypatch.setattr(registry, "_SCANNED", False)
    scratch_registry.clear()
    with pytest.warns(RulesetWarning) as warned:
        found = {r.id for r in rulesets()}
    assert found == BUNDLED
    gone, odd = (str(w.message) for w in warned)
    assert "the ruleset 'gone'" in gone and "ModuleNotFoundError" in gone
    assert "'odd'" in odd and "not a Ruleset" in odd
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("wyrd ")


def test_an_odds_module_without_add_is_reported(scratch_registry: dict[str, Ruleset]) -> None:
    registry.register(fake("broken", odds="json"))
    with pytest.raises(TypeError, match="has no add"):
        build_parser()


def test_the_parser_loads_no_rules_and_no_kit() -> None:
    """Issue 15 point 2: reading the registry to build the parser imports descriptions only, so
    `wyrd --version` and `wyrd --help` stay as light as before (no pydantic, no rules, no kit)."""
    probe = (
        "import sys; from wyrd.play.cli.main import build_parser; build_parser(); "
        "heavy = ('pydantic', 'wyrd.rules', 'wyrd.play.engine', 'wyrd.play.frontends'); "
        "print(sorted(m for m in sys.modules if any(m == h or m.startswith(h + '.') for h in heavy) "
        "or m.endswith('.kit')))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
