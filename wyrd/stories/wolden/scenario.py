"""Wolden scenarios: a small story format, where to find them, and how far play has come.

A Wolden scenario is a YAML file in a ``wolden`` folder of story content (the
bundled ``stories/content/wolden/``, the player's ``<data>/stories/wolden/``, or
``--content DIR``'s ``DIR/wolden/``), read with :func:`wyrd.stories.yamlguard.safe_load`
and checked by :class:`Scenario`. It names the cults it uses (cult files, ``kind: cults`` and a
``cults:`` list of cult mappings, sit in the same folders), offers pregenerated characters, and
lists its encounters (extended challenges, travel montages with their tables of
situations, fights with their enemies) and its scenes in order, each scene
bringing at most one encounter. The ending's lines may depend on how an
encounter came out.

:class:`ScenarioProgress` is where a session stands in its scenario: it watches
the commands (``story``, ``scene``) and the encounters' endings, so replay
rebuilds it like the rules state. This module knows the rules' shapes
(:mod:`wyrd.rules.wolden`), never the play layer.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from wyrd.rules.actions import Event
from wyrd.rules.errors import RuleError
from wyrd.rules.wolden import Cult, DamageDice, EncounterOutcome, Enemy, create_character
from wyrd.rules.wolden.events import ExtendedEnded, FightEnded, FightStarted, RoundStarted
from wyrd.stories.files import read_text, yaml_files
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import PronounWord, Wording, placeholder_fault, unset
from wyrd.stories.yamlguard import safe_load

__all__ = [
    "FOLDER",
    "LINTING",
    "EndingLine",
    "EnemyAction",
    "EnemySpec",
    "EnemyTarget",
    "ExtendedSpec",
    "FightSpec",
    "FileKind",
    "MontageSpec",
    "PregenSpec",
    "Scenario",
    "ScenarioError",
    "ScenarioProgress",
    "SceneSpec",
    "SituationSpec",
    "SituationTable",
    "file_kind",
    "find_scenario",
    "list_scenarios",
    "load_cults",
    "parse_damage",
    "scenario_args",
]

FOLDER = "wolden"
"""The sub-folder of every story folder that holds Wolden content."""




class FileKind(StrEnum):
    """The two kinds of Wolden file."""

    SCENARIO = "scenario"
    CULTS = "cults"

Ident = Annotated[str, Field(pattern=r"^[a-z0-9][a-z0-9-]*$")]
_DAMAGE = re.compile(r"^(\d*)d(\d+)(?:\+(\d+))?$")


class ScenarioError(Exception):
    """A scenario or cult file that cannot be used; the message names the file and the fault."""


def parse_damage(text: str) -> DamageDice:
    """``1d4+1``, ``d6`` or ``2d4`` as :class:`~wyrd.rules.wolden.DamageDice` (ValueError if not)."""
    found = _DAMAGE.fullmatch(text.strip().casefold())
    if found is None:
        raise ValueError(f"{text!r} is not a damage roll such as 1d4+1")
    count, sides, bonus = found.groups()
    return DamageDice(count=int(count or 1), sides=int(sides), bonus=int(bonus or 0))


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Danger(_Spec):
    danger: str | None = None  # a damage roll failures and partials deal those involved

    @field_validator("danger")
    @classmethod
    def _damage(cls, value: str | None) -> str | None:
        if value is not None:
            parse_damage(value)
        return value


EnemyTarget = Literal["weakest", "strongest", "random", "lead"]


class EnemyAction(_Spec):
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


class EnemySpec(_Spec, Wording):
    """An enemy: the harm it takes to beat, and its damage (seed 001: 1d4+1 by default).

    ``actions`` is its own table of what it does each round of a fight (the play
    layer draws one row a round); without one it acts from ``wolden/enemy-acts``.
    """

    id: Ident
    name: str
    harm: int = Field(ge=1)
    damage: str = "1d4+1"
    text: str = ""
    actions: list[EnemyAction] = Field(default_factory=list)

    @field_validator("damage")
    @classmethod
    def _damage(cls, value: str) -> str:
        parse_damage(value)
        return value

    def enemy(self, ident: str, name: str) -> Enemy:
        return Enemy(id=ident, name=name, harm=self.harm, damage=parse_damage(self.damage))


class SituationSpec(_Spec):
    id: Ident
    text: str


class SituationTable(_Spec):
    """A travel montage's situations, drawn without repeats until all have come up."""

    id: Ident
    name: str
    situations: list[SituationSpec] = Field(min_length=2)


