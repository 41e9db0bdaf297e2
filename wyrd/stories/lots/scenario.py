"""Thaeborn scenarios: the small story format of the ``lots`` ruleset, and where play stands in one.

A scenario is a YAML file in a ``lots`` folder of the story folders
(``stories/content/lots/*.yaml`` for the bundled ones). It names its
pregenerated characters, its non-player characters (who never roll: only players do), and
a short line of scenes, each with its text, narration seeds, the NPCs who come
in with it and what it calls for (checks, assessments, secret casts, a fight).
The calls are suggestions shown to the players: nothing is resolved for them.

The file is read with the safe loader (:func:`wyrd.stories.yamlguard.safe_load`) and checked by strict pydantic models;
every character is built by the rules core's own :func:`~wyrd.rules.lots.create_character`,
so a sheet the rules would refuse is a load error. :func:`open_scene` and
:func:`close_story` turn a scene or the ending (carried whole in the ``scene``
command's arguments) into NPCs entering and the scenario's own events, so a
replay needs no file. :class:`ScenarioPlay` follows a scenario from the commands
and events alone, so resume and undo rebuild it exactly; it knows nothing of the
screen or the save.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, ValidationInfo, model_validator

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.lots import (
    Character,
    Commitment,
    CreationError,
    Discipline,
    GameState,
    Outcome,
    create_character,
    enlist,
)
from wyrd.stories.files import read_text, yaml_files
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import PronounWord
from wyrd.stories.wording import unset as _unset
from wyrd.stories.yamlguard import safe_load

__all__ = [
    "FOLDER",
    "LINTING",
    "AssessCall",
    "CheckCall",
    "FightCall",
    "Scenario",
    "ScenarioError",
    "ScenarioPlay",
    "Scene",
    "SceneCall",
    "SceneOpened",
    "Sheet",
    "StoryClosed",
    "calls",
    "close_story",
    "find_scenario",
    "load_scenario",
    "open_scene",
    "scenario_files",
]

FOLDER = "lots"
"""The sub-folder of a story folder that holds Thaeborn scenarios."""

MAX_BYTES = 256 * 1024

_STRICT = ConfigDict(extra="forbid", frozen=True)
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Tier = Annotated[int, Field(ge=0, le=10)]


class ScenarioError(ValueError):
    """A scenario that cannot be read or does not hold together; the message names the file."""


class Sheet(BaseModel):
    """A character as a scenario writes it; :meth:`character` builds it by the rules."""

    model_config = _STRICT

    name: Text
    concept: str = ""
    disciplines: dict[Discipline, Tier]
    mettle: int | None = None
    armour: int = Field(default=0, ge=0)
    portents: int = Field(default=0, ge=0)
    pronouns: PronounWord | None = Field(default=None, exclude_if=_unset)  # they (when left out), she, he, it

    def character(self, *, npc: bool = False) -> Character:
        """The sheet as a rules character (raises the rules' CreationError if it breaks them)."""
        return create_character(self.name, self.disciplines, mettle=self.mettle, armour=self.armour,
                                portents=self.portents, npc=npc, concept=self.concept)


class CheckCall(BaseModel):
    """A check the scene calls for: ``check WHO DISCIPLINE vs DIFFICULTY "purpose"``."""

    model_config = _STRICT

    discipline: Discipline
    difficulty: Tier
    purpose: Text
    effort: int = Field(default=0, ge=0)


class AssessCall(BaseModel):
    """Something worth assessing: ``assess WHO DISCIPLINE TIER [living] "subject"``."""

    model_config = _STRICT

    discipline: Discipline
    tier: Tier
    subject: Text
    living: bool = False
    commitment: Commitment = Commitment.TOUCH


class FightCall(BaseModel):
    """An NPC who fights: how hard it strikes (its initial Effort)."""

    model_config = _STRICT

    npc: Text
    effort: int = Field(default=2, ge=1, le=10)


class Scene(BaseModel):
    """One scene: what it is, what it seeds the narration with, and what it calls for."""

    model_config = _STRICT

    id: Slug
    title: Text
    text: Text
    narration: list[Text] = Field(default_factory=list)
    enters: list[Text] = Field(default_factory=list)  # NPCs who come in with the scene
    checks: list[CheckCall] = Field(default_factory=list)
    assess: list[AssessCall] = Field(default_factory=list)
    lots: list[Text] = Field(default_factory=list)  # secret casts, by what they are for
    fight: FightCall | None = None


class Scenario(BaseModel):
    """A whole Thaeborn scenario."""

    model_config = _STRICT

    ruleset: Literal["lots"]
    id: Slug
    title: Text
    premise: Text
    tone: list[Text] = Field(default_factory=list)
    pregens: list[Sheet] = Field(min_length=1)
    npcs: list[Sheet] = Field(default_factory=list)
    scenes: list[Scene] = Field(min_length=1)
    ending: Text

    @model_validator(mode="after")
    def _holds_together(self, info: ValidationInfo) -> Scenario:
        # The linter asks for every fault with its path (context LINTING); play stops at the first.
        if not (info.context or {}).get(LINTING):
            for _, message in self.faults():
                raise ValueError(message)
        return self

    def faults(self) -> Iterator[tuple[Steps, str]]:
        """What does not hold together, each with its path: names or ids twice, NPCs who are not
        among the npcs, sheets the creation rules refuse."""
        seen: set[str] = set()
        sheets = [*(("pregens", i, s) for i, s in enumerate(self.pregens)),
                  *(("npcs", i, s) for i, s in enumerate(self.npcs))]
        for where, i, sheet in sheets:
            if sheet.name.casefold() in seen:
                yield (where, i, "name"), "two characters share a name"
            seen.add(sheet.name.casefold())
        ids = [s.id for s in self.scenes]
        for i, ident in enumerate(ids):
            if ident in ids[:i]:
                yield ("scenes", i, "id"), "two scenes share an id"
        npcs = {n.name for n in self.npcs}
        for i, scene in enumerate(self.scenes):
            named: list[tuple[Steps, str]] = [(("enters", j), n) for j, n in enumerate(scene.enters)]
            if scene.fight is not None:
                named.append((("fight", "npc"), scene.fight.npc))
            for steps, name in named:
                if name not in npcs:
                    yield ("scenes", i, *steps), f"scene {scene.id} names {name!r}, who is not among the npcs"
        for where, i, sheet in sheets:
            try:
                sheet.character()
            except CreationError as exc:
                yield (where, i), f"{sheet.name}: {exc}"

    def scene(self, ident: str) -> Scene:
        """The scene with this id."""
        return next(s for s in self.scenes if s.id == ident)

    def npc(self, name: str) -> Sheet:
        """The NPC with this name."""
        return next(n for n in self.npcs if n.name == name)


def load_scenario(path: str | Path) -> Scenario:
    """Read and check one scenario file.

    Raises:
        ScenarioError: The file is missing, too large, not YAML, or not a valid scenario.
    """
    where = Path(path)
    try:
        data = safe_load(read_text(where, MAX_BYTES))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{where}: cannot be read: {exc}") from None
    try:
        return Scenario.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'scenario'}: {e['msg']}" for e in exc.errors())
        raise ScenarioError(f"{where}: {problems}") from None


