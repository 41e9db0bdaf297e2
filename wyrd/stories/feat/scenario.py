"""Scenarios for Heroes of the Fall (the ``feat`` ruleset): a small YAML format and its loader.

A scenario is one YAML mapping (read with :func:`wyrd.stories.yamlguard.safe_load`)::

    id: lantern-at-gull-reach        # lower case, digits and dashes; also the file's name
    ruleset: feat
    title: The Lantern at Gull Reach
    premise: One or two sentences shown when the story is chosen.
    tone: [salt, fog, small courage]
    cast:                            # the pregenerated heroes, put in play by `story ID`
      - name: Wenna Tarr
        concept: a net-mender with quick hands
        tier: novice                 # novice, journeyman, expert; leave out for no budget
        vigour: 6                    # all five attributes, 0 to 9
        mettle: 5
        wit: 5
        glamour: 4
        spirit: 5
        skills:
          climbing: vigour 3         # ATTRIBUTE RANKS, or ATTRIBUTE LEVEL/MOD (no tier only)
        edges: [speed]               # optional: an Edge of speed lets them act first
    others: [...]                    # other characters, the same shape; they enter in scenes
    scenes:
      - id: the-quay
        title: Fog on the quay
        text: What the heroes find, in a few sentences.
        enters: [Cobb Sallow]        # names from `others` who come into play here
        asks:                        # what the scene asks: commands the players might type
          - search Wenna "wet footprints" 5
        narration: [a line the narrator may open the scene with]
        exits: [the-causeway]        # the scenes that may follow (default: the next one listed)
        place: the harbour quay      # where it is (optional, as are the four below)
        stakes: [...]                # what stands in the way, the roll that settles each, won/lost texts
        rules: [{name: ..., text: ...}]   # the scene's standing rules, in words
        openings: [{when: STAKE won, text: ...}]   # told first when the outcomes so far say so
        # exits may also be {to: SCENE, when: STAKE won|lost}: open only when that outcome holds
    ending: What is told when the last scene is done.
    endings: [{when: STAKE won, text: ...}]   # told after it, by outcome
    rules: [...]                     # the story's standing rules
    twists: {threat: [...], eerie: [...], tie: [...], mundane: [...], friendly: [...]}

Stakes, conditions and their checks are :mod:`wyrd.stories.feat.branching`'s.

Everything is checked on load: every character must be one the rules would make
(:func:`wyrd.rules.feat.create_character`, within its tier's budget), names and scene
ids are unique, and every exit and entrance names something that exists. A
problem is a :class:`FeatStoryError` naming the file and the field.

Bundled scenarios live in ``stories/content/feat/``; a player's own go in a
``feat`` folder beside their Abacus stories (``--content DIR`` reads ``DIR/feat``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, ValidationInfo, field_validator, model_validator

from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.errors import RuleError
from wyrd.rules.feat import Attribute, Character, Edge, Skill, Tier, create_character
from wyrd.rules.feat.skills import SkillRating
from wyrd.stories.feat.branching import (
    SETTLING_VERBS,
    FeatExit,
    FeatRule,
    FeatStake,
    FeatText,
    Outcomes,
    branch_faults,
    holds,
)
from wyrd.stories.files import FileRefused, read_bytes, yaml_files
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import LanguageCode, PronounWord
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "BUNDLED_FEAT",
    "FOLDER",
    "LINTING",
    "MAX_BYTES",
    "FeatCharacterSpec",
    "FeatProgress",
    "FeatScene",
    "FeatStory",
    "FeatStoryError",
    "feat_story_files",
    "find_feat_story",
    "list_feat_stories",
    "load_feat_story",
    "parse_skill",
    "story_from",
]

FOLDER = "feat"
"""The sub-folder of a story folder that holds Heroes of the Fall scenarios."""
BUNDLED_FEAT = Path(__file__).resolve().parents[1] / "content" / FOLDER
MAX_BYTES = 256 * 1024
_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
TWIST_CATEGORIES = ("threat", "eerie", "tie", "mundane", "friendly")
_ACTING = frozenset((*SETTLING_VERBS, "move"))  # the verbs that are a character's turn in the spotlight


class FeatStoryError(ValueError):
    """A scenario that cannot be used; the message names the file and what is wrong."""


def parse_skill(text: str) -> Skill:
    """``"vigour 3"`` (ranks) or ``"vigour 6/81"`` (a rating as written) as a :class:`Skill`.

    Raises:
        ValueError: If the attribute or the number is not understood.
    """
    words = text.split()
    attribute = Attribute.lookup(words[0]) if len(words) == 2 else None
    if attribute is None:
        raise ValueError(f"a skill is written ATTRIBUTE RANKS or ATTRIBUTE LEVEL/MOD, as 'vigour 3' (got {text!r})")
    if "/" in words[1]:
        return Skill(attribute=attribute, rating=SkillRating.parse(words[1]))
    try:
        ranks = int(words[1])
    except ValueError:
        raise ValueError(f"the ranks of a skill are a whole number (got {words[1]!r})") from None
    return Skill(attribute=attribute, ranks=ranks)


class FeatCharacterSpec(BaseModel):
    """A character as a scenario writes it: the five attributes, skills as short text."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=60)
    concept: str = ""
    tier: Tier | None = None
    vigour: int
    mettle: int
    wit: int
    glamour: int
    spirit: int
    skills: dict[str, str] = Field(default_factory=dict)
    wyrd: int | None = Field(default=None, ge=0, le=99)
    edges: list[Edge] = Field(default_factory=empty_list, exclude_if=lambda v: not v)  # seed 003: an Edge of speed
    # how prose refers to them: "she" or "she/her", "he/him", "they/them" (left out of saved arguments when unset)
    pronouns: PronounWord = Field(default="", exclude_if=lambda v: not v)

    def attributes(self) -> dict[Attribute, int]:
        return {a: int(getattr(self, a.value)) for a in Attribute}

    def skill_map(self) -> dict[str, Skill]:
        return {name: parse_skill(text) for name, text in self.skills.items()}

    def build(self) -> Character:
        """The character the rules make of this (a :class:`~wyrd.rules.errors.RuleError` if they refuse)."""
        return create_character(self.name, self.attributes(), skills=self.skill_map(), tier=self.tier,
                                wyrd=self.wyrd, concept=self.concept, edges=self.edges)

    @model_validator(mode="after")
    def _fits_the_rules(self) -> FeatCharacterSpec:
        try:
            self.build()
        except RuleError as exc:
            raise ValueError(f"{exc} [{exc.rule}]") from None
        return self


