"""Shared helpers for the Wyrd Abacus rules tests.

``Table`` holds a game state and a scripted set of dice and applies actions to
them the way the play layer does: ``table.do(action, ...)`` keeps the new state
and returns the events; ``table.refuse(rule_id, action, ...)`` expects a
:class:`RuleError` naming ``rule_id`` and checks that the state (``==`` and
``model_dump``) and the dice position are exactly as they were.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from wyrd.rules.abacus import GameState, add_character, start_scene
from wyrd.rules.abacus.characters import Character
from wyrd.rules.abacus.state import Scene
from wyrd.rules.testing import Table as BaseTable

Action = Callable[..., Any]


class Table(BaseTable[GameState]):
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, faces: Sequence[int] = (), state: GameState | None = None) -> None:
        super().__init__(state if state is not None else GameState(), faces)

    def char(self, name: str) -> Character:
        return self.state.characters[name]

    @property
    def scene(self) -> Scene:
        assert self.state.scene is not None
        return self.state.scene


# Three characters with 15 points each (seed 000: 3 to 9 per ability).
CAST: dict[str, tuple[int, int, int]] = {
    "Ada": (5, 5, 5),
    "Bram": (7, 4, 4),
    "Cora": (3, 5, 7),
}


def party(table: Table, *names: str, wyrd: int = 0) -> Table:
    """Add the named characters of :data:`CAST` (all three by default)."""
    for name in names or tuple(CAST):
        body, mind, soul = CAST[name]
        table.do(add_character, name, body, mind, soul, wyrd=wyrd)
    return table


def new_table(
    *names: str, faces: Sequence[int] = (), scene: Sequence[str] | None = None, wyrd: int = 0,
) -> Table:
    """A game with the named characters of :data:`CAST` (none if no names), and
    optionally an open scene with ``scene`` present."""
    t = Table(faces)
    if names:
        party(t, *names, wyrd=wyrd)
    if scene is not None:
        t.do(start_scene, list(scene))
    return t


@pytest.fixture
def new() -> Callable[..., Table]:
    """The :func:`new_table` factory (test modules can't import conftest)."""
    return new_table


@pytest.fixture
def table() -> Table:
    """An empty game with no faces scripted yet."""
    return Table()


@pytest.fixture
def trio() -> Table:
    """Ada, Bram and Cora, all in one open scene (pool 4)."""
    t = party(Table())
    t.do(start_scene, list(CAST))
    return t


@pytest.fixture
def duo() -> Table:
    """Ada and Bram in one open scene (pool 3); Cora exists but is elsewhere."""
    t = party(Table())
    t.do(start_scene, ["Ada", "Bram"])
    return t
