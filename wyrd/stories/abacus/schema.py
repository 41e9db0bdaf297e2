"""The story format: what a Wyrd Abacus story file says, as strict pydantic models.

A story supplies what seed 000 asks of one: scenes and where they lead, locations,
denizens with their challenges, stage rules, clocks and counters, twist tables for
the Wyrd rolls, pregenerated characters and postscripts for the finale. A freeform
setting (``freeform: true``) offers pools of locations, denizens and complications
instead of fixed scenes.

The rules core's own models are embedded (stage rules, clocks, counters, challenge
specs), so the rules core enforces what a story says; here they are subclassed only
to forbid unknown fields, so a misspelt field is an error instead of being ignored.
Cross-references (a scene naming a location, an exit naming a scene) are checked by
:mod:`wyrd.stories.abacus.lint`, not here; how play follows a story is :mod:`wyrd.stories.abacus.flow`.
"""

from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Discriminator, Field, PrivateAttr, StringConstraints, Tag

from wyrd.rules.abacus.stage import Clock, Counter, Effect, Match, StageRule, Threshold, Trigger
from wyrd.rules.abacus.state import ChallengeSpec, Needs
from wyrd.rules.defaults import empty_list, left_out_unset
from wyrd.stories.abacus.exits import STRICT, Condition, Exit, Slug, Told
from wyrd.stories.problems import Origin
from wyrd.stories.wording import LanguageCode, PronounWord, Wording

__all__ = [
    "SIX_CATEGORIES", "STRICT", "ChallengeEntry", "Complication", "Concept",
    "Connection", "Entry", "Facets", "Location", "Origin", "Players",
    "Postscripts", "Pregen", "RuleEntry", "SceneSpec", "Story", "StoryChallenge", "StoryClock", "StoryCounter",
    "StoryDenizen", "StoryEffect", "StoryMatch", "StoryStageRule", "StoryThreshold", "StoryTrigger", "Told",
    "TwistCategory", "TwistWeights", "Twists", "json_schema",
]

# A story id is path-like: one or more slugs joined by "/" ("hollow-fair", "me/my-tale").
StoryId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*(?:/[a-z0-9]+(?:-[a-z0-9]+)*)*$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]


# -- the rules core's models, strict ------------------------------------------------


class StoryMatch(Match):
    model_config = STRICT


class StoryTrigger(Trigger):
    model_config = STRICT
    match: StoryMatch = Field(default_factory=StoryMatch)


class StoryEffect(Effect):
    model_config = STRICT
    match: StoryMatch = Field(default_factory=StoryMatch)


class StoryStageRule(StageRule):
    model_config = STRICT
    id: Slug
    trigger: StoryTrigger = Field(default_factory=StoryTrigger)
    # lists are invariant, hence the ignores: sound, as these lists are only read
    effects: list[StoryEffect] = Field(default_factory=empty_list)  # type: ignore[assignment]


class StoryThreshold(Threshold):
    model_config = STRICT
    effects: list[StoryEffect] = Field(default_factory=empty_list)  # type: ignore[assignment]


class StoryClock(Clock):
    model_config = STRICT
    id: Slug
    thresholds: list[StoryThreshold] = Field(default_factory=empty_list)  # type: ignore[assignment]


class StoryCounter(Counter):
    model_config = STRICT
    id: Slug


class StoryChallenge(ChallengeSpec, Wording):
    """A challenge as a story writes it; under a denizen, ``denizen`` may be left out.

    ``prose`` (or ``proper``, ``article``, ``plural``): how it reads mid-sentence (wyrd.stories.wording).
    """

    model_config = STRICT
    id: Slug
    on_fail: list[StoryEffect] | None = None  # type: ignore[assignment]
    text: str = ""  # what the challenge is, for narration


def _ref_or_spec(value: Any) -> str:
    return "ref" if isinstance(value, str) else "spec"


# A scene names a challenge by id or writes one inline; the same for stage rules.
ChallengeEntry = Annotated[
    Annotated[Slug, Tag("ref")] | Annotated[StoryChallenge, Tag("spec")], Discriminator(_ref_or_spec)
]
RuleEntry = Annotated[
    Annotated[Slug, Tag("ref")] | Annotated[StoryStageRule, Tag("spec")], Discriminator(_ref_or_spec)
]


# -- the parts of a story ---------------------------------------------------------


class Players(BaseModel):
    """How many players the story suits."""

    model_config = STRICT
    min: int = Field(default=1, ge=1, le=8)
    max: int = Field(default=4, ge=1, le=8)


class Concept(BaseModel):
    """A suggested character concept."""

    model_config = STRICT
    id: Slug
    name: Text
    text: str = ""


class Facets(BaseModel):
    model_config = STRICT
    body: list[Text] = Field(default_factory=empty_list)
    mind: list[Text] = Field(default_factory=empty_list)
    soul: list[Text] = Field(default_factory=empty_list)


class Connection(BaseModel):
    """A pregen's tie to another pregen (``to`` is that pregen's id)."""

    model_config = STRICT
    to: Slug
    note: str = ""


class Pregen(BaseModel):
    """A pregenerated character; :mod:`wyrd.stories.abacus.lint` checks it by the creation rules."""

    model_config = STRICT
    id: Slug
    name: Text
    concept: str = ""
    body: int
    mind: int
    soul: int
    facets: Facets = Field(default_factory=Facets)
    wyrd: int = 0
    connection: Connection | None = None
    pronouns: PronounWord | None = left_out_unset()  # they (when left out), she, he, it


class Location(Wording):
    model_config = STRICT
    id: Slug
    name: Text
    description: str = ""
    narration: list[Text] = Field(default_factory=empty_list)  # seeds for the narrator