class FeatScene(BaseModel):
    """One scene: what is found there, who enters, what it asks, and where it leads."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_SLUG, max_length=60)
    title: str = Field(min_length=1)
    text: str = Field(min_length=1)
    enters: list[str] = Field(default_factory=empty_list)
    asks: list[str] = Field(default_factory=empty_list)
    narration: list[str] = Field(default_factory=empty_list)
    exits: list[str | FeatExit] | None = None
    # Issue 18: where it is, what stands in the way, its standing rules, and openings by earlier outcomes
    # (each left out of saved arguments when unset, so scenes saved before them read back the same).
    place: str = Field(default="", exclude_if=lambda v: not v)
    stakes: list[FeatStake] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    rules: list[FeatRule] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    openings: list[FeatText] = Field(default_factory=empty_list, exclude_if=lambda v: not v)

    @field_validator("text", "title")
    @classmethod
    def _one_paragraph(cls, value: str) -> str:
        return " ".join(value.split())


class FeatStory(BaseModel):
    """A whole scenario for Heroes of the Fall."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_SLUG, max_length=60)
    ruleset: Literal["feat"] = "feat"
    title: str = Field(min_length=1)
    premise: str = ""
    tone: list[str] = Field(default_factory=empty_list)
    language: LanguageCode = ""
    cast: list[FeatCharacterSpec] = Field(min_length=1)
    others: list[FeatCharacterSpec] = Field(default_factory=empty_list)
    scenes: list[FeatScene] = Field(min_length=1)
    ending: str = Field(min_length=1)
    # Issue 18: endings by outcome (told after `ending`), standing rules, and the story's own twist tables
    endings: list[FeatText] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    rules: list[FeatRule] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    twists: dict[str, list[str]] = Field(default_factory=dict, exclude_if=lambda v: not v)

    @field_validator("twists")
    @classmethod
    def _categories(cls, value: dict[str, list[str]]) -> dict[str, list[str]]:
        for key in value:
            if key not in TWIST_CATEGORIES:
                raise ValueError(f"{key!r} is not a twist category ({', '.join(TWIST_CATEGORIES)})")
        return value

    @field_validator("premise", "ending")
    @classmethod
    def _one_paragraph(cls, value: str) -> str:
        return " ".join(value.split())

    @model_validator(mode="after")
    def _references(self, info: ValidationInfo) -> FeatStory:
        # The linter asks for every fault with its path (context LINTING); play stops at the first.
        if not (info.context or {}).get(LINTING):
            for _, message in self.faults():
                raise ValueError(message)
        return self

    def faults(self) -> Iterator[tuple[Steps, str]]:
        """What does not hold together (names or ids twice, references to nothing), each with its path."""
        seen: set[str] = set()
        for where, group in (("cast", self.cast), ("others", self.others)):
            for i, person in enumerate(group):
                if person.name.casefold() in seen:
                    yield (where, i, "name"), "two characters share a name"
                seen.add(person.name.casefold())
        ids = [s.id for s in self.scenes]
        for i, ident in enumerate(ids):
            if ident in ids[:i]:
                yield ("scenes", i, "id"), "two scenes share an id"
        others = {c.name for c in self.others}
        for i, scene in enumerate(self.scenes):
            for j, name in enumerate(scene.enters):
                if name not in others:
                    yield ("scenes", i, "enters", j), f"scene {scene.id}: {name!r} enters, but is not one of the others"
            for j, exit_ in enumerate(scene.exits or []):
                target = exit_ if isinstance(exit_, str) else exit_.to
                if target not in ids:
                    yield ("scenes", i, "exits", j), f"scene {scene.id}: no scene {target!r} to go on to"
            for j, stake in enumerate(scene.stakes):
                if stake.against is not None and stake.against.casefold() not in seen:
                    yield ("scenes", i, "stakes", j, "against"), f"stake {stake.id}: no character {stake.against!r}"
        yield from branch_faults(self.scenes, self.exits, self.endings, has_plain_ending=False)

    @cached_property
    def _read(self) -> _Lookup:
        return _Lookup(self.scenes, self.cast)

    def _lookup(self) -> _Lookup:
        """What the story's lists say, worked out once; built again if the lists are no longer those
        it was worked out from (the story is frozen, but a copy with other scenes starts with its cache)."""
        found = self._read
        if found.scenes is not self.scenes or found.cast is not self.cast:
            del self.__dict__["_read"]
            found = self._read
        return found

    def scene(self, ident: str) -> FeatScene:
        found = self._lookup().scenes_by_id.get(ident)
        return found if found is not None else next(s for s in self.scenes if s.id == ident)

    def heroes(self) -> frozenset[str]:
        """The names of the cast."""
        return self._lookup().heroes

    def exits(self, ident: str) -> list[str]:
        """The scenes that may follow ``ident``: as written, else the next one listed (none after the last)."""
        return [way.to for way in self.ways(ident)]

    def ways(self, ident: str) -> list[FeatExit]:
        """The ways on from ``ident``, each with the outcomes that open it (none: always open)."""
        found = self._lookup().ways.get(ident)
        if found is None:
            self.scene(ident)  # no such scene: refused as it always was
            return []
        return list(found)

    def open_exits(self, ident: str, outcomes: Outcomes) -> list[str]:
        """The scenes that may follow ``ident`` now, the outcomes so far being ``outcomes``."""
        return list(dict.fromkeys(w.to for w in self.ways(ident) if holds(w.when, outcomes)))

    def present(self, ident: str) -> list[str]:
        """Who is in scene ``ident``: the heroes, those who enter there, and those its stakes are against."""
        scene = self.scene(ident)
        names = [c.name for c in self.cast] + list(scene.enters) + [st.against for st in scene.stakes if st.against]
        return list(dict.fromkeys(names))

    def stake(self, ident: str) -> FeatStake | None:
        return next((st for s in self.scenes for st in s.stakes if st.id == ident), None)

    def opening(self, ident: str, outcomes: Outcomes) -> str:
        """The scene's text with the openings the outcomes so far call for."""
        scene = self.scene(ident)
        extra = [t.text for t in scene.openings if holds(t.when, outcomes)]
        return " ".join([*extra, scene.text])

    def ending_for(self, outcomes: Outcomes) -> str:
        """The ending, with the endings the outcomes call for."""
        return " ".join([self.ending, *(t.text for t in self.endings if holds(t.when, outcomes))])

    def other(self, name: str) -> FeatCharacterSpec:
        return next(c for c in self.others if c.name == name)


