"""Wolden scenarios: a small story format, where to find them, and how far play has come.

A Wolden scenario is a YAML file in a ``wolden`` folder of story content (the
bundled ``stories/content/wolden/``, the player's ``<data>/stories/wolden/``, or
``--content DIR``'s ``DIR/wolden/``), read with :func:`wyrd.stories.yamlguard.safe_load`
and checked by :class:`Scenario`. It names the cults it uses (cult files, ``kind: cults`` and a
``cults:`` list of cult mappings, sit in the same folders), offers pregenerated characters, and
lists its encounters (extended challenges, travel montages with their tables of
situations, fights with their enemies) and its scenes, each scene bringing at
most one encounter. A scene's ``exits`` say where the story goes next, each
opened by how an encounter came out (or always open); a scene without exits
leads to the next in the list. The ending's lines may depend on how an
encounter came out. :meth:`Scenario.faults` finds, with the references, an exit
to nothing, a branch whose condition can never hold, an outcome that opens no
way on, and a scene no way reaches.

:class:`ScenarioProgress` is where a session stands in its scenario: it watches
the commands (``story``, ``scene``) and the encounters' endings, so replay
rebuilds it like the rules state. This module knows the rules' shapes
(:mod:`wyrd.rules.wolden`), never the play layer.
"""

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list, left_out_unset
from wyrd.rules.errors import RuleError
from wyrd.rules.wolden import Cult, DamageDice, EncounterOutcome, Enemy, create_character
from wyrd.rules.wolden.events import ExtendedEnded, FightEnded, FightStarted, RoundStarted
from wyrd.stories.files import read_text, yaml_files
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import LanguageCode, PronounWord, Wording, placeholder_fault
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "END",
    "FOLDER",
    "LINTING",
    "EndingLine",
    "EnemyAction",
    "EnemySpec",
    "EnemyTarget",
    "ExitSpec",
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
    "StandingRule",
    "file_kind",
    "find_scenario",
    "list_scenarios",
    "load_cults",
    "outcomes_of",
    "parse_damage",
    "scenario_args",
]

FOLDER = "wolden"
"""The sub-folder of every story folder that holds Wolden content."""
END = "end"
"""An exit to this goes to the scenario's ending."""




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


TwistCategory = Literal["threat", "eerie", "tie", "mundane", "friendly"]
"""The oracle's twist categories (:mod:`wyrd.oracle.twists`), as a story names them."""

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
    actions: list[EnemyAction] = Field(default_factory=empty_list)

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


class FightSpec(_Spec, Wording):
    id: Ident
    name: str
    enemies: list[Ident] = Field(min_length=1)  # enemy ids; an id twice is two of them
    text: str = ""
    fail: str = ""


class StandingRule(_Spec):
    """A rule of the story's that stands in a scene (or in all of them): its name and what it does."""

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


class ExitSpec(_Spec):
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


class SceneSpec(_Spec):
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
    pronouns: PronounWord | None = left_out_unset()  # they (when left out), she, he, it


class EndingLine(_Spec):
    """A line of the ending; with ``encounter``, only if it came out as one of ``outcomes``."""

    text: str
    encounter: Ident | None = None
    outcomes: list[EncounterOutcome] = Field(default_factory=empty_list)


