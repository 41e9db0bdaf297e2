"""Frozen rules data shared between copies of a state (rules/values.py).

DESIGN.md: every action works on a copy of the state, and a refused one leaves
the caller's state exactly as it was. A story's definitions are never changed in
play, so copies share them; what play changes (placed challenges, characters,
stage rules' uses) is still copied.
"""

from __future__ import annotations

import copy

import pytest
from pydantic import ValidationError

from wyrd.rules.abacus import (
    ChallengeSpec,
    ChallengeType,
    Denizen,
    Effect,
    EffectKind,
    GameState,
    StageRule,
    add_character,
    install,
    start_scene,
)
from wyrd.rules.dice import Dice
from wyrd.rules.values import Value

SPEC = ChallengeSpec(id="gate", name="The Gate", type=ChallengeType.OBSTRUCTION, value=4,
                     on_fail=[Effect(do=EffectKind.DAMAGE, n=2)])


def _state() -> GameState:
    dice = Dice.scripted([])
    state = install(GameState(), dice, catalogue=[SPEC], denizens=[Denizen(id="hob", name="Hob")],
                    rules=[StageRule(id="r", name="R", effects=[Effect(do=EffectKind.MODIFY, n=1)])]).state
    return add_character(state, dice, "Ada", body=5, mind=5, soul=5).state


def test_a_value_is_shared_by_deep_copies() -> None:
    state = _state()
    twin = state.model_copy(deep=True)
    assert twin.catalogue["gate"] is state.catalogue["gate"]
    assert twin.denizens["hob"] is state.denizens["hob"]
    assert twin.stage_rules["r"] is not state.stage_rules["r"]  # its uses and activity change
    assert twin.stage_rules["r"].effects[0] is state.stage_rules["r"].effects[0]
    assert copy.deepcopy(SPEC) is SPEC and isinstance(SPEC, Value)


def test_a_value_cannot_be_changed() -> None:
    with pytest.raises(ValidationError):
        SPEC.value = 9  # type: ignore[misc]
    with pytest.raises(ValidationError):
        SPEC.on_fail[0].n = 5  # type: ignore[index,misc]


def test_a_placed_challenge_is_copied_and_its_spec_left_alone() -> None:
    """A placed challenge changes as it is faced: each copy has its own; the spec stays as written."""
    state = start_scene(_state(), Dice.scripted([]), ["Ada"], challenges=[SPEC]).state
    twin = state.model_copy(deep=True)
    placed = twin.scene.challenges["gate"]  # type: ignore[union-attr]
    assert placed is not state.scene.challenges["gate"]  # type: ignore[union-attr]
    placed.tackled = True
    placed.sabotage = 2
    assert not state.scene.challenges["gate"].tackled  # type: ignore[union-attr]
    assert SPEC.model_dump() == ChallengeSpec(id="gate", name="The Gate", type=ChallengeType.OBSTRUCTION, value=4,
                                              on_fail=[Effect(do=EffectKind.DAMAGE, n=2)]).model_dump()
