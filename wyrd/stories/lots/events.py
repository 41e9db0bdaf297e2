"""The Thaeborn scenario's own events, and the two rules that make them: a scene opening, the story closing.

:func:`open_scene` and :func:`close_story` turn a scene or the ending (carried whole
in the ``scene`` command's arguments) into NPCs entering and the scenario's own
events, so a replay needs no file. What a scene calls for is shown as the commands
that would do it (:func:`calls`): suggestions only, nothing is resolved for the players.
"""

from collections.abc import Mapping
from typing import Any, Literal

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.lots import Commitment, GameState, Outcome, enlist
from wyrd.stories.lots.scenario import Scene, Sheet

__all__ = ["SceneCall", "SceneOpened", "StoryClosed", "calls", "close_story", "open_scene"]


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
