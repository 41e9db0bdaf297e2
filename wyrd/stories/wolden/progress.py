"""Where a session stands in its Wolden scenario: :class:`ScenarioProgress`.

It watches the commands (``story``, ``scene``) and the encounters' endings, so
replay rebuilds it like the rules state. It reads the kit's events by kind and
never imports the play layer.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wyrd.rules.actions import Event
from wyrd.rules.wolden.events import ExtendedEnded, FightEnded, FightStarted, RoundStarted
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.wolden.scenario import Scenario
from wyrd.stories.wolden.specs import END, ExitSpec, SceneSpec

__all__ = ["ScenarioProgress"]


def _actors(event: Event) -> list[str]:
    """Who acted in an event: the lead and helpers of a roll, one who passed or took a downtime."""
    if event.kind == "check_opened":
        return [str(getattr(event, "lead")), *map(str, getattr(event, "helpers", []))]  # noqa: B009
    if event.kind in ("turn_passed", "downtime_taken"):
        return [str(getattr(event, "character"))]  # noqa: B009
    return []


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
