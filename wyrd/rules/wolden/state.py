"""The whole state of a Wolden game, as plain pydantic data.

Actions never change a state in place: they work on a copy and hand back the new
state with its events, so a refused action leaves the caller's state untouched.
One encounter runs at a time: an extended challenge, a travel montage, or a fight.
"""

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from wyrd.rules.defaults import empty_list, left_out_unset
from wyrd.rules.wolden.characters import Character
from wyrd.rules.wolden.cults import Cult
from wyrd.rules.wolden.enums import Ability, EncounterKind

__all__ = [
    "DamageDice",
    "Encounter",
    "Enemy",
    "Extended",
    "Fight",
    "GameState",
    "PendingCheck",
    "Rounds",
    "Situation",
]


class DamageDice(BaseModel):
    """A damage roll such as 1d4+1 (seed 001: an enemy's basic damage, the default)."""

    model_config = ConfigDict(frozen=True)

    count: int = Field(default=1, ge=1)
    sides: int = Field(default=4, ge=1)
    bonus: int = Field(default=1, ge=0)

    @property
    def maximum(self) -> int:
        """What a critical failure takes (seed 001: the enemy hits as hard as it can)."""
        return self.count * self.sides + self.bonus

    @property
    def notation(self) -> str:
        return f"{self.count}d{self.sides}" + (f"+{self.bonus}" if self.bonus else "")


class Enemy(BaseModel):
    """A simple enemy: how much harm it takes to beat, and the damage it deals."""

    id: str
    name: str
    harm: int = Field(ge=1)
    damage: DamageDice = Field(default_factory=DamageDice)
    taken: int = Field(default=0, ge=0)

    @property
    def defeated(self) -> bool:
        return self.taken >= self.harm


class Situation(BaseModel):
    """One row of a montage's table of situations (ids and text from the caller)."""

    model_config = ConfigDict(frozen=True)

    id: str
    text: str = ""


class Rounds(BaseModel):
    """Who takes part, the round number, and who has acted in it, in order.

    Seed 001: a round closes when all the participants have acted; they pick the
    order among themselves, and the engine records it.
    """

    number: int = 1
    participants: list[str]
    acted: list[str] = Field(default_factory=empty_list)


class Extended(BaseModel):
    """An extended challenge, or (with ``montage``) a travel montage.

    Attributes:
        start: The starting difficulty rating; [ours] twice it is lost.
        rating: The rating now; done at 0.
        danger: [ours] Damage that failures and partials deal the characters involved,
            as an enemy's attack would (None: the consequences are the story's to apply).
        situations: A montage's table of situations.
        unused: Ids of the situations not yet drawn since the table was last full.
        situation: The situation being faced now.
        per_check: [ours] Draw a new situation for every roll (default: one a round).
    """

    kind: Literal["extended"] = "extended"
    id: str
    name: str
    rounds: Rounds
    montage: bool = False
    start: int
    rating: int
    danger: DamageDice | None = None
    situations: list[Situation] = Field(default_factory=empty_list)
    unused: list[str] = Field(default_factory=empty_list)
    situation: str | None = None
    per_check: bool = False

    @property
    def type(self) -> EncounterKind:
        return EncounterKind.MONTAGE if self.montage else EncounterKind.EXTENDED


class Fight(BaseModel):
    """A fight: the enemies and the characters who take part."""

    kind: Literal["fight"] = "fight"
    id: str
    name: str
    rounds: Rounds
    enemies: dict[str, Enemy]

    @property
    def type(self) -> EncounterKind:
        return EncounterKind.FIGHT

    @property
    def standing(self) -> list[Enemy]:
        return [e for e in self.enemies.values() if not e.defeated]


Encounter = Annotated[Extended | Fight, Field(discriminator="kind")]


class PendingCheck(BaseModel):
    """A roll opened but not yet rolled: its pool and what it is made against."""

    lead: str
    ability: Ability
    gift: str | None = None
    advantage: bool = False
    helpers: list[str] = Field(default_factory=empty_list)
    # the open encounter's id, or an enemy's in a fight; None for a plain check
    against: str | None = None
    attack: bool = True
    dice: int = 1

    @property
    def involved(self) -> list[str]:
        return [self.lead, *self.helpers]


class GameState(BaseModel):
    """A whole game.

    Attributes:
        session: The number of the session being played.
        session_run: The play session (an id the caller gives: one sitting of play) that
            ``session`` was first seen in; None until a downtime or a new session names one.
        downtime: Who has taken their downtime this session (seed 001: "Once per session or
            between sessions, at most").
    """

    cults: dict[str, Cult] = Field(default_factory=dict)
    characters: dict[str, Character] = Field(default_factory=dict)
    encounter: Encounter | None = None
    pending: PendingCheck | None = None
    session: int = 1
    # A game that never named a play session dumps exactly as games did before there were any.
    session_run: str | None = left_out_unset()
    downtime: list[str] = Field(default_factory=empty_list)
