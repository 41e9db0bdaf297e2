"""Where play stands in a Thaeborn scenario: the scenes played, the outcomes the story follows, who has acted.

:class:`ScenarioPlay` follows a scenario from the commands and events alone, so
resume and undo rebuild it exactly; it knows nothing of the screen or the save.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wyrd.rules.actions import Event
from wyrd.stories.lots.branches import END, Exit, key_of
from wyrd.stories.lots.events import SceneOpened, StoryClosed
from wyrd.stories.lots.scenario import CheckCall, Scenario, Scene
from wyrd.stories.modelkept import dumped, validated

__all__ = ["ScenarioPlay"]


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