class ExtendedSpec(_Danger, Wording):
    """An extended challenge; ``approaches`` are ideas for the players, never required."""

    id: Ident
    name: str
    rating: int = Field(ge=1)
    text: str = ""
    approaches: list[str] = Field(default_factory=list)


class MontageSpec(_Danger, Wording):
    id: Ident
    name: str
    rating: int = Field(ge=1)
    table: Ident
    text: str = ""
    per_check: bool = False


class FightSpec(_Spec, Wording):
    id: Ident
    name: str
    enemies: list[Ident] = Field(min_length=1)  # enemy ids; an id twice is two of them
    text: str = ""


class SceneSpec(_Spec):
    """A scene: what it brings (``encounter``: an id of the scenario's encounters, or none)."""

    id: Ident
    title: str
    text: str
    encounter: Ident | None = None
    settled: bool = False  # a settled place: a downtime fits here
    narration: list[str] = Field(default_factory=list)


class PregenSpec(_Spec):
    """A ready character, made by the creation rules (3, 2, 1, 0; two cult gifts)."""

    name: str
    cult: Ident
    concept: str = ""
    might: int
    agility: int
    mind: int
    graces: int
    gifts: list[str] | None = None
    pronouns: PronounWord | None = Field(default=None, exclude_if=unset)  # they (when left out), she, he, it


class EndingLine(_Spec):
    """A line of the ending; with ``encounter``, only if it came out as one of ``outcomes``."""

    text: str
    encounter: Ident | None = None
    outcomes: list[EncounterOutcome] = Field(default_factory=list)


class Scenario(_Spec):
    ruleset: Literal["wolden"] = "wolden"
    id: Ident
    title: str
    premise: str
    tone: list[str] = Field(default_factory=list)
    cults: list[Ident] = Field(min_length=1)
    pregens: list[PregenSpec] = Field(default_factory=list)
    enemies: list[EnemySpec] = Field(default_factory=list)
    situation_tables: list[SituationTable] = Field(default_factory=list)
    extended: list[ExtendedSpec] = Field(default_factory=list)
    montages: list[MontageSpec] = Field(default_factory=list)
    fights: list[FightSpec] = Field(default_factory=list)
    scenes: list[SceneSpec] = Field(min_length=1)
    narration: list[str] = Field(default_factory=list)
    ending: list[EndingLine] = Field(min_length=1)

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> Scenario:
        # The linter asks for every fault with its path (context LINTING); play stops at the first.
        if not (info.context or {}).get(LINTING):
            for _, message in self.faults():
                raise ValueError(message)
        return self

    def faults(self) -> Iterator[tuple[tuple[str | int, ...], str]]:
        """What does not hold together (ids twice, references to nothing), each with its path in the file."""
        encounters = [*(("extended", i, e.id) for i, e in enumerate(self.extended)),
                      *(("montages", i, m.id) for i, m in enumerate(self.montages)),
                      *(("fights", i, f.id) for i, f in enumerate(self.fights))]
        yield from _unique("encounter", [((kind, i, "id"), ident) for kind, i, ident in encounters])
        yield from _unique("scene", [(("scenes", i, "id"), s.id) for i, s in enumerate(self.scenes)])
        yield from _unique("enemy", [(("enemies", i, "id"), e.id) for i, e in enumerate(self.enemies)])
        yield from _unique("situation table", [(("situation_tables", i, "id"), t.id)
                                               for i, t in enumerate(self.situation_tables)])
        yield from _unique("pregenerated character", [(("pregens", i, "name"), p.name)
                                                      for i, p in enumerate(self.pregens)])
        tables = {t.id for t in self.situation_tables}
        enemies = {e.id for e in self.enemies}
        known = set(self.encounters)
        for i, montage in enumerate(self.montages):
            yield from _known(("montages", i, "table"), montage.table, tables,
                              f"montage {montage.id}: situation table")
        for i, fight in enumerate(self.fights):
            for j, enemy in enumerate(fight.enemies):
                yield from _known(("fights", i, "enemies", j), enemy, enemies, f"fight {fight.id}: enemy")
        for i, scene in enumerate(self.scenes):
            if scene.encounter is not None:
                yield from _known(("scenes", i, "encounter"), scene.encounter, known, f"scene {scene.id}: encounter")
        for i, line in enumerate(self.ending):
            if line.encounter is not None:
                yield from _known(("ending", i, "encounter"), line.encounter, known, "ending: encounter")
        for i, pregen in enumerate(self.pregens):
            yield from _known(("pregens", i, "cult"), pregen.cult, set(self.cults), f"{pregen.name}: cult")

    @property
    def encounters(self) -> dict[str, ExtendedSpec | MontageSpec | FightSpec]:
        found: dict[str, ExtendedSpec | MontageSpec | FightSpec] = {e.id: e for e in self.extended}
        found.update({m.id: m for m in self.montages})
        found.update({f.id: f for f in self.fights})
        return found

    def enemy(self, ident: str) -> EnemySpec:
        return next(e for e in self.enemies if e.id == ident)

    def table(self, ident: str) -> SituationTable:
        return next(t for t in self.situation_tables if t.id == ident)


