"""The interface every narrator shares: a request of settled facts, a narration back.

A narrator never decides anything: the rules core has rolled every die and moved
every point before a :class:`NarrationRequest` is made. The request carries the
kind of moment, the events that make it, the characters (names, concepts,
facets), the challenge with its settled outcome (overcome or not, Wyrd drawn,
damage, scratches), the place, the story's narration seeds and tone notes. The
answer is a :class:`Narration`, stored by the play layer as a ``narration`` event
so a replay never needs the narrator again.

The table narrator (:mod:`wyrd.oracle.narrators.table`) is the offline default; an LLM
narrator implements the same :class:`Narrator` interface and falls back to the
table narrator on any failure.

:class:`MomentKind` names the moments of the Wyrd Abacus, whose tables
(``narrate/...``) and prompts are the oldest; every other ruleset names its own
moments in an enum of its own kit (values like ``"lots/check"``), and a request
for one of them says itself which tables tell it (``told_by``, filled with
``values``), what it settles (``said``, ``success``, ``harm``, ``death``) and how
its narration event reads (``marks``).
"""

from abc import ABC, abstractmethod
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from wyrd.oracle.events import Narrated
from wyrd.oracle.facts import ChallengeFacts, CharacterFacts
from wyrd.oracle.grammar import Referent
from wyrd.oracle.narrators import DEFAULT_MAX_CHARS
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.dice import Dice

__all__ = ["ANSWER_SAID", "DEFAULT_MAX_CHARS", "MAJOR_MOMENTS", "MomentKind", "Narration", "NarrationRequest",
           "Narrator", "Outcome"]

#: The oracle's answers as what a narration settles words them, for a model and the firewall (every ruleset's).
ANSWER_SAID = {"yes_and": "yes, and more", "yes": "yes", "no": "no", "no_but": "no, but something else"}


class MomentKind(StrEnum):
    """What a narration is about."""

    PROLOGUE = "prologue"  # session_started
    INTRODUCTION = "introduction"  # character_created
    SCENE_OPENING = "scene_opening"  # scene_started
    SCENE_TEST = "scene_test"  # the scene test's verdict (a play-layer event)
    CHALLENGE_PLACED = "challenge_placed"
    COMPLICATION = "complication"  # challenge_modified
    ATTEMPT = "attempt"  # roll_opened
    EFFORT = "effort"  # points_spent
    WYRD_DRAWN = "wyrd_drawn"
    FALTER = "falter"  # challenge_rolled short, the failure not yet taken
    CHALLENGE_OUTCOME = "challenge_outcome"  # challenge_resolved (+ the roll, draws, damage, scratches)
    HARM = "harm"  # damage / ability_scratched outside a challenge's outcome
    DEFEAT = "defeat"
    WYRD_ROLL = "wyrd_roll"
    INFLUENCE = "influence"
    CONTEST = "contest"
    REST = "rest"
    RECOVERY = "recovery"
    SCENE_CLOSING = "scene_closing"
    CLOCK = "clock"
    COUNTER = "counter"
    COUNTER_FIRED = "counter_fired"
    STAGE_RULE = "stage_rule"
    STAGE_RULE_FIRED = "stage_rule_fired"
    MAGIC = "magic"
    SERVANT_LOOSE = "servant_loose"
    TWIST = "twist"
    ANSWER = "answer"
    FINALE = "finale"
    POSTSCRIPT = "postscript"
    INTERPRETATION = "interpretation"  # a model's reading of an answer, a twist or an inspiration; never the tables'


# The moments told by default; the rest only when a player asks for every detail.
MAJOR_MOMENTS = frozenset({
    MomentKind.PROLOGUE, MomentKind.INTRODUCTION, MomentKind.SCENE_OPENING, MomentKind.SCENE_TEST,
    MomentKind.CHALLENGE_PLACED, MomentKind.COMPLICATION, MomentKind.CHALLENGE_OUTCOME, MomentKind.HARM,
    MomentKind.DEFEAT, MomentKind.CONTEST, MomentKind.REST, MomentKind.SCENE_CLOSING, MomentKind.COUNTER,
    MomentKind.COUNTER_FIRED, MomentKind.STAGE_RULE_FIRED, MomentKind.MAGIC, MomentKind.SERVANT_LOOSE,
    MomentKind.TWIST, MomentKind.ANSWER, MomentKind.FINALE, MomentKind.POSTSCRIPT,
})


