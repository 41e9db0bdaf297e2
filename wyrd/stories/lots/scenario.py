"""Thaeborn scenarios: the small story format of the ``lots`` ruleset, and how a file of it is read.

A scenario is a YAML file in a ``lots`` folder of the story folders
(``stories/content/lots/*.yaml`` for the bundled ones). It names its
pregenerated characters, its non-player characters (who never roll: only players do), and
a short line of scenes, each with its text, narration seeds, the NPCs who come
in with it and what it calls for (checks, assessments, secret casts, a fight).
The calls are suggestions shown to the players: nothing is resolved for them.
A check with an ``id`` and a scene's fight have outcomes the story follows: a
scene's exits, its text and the scenario's ending may each depend on one
(:mod:`wyrd.stories.lots.branches`); where it is, what failing costs, standing
rules and twist tables are optional.

The file is read with the safe loader (:func:`wyrd.stories.yamlguard.safe_load`) and checked by strict pydantic models;
every character is built by the rules core's own :func:`~wyrd.rules.lots.create_character`,
so a sheet the rules would refuse is a load error. What play makes of a scenario is
elsewhere: its own events (:mod:`wyrd.stories.lots.events`) and where a session
stands in it (:mod:`wyrd.stories.lots.following`).
"""

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, ValidationInfo, model_validator

from wyrd.rules.defaults import empty_list, left_out_unset
from wyrd.rules.lots import Character, Commitment, CreationError, Discipline, create_character
from wyrd.stories.files import read_text, yaml_files
from wyrd.stories.lots.branches import Exit, StageRule, Told, Twists, branch_faults
from wyrd.stories.modelkept import validated
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import LanguageCode, PronounWord
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "FOLDER",
    "AssessCall",
    "CheckCall",
    "FightCall",
    "Scenario",
    "ScenarioError",
    "Scene",
    "Sheet",
    "find_scenario",
    "load_scenario",
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
    pronouns: PronounWord | None = left_out_unset()  # they (when left out), she, he, it

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
    id: Slug | None = None  # what exits and texts name it by
    fails: Text | None = None  # what failing it costs, told before the attempt


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
    fails: Text | None = None  # what losing it costs, told before it begins


class Scene(BaseModel):
    """One scene: what it is, what it seeds the narration with, and what it calls for."""

    model_config = _STRICT

    id: Slug
    title: Text
    text: Text
    narration: list[Text] = Field(default_factory=empty_list)
    enters: list[Text] = Field(default_factory=empty_list)  # NPCs who come in with the scene
    checks: list[CheckCall] = Field(default_factory=empty_list)
    assess: list[AssessCall] = Field(default_factory=empty_list)
    lots: list[Text] = Field(default_factory=empty_list)  # secret casts, by what they are for
    fight: FightCall | None = None
    where: Text | None = None  # the place, as the frame names it
    texts: list[Told] = Field(default_factory=empty_list)  # the text instead, when an earlier outcome calls for it
    exits: list[Exit] = Field(default_factory=empty_list)  # none: the next scene in order
    rules: list[StageRule] = Field(default_factory=empty_list)  # standing rules while the scene lasts

    def text_for(self, outcomes: Mapping[str, str]) -> str:
        """The scene's text after these outcomes: the first text whose condition holds, else its own."""
        return next((t.text for t in self.texts if t.when.holds(outcomes)), self.text)


class Scenario(BaseModel):
    """A whole Thaeborn scenario."""

    model_config = _STRICT

    ruleset: Literal["lots"]
    id: Slug
    title: Text
    premise: Text
    tone: list[Text] = Field(default_factory=empty_list)
    language: LanguageCode = ""
    pregens: list[Sheet] = Field(min_length=1)
    npcs: list[Sheet] = Field(default_factory=empty_list)
    scenes: list[Scene] = Field(min_length=1)
    ending: Text
    endings: list[Told] = Field(default_factory=empty_list)  # the ending instead, after these outcomes
    rules: list[StageRule] = Field(default_factory=empty_list)  # standing rules of the whole story
    twists: Twists = Field(default_factory=Twists)

    def ending_for(self, outcomes: Mapping[str, str]) -> str:
        """The ending after these outcomes: the first whose condition holds, else the usual one."""
        return next((t.text for t in self.endings if t.when.holds(outcomes)), self.ending)

    @model_validator(mode="after")
    def _holds_together(self, info: ValidationInfo) -> "Scenario":
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
        yield from branch_faults(self.scenes, self.endings)

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
        data = safe_load(read_text(where, MAX_BYTES), source=where)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{where}: cannot be read: {exc}") from None
    try:
        return validated(Scenario, data)
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