def _unique(what: str, ids: Sequence[tuple[Steps, str]]) -> Iterator[tuple[Steps, str]]:
    seen: set[str] = set()
    for path, ident in ids:
        if ident in seen:
            yield path, f"more than one {what} has the id {ident!r}"
        seen.add(ident)


def _known(path: Steps, ident: str, known: set[str], what: str) -> Iterator[tuple[Steps, str]]:
    if ident not in known:
        yield path, f"{what} {ident!r} is not in the scenario ({', '.join(sorted(known)) or 'none'})"


# -- finding scenarios and cults -------------------------------------------------------


def _files(dirs: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for folder in dirs:
        sub = folder / FOLDER
        if sub.is_dir():
            found += yaml_files(sub)
    return found


def _read(path: Path) -> dict[str, Any]:
    try:
        data = safe_load(read_text(path))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a Wolden file holds one mapping")
    return data


def file_kind(data: Mapping[str, Any]) -> FileKind:
    """What a Wolden file holds: a cults file says ``kind: cults`` (or has a ``cults:`` list of mappings
    and no scenes, as cult files always had); anything else is a scenario."""
    if data.get("kind") == "cults":
        return FileKind.CULTS
    cults = data.get("cults")
    if "scenes" not in data and isinstance(cults, list) and cults and all(isinstance(c, dict) for c in cults):
        return FileKind.CULTS
    return FileKind.SCENARIO


def _is_scenario(data: Mapping[str, Any]) -> bool:
    return file_kind(data) == FileKind.SCENARIO


def load_cults(dirs: Iterable[Path]) -> dict[str, Cult]:
    """Every cult in the cult files of ``dirs``; where two share an id, the earlier folder's wins."""
    cults: dict[str, Cult] = {}
    for path in _files(dirs):
        data = _read(path)
        if _is_scenario(data):
            continue
        for i, entry in enumerate(data.get("cults") or []):
            try:
                cult = Cult.model_validate(entry)
            except ValidationError as exc:
                raise ScenarioError(f"{path}: cult {i + 1}: {_first(exc)}") from None
            cults.setdefault(cult.id, cult)
    return cults


def _first(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])


def list_scenarios(dirs: Iterable[Path]) -> list[tuple[str, str]]:
    """The (id, title) of every scenario in ``dirs`` that reads."""
    out: list[tuple[str, str]] = []
    for path in _files(dirs):
        try:
            data = _read(path)
        except ScenarioError:
            continue
        if _is_scenario(data) and isinstance(data.get("id"), str):
            out.append((data["id"], str(data.get("title", ""))))
    return out


