"""The pieces a Wolden scenario is made of, as strict pydantic models.

A scenario offers pregenerated characters and lists its encounters (extended
challenges, travel montages with their tables of situations, fights with their
enemies) and its scenes, each scene bringing at most one encounter. A scene's
``exits`` say where the story goes next, each opened by how an encounter came
out (or always open); a scene without exits leads to the next in the list. The
ending's lines may depend on how an encounter came out.

Every piece forbids unknown fields, so a misspelt field is an error. The
:class:`~wyrd.stories.wolden.scenario.Scenario` that holds them is in
:mod:`wyrd.stories.wolden.scenario`. This module knows the rules' shapes
(:mod:`wyrd.rules.wolden`), never the play layer.
"""

import re
from collections.abc import Mapping
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from wyrd.rules.defaults import empty_list, left_out_unset
from wyrd.rules.wolden import DamageDice, EncounterOutcome, Enemy
from wyrd.stories.wording import PronounWord, Wording, placeholder_fault

__all__ = [
    "END",
    "EndingLine",
    "EnemyAction",
    "EnemySpec",
    "EnemyTarget",
    "ExitSpec",
    "ExtendedSpec",
    "FightSpec",
    "Ident",
    "MontageSpec",
    "PregenSpec",
    "SceneSpec",
    "SituationSpec",
    "SituationTable",
    "Spec",
    "StandingRule",
    "outcomes_of",
    "parse_damage",
]

END = "end"
"""An exit to this goes to the scenario's ending."""

#: A stable id: lower-case words and digits joined by hyphens.
Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
_DAMAGE = re.compile(r"^(\d*)d(\d+)(?:\+(\d+))?$")


def parse_damage(text: str) -> DamageDice:
    """``1d4+1``, ``d6`` or ``2d4`` as :class:`~wyrd.rules.wolden.DamageDice` (ValueError if not)."""
    found = _DAMAGE.fullmatch(text.strip().casefold())
    if found is None:
        raise ValueError(f"{text!r} is not a damage roll such as 1d4+1")
    count, sides, bonus = found.groups()
    return DamageDice(count=int(count or 1), sides=int(sides), bonus=int(bonus or 0))


class Spec(BaseModel):
    """What every part of a scenario is: strict (an unknown key is an error) and frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class _Danger(Spec):
    danger: str | None = None  # a damage roll failures and partials deal those involved

    @field_validator("danger")
    @classmethod
    def _damage(cls, value: str | None) -> str | None:
        if value is not None:
            parse_damage(value)
        return value


EnemyTarget = Literal["weakest", "strongest", "random", "lead"]


class EnemyAction(Spec):
    """A row of an enemy's own table: what it does in a round, and whom it goes for.

    ``{enemy}`` and ``{character}`` in the text are filled by the play layer;
    ``target`` is the lowest total ability (weakest), the highest (strongest),
    or one chosen by the dice (random, lead; also when omitted).
    """

    text: str = Field(min_length=1)
    target: EnemyTarget | None = None

    @field_validator("text")
    @classmethod
    def _placeholders(cls, value: str) -> str:
        fault = placeholder_fault(value, ("enemy", "character"))
        if fault is not None:
            raise ValueError(fault)
        return value


class EnemySpec(Spec, Wording):
    """An enemy: the harm it takes to beat, and its damage (seed 001: 1d4+1 by default).

    ``actions`` is its own table of what it does each round of a fight (the play
    layer draws one row a round); without one it acts from ``wolden/enemy-acts``.
    """

    id: Ident
    name: str
    harm: int = Field(ge=1)
    damage: str = "1d4+1"
    text: str = ""
    actions: list[EnemyAction] = Field(default_factory=empty_list)

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        parse_damage(value)
        return value

    def enemy(self, ident: str, name: str) -> Enemy:
        return Enemy(id=ident, name=name, harm=self.harm, damage=parse_damage(self.damage))


class SituationSpec(Spec):
    id: Ident
    text: str


class SituationTable(Spec):
    """A travel montage's situations, drawn without repeats until all have come up."""

    id: Ident
    name: str
    situations: list[SituationSpec] = Field(min_length=2)


class ExtendedSpec(_Danger, Wording):
    """An extended challenge; ``approaches`` are ideas for the players, never required.

    ``fail`` (on every encounter) says in the story's words what losing it costs.
    """

    id: Ident
    name: str
    rating: int = Field(ge=1)
    text: str = ""
    approaches: list[str] = Field(default_factory=empty_list)
    fail: str = ""


class MontageSpec(_Danger, Wording):
    id: Ident
    name: str
    rating: int = Field(ge=1)
    table: Ident
    text: str = ""
    per_check: bool = False
    fail: str = ""


class FightSpec(Spec, Wording):
    id: Ident
    name: str
    enemies: list[Ident] = Field(min_length=1)  # enemy ids; an id twice is two of them
    text: str = ""
    fail: str = ""


class StandingRule(Spec):
    """A rule of the story's that stands in a scene (or in all of them): its name and what it does."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class ExitSpec(Spec):
    """A way on from a scene: to another scene (or ``end``, the ending).

    With ``encounter`` it opens only if that encounter came out as one of
    ``outcomes`` (the dice steer the story); without, it is always open, and
    where several are open the players choose (``scene TO``). ``text`` is what
    is said when the way is taken ("the causeway beat you: ..."), and what the
    exits list says opens it.
    """

    to: Ident
    encounter: Ident | None = None
    outcomes: list[EncounterOutcome] = Field(default_factory=empty_list)
    text: str = ""

    def opens(self, outcomes: Mapping[str, str]) -> bool:
        """Whether the way is open, given how the encounters came out so far."""
        return self.encounter is None or outcomes.get(self.encounter) in self.outcomes


class SceneSpec(Spec):
    """A scene: what it brings (``encounter``: an id of the scenario's encounters, or none).

    ``place`` is where it is; ``rules`` the story's own rules standing in it;
    ``exits`` the ways on (none: the next scene in the list, or after the last,
    the ending).
    """

    id: Ident
    title: str
    text: str
    place: str = ""
    encounter: Ident | None = None
    settled: bool = False  # a settled place: a downtime fits here
    narration: list[str] = Field(default_factory=empty_list)
    rules: list[StandingRule] = Field(default_factory=empty_list)
    exits: list[ExitSpec] = Field(default_factory=empty_list)


class PregenSpec(Spec):
    """A ready character, made by the creation rules (3, 2, 1, 0; two cult gifts)."""

    name: str
    cult: Ident
    concept: str = ""
    might: int
    agility: int
    mind: int
    graces: int
    gifts: list[str] | None = None
    pronouns: PronounWord | None = left_out_unset()  # they (when left out), she, he, it


class EndingLine(Spec):
    """A line of the ending; with ``encounter``, only if it came out as one of ``outcomes``."""

    text: str
    encounter: Ident | None = None
    outcomes: list[EncounterOutcome] = Field(default_factory=empty_list)


def outcomes_of(spec: ExtendedSpec | MontageSpec | FightSpec) -> tuple[EncounterOutcome, ...]:
    """How an encounter of this kind can come out (seed 001 and the rules' ``EncounterOutcome``)."""
    if isinstance(spec, FightSpec):
        return (EncounterOutcome.WON, EncounterOutcome.WITHDREW, EncounterOutcome.LOST)
    return (EncounterOutcome.DONE, EncounterOutcome.LOST, EncounterOutcome.ABANDONED)
