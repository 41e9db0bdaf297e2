"""Following play through a Heroes of the Fall scenario: :class:`FeatProgress`.

It reads what play did, command by command, and keeps the scene in play, the
scenes done, how each stake went and who has acted in the scene. It never
imports the kit: it reads the kit's events by kind.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from wyrd.rules.actions import Event
from wyrd.stories.feat.branching import SETTLING_VERBS, FeatStake
from wyrd.stories.feat.scenario import FeatStory
from wyrd.stories.modelkept import dumped, validated

__all__ = ["FeatProgress"]

_ACTING = frozenset((*SETTLING_VERBS, "move"))  # the verbs that are a character's turn in the spotlight


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
