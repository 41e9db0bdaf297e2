"""The rules' test table must be able to fail: a refusal that did not happen, one under another
rule, or one that left a trace is an assertion error, so the rulesets' refusal tests prove
what they claim."""

from __future__ import annotations

import pytest

from wyrd.rules.abacus import GameState, add_character, roll, start_scene
from wyrd.rules.abacus.turn import Turn, action
from wyrd.rules.testing import Table


@action
def _leaky(turn: Turn) -> None:
    turn.dice.d6(1, "leak")  # rolls, then is refused: the wrapper rewinds the dice
    roll.__wrapped__(turn)  # type: ignore[attr-defined]


def test_refuse_passes_only_a_traceless_refusal_under_its_rule() -> None:
    table = Table(GameState(), faces=[3, 4])
    table.do(add_character, "Ada", 5, 5, 5)
    table.refuse("abacus.roll.none-open", roll)
    table.refuse("abacus.roll.none-open", _leaky)  # rolled a die first, yet left no trace
    with pytest.raises(AssertionError, match="not refused"):
        table.refuse("abacus.scene.one-at-a-time", start_scene, ["Ada"])
    with pytest.raises(AssertionError, match=r"not abacus\.timing"):
        table.refuse("abacus.timing", roll)


def test_refuse_catches_a_refusal_that_changed_the_state() -> None:
    table = Table(GameState())

    def sloppy(state: GameState, dice: object) -> None:
        from wyrd.rules.errors import RuleError

        state.scenes_played += 1  # changes the caller's state, then refuses
        raise RuleError("no", rule="sloppy")

    with pytest.raises(AssertionError, match="changed the state"):
        table.refuse("sloppy", sloppy)