class Outcome(StrEnum):
    """How a challenge was settled, as the narration distinguishes it."""

    OVERCOME = "overcome"
    OVERCOME_WYRD = "overcome_wyrd"  # overcome only by drawing scene Wyrd after the roll
    FAILED = "failed"  # failed, with consequences other than harm
    FAILED_DAMAGE = "failed_damage"
    FAILED_SCRATCH = "failed_scratch"  # an ability scratched out
    BYPASSED = "bypassed"  # a denizen's other challenge made this one moot


class NarrationRequest(BaseModel):
    """Everything a narrator may use for one moment; all of it already settled."""

    # a MomentKind, or another ruleset's moment enum (a StrEnum: its value is what prompts claim)
    moment: str
    # a finer kind: the challenge outcome, twist category, answer, magic form,
    # postscript (held / freed / defeated), scene-test outcome, harm (damage / scratch) ...
    detail: str | None = None
    events: list[Event] = Field(default_factory=empty_list)  # typed, as the rules and the kit made them
    subject: str | None = None  # the character the moment is mostly about
    characters: list[CharacterFacts] = Field(default_factory=empty_list)
    challenge: ChallengeFacts | None = None
    story: str = ""
    scene: str = ""
    location: str = ""
    seeds: list[str] = Field(default_factory=empty_list)  # the story's narration seeds for this scene
    tone: list[str] = Field(default_factory=empty_list)
    denizens: list[str] = Field(default_factory=empty_list)
    tables: dict[str, list[str]] = Field(default_factory=dict)  # the story's own entries by category
    # how the story refers to things by name (challenges, enemies, people, places); characters say their own
    referents: dict[str, Referent] = Field(default_factory=dict)
    # Set by a kit for its own moments; None or empty: worked out from the Abacus's moments as before.
    told_by: list[str] = Field(default_factory=empty_list)  # the tables that tell it offline, most specific first
    values: dict[str, Any] = Field(default_factory=dict)  # their placeholders' values
    own_words: bool = False  # told with one of ``seeds``, as written (a die picks which)
    said: str = ""  # what the facts settle, in a plain sentence for the model
    success: bool | None = None  # a roll settled as a success (True) or a failure (False)
    harm: bool | None = None  # someone is hurt in this moment
    death: bool | None = None  # someone dies (or is defeated) in this moment
    marks: dict[str, str] | None = None  # the fields its narration event carries after the text and source
    language: str = ""  # the story's language if it names one ("fr"); empty: the narrator config's (default "en")
    # A reading beside the story (an interpretation), not a telling of it: a narrator does not show it
    # word by word as it comes, nor remember it as part of the story so far.
    aside: bool = False

    @property
    def major(self) -> bool:
        return self.moment in MAJOR_MOMENTS

    def character(self, name: str | None) -> CharacterFacts:
        for char in self.characters:
            if char.name == name:
                return char
        return CharacterFacts(name=name or "")


class Narration(BaseModel):
    """A narrator's text for one moment, and where it came from."""

    model_config = ConfigDict(frozen=True)

    text: str
    source: str  # "table", or the LLM narrator's model
    moment: str | None = None
    trace: tuple[str, ...] = ()  # "table#row" of each table rolled, for the curious and for tests

    def event(self) -> Narrated:
        """The ``narration`` event the play layer stores."""
        return Narrated(text=self.text, source=self.source, moment=None if self.moment is None else str(self.moment))


class Narrator(ABC):
    """Anything that turns a :class:`NarrationRequest` into prose."""

    source: str = "narrator"

    @abstractmethod
    def narrate(self, request: NarrationRequest, dice: Dice) -> Narration:
        """Tell one moment. Must not change anything; may roll (through ``dice``) to choose words."""