def scenario_files(dirs: Iterable[Path]) -> list[Path]:
    """The scenario files in the ``lots`` folder of each story folder, folder by folder."""
    found: list[Path] = []
    for folder in dirs:
        sub = Path(folder) / FOLDER
        if sub.is_dir():
            found += yaml_files(sub)
    return found


def find_scenario(ident: str, dirs: Iterable[Path]) -> Scenario:
    """The scenario whose file is ``ident``.yaml (the earliest folder wins), checked.

    Raises:
        ScenarioError: No such scenario (the message lists the known ones), or it does not load.
    """
    files = scenario_files(dirs)
    for path in files:
        if path.stem == ident:
            scenario = load_scenario(path)
            if scenario.id != ident:
                raise ScenarioError(f"{path}: its id is {scenario.id!r}, not {ident!r} as the file is named")
            return scenario
    known = ", ".join(sorted({p.stem for p in files})) or "none"
    raise ScenarioError(f"there is no Thaeborn scenario {ident!r} (known: {known})")


@dataclass
class ScenarioPlay:
    """Where a session stands in a scenario, as its commands and events have told.

    It begins empty; the ``story`` command gives it its scenario (the command's
    arguments hold the whole of it), and ``scene_opened`` and ``story_closed``
    events move it on. It has the shape of the play layer's story follower.
    """

    scenario: Scenario | None = None
    played: list[str] = field(default_factory=list)
    ended: bool = False

    @classmethod
    def follow(cls, snapshot: Mapping[str, Any] | None = None) -> ScenarioPlay:
        """A new follower (no snapshot), or one as a snapshot left it."""
        if snapshot is None:
            return cls()
        story = snapshot.get("story")
        return cls(Scenario.model_validate(story) if story is not None else None,
                   [str(s) for s in snapshot.get("played", [])], bool(snapshot.get("ended", False)))

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to carry on, as JSON (see :meth:`follow`)."""
        story = self.scenario.model_dump(mode="json") if self.scenario is not None else None
        return {"story": story, "played": list(self.played), "ended": self.ended}

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None:
        """Move on with a command applied or replayed: a story chosen, a scene opened, the ending."""
        if verb == "story" and isinstance(args.get("story"), dict):
            self.scenario, self.played, self.ended = Scenario.model_validate(args["story"]), [], False
        ident = self.scenario.id if self.scenario is not None else None
        for event in events:
            if ident is None:
                continue
            if isinstance(event, SceneOpened) and event.story == ident:
                self.played.append(event.scene)
            elif isinstance(event, StoryClosed) and event.story == ident:
                self.ended = True

    @property
    def current(self) -> Scene | None:
        """The scene being played (None before the first)."""
        if self.scenario is None or not self.played:
            return None
        return self.scenario.scene(self.played[-1])

    def unplayed(self) -> list[Scene]:
        """The scenes not yet played, in the scenario's order."""
        if self.scenario is None:
            return []
        return [s for s in self.scenario.scenes if s.id not in self.played]


