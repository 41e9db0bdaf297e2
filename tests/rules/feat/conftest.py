"""Shared helpers for the Heroes of the Fall rules tests.

``Table`` holds a game state and scripted dice and applies actions the way the
play layer does: ``table.do(action, ...)`` keeps the new state and returns the
events; ``table.refuse(rule_id, action, ...)`` expects a :class:`RuleError` naming
``rule_id`` and checks that the state and the dice are exactly as they were.

Scripted faces are handed out in order to every roll, the d100s and the d8s
alike, so a test scripts ``d100, d8, d8, d8`` for a skill feat.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from wyrd.rules.feat import Attribute, GameState, Skill, SkillRating, add_character
from wyrd.rules.feat.characters import Character
from wyrd.rules.testing import Table as BaseTable

Action = Callable[..., Any]
V, M, W, G, S = Attribute.VIGOUR, Attribute.METTLE, Attribute.WIT, Attribute.GLAMOUR, Attribute.SPIRIT


class Table(BaseTable[GameState]):
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, faces: Sequence[int] = (), state: GameState | None = None) -> None:
        super().__init__(state if state is not None else GameState(), faces)

    def char(self, name: str) -> Character:
        return self.state.characters[name]


def attrs(vigour: int, mettle: int, wit: int, glamour: int, spirit: int) -> dict[Attribute, int]:
    return {V: vigour, M: mettle, W: wit, G: glamour, S: spirit}


# The seed's own people (no tier: their ratings are written as the text gives them).
# Thief: cut-purse 6/23. Victim: Wit 5, no cut-purse. Climber: climbing 6/81.
# Scholar: a 5/73 skill (the seed's d100 = 93 example).
SEED_CAST: dict[str, tuple[dict[Attribute, int], dict[str, Skill], int]] = {
    "Thief": (attrs(6, 5, 6, 4, 4), {"cut-purse": Skill(attribute=V, rating=SkillRating(level=6, modifier=23))}, 0),
    "Victim": (attrs(4, 4, 5, 4, 4), {}, 0),
    "Climber": (attrs(6, 6, 5, 4, 4), {"climbing": Skill(attribute=V, rating=SkillRating(level=6, modifier=81))}, 10),
    "Scholar": (attrs(3, 5, 7, 5, 5), {"lore": Skill(attribute=W, rating=SkillRating(level=5, modifier=73))}, 0),
}

# Novices built within the [ours] budget: 25 attribute points, up to 10 ranks, 3 at most in one.
NOVICES: dict[str, tuple[dict[Attribute, int], dict[str, Skill]]] = {
    "Ada": (attrs(6, 5, 5, 5, 4), {"climbing": Skill(attribute=V, ranks=3), "stalking": Skill(attribute=W, ranks=2)}),
    "Bram": (attrs(7, 6, 4, 4, 4), {"swords": Skill(attribute=V, ranks=3)}),
    "Cora": (attrs(4, 5, 7, 6, 3), {"lore": Skill(attribute=W, ranks=3), "leadership": Skill(attribute=G, ranks=2)}),
}


def new_table(*names: str, faces: Sequence[int] = (), wyrd: int | None = None) -> Table:
    """A game with the named characters of :data:`SEED_CAST` or :data:`NOVICES`."""
    t = Table(faces)
    for name in names:
        if name in SEED_CAST:
            attributes, skills, start = SEED_CAST[name]
            t.do(add_character, name, attributes, skills=skills, tier=None, wyrd=start if wyrd is None else wyrd)
        else:
            attributes, skills = NOVICES[name]
            t.do(add_character, name, attributes, skills=skills)
            if wyrd:
                t.state.characters[name].wyrd = wyrd
    t.events.clear()
    return t


@pytest.fixture
def new() -> Callable[..., Table]:
    """The :func:`new_table` factory (test modules can't import conftest)."""
    return new_table
