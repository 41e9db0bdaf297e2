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

from wyrd.rules.lots import Character, GameState, add_character
from wyrd.rules.testing import Table as BaseTable

Action = Callable[..., Any]


class Table(BaseTable[GameState]):
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, faces: Sequence[int] = (), state: GameState | None = None) -> None:
        super().__init__(state if state is not None else GameState(), faces)

    def char(self, name: str) -> Character:
        return self.state.characters[name]


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