# -- the scenario's own events: made from the `scene` command's arguments, so replay makes them again --


class SceneOpened(Event):
    """A scene of the scenario begins (its NPCs have come in just before)."""

    kind: Literal["scene_opened"] = "scene_opened"
    story: str
    scene: str
    number: int
    title: str
    text: str
    seeds: list[str]


class SceneCall(Event):
    """Something the scene calls for, as the command that would do it (a suggestion only)."""

    kind: Literal["scene_call"] = "scene_call"
    story: str
    scene: str
    command: str


class StoryClosed(Event):
    """The scenario's ending, with who of the players' characters stands and who has fallen."""

    kind: Literal["story_closed"] = "story_closed"
    story: str
    title: str
    text: str
    standing: list[str]
    fallen: list[str]


def calls(scene: Scene) -> list[str]:
    """The commands a scene calls for, WHO left for the players to fill in."""
    out = [f'check WHO {c.discipline.value} vs {c.difficulty}' + (f" effort={c.effort}" if c.effort else "")
           + f' "{c.purpose}"' for c in scene.checks]
    out += [f"assess WHO {a.discipline.value} {a.tier}"
            + (f" {a.commitment.value}" if a.commitment != Commitment.TOUCH else "")
            + (" living" if a.living else "") + f' "{a.subject}"' for a in scene.assess]
    out += [f'lots "{why}"' for why in scene.lots]
    if scene.fight is not None:
        npc, effort = scene.fight.npc, scene.fight.effort
        out += [f'defend WHO against "{npc}" effort={effort}', f'attack WHO "{npc}" effort=N']
    return out


def open_scene(state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
    """Bring in the scene's NPCs (those the arguments carry) and say what the scene is and calls for."""
    events: list[Event] = []
    for data in args["npcs"]:
        outcome = enlist(state, dice, Sheet.model_validate(data).character(npc=True))
        state, events = outcome.state, events + outcome.events
    scene = Scene.model_validate(args["scene"])
    story = str(args["story"])
    events.append(SceneOpened(story=story, scene=scene.id, number=int(args["number"]), title=scene.title,
                              text=scene.text, seeds=list(scene.narration)))
    events += [SceneCall(story=story, scene=scene.id, command=c) for c in calls(scene)]
    return Outcome(state, events)


def close_story(state: GameState, args: Mapping[str, Any]) -> Outcome:
    """The ending: who of the players' characters is still standing, and who has fallen."""
    players = [c for c in state.characters.values() if not c.npc]
    return Outcome(state, [StoryClosed(
        story=str(args["story"]), title=str(args["title"]), text=str(args["ending"]),
        standing=[c.name for c in players if not c.condition.incapacitated],
        fallen=[c.name for c in players if c.condition.incapacitated])])