class StoryDenizen(Wording):
    """A denizen: who or what it is, and the challenges it poses (all or any of them).

    ``pronouns`` (a person), ``prose``, ``proper``, ``article``: how it reads mid-sentence.
    """

    model_config = STRICT
    id: Slug
    name: Text
    description: str = ""
    needs: Needs = Needs.ALL
    challenges: list[StoryChallenge] = Field(default_factory=empty_list)
    narration: list[Text] = Field(default_factory=empty_list)


class SceneSpec(BaseModel):
    """A fixed scene: where, who, what is placed, which rules are evident, where next."""

    model_config = STRICT
    id: Slug
    title: Text
    location: Slug
    present: str = "everyone"  # a hint for who should be there
    description: str = ""
    narration: list[Text] = Field(default_factory=empty_list)
    challenges: list[ChallengeEntry] = Field(default_factory=empty_list)
    # ids of story rules evident here, and rules that hold for this scene only
    stage_rules: list[RuleEntry] = Field(default_factory=empty_list)
    wyrd: str = ""  # what this scene's Wyrd roll decides, for the narration
    next: list[Exit] = Field(default_factory=empty_list)
    finale: bool = False
    # what the story tells as the scene opens, by what came before (the first whose condition holds
    # of each, all of them told); and, for a finale, how the story ends by what was rolled
    told: list[Told] = Field(default_factory=empty_list)
    endings: list[Told] = Field(default_factory=empty_list)


class Entry(BaseModel):
    """A row of a twist table or a postscript; ``{name}`` is the character it concerns.

    A postscript ``when`` an outcome was rolled is chosen before the ones that always hold.
    """

    model_config = STRICT
    id: Slug
    text: Text
    weight: int = Field(default=1, ge=1)
    when: Condition = "always"


class TwistCategory(StrEnum):
    THREAT = "threat"
    EERIE = "eerie"
    PERSONAL = "personal"
    INTRUSION = "intrusion"  # mundane, from outside
    FRIENDLY = "friendly"


# Seed 000: a 6 brings a new threat, an eerie twist or a personal tie; a best of 1-2 a
# mundane (intrusion) or friendly one.
SIX_CATEGORIES = (TwistCategory.THREAT, TwistCategory.EERIE, TwistCategory.PERSONAL)


class TwistWeights(BaseModel):
    """How often each category is chosen: among the first three on a 6, the last two on 1-2."""

    model_config = STRICT
    threat: int = Field(default=1, ge=0)
    eerie: int = Field(default=1, ge=0)
    personal: int = Field(default=1, ge=0)
    intrusion: int = Field(default=1, ge=0)
    friendly: int = Field(default=1, ge=0)


class Twists(BaseModel):
    model_config = STRICT
    threat: list[Entry] = Field(default_factory=empty_list)
    eerie: list[Entry] = Field(default_factory=empty_list)
    personal: list[Entry] = Field(default_factory=empty_list)
    intrusion: list[Entry] = Field(default_factory=empty_list)
    friendly: list[Entry] = Field(default_factory=empty_list)
    weights: TwistWeights = Field(default_factory=TwistWeights)

    def table(self, category: TwistCategory | str) -> list[Entry]:
        result: list[Entry] = getattr(self, TwistCategory(category).value)
        return result


class Postscripts(BaseModel):
    """Endings by each character's finale result (wyrd.rules.abacus.story: held, freed, defeated)."""

    model_config = STRICT
    held: list[Entry] = Field(default_factory=empty_list)
    freed: list[Entry] = Field(default_factory=empty_list)
    defeated: list[Entry] = Field(default_factory=empty_list)


class Complication(BaseModel):
    """Freeform play: something to drop into a scene, with what it places."""

    model_config = STRICT
    id: Slug
    text: Text
    challenges: list[ChallengeEntry] = Field(default_factory=empty_list)
    stage_rules: list[RuleEntry] = Field(default_factory=empty_list)


class Story(BaseModel):
    """A whole story file. Lists keep file order; the first scene is the opening."""

    model_config = STRICT
    id: StoryId
    title: Text
    ruleset: Literal["abacus"] = "abacus"
    author: str = ""
    players: Players = Field(default_factory=Players)
    length: str = ""  # "one to two hours"
    premise: Text
    tone: list[Text] = Field(default_factory=empty_list)
    language: LanguageCode = ""
    concepts: list[Concept] = Field(default_factory=empty_list)
    connections: bool = False  # turn on seed 000's optional connection recovery rule
    pregens: list[Pregen] = Field(default_factory=empty_list)
    locations: list[Location] = Field(default_factory=empty_list)
    denizens: list[StoryDenizen] = Field(default_factory=empty_list)
    scenes: list[SceneSpec] = Field(default_factory=empty_list)
    stage_rules: list[StoryStageRule] = Field(default_factory=empty_list)
    clocks: list[StoryClock] = Field(default_factory=empty_list)
    counters: list[StoryCounter] = Field(default_factory=empty_list)
    twists: Twists = Field(default_factory=Twists)
    postscripts: Postscripts = Field(default_factory=Postscripts)
    freeform: bool = False
    complications: list[Complication] = Field(default_factory=empty_list)

    _origin: Origin | None = PrivateAttr(default=None)

    @property
    def origin(self) -> Origin | None:
        """Where the loader read this story (None for a story built in code)."""
        return self._origin

    def set_origin(self, origin: Origin) -> None:
        self._origin = origin

    def scene(self, ident: str) -> SceneSpec:
        """The scene ``ident`` (KeyError if there is none)."""
        for scene in self.scenes:
            if scene.id == ident:
                return scene
        raise KeyError(f"{self.id} has no scene {ident!r}")


def json_schema() -> dict[str, Any]:
    """The JSON Schema of a story file, for editors (``# yaml-language-server: $schema=...``)."""
    schema = Story.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
