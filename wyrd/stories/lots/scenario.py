"""Thaeborn scenarios: the small story format of the ``lots`` ruleset, and where play stands in one.

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
so a sheet the rules would refuse is a load error. :func:`open_scene` and
:func:`close_story` turn a scene or the ending (carried whole in the ``scene``
command's arguments) into NPCs entering and the scenario's own events, so a
replay needs no file. :class:`ScenarioPlay` follows a scenario from the commands
and events alone, so resume and undo rebuild it exactly; it knows nothing of the
screen or the save.
"""

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError, ValidationInfo, model_validator

from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list, left_out_unset
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
from wyrd.stories.lots.branches import END, Exit, StageRule, Told, Twists, When, branch_faults, key_of
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import LanguageCode, PronounWord
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "END",
    "FOLDER",
    "LINTING",
    "AssessCall",
    "CheckCall",
    "Exit",
    "FightCall",
    "Scenario",
    "ScenarioError",
    "ScenarioPlay",
    "Scene",
    "SceneCall",
    "SceneOpened",
    "Sheet",
    "StageRule",
    "StoryClosed",
    "Told",
    "Twists",
    "When",
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


@dataclass
class ScenarioPlay:
    """Where a session stands in a scenario, as its commands and events have told.

    It begins empty; the ``story`` command gives it its scenario (the command's
    arguments hold the whole of it), and ``scene_opened`` and ``story_closed``
    events move it on. It keeps the outcome of every check and fight the story's
    exits and texts follow (``check:ID``, ``fight:SCENE``), who has acted since the
    scene opened, and what the last command's outcome changed. It has the shape of
    the play layer's story follower.
    """

    scenario: Scenario | None = None
    played: list[str] = field(default_factory=list)
    ended: bool = False
    outcomes: dict[str, str] = field(default_factory=dict)
    casts: dict[str, str] = field(default_factory=dict)  # cast id -> the outcome key it settled
    acted: list[str] = field(default_factory=list)  # who has acted since the scene opened
    news: list[str] = field(default_factory=list)  # what the last command's outcome changed
    text: str = ""  # the current scene's text as it opened (after the outcomes before it)
    fresh: bool = False  # the last command opened the scene
    moved: bool = False  # someone acted for the first time this scene in the last command
    done_now: bool = False  # the last command settled the last of the scene's business

    @classmethod
    def follow(cls, snapshot: Mapping[str, Any] | None = None) -> "ScenarioPlay":
        """A new follower (no snapshot), or one as a snapshot left it."""
        if snapshot is None:
            return cls()
        story = snapshot.get("story")
        return cls(validated(Scenario, story) if story is not None else None,
                   [str(s) for s in snapshot.get("played", [])], bool(snapshot.get("ended", False)),
                   {str(k): str(v) for k, v in dict(snapshot.get("outcomes", {})).items()},
                   {str(k): str(v) for k, v in dict(snapshot.get("casts", {})).items()},
                   [str(n) for n in snapshot.get("acted", [])], [str(n) for n in snapshot.get("news", [])],
                   str(snapshot.get("text", "")), bool(snapshot.get("fresh", False)),
                   bool(snapshot.get("moved", False)), bool(snapshot.get("done_now", False)))

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to carry on, as JSON (see :meth:`follow`)."""
        story = dumped(self.scenario) if self.scenario is not None else None
        return {"story": story, "played": list(self.played), "ended": self.ended, "outcomes": dict(self.outcomes),
                "casts": dict(self.casts), "acted": list(self.acted), "news": list(self.news),
                "text": self.text, "fresh": self.fresh, "moved": self.moved, "done_now": self.done_now}

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None:
        """Move on with a command applied or replayed: a story chosen, a scene opened, an outcome, the ending."""
        if verb == "story" and isinstance(args.get("story"), dict):
            self.scenario, self.played, self.ended = validated(Scenario, args["story"]), [], False
            self.outcomes, self.casts, self.acted = {}, {}, []
        self.news, self.fresh, self.moved, self.done_now = [], False, False, False
        ident = self.scenario.id if self.scenario is not None else None
        if ident is None:
            return
        was_done = self.business_done()
        settled = args.get("settled")
        if verb == "scene" and isinstance(settled, dict):
            self.outcomes.update({str(k): str(v) for k, v in settled.items()})
        for event in events:
            if isinstance(event, SceneOpened) and event.story == ident:
                self.played.append(event.scene)
                self.acted, self.text, self.fresh = [], event.text, True
            elif isinstance(event, StoryClosed) and event.story == ident:
                self.ended = True
            else:
                self._outcome(event)
                self._actor(event)
        self.done_now = not self.fresh and not was_done and self.business_done()

    def business_done(self) -> bool:
        """Whether the current scene's business is settled: every check with an id has an outcome, the
        fight's foe is down, and (with neither) someone has acted."""
        scene = self.current
        if scene is None or self.ended:
            return False
        if any(c.id is not None and key_of("check", c.id) not in self.outcomes for c in scene.checks):
            return False
        if scene.fight is not None:
            return key_of("fight", scene.id) in self.outcomes
        return bool(self.acted) or not (scene.checks or scene.lots or scene.assess)

    def _outcome(self, event: Event) -> None:
        data = dict(event)
        kind = data.get("kind")
        if kind == "portent_spent" and data.get("use") == "blot_out":
            for cast in [str(data.get("cast")), *map(str, data.get("erased", []))]:
                key = self.casts.pop(cast, None)
                if key is not None:
                    self.outcomes.pop(key, None)
            return
        scene = self.current
        if kind == "incapacitated" and scene is not None and scene.fight is not None \
                and data.get("character") == scene.fight.npc:
            key = key_of("fight", scene.id)
            self.outcomes[key] = "won"
            self.news += [w.says or f"{scene.fight.npc} is down: the way to {self.title_of(w.to)} is open."
                          for w in scene.exits if w.when is not None and w.when.key == key and w.when.outcome == "won"]
            return
        if kind != "check_cast" or data.get("form") != "check":
            return
        call = self.call_for(str(data.get("purpose") or ""), data.get("discipline"), data.get("difficulty"))
        if call is None or call.id is None:
            return
        key = key_of("check", call.id)
        if data.get("outcome") == "waste":  # neither: unsettled until tried again, failed if left so
            self.outcomes.pop(key, None)
            return
        outcome = "success" if data.get("outcome") == "success" else "failure"
        self.outcomes[key] = outcome
        self.casts[str(data.get("cast"))] = key
        if scene is None:
            return
        for way in scene.exits:
            if way.when is not None and way.when.key == key and way.when.outcome == outcome:
                self.news.append(way.says or f"{call.purpose}: {outcome}, so the way to {self.title_of(way.to)} "
                                 "is open.")
        if self.scenario is not None and any(t.when.key == key for t in self.scenario.endings):
            self.news.append(f"The story's ending will follow this {outcome}.")

    def _actor(self, event: Event) -> None:
        data = dict(event)
        kind = data.get("kind")
        who = None
        if (kind in ("check_cast", "lots_cast") and data.get("form") != "mettle") or \
                kind in ("assessed", "rested", "portent_spent"):
            who = data.get("character")
        if isinstance(who, str) and who not in self.acted:
            self.acted.append(who)
            self.moved = True

    def call_for(self, purpose: str, discipline: object, difficulty: object) -> CheckCall | None:
        """The current scene's check a cast was for: by its purpose, else its Discipline and Difficulty,
        else its Discipline alone when only one check of the scene uses it."""
        scene = self.current
        if scene is None:
            return None
        wanted = purpose.strip().casefold()
        found = [c for c in scene.checks if wanted and c.purpose.casefold() == wanted]
        value = str(discipline.value if hasattr(discipline, "value") else discipline) if discipline else None
        found = found or [c for c in scene.checks if c.discipline.value == value and c.difficulty == difficulty]
        found = found or [c for c in scene.checks if c.discipline.value == value]
        return found[0] if len(found) == 1 or (found and wanted) else None

    def title_of(self, ident: str) -> str:
        """A scene's title (``the ending`` for the end)."""
        if self.scenario is None or ident == END:
            return "the ending"
        return next((s.title for s in self.scenario.scenes if s.id == ident), ident)

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

    def settle(self, fight_won: bool | None) -> dict[str, str]:
        """The current scene's outcomes as they stand when it is left: a check not made counts as failed,
        a fight as won only when its NPC is down (``fight_won``)."""
        scene = self.current
        if scene is None:
            return {}
        out = {key_of("check", c.id): "failure" for c in scene.checks
               if c.id is not None and key_of("check", c.id) not in self.outcomes}
        if scene.fight is not None:
            out[key_of("fight", scene.id)] = "won" if fight_won else "lost"
        return out

    def ways(self, fight_won: bool | None = None) -> list[tuple[Exit, bool | None]]:
        """The current scene's exits, each with whether it is open (None: not decided yet).

        With no exits written, the next scene in order (or the ending) is the one way on.
        ``fight_won`` is the scene's fight as it stands now (None: no fight, or not asked)."""
        scene = self.current
        if scene is None or self.scenario is None:
            return []
        if not scene.exits:
            left = [s for s in self.unplayed()]
            return [(Exit(to=left[0].id if left else END), True)]
        known = dict(self.outcomes)
        if scene.fight is not None and fight_won is not None:
            known[key_of("fight", scene.id)] = "won" if fight_won else "lost"
        return [(way, True if way.when is None else way.when.holds(known)) for way in scene.exits
                if way.to == END or way.to not in self.played]


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
