"""The feat package's shape (DESIGN.md, STYLE.md): pure, documented modules with ``__all__``,
of a readable size, and a locked public API (as httpx locks its own)."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import wyrd.rules.feat

PACKAGE = Path(wyrd.rules.feat.__file__).resolve().parent
MODULES = sorted(PACKAGE.glob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.name)
def test_documented_with_all(path: Path) -> None:
    """STYLE.md: module docstrings say what a module is for; every public name exists."""
    name = "wyrd.rules.feat" if path.name == "__init__.py" else f"wyrd.rules.feat.{path.stem}"
    module = importlib.import_module(name)
    assert module.__doc__ and module.__doc__.strip()
    assert isinstance(module.__all__, list)
    for public in module.__all__:
        assert hasattr(module, public), f"{name}.{public}"
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400
    assert doctest.testmod(module).failed == 0  # the examples in docstrings hold


def test_public_api_is_locked() -> None:
    """The names play and stories may rely on; changing them is a decision, not an accident."""
    assert set(wyrd.rules.feat.__all__) == {
        "FEAT_MAX", "FEAT_MIN", "MINIMUMS", "SHOCK_DIFFICULTY", "TIERS", "WYRD_PER_EIGHT",
        "Attribute", "Character", "CreationError", "Edge", "FeatError", "FeatEvent", "FeatRead", "GameState",
        "Going", "Needs", "NotAble", "NotEnoughWyrd", "Outcome", "Pace", "Skill", "SkillRating", "Tier",
        "TierBudget", "UnknownName",
        "add_character", "attribute_feat", "award", "clamp_level", "create_character", "dice_read",
        "distance", "fatigue", "feat", "feat_level", "first_to_act", "initiative", "max_eights", "opposed",
        "p_step_up", "parse_gradient", "race", "reaction", "read_feat", "recover", "rest", "rounds_to_cover",
        "search", "shock", "skill_feat", "skill_rating", "slope_factor", "speed", "steps_up", "survive",
        "untrained", "wound",
    }


def test_events_read_back_by_kind() -> None:
    """DESIGN.md: events are JSON lines with a ``kind``; each reads back into its own class."""
    from pydantic import TypeAdapter

    from wyrd.rules.feat.events import FeatRolled, StepUpRolled

    adapter: TypeAdapter[object] = TypeAdapter(wyrd.rules.feat.FeatEvent)
    step = StepUpRolled(character="Ada", trait="climbing", level=6, modifier=81, d100=85, stepped=True, effective=7)
    assert adapter.validate_python(step.model_dump(mode="json")) == step
    rolled = FeatRolled(
        character="Ada", trait="climbing", difficulty=7, effective=7, raw_level=0, level=0, dice=[5, 1, 1],
        read=[5], minimums=[5], needs=wyrd.rules.feat.Needs.ANY, bought=[], wyrd_spent=0, wyrd_after=0, success=True,
    )
    assert adapter.validate_json(rolled.model_dump_json()) == rolled