class Scenario(_Spec):
    ruleset: Literal["wolden"] = "wolden"
    id: Ident
    title: str
    premise: str
    tone: list[str] = Field(default_factory=empty_list)
    language: LanguageCode = ""
    cults: list[Ident] = Field(min_length=1)
    pregens: list[PregenSpec] = Field(default_factory=empty_list)
    enemies: list[EnemySpec] = Field(default_factory=empty_list)
    situation_tables: list[SituationTable] = Field(default_factory=empty_list)
    extended: list[ExtendedSpec] = Field(default_factory=empty_list)
    montages: list[MontageSpec] = Field(default_factory=empty_list)
    fights: list[FightSpec] = Field(default_factory=empty_list)
    scenes: list[SceneSpec] = Field(min_length=1)
    narration: list[str] = Field(default_factory=empty_list)
    ending: list[EndingLine] = Field(min_length=1)
    # rules that stand in every scene of the story
    rules: list[StandingRule] = Field(default_factory=empty_list)
    # the story's own twists, by category (threat, eerie, tie, mundane, friendly): a critical's twist
    twists: dict[TwistCategory, list[Annotated[str, Field(min_length=1)]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> "Scenario":
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
        for i, line in enumerate(self.ending):
            spec = self.encounters.get(line.encounter or "")
            if spec is not None:
                yield from _possible(("ending", i, "outcomes"), spec, line.outcomes, "ending")
        yield from self._branch_faults()

    def exits_from(self, scene: SceneSpec) -> list[ExitSpec]:
        """The ways on from ``scene``: its own, or else the next scene in the list (after the last, the end)."""
        if scene.exits:
            return list(scene.exits)
        at = next(i for i, s in enumerate(self.scenes) if s.id == scene.id)
        return [ExitSpec(to=self.scenes[at + 1].id if at + 1 < len(self.scenes) else END)]

    def scene(self, ident: str) -> SceneSpec | None:
        return next((s for s in self.scenes if s.id == ident), None)

    def _before(self) -> dict[str, set[str]]:
        """For each scene, the scenes some way from the first passes through to reach it (itself included)."""
        ways = {s.id: {e.to for e in self.exits_from(s)} for s in self.scenes}
        before: dict[str, set[str]] = {s.id: {s.id} for s in self.scenes}
        changed = True
        while changed:  # a fixed point: scenes are few
            changed = False
            for scene, onward in ways.items():
                for nxt in onward:
                    if nxt in before and not before[scene] <= before[nxt]:
                        before[nxt] |= before[scene]
                        changed = True
        return before

    def _branch_faults(self) -> Iterator[tuple[tuple[str | int, ...], str]]:
        """Exits to nothing, conditions that can never hold, outcomes that lead nowhere, scenes never reached."""
        ids = {s.id for s in self.scenes}
        known = self.encounters
        before = self._before()
        first = self.scenes[0].id
        for i, scene in enumerate(self.scenes):
            met = {s.encounter for s in self.scenes if s.id in before[scene.id] and s.encounter}
            for j, way in enumerate(scene.exits):
                where = ("scenes", i, "exits", j)
                if way.to != END and way.to not in ids:
                    yield (*where, "to"), (f"scene {scene.id}: exit to {way.to!r}, which is neither a scene "
                                           f"nor {END} ({', '.join(sorted(ids))})")
                if way.encounter is None:
                    if way.outcomes:
                        yield (*where, "outcomes"), f"scene {scene.id}: exit to {way.to}: outcomes of no encounter"
                    continue
                spec = known.get(way.encounter)
                if spec is None:
                    yield from _known((*where, "encounter"), way.encounter, set(known),
                                      f"scene {scene.id}: exit to {way.to}: encounter")
                    continue
                if not way.outcomes:
                    yield (*where, "outcomes"), (f"scene {scene.id}: exit to {way.to} names {way.encounter} "
                                                 "but no outcome of it, so it can never open")
                yield from _possible((*where, "outcomes"), spec, way.outcomes, f"scene {scene.id}: exit to {way.to}")
                if way.encounter not in met:
                    yield (*where, "encounter"), (f"scene {scene.id}: exit to {way.to} can never open: "
                                                  f"{way.encounter} is met on no way to this scene")
            spec = known.get(scene.encounter or "")
            if spec is not None and scene.exits:
                for outcome in outcomes_of(spec):
                    if not any(w.encounter is None or w.encounter != scene.encounter or outcome in w.outcomes
                               for w in scene.exits):
                        yield ("scenes", i, "exits"), (f"scene {scene.id}: if {scene.encounter} comes out "
                                                       f"{outcome}, no exit opens: that outcome leads nowhere")
            if scene.id != first and first not in before[scene.id]:
                yield ("scenes", i, "id"), f"scene {scene.id} cannot be reached from the first scene, {first}"

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


def _actors(event: Event) -> list[str]:
    """Who acted in an event: the lead and helpers of a roll, one who passed or took a downtime."""
    if event.kind == "check_opened":
        return [str(getattr(event, "lead")), *map(str, getattr(event, "helpers", []))]  # noqa: B009
    if event.kind in ("turn_passed", "downtime_taken"):
        return [str(getattr(event, "character"))]  # noqa: B009
    return []


def outcomes_of(spec: ExtendedSpec | MontageSpec | FightSpec) -> tuple[EncounterOutcome, ...]:
    """How an encounter of this kind can come out (seed 001 and the rules' ``EncounterOutcome``)."""
    if isinstance(spec, FightSpec):
        return (EncounterOutcome.WON, EncounterOutcome.WITHDREW, EncounterOutcome.LOST)
    return (EncounterOutcome.DONE, EncounterOutcome.LOST, EncounterOutcome.ABANDONED)


def _possible(path: Steps, spec: ExtendedSpec | MontageSpec | FightSpec, outcomes: Sequence[EncounterOutcome],
              what: str) -> Iterator[tuple[Steps, str]]:
    can = outcomes_of(spec)
    for k, outcome in enumerate(outcomes):
        if outcome not in can:
            kind = "a fight" if isinstance(spec, FightSpec) else "an extended challenge"
            yield (*path, k), (f"{what}: {spec.id} is {kind}, which never comes out {outcome} "
                               f"({', '.join(can)}): the branch can never hold")


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
        data = safe_load(read_text(path), source=path)
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
                cult = validated(Cult, entry)
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
            return validated(Scenario, data)
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
    return {"id": scenario.id, "scenario": dumped(scenario),
            "cults": [dumped(known[c]) for c in scenario.cults]}


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
    # who has rolled, helped, passed or taken a downtime since the scene began, in order
    acted: list[str] = field(default_factory=list)
    # what the way taken into the scene under way said (the last outcome's change)
    way: str = ""

    @classmethod
    def restore(cls, data: Mapping[str, Any] | None) -> "ScenarioProgress":
        """A new progress (``None``), or one from :meth:`snapshot`."""
        if not data:
            return cls()
        found = data.get("scenario")
        return cls(validated(Scenario, found) if found else None, list(data.get("played", [])),
                   dict(data.get("outcomes", {})), bool(data.get("ended", False)), dict(data.get("targets", {})),
                   list(data.get("acted", [])), str(data.get("way", "")))

    def snapshot(self) -> dict[str, Any]:
        return {"scenario": dumped(self.scenario) if self.scenario else None,
                "played": list(self.played), "outcomes": dict(self.outcomes), "ended": self.ended,
                "targets": dict(self.targets), "acted": list(self.acted), "way": self.way}

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None:
        if verb == "story" and "scenario" in args:
            self.scenario = validated(Scenario, args["scenario"])
        elif verb == "scene" and args.get("end"):
            self.ended = True
        elif verb == "scene" and "scene" in args:
            self.played.append(str(args["scene"]["id"]))
            self.acted, self.way = [], str(args["scene"].get("way", ""))
        for event in events:
            for who in _actors(event):
                if who not in self.acted:
                    self.acted.append(who)
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
        """The scene ``scene`` begins next: the first, then the first way on that is open (None: the ending)."""
        ways = self.open_exits()
        if self.scenario is None or not ways:
            return None
        return self.scenario.scene(ways[0].to)

    def exits(self) -> list[ExitSpec]:
        """Every way on from the scene under way (before the first: the way to it)."""
        if self.scenario is None:
            return []
        scene = self.current
        if scene is None:
            return [] if self.played else [ExitSpec(to=self.scenario.scenes[0].id)]
        return self.scenario.exits_from(scene)

    def open_exits(self) -> list[ExitSpec]:
        """The ways on open now, as the encounters came out."""
        return [e for e in self.exits() if e.opens(self.outcomes)]

    def exit_names(self) -> dict[str, str]:
        """Where each way on goes, by name: the scene's title, or the ending."""
        story = self.scenario
        out: dict[str, str] = {}
        for way in self.exits():
            found = story.scene(way.to) if story is not None else None
            out[way.to] = found.title if found is not None else "the ending"
        return out

    def is_last(self, scene: SceneSpec) -> bool:
        """Whether every way on from ``scene`` goes to the ending."""
        return self.scenario is not None and all(e.to == END for e in self.scenario.exits_from(scene))

    def ending(self) -> list[str]:
        """The lines of the ending that fit how the encounters came out."""
        if self.scenario is None:
            return []
        return [line.text for line in self.scenario.ending
                if line.encounter is None or self.outcomes.get(line.encounter) in line.outcomes]
