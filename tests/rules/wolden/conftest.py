"""Shared helpers for the Wolden rules tests.

``Table`` holds a game state and scripted dice and applies actions to them as
the play layer would: ``table.do(action, ...)`` keeps the new state and returns
the events; ``table.refuse(rule_id, action, ...)`` expects a RuleError naming
``rule_id`` and checks that the state and the dice are exactly as they were.

Two small cults are built here in code (``TEST_CULTS``), so each test knows
every row; :func:`load_bundled_cults` reads the bundled YAML cults (a tiny pure
loader: the rules core never reads files).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from wyrd.rules.testing import Table as BaseTable
from wyrd.rules.wolden import (
    CarouseRow,
    Character,
    Cult,
    GameState,
    Gift,
    Item,
    PowerRow,
    RollTable,
    add_character,
    install,
)

Action = Callable[..., Any]

BUNDLED_CULTS = Path(__file__).resolve().parents[3] / "wyrd" / "stories" / "content" / "wolden" / "cults.yaml"


def load_bundled_cults(path: Path = BUNDLED_CULTS) -> list[Cult]:
    """The cults of a YAML file with a top-level ``cults`` list, validated."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return [Cult.model_validate(entry) for entry in data["cults"]]


def gift(ident: str, slots: int = 1) -> Gift:
    return Gift(id=ident, name=ident.replace("-", " ").title(), slots=slots)


# A d4 power table (one power per face) and a d4 carousing table that covers
# each kind of row: nothing, a gift, an ability rise, wounds.
OWLS = Cult(
    id="owls",
    name="Owls",
    traits=["feathers in the hair"],
    gifts=[gift("hush"), gift("keen-ears")],
    powers=RollTable[PowerRow](die=4, rows=[
        PowerRow(low=1, high=1, gift=gift("glide")),
        PowerRow(low=2, high=2, gift=gift("night-call")),
        PowerRow(low=3, high=3, gift=gift("talons")),
        PowerRow(low=4, high=4, gift=gift("moon-sight", slots=2)),
    ]),
    equipment=[Item(id="feather-cloak", name="Feather Cloak"), Item(id="bone-flute", name="Bone Flute")],
    carousing=RollTable[CarouseRow](die=4, rows=[
        CarouseRow(low=1, high=1, id="quiet-night"),
        CarouseRow(low=2, high=2, id="new-trick", gift=gift("soft-step")),
        CarouseRow(low=3, high=3, id="dance", ability="agility"),
        CarouseRow(low=4, high=4, id="brawl", wounds=2),
    ]),
)
# Three starting gifts to choose two from.
FOXES = Cult(
    id="foxes",
    name="Foxes",
    gifts=[gift("sly"), gift("quick"), gift("burrow")],
    powers=RollTable[PowerRow](die=2, rows=[PowerRow(low=1, high=2, gift=gift("vanish"))]),
    equipment=[Item(id="red-scarf", name="Red Scarf")],
    carousing=RollTable[CarouseRow](die=1, rows=[CarouseRow(low=1, high=1, id="howl", ability="graces")]),
)
TEST_CULTS = [OWLS, FOXES]

# name: (cult, might, agility, mind, graces, gifts)
CAST: dict[str, tuple[str, int, int, int, int, list[str] | None]] = {
    "Ada": ("owls", 3, 2, 1, 0, None),
    "Bram": ("owls", 0, 3, 2, 1, None),
    "Cora": ("foxes", 1, 0, 3, 2, ["sly", "quick"]),
    "Dot": ("foxes", 2, 1, 0, 3, ["burrow", "quick"]),
}


class Table(BaseTable[GameState]):
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, faces: Sequence[int] = (), state: GameState | None = None) -> None:
        super().__init__(state if state is not None else GameState(), faces)

    def char(self, name: str) -> Character:
        return self.state.characters[name]


def new_table(*names: str, faces: Sequence[int] = ()) -> Table:
    """A game with the test cults installed and the named characters of :data:`CAST`."""
    t = Table(faces)
    t.do(install, TEST_CULTS)
    for name in names:
        cult, might, agility, mind, graces, gifts = CAST[name]
        t.do(add_character, name, cult, might=might, agility=agility, mind=mind, graces=graces, gifts=gifts)
    return t


@pytest.fixture
def new() -> Callable[..., Table]:
    """The :func:`new_table` factory (test modules can't import conftest)."""
    return new_table


@pytest.fixture
def duo() -> Table:
    """Ada (Might 3, Agility 2, Mind 1, Graces 0) and Bram (0, 3, 2, 1), both Owls."""
    return new_table("Ada", "Bram")


@pytest.fixture
def party() -> Table:
    """All four of :data:`CAST`."""
    return new_table(*CAST)


@pytest.fixture
def bundled_cults() -> list[Cult]:
    """The two cults of stories/content/wolden/cults.yaml."""
    return load_bundled_cults()