def find_scenario(ident: str, dirs: Iterable[Path]) -> Scenario:
    """The scenario ``ident``, checked (ScenarioError naming the file if it is unfit)."""
    folders = list(dirs)
    for path in _files(folders):
        data = _read(path)
        if not _is_scenario(data) or data.get("id") != ident:
            continue
        try:
            return Scenario.model_validate(data)
        except ValidationError as exc:
            raise ScenarioError(f"{path}: {_first(exc)}") from None
    known = ", ".join(i for i, _ in list_scenarios(folders)) or "none"
    raise ScenarioError(f"there is no Wolden scenario {ident!r} (known: {known})")


def scenario_args(ident: str, dirs: Iterable[Path]) -> dict[str, Any]:
    """The canonical arguments of ``story ID``: the scenario and its cults, so replay needs no file.

    Every pregenerated character is made by the creation rules here, so a scenario
    whose cast does not fit its cults is refused before play.
    """
    folders = list(dirs)
    scenario = find_scenario(ident, folders)
    known = load_cults(folders)
    missing = [c for c in scenario.cults if c not in known]
    if missing:
        raise ScenarioError(f"{scenario.id} needs the cult {missing[0]!r}, which no cult file holds")
    for pregen in scenario.pregens:
        try:
            create_character(pregen.name, known[pregen.cult], might=pregen.might, agility=pregen.agility,
                             mind=pregen.mind, graces=pregen.graces, gifts=pregen.gifts, concept=pregen.concept)
        except RuleError as exc:
            raise ScenarioError(f"{scenario.id}: {pregen.name}: {exc}") from None
    return {"id": scenario.id, "scenario": scenario.model_dump(mode="json"),
            "cults": [known[c].model_dump(mode="json") for c in scenario.cults]}


# -- where play stands ---------------------------------------------------------------


@dataclass
class ScenarioProgress:
    """The scenario being played, the scenes begun, how its encounters came out."""

    scenario: Scenario | None = None
    played: list[str] = field(default_factory=list)
    outcomes: dict[str, str] = field(default_factory=dict)
    ended: bool = False
    # whom each enemy of the fight under way goes for this round (enemy id -> character)
    targets: dict[str, str] = field(default_factory=dict)

    @classmethod
    def restore(cls, data: Mapping[str, Any] | None) -> ScenarioProgress:
        """A new progress (``None``), or one from :meth:`snapshot`."""
        if not data:
            return cls()
        found = data.get("scenario")
        return cls(Scenario.model_validate(found) if found else None, list(data.get("played", [])),
                   dict(data.get("outcomes", {})), bool(data.get("ended", False)), dict(data.get("targets", {})))

    def snapshot(self) -> dict[str, Any]:
        return {"scenario": self.scenario.model_dump(mode="json") if self.scenario else None,
                "played": list(self.played), "outcomes": dict(self.outcomes), "ended": self.ended,
                "targets": dict(self.targets)}

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None:
        if verb == "story" and "scenario" in args:
            self.scenario = Scenario.model_validate(args["scenario"])
        elif verb == "scene" and args.get("end"):
            self.ended = True
        elif verb == "scene" and "scene" in args:
            self.played.append(str(args["scene"]["id"]))
        for event in events:
            if isinstance(event, ExtendedEnded | FightEnded):
                self.outcomes[event.id] = str(event.outcome)
            if isinstance(event, RoundStarted | FightStarted | FightEnded):
                self.targets = {}
            elif event.kind == "enemy_acted":  # the kit's: the stories read it by kind, never importing the kit
                self.targets[str(getattr(event, "enemy"))] = str(getattr(event, "target"))  # noqa: B009

    @property
    def current(self) -> SceneSpec | None:
        if self.scenario is None or not self.played:
            return None
        return next((s for s in self.scenario.scenes if s.id == self.played[-1]), None)

    @property
    def next_scene(self) -> SceneSpec | None:
        """The scene ``scene`` begins next (None once the last has begun)."""
        if self.scenario is None:
            return None
        scenes = self.scenario.scenes
        return scenes[len(self.played)] if len(self.played) < len(scenes) else None

    def ending(self) -> list[str]:
        """The lines of the ending that fit how the encounters came out."""
        if self.scenario is None:
            return []
        return [line.text for line in self.scenario.ending
                if line.encounter is None or self.outcomes.get(line.encounter) in line.outcomes]
