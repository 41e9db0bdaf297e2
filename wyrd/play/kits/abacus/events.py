"""The events the Abacus kit adds after the rules, typed like the rules' own.

The rules core settles what happened; the kit adds what the story says of it: the
story chosen, the stage rules a scene makes evident, each character's postscript.
They are saved with the command and never replayed (the kit's ``added_kinds``);
the session dumps them to JSON with the rules' events, only when it saves them.
"""

from typing import Literal

from pydantic import Field

from wyrd.oracle.events import Inspiration
from wyrd.play.engine.events import ORACLE_EVENTS, EventKinds, StoryChosen
from wyrd.rules.abacus.events import AbacusEvent
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list

__all__ = ["KINDS", "Ending", "Inspiration", "Postscript", "SceneFramed", "StageRulesEvident", "StoryChosen"]


class StageRulesEvident(Event):
    kind: Literal["stage_rules_evident"] = "stage_rules_evident"
    scene: str
    rules: list[str]
    names: list[str]


class Postscript(Event):
    kind: Literal["postscript"] = "postscript"
    character: str
    result: str
    text: str
    entry: str | None


class SceneFramed(Event):
    """A story's scene as it opens: its title, where it is, what the story says of it, who is there."""

    kind: Literal["scene_framed"] = "scene_framed"
    scene: str
    title: str
    place: str = ""
    text: str = ""
    present: list[str] = Field(default_factory=empty_list)


class Ending(Event):
    """What the story tells at the finale, by the scene it ended in and what was rolled on the way."""

    kind: Literal["ending"] = "ending"
    scene: str
    text: str


# Every kind a game of the Abacus records: the rules', the kit's and the oracle's.
KINDS = EventKinds(AbacusEvent, StoryChosen, StageRulesEvident, Postscript, SceneFramed, Ending, *ORACLE_EVENTS)