class _Lookup:
    """A story's scenes by id, the ways on from each and the names of its cast, read once from its lists."""

    def __init__(self, scenes: Sequence[FeatScene], cast: Sequence[FeatCharacterSpec]) -> None:
        self.scenes, self.cast = scenes, cast
        self.heroes = frozenset(c.name for c in cast)
        self.scenes_by_id: dict[str, FeatScene] = {}
        self.ways: dict[str, tuple[FeatExit, ...]] = {}
        for at, scene in enumerate(scenes):
            if scene.id in self.scenes_by_id:
                continue  # a story that repeats an id is refused; until then the first one is meant
            self.scenes_by_id[scene.id] = scene
            if scene.exits is not None:
                self.ways[scene.id] = tuple(FeatExit(to=w) if isinstance(w, str) else w for w in scene.exits)
            else:
                self.ways[scene.id] = (FeatExit(to=scenes[at + 1].id),) if at + 1 < len(scenes) else ()


def _problems(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors():
        where = ".".join(str(part) for part in error["loc"])
        message = str(error["msg"]).removeprefix("Value error, ")
        lines.append(f"{where}: {message}" if where else message)
    return "; ".join(lines)


def load_feat_story(path: str | Path) -> FeatStory:
    """Read and check one scenario file.

    Raises:
        FeatStoryError: If it cannot be read, is too big, is not YAML, or breaks the format.
    """
    file = Path(path)
    try:
        raw = read_bytes(file, MAX_BYTES)
    except FileRefused as exc:
        raise FeatStoryError(f"{file}: {exc.reason}") from None
    except OSError as exc:
        raise FeatStoryError(f"{file}: cannot be read ({exc.strerror or exc})") from None
    try:
        data = safe_load(raw.decode("utf-8"), source=file)
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise FeatStoryError(f"{file}: not readable YAML ({' '.join(str(exc).split())})") from None
    return story_from(data, str(file))


def story_from(data: Any, where: str = "story") -> FeatStory:
    """A scenario from plain data (a parsed file, or saved arguments)."""
    if not isinstance(data, Mapping):
        raise FeatStoryError(f"{where}: a scenario is one mapping (id: ..., title: ..., ...)")
    try:
        return validated(FeatStory, data)
    except ValidationError as exc:
        raise FeatStoryError(f"{where}: {_problems(exc)}") from None


def feat_story_files(dirs: Iterable[Path]) -> list[Path]:
    """Scenario files: ``*.yaml`` in each folder's ``feat`` subfolder, then the bundled ones."""
    found: list[Path] = []
    for folder in [*(Path(d) / FOLDER for d in dirs), BUNDLED_FEAT]:
        if folder.is_dir():
            found += yaml_files(folder)
    return found


def list_feat_stories(dirs: Iterable[Path]) -> list[str]:
    """The ids of the scenarios found (by file name), each once, earliest folder first."""
    seen: list[str] = []
    for path in feat_story_files(dirs):
        if path.stem not in seen:
            seen.append(path.stem)
    return seen


def find_feat_story(ident: str, dirs: Iterable[Path]) -> FeatStory:
    """The scenario called ``ident`` (its file name); the earliest folder wins.

    Raises:
        FeatStoryError: If there is none, or it does not load.
    """
    folders = list(dirs)
    for path in feat_story_files(folders):
        if path.stem == ident:
            story = load_feat_story(path)
            if story.id != ident:
                raise FeatStoryError(f"{path}: its id is {story.id!r}; a scenario's id is its file name")
            return story
    known = ", ".join(list_feat_stories(folders)) or "none"
    raise FeatStoryError(f"there is no Heroes of the Fall story {ident!r} (known: {known})")


class FeatProgress:
    """Where play stands in a scenario: the story chosen, the scene in play, the scenes done.

    It is rebuilt from what play did (``observe`` is shown every command, live and
    in replay, with the verb, its saved arguments and its events), so undo and
    resume put it back exactly; ``snapshot`` and :meth:`restore` carry it across
    a saved snapshot. It also keeps how each stake went (``outcomes``, from the
    ``stake_decided`` events), the stakes left unrolled when their scene was left
    (lost), and who has acted in the scene, in order (``acted``, for the spotlight).
    """

    def __init__(self, story: FeatStory | None = None, current: str | None = None,
                 played: list[str] | None = None, ended: bool = False,
                 outcomes: Mapping[str, bool] | None = None, acted: list[str] | None = None,
                 last: list[str] | None = None) -> None:
        self.story = story
        self.current = current
        self.played = list(played or [])
        self.ended = ended
        self.outcomes: dict[str, bool] = dict(outcomes or {})
        self.acted = list(acted or [])
        self.last = list(last or [])  # the stakes the latest change settled (what it changed)

    @classmethod
    def restore(cls, data: Mapping[str, Any] | None) -> FeatProgress:
        """A fresh follower (None), or one as a snapshot left it."""
        if not data:
            return cls()
        story = validated(FeatStory, data["story"]) if data.get("story") else None
        return cls(story, data.get("current"), list(data.get("played", [])), bool(data.get("ended", False)),
                   dict(data.get("outcomes", {})), list(data.get("acted", [])), list(data.get("last", [])))

    def snapshot(self) -> dict[str, Any]:
        return {"story": dumped(self.story) if self.story else None, "current": self.current,
                "played": list(self.played), "ended": self.ended, "outcomes": dict(self.outcomes),
                "acted": list(self.acted), "last": list(self.last)}

    def observe(self, verb: str, args: Mapping[str, Any], events: Iterable[Event]) -> None:
        if verb == "story" and isinstance(args.get("story"), Mapping):
            self.story = validated(FeatStory, args["story"])
        who = args.get("who")
        # acting is making a roll or a move (being wounded or brought round is not a turn); without
        # a story anyone may be a hero, with one only its cast
        heroes = self.story.heroes() if self.story is not None else {who}
        if verb in _ACTING and isinstance(who, str) and who in heroes:
            self.acted.append(who)
        if self.story is None:
            return
        self.last = []
        # The kit's own scene events (the stories read them by kind, never importing the kit).
        for event in events:
            if event.kind == "scene_started":
                self._leave()
                self.current = str(getattr(event, "scene"))  # noqa: B009  (any kit's scene_started has it)
                self.played.append(self.current)
                self.acted = []
            elif event.kind == "story_ended":
                self._leave()
                self.current, self.ended = None, True
            elif event.kind == "stake_decided":
                stake = str(getattr(event, "stake"))  # noqa: B009
                self.outcomes.setdefault(stake, bool(getattr(event, "won")))  # noqa: B009
                self.last.append(stake)

    def _leave(self) -> None:
        """A scene is left: its stakes nobody rolled for count as lost ([ours], the chance went by)."""
        if self.story is not None and self.current is not None:
            for stake in self.story.scene(self.current).stakes:
                self.outcomes.setdefault(stake.id, False)

    def outcomes_now(self) -> dict[str, bool]:
        """The outcomes as they would stand if the scene in play were left now."""
        found = dict(self.outcomes)
        if self.story is not None and self.current is not None:
            for stake in self.story.scene(self.current).stakes:
                found.setdefault(stake.id, False)
        return found

    def open_stakes(self) -> list[FeatStake]:
        """The stakes of the scene in play that no roll has settled yet."""
        if self.story is None or self.current is None:
            return []
        return [st for st in self.story.scene(self.current).stakes if st.id not in self.outcomes]

    def next_scenes(self) -> list[str]:
        """The scenes that may begin now, the default first (none: the story is at its end)."""
        if self.story is None or self.ended:
            return []
        if self.current is None:
            return [self.story.scenes[0].id]
        return self.story.open_exits(self.current, self.outcomes_now())
