"""The Thaeborn package as others see it: the registry, the public API, the modules, the events."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest
from pydantic import TypeAdapter

import wyrd.rules.lots
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.lots import GameState, LotsEvent, add_character, attack, check, retell
from wyrd.rulesets import find_ruleset

PACKAGE = Path(wyrd.rules.lots.__file__).parent
MODULES = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")


def test_registered() -> None:
    """RULES.md: the ruleset id is ``lots``, following seed 004."""
    ruleset = find_ruleset("lots")
    assert (ruleset.name, ruleset.seed) == ("Thaeborn", "004_06c27bdc2e65ccea.txt")
    assert ruleset.load() is wyrd.rules.lots


def test_public_api_is_locked() -> None:
    """STYLE.md: a test locks the public API (``__all__``)."""
    assert set(wyrd.rules.lots.__all__) == {
        "LOT_CASTS", "Appraisal", "BadValue", "Blow", "CastRecord", "Change", "Character", "CheckForm",
        "CheckOdds", "CheckSpec", "Commitment", "Condition", "Conversion", "CreationError", "Discipline",
        "Fortune", "GameState", "GapSize", "Lot", "LotsEvent", "Mod", "MettleOdds", "NotEnoughPoints",
        "NotEnoughPortents", "OutOfTurn", "Outcome", "PortentUse", "Reading", "Result", "Stat", "UnknownName", "Whose",
        "add_character", "appraise", "assess", "assessment_minutes", "attack", "attack_odds", "award", "begin_fight",
        "blot_out",
        "cast_lots", "check", "check_odds", "convert", "create_character", "damage_of", "defend", "develop",
        "development_cost", "end_fight", "enlist", "gap_size", "lot_odds", "mettle_odds", "pain_of", "portent_cost",
        "read", "read_lot", "rest", "retell", "retry", "suffer", "whose",
    }
    for name in wyrd.rules.lots.__all__:
        assert hasattr(wyrd.rules.lots, name), name


@pytest.mark.parametrize("stem", MODULES)
def test_modules_are_documented_and_small(stem: str) -> None:
    """STYLE.md: each module says what it is for, has ``__all__``, and stays readable (at most 400 lines)."""
    module = importlib.import_module(f"wyrd.rules.lots.{stem}")
    assert module.__doc__ and module.__doc__.strip()
    assert isinstance(module.__all__, list)
    for public in module.__all__:
        assert hasattr(module, public), (stem, public)
    text = (PACKAGE / f"{stem}.py").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 400


def test_public_functions_have_docstrings() -> None:
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("_"):
                assert ast.get_docstring(node), f"{path.name}: {node.name}"


def test_events_round_trip_as_json() -> None:
    """DESIGN.md: events are JSON lines with a ``kind``; they read back as the same events."""
    dice = Dice.seeded(7)
    state = GameState()
    events: list[Event] = []
    for action, args, kwargs in (
        (add_character, ("Ada", {"prowess": 5}), {"portents": 3}),
        (add_character, ("Orc", {"prowess": 4}), {"npc": True}),
        (check, ("Ada", 5), {"discipline": "prowess", "effort": 1}),
        (retell, ("Ada",), {}),
        (attack, ("Ada", "Orc"), {"effort": 3, "defended": False}),
    ):
        out = action(state, dice, *args, **kwargs)
        state = out.state
        events += out.events
    adapter = TypeAdapter(LotsEvent)
    for event in events:
        data = event.model_dump(mode="json")
        assert "kind" in data
        assert adapter.validate_python(data) == event
