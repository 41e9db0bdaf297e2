"""Cults and their tables: content the caller passes in, validated on construction.

Seed 001 gives every cult a table of powers (rolled on in Focused Training), an
equipment list (Go Shopping) and a carousing table (Carouse, with a chance of an
ability increase and sometimes a 1-slot gift). RULES.md: cults are story
content; the rules core only defines their shape. A new character starts with
two of their cult's gifts in their slots.

Every table row carries an explicit range of faces, and a table's rows must
cover every face of its die exactly once (DESIGN.md: no gaps, no overlaps, and
no silent clamping of a face that falls outside).
"""

from typing import Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from wyrd.rules.defaults import empty_list
from wyrd.rules.wolden.enums import Ability

__all__ = [
    "DOWNTIME_SLOTS",
    "STARTING_GIFTS",
    "CarouseRow",
    "Cult",
    "Gift",
    "Item",
    "PowerRow",
    "RollTable",
    "TableRow",
]

STARTING_GIFTS = 2
"""RULES.md: of the four starting slots, two hold the cult's gifts."""
DOWNTIME_SLOTS = 4
"""Seed 001: every downtime adds four new gift slots. A gift a downtime table gives
takes no more than this, so it always fits (the text: there is always room)."""


class Gift(BaseModel):
    """A gift (a trait, a power): something a character can do, held in gift slots."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    text: str = ""
    slots: int = Field(default=1, ge=1)


class Item(BaseModel):
    """An item of import from a cult's equipment list. [ours] Items take no gift slots."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    text: str = ""


class TableRow(BaseModel):
    """A row read when the die shows ``low`` to ``high``."""

    model_config = ConfigDict(frozen=True)

    low: int = Field(ge=1)
    high: int = Field(ge=1)

    @model_validator(mode="after")
    def _ordered(self) -> "TableRow":
        if self.low > self.high:
            raise ValueError(f"a row's range runs upwards: {self.low}-{self.high} is backwards")
        return self

    def covers(self, face: int) -> bool:
        return self.low <= face <= self.high


class PowerRow(TableRow):
    """A row of a cult's power table: the gift Focused Training brings."""

    gift: Gift


class CarouseRow(TableRow):
    """A row of a cult's carousing table.

    Attributes:
        id: The row's stable id.
        text: What happens (for the narrator; the rules never show it).
        gift: A gift the night brings (seed 001: usually a 1-slot gift).
        ability: [ours] The ability that rises by 1 on this row (never past the maximum).
        wounds: [ours] Wounds the night costs (the "sundry consequences"); 0 for none.
    """

    id: str
    text: str = ""
    gift: Gift | None = None
    ability: Ability | None = None
    wounds: int = Field(default=0, ge=0)


RowT = TypeVar("RowT", bound=TableRow)


class RollTable(BaseModel, Generic[RowT]):
    """A table rolled on with one die of ``die`` sides; its rows cover each face once."""

    model_config = ConfigDict(frozen=True)

    die: int = Field(ge=1)
    rows: list[RowT] = Field(min_length=1)

    @model_validator(mode="after")
    def _covers_the_die(self) -> "RollTable[RowT]":
        seen: dict[int, int] = {}
        for i, row in enumerate(self.rows):
            if row.high > self.die:
                raise ValueError(f"row {i + 1} runs to {row.high}, past the d{self.die}")
            for face in range(row.low, row.high + 1):
                if face in seen:
                    raise ValueError(f"rows {seen[face] + 1} and {i + 1} both cover {face}")
                seen[face] = i
        missing = [face for face in range(1, self.die + 1) if face not in seen]
        if missing:
            raise ValueError(f"no row covers {', '.join(map(str, missing))} on the d{self.die}")
        return self

    def row(self, face: int) -> RowT:
        """The row a face falls on (every face on the die has exactly one)."""
        for row in self.rows:
            if row.covers(face):
                return row
        raise ValueError(f"{face} is not a face of the d{self.die}")


class Cult(BaseModel):
    """A cult: what marks its members, their gifts, and the three downtime tables.

    Attributes:
        id: The cult's stable id (characters name their cult by it).
        name: Its name.
        traits: What marks a member (descriptive; no rule reads them).
        gifts: The gifts a new member may start with; they take two of them.
        powers: The table Focused Training rolls on.
        equipment: The items Go Shopping offers.
        carousing: The table Carouse rolls on.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    text: str = ""
    traits: list[str] = Field(default_factory=empty_list)
    gifts: list[Gift] = Field(min_length=STARTING_GIFTS)
    powers: RollTable[PowerRow]
    equipment: list[Item] = Field(min_length=1)
    carousing: RollTable[CarouseRow]

    @model_validator(mode="after")
    def _unique_ids(self) -> "Cult":
        for what, ids in (
            ("gift", [g.id for g in self.gifts]),
            ("power", [r.gift.id for r in self.powers.rows]),
            ("item", [i.id for i in self.equipment]),
            ("carousing row", [r.id for r in self.carousing.rows]),
        ):
            doubled = sorted({i for i in ids if ids.count(i) > 1})
            if doubled:
                raise ValueError(f"{self.id}: more than one {what} has the id {doubled[0]!r}")
        won = [r.gift for r in self.powers.rows] + [r.gift for r in self.carousing.rows if r.gift is not None]
        for gift in won:
            if gift.slots > DOWNTIME_SLOTS:
                raise ValueError(f"{self.id}: {gift.id} takes {gift.slots} slots; a downtime frees only "
                                 f"{DOWNTIME_SLOTS}")
        return self

    def gift(self, ident: str) -> Gift | None:
        """One of the starting gifts, by id or name (case-insensitive)."""
        return _find(self.gifts, ident)

    def item(self, ident: str) -> Item | None:
        """An item of the equipment list, by id or name (case-insensitive)."""
        return _find(self.equipment, ident)


_Named = TypeVar("_Named", Gift, Item)


def _find(things: list[_Named], ident: str) -> _Named | None:
    folded = ident.casefold()
    return next((t for t in things if folded in (t.id.casefold(), t.name.casefold())), None)
