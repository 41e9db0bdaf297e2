"""Cults and their tables as content (rules/wolden/cults.py; stories/content/wolden/cults.yaml)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from wyrd.rules.wolden import DOWNTIME_SLOTS, CarouseRow, Cult, Gift, Item, PowerRow, RollTable


def rows(*ranges: tuple[int, int]) -> list[CarouseRow]:
    return [CarouseRow(low=lo, high=hi, id=f"r{lo}") for lo, hi in ranges]


def test_rows_cover_each_face_once() -> None:
    """DESIGN.md: table rows carry explicit ranges, checked for gaps and overlaps."""
    table = RollTable[CarouseRow](die=6, rows=rows((1, 2), (3, 5), (6, 6)))
    assert [table.row(f).id for f in range(1, 7)] == ["r1", "r1", "r3", "r3", "r3", "r6"]


@pytest.mark.parametrize(
    ("ranges", "message"),
    [(((1, 2), (4, 6)), "no row covers 3"), (((1, 3), (3, 6)), "both cover 3"), (((1, 7),), "past the d6")],
)
def test_gaps_overlaps_and_overruns_are_refused(ranges: tuple[tuple[int, int], ...], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        RollTable[CarouseRow](die=6, rows=rows(*ranges))


def test_backwards_row() -> None:
    with pytest.raises(ValidationError, match="backwards"):
        CarouseRow(low=4, high=2, id="x")


def test_no_silent_clamping() -> None:
    """STYLE.md: a face outside the table is an error, never clamped."""
    table = RollTable[CarouseRow](die=2, rows=rows((1, 2)))
    with pytest.raises(ValueError):
        table.row(3)


def cult(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "id": "moths", "name": "Moths",
        "gifts": [{"id": "dust", "name": "Dust"}, {"id": "flutter", "name": "Flutter"}],
        "powers": {"die": 1, "rows": [{"low": 1, "high": 1, "gift": {"id": "glow", "name": "Glow"}}]},
        "equipment": [{"id": "lamp", "name": "Lamp"}],
        "carousing": {"die": 1, "rows": [{"low": 1, "high": 1, "id": "flame"}]},
    }
    base.update(changes)
    return base


def test_a_minimal_cult() -> None:
    found = Cult.model_validate(cult())
    assert found.gift("DUST") == Gift(id="dust", name="Dust")
    assert found.item("lamp") == Item(id="lamp", name="Lamp")
    assert found.item("torch") is None


def test_cult_needs_two_gifts_and_an_item() -> None:
    """RULES.md: two of the starting slots hold cult gifts; Go Shopping needs an equipment list."""
    with pytest.raises(ValidationError):
        Cult.model_validate(cult(gifts=[{"id": "dust", "name": "Dust"}]))
    with pytest.raises(ValidationError):
        Cult.model_validate(cult(equipment=[]))


def test_cult_ids_are_unique() -> None:
    with pytest.raises(ValidationError, match="more than one gift"):
        Cult.model_validate(cult(gifts=[{"id": "dust", "name": "Dust"}, {"id": "dust", "name": "Dust 2"}]))


def test_downtime_gifts_fit_a_downtime() -> None:
    """Seed 001: a downtime always frees enough slots for the gift it brings."""
    big = {"die": 1, "rows": [{"low": 1, "high": 1, "gift": {"id": "glow", "name": "Glow", "slots": 5}}]}
    with pytest.raises(ValidationError, match="frees only"):
        Cult.model_validate(cult(powers=big))
    assert DOWNTIME_SLOTS == 4


def test_bundled_cults(bundled_cults: list[Cult]) -> None:
    """The bundled cults load, each with its four parts, and ids unique across them."""
    assert [c.id for c in bundled_cults] == ["lantern-wardens", "brine-choir"]
    for found in bundled_cults:
        assert len(found.gifts) >= 2 and found.traits and found.equipment
        assert isinstance(found.powers.rows[0], PowerRow)
        assert any(r.ability is not None for r in found.carousing.rows)  # a chance of +1 ability
        assert any(r.gift is not None for r in found.carousing.rows)
