"""Shared helpers for the Thaeborn rules tests.

``Table`` holds a game state and scripted dice and applies actions the way the
play layer does: ``table.do(action, ...)`` keeps the new state and returns the
events; ``table.refuse(rule_id, action, ...)`` expects a :class:`RuleError` naming
``rule_id`` and checks that the state and the dice are exactly as they were.

Every cast takes two scripted faces, the WEAL die's and then the WOE die's, so
``table.faces(4, 1)`` scripts a WASTE.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from rules.actions import Event
from rules.dice import Dice, ScriptedSource
from rules.errors import RuleError
from rules.lots import Character, GameState, add_character

Action = Callable[..., Any]


class Table:
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, faces: Sequence[int] = (), state: GameState | None = None) -> None:
        self.dice = Dice.scripted(faces)
        self.state = state if state is not None else GameState()
        self.events: list[Event] = []

    def faces(self, *faces: int) -> Table:
        """Script the next faces (WEAL, WOE, WEAL, WOE, ...)."""
        source = self.dice.source
        assert isinstance(source, ScriptedSource)
        source.extend(faces)
        return self

    @property
    def faces_left(self) -> int:
        source = self.dice.source
        assert isinstance(source, ScriptedSource)
        return source.remaining

    def do(self, action: Action, *args: Any, **kwargs: Any) -> list[Event]:
        out = action(self.state, self.dice, *args, **kwargs)
        self.state = out.state
        self.events.extend(out.events)
        return list(out.events)

    def refuse(self, rule: str, action: Action, *args: Any, **kwargs: Any) -> RuleError:
        """The action must be refused under ``rule`` and leave no trace."""
        before = self.state.model_copy(deep=True)
        dump = self.state.model_dump()
        mark = self.dice.mark()
        with pytest.raises(RuleError) as caught:
            action(self.state, self.dice, *args, **kwargs)
        assert caught.value.rule == rule, caught.value.message
        assert self.state == before
        assert self.state.model_dump() == dump
        assert self.dice.mark() == mark
        return caught.value

    def char(self, name: str) -> Character:
        return self.state.characters[name]

    def of(self, kind: type[Event], events: Sequence[Event] | None = None) -> list[Any]:
        """The events of one class, from ``events`` or from the whole game."""
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]


# Two players' characters and an NPC (Disciplines 0..10; Mettle defaults to Willpower).
CAST: dict[str, dict[str, Any]] = {
    "Ada": {"disciplines": {"prowess": 5, "willpower": 4, "ingenuity": 6, "survival": 3}, "portents": 6},
    "Bram": {"disciplines": {"prowess": 3, "willpower": 2, "subterfuge": 7}, "portents": 6, "armour": 1},
    "Orc": {"disciplines": {"prowess": 4, "willpower": 3}, "armour": 1, "npc": True},
}


def new_table(*names: str, faces: Sequence[int] = ()) -> Table:
    """A game with the named characters of :data:`CAST` (all of them if none named)."""
    t = Table(faces)
    for name in names or tuple(CAST):
        spec = dict(CAST[name])
        t.do(add_character, name, spec.pop("disciplines"), **spec)
    return t


@pytest.fixture
def new() -> Callable[..., Table]:
    """The :func:`new_table` factory (test modules can't import conftest)."""
    return new_table


@pytest.fixture
def table() -> Table:
    """Ada, Bram and the Orc, no faces scripted yet."""
    return new_table()
