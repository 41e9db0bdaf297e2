"""Scenarios for Heroes of the Fall (the ``feat`` ruleset): the YAML format, as strict pydantic models.

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

Stakes, conditions and their checks are :mod:`wyrd.stories.feat.branching`'s. Reading and
finding scenario files is :mod:`wyrd.stories.feat.loader`'s; following play through one is
:mod:`wyrd.stories.feat.progress`'s.

Everything is checked on load: every character must be one the rules would make
(:func:`wyrd.rules.feat.create_character`, within its tier's budget), names and scene
ids are unique, and every exit and entrance names something that exists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from wyrd.rules.defaults import empty_list
from wyrd.rules.errors import RuleError
from wyrd.rules.feat import Attribute, Character, Edge, Skill, Tier, create_character
from wyrd.rules.feat.skills import SkillRating
from wyrd.stories.feat.branching import FeatExit, FeatRule, FeatStake, FeatText, Outcomes, branch_faults, holds
from wyrd.stories.problems import LINTING, Steps
from wyrd.stories.wording import LanguageCode, PronounWord

__all__ = [
    "LINTING",
    "FeatCharacterSpec",
    "FeatScene",
    "FeatStory",
    "parse_skill",
]

_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
TWIST_CATEGORIES = ("threat", "eerie", "tie", "mundane", "friendly")


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

