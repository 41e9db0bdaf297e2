"""An empty game is made from its state model's defaults, without the model's validator (issue 21, point 2).

Pydantic takes a model's defaults unvalidated, so ``GameState()`` and ``GameState.model_construct()``
are the same state; the second does not build the whole state's validator, which a new game or a
resume does not otherwise need before its first prompt (tests/play/test_repl.py checks it stays unbuilt).
"""

from __future__ import annotations

import pytest

from wyrd.play.engine.reply import new_state
from wyrd.rulesets import rulesets


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_an_empty_game_is_the_state_model_s_default(ruleset: str) -> None:
    made, default = new_state(ruleset), next(r for r in rulesets() if r.id == ruleset).load().GameState()
    assert type(made) is type(default)
    assert made == default
    assert made.model_dump(mode="json") == default.model_dump(mode="json")
    assert made.model_fields_set == default.model_fields_set == set()
    assert type(made).model_validate(made.model_dump(mode="json")) == default
