"""Following a Wyrd Abacus story: which scene comes next, what it places, and how it ends.

The rules core knows nothing of stories; the story file says which scenes
follow which, what each scene places, and the postscripts of the finale. This
module keeps where a session stands in its story (rebuilt from events, so
resume and undo get it right) and turns story content into the canonical
arguments of the rules verbs. A command's arguments carry everything it takes
from the story, so a replay never depends on the story file as it is today.

:class:`StoryFollower` is the kit's :class:`~wyrd.play.engine.storyplay.Follower`:
the session keeps it like any other ruleset's, and its snapshot is the one saves
have always held for the Abacus (:meth:`StoryPlay.snapshot`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wyrd.play.engine.storyplay import PlayContext, list_stories
from wyrd.play.engine.words import UsageError
from wyrd.play.kits.abacus.events import Ending, Postscript, SceneFramed, StageRulesEvident
from wyrd.rules.abacus import GameState
from wyrd.rules.abacus.events import ChallengeResolved, SceneEnded, SceneStarted
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.abacus import flow
from wyrd.stories.abacus.loader import find_story
from wyrd.stories.abacus.schema import SceneSpec, Story
from wyrd.stories.loader import StoryError
from wyrd.stories.modelkept import dumped, validated

__all__ = ["StoryFollower", "StoryPlay", "load_story_args", "story_in", "story_of"]


def load_story_args(ident: str, dirs: Iterable[Path]) -> dict[str, Any]:
    """The canonical arguments of ``story ID``: the whole story, so replay needs no file."""
    try:
        story = find_story(ident, [d for d in dirs if d.is_dir()])
    except StoryError as exc:
        raise UsageError(str(exc)) from None
    except LookupError:
        known = ", ".join(i.id for i in list_stories(dirs))
        raise UsageError(f"no story {ident!r}; the stories are: {known}") from None
    return {"id": story.id, "story": dumped(story)}


def story_in(args: Mapping[str, Any]) -> Story:
    """The story in a ``story`` command's arguments (``args["story"]``, as saved), validated.

    A ``story`` command's rules (the verb's ``apply``) and the story's follower each read the same
    arguments, one after the other: :func:`~wyrd.stories.modelkept.validated` validates them once.
    """
    return validated(Story, args["story"])


@dataclass
class StoryPlay:
    """A story and where play stands in it, as the events have told."""

    story: Story
    overcome: set[str] = field(default_factory=set)
    failed: set[str] = field(default_factory=set)
    played: list[str] = field(default_factory=list)
    current: str | None = None
    # the challenges the last command settled, (id, overcome): what the last outcome changed
    settled: list[tuple[str, bool]] = field(default_factory=list)

    @classmethod
    def from_args(cls, args: dict[str, Any]) -> StoryPlay:
        return cls(story_in(args))

    def snapshot(self) -> dict[str, Any]:
        """Everything needed to carry on from a snapshot, as JSON."""
        return {"story": dumped(self.story), "overcome": sorted(self.overcome),
                "failed": sorted(self.failed), "played": self.played, "current": self.current}

    @classmethod
    def restore(cls, data: dict[str, Any]) -> StoryPlay:
        return cls(validated(Story, data["story"]), set(data["overcome"]), set(data["failed"]),
                   list(data["played"]), data["current"])

    def observe(self, events: Iterable[Event]) -> None:
        self.settled = []
        for event in events:
            if isinstance(event, ChallengeResolved) and event.status in ("overcome", "failed"):
                (self.overcome if event.overcome else self.failed).add(event.challenge)
                self.settled.append((event.challenge, event.overcome))
            elif isinstance(event, SceneStarted):
                self.current = event.scene
            elif isinstance(event, SceneEnded) and self.current is not None:
                self.played.append(self.current)
                self.current = None

    def _known(self, scene: str) -> bool:
        return any(s.id == scene for s in self.story.scenes)

    def progress(self, state: GameState) -> flow.Progress:
        """What the story's conditions look at now."""
        return flow.Progress.of(state, self.overcome, self.failed, known=flow.challenge_specs(self.story))

    def scene_spec(self, scene: str | None) -> SceneSpec | None:
        return next((s for s in self.story.scenes if s.id == scene), None) if scene else None

    def last_scene(self) -> str | None:
        """The story scene being played, or the last one played."""
        if self.current is not None and self._known(self.current):
            return self.current
        return next((s for s in reversed(self.played) if self._known(s)), None)

    def open_scenes(self, state: GameState) -> list[str]:
        """The scenes the story lets begin now, the default first."""
        story = self.story
        if story.freeform or not story.scenes:
            return []
        last = next((s for s in reversed(self.played) if self._known(s)), None)
        if last is None:
            return [story.scenes[0].id]
        return flow.exits(story, last, self.progress(state))

    def scene_args(self, requested: str | None, state: GameState, dice: Dice) -> dict[str, Any]:
        """The id, challenges and rules of the scene to begin (``requested`` or the default)."""
        if self.story.freeform:
            return self._freeform(requested, dice)
        choices = self.open_scenes(state)
        if requested is None:
            if not choices:
                raise UsageError("the story has no scene left from here: `finale` ends it")
            scene = choices[0]
        else:
            scene = _pick(requested, choices, "open scene")
        return {
            "id": scene,
            "challenges": [c.model_dump(mode="json") for c in flow.scene_challenges(self.story, scene)],
            "rules": [r.model_dump(mode="json") for r in flow.scene_rules(self.story, scene)],
        }

    def _freeform(self, requested: str | None, dice: Dice) -> dict[str, Any]:
        story = self.story
        locations = [loc.id for loc in story.locations]
        place = _pick(requested, locations, "location") if requested else _draw(locations, dice, "location")
        complication = _draw([c.id for c in story.complications], dice, "complication")
        return {
            "id": place,
            "complication": complication,
            "challenges": [c.model_dump(mode="json") for c in flow.complication_challenges(story, complication)],
            "rules": [r.model_dump(mode="json") for r in flow.complication_rules(story, complication)],
        }

    def pregens(self, words: Sequence[str], in_play: Sequence[str] = ()) -> list[dict[str, Any]]:
        """The pregenerated characters named (``all`` for every one), as character data.

        Names may be several words or a unique beginning. A connection to a pregen who
        is neither taken now nor already in play is left out, so any part of the cast
        can be played.
        """
        from wyrd.play.engine.words import Words

        cast = flow.characters(self.story)
        by_name = {c.name: c for c in cast}
        if [w.casefold() for w in words] == ["all"]:  # all those not in play yet
            chosen = [c for c in cast if c.name not in in_play]
            if cast and not chosen:
                raise UsageError("every pregenerated character is in play already: `pc` shows their sheets")
        else:
            reader = Words(list(words), "pc take NAME ...")
            chosen = []
            while not reader.empty:
                chosen.append(by_name[reader.take_name("NAME", list(by_name), "pregenerated character")])
        party = {c.name for c in chosen} | set(in_play)
        return [c.model_copy(update={"connection": c.connection if c.connection in party else None})
                .model_dump(mode="json") for c in chosen]

    def postscripts(self, results: dict[str, str], dice: Dice, state: GameState | None = None) -> list[Postscript]:
        """One postscript per character, chosen by weight among those for their fate.

        Those written for an outcome that was rolled (``when``) come before the ones that always
        hold, and two characters with the same fate get different postscripts while there are enough.
        """
        progress = (self.progress(state) if state is not None
                    else flow.Progress(frozenset(self.overcome), frozenset(self.failed)))
        out: list[Postscript] = []
        used: set[str] = set()
        for name, result in results.items():
            holding = [e for e in getattr(self.story.postscripts, result, []) or [] if flow.holds(e.when, progress)]
            fresh = [e for e in holding if e.id not in used]
            entries = [e for e in fresh if e.when != "always"] or fresh or holding
            if not entries:
                continue
            weights = [max(1, int(getattr(e, "weight", 1) or 1)) for e in entries]
            face = dice.roll(1, sum(weights), f"postscript for {name}").faces[0]
            entry = entries[_weighted_index(weights, face)]
            used.add(entry.id)
            text = _postscript_text(entry.text, name, self.story)
            out.append(Postscript(character=name, result=result, text=text, entry=getattr(entry, "id", None)))
        return out

    def endings(self, state: GameState) -> list[Ending]:
        """What the story tells at the finale: the last scene's endings whose conditions hold."""
        scene = self.scene_spec(self.last_scene())
        if scene is None:
            return []
        return [Ending(scene=scene.id, text=t) for t in flow.told(scene.endings, self.progress(state))]

    def framed(self, scene: str, state: GameState, complication: str | None = None) -> list[SceneFramed]:
        """The scene as it opens, as the story frames it (nothing for a scene it does not write);
        in a freeform setting, the place and the complication drawn for it."""
        spec = self.scene_spec(scene)
        place = None
        if spec is not None:
            place = next((loc for loc in self.story.locations if loc.id == spec.location), None)
        elif self.story.freeform:
            place = next((loc for loc in self.story.locations if loc.id == scene), None)
        if spec is None and place is None:
            return []
        said = [spec.description] if spec is not None and spec.description else []
        said += flow.told(spec.told, self.progress(state)) if spec is not None else []
        if spec is None and place is not None and place.description:
            said.append(place.description)
        drawn = next((c for c in self.story.complications if c.id == complication), None)
        if drawn is not None:
            said.append(drawn.text)
        present = list(state.scene.present) if state.scene is not None else []
        return [SceneFramed(scene=scene, title=spec.title if spec is not None else (place.name if place else scene),
                            place=place.name if place is not None and spec is not None else "",
                            text=" ".join(" ".join(t.split()) for t in said), present=present)]

    def facts(self, scene: str | None) -> dict[str, Any]:
        """What the narration may lean on: the story's tone, the place, its seeds."""
        story = self.story
        out: dict[str, Any] = {"story": story.title, "tone": list(story.tone), "language": story.language}
        found = next((s for s in story.scenes if s.id == scene), None)
        place = None
        seeds: list[str] = []
        if found is not None:
            out["scene"] = found.title  # the narration names the scene as players read it, never by its id
            seeds += list(found.narration)
            place = next((loc for loc in story.locations if loc.id == found.location), None)
        elif scene is not None:
            place = next((loc for loc in story.locations if loc.id == scene), None)  # freeform: the location
        if place is not None:
            out["location"] = place.name
            seeds += list(place.narration)
        out["seeds"] = seeds
        return out

    def evident(self, scene: str) -> list[StageRulesEvident]:
        if not self._known(scene):
            return []
        rules = flow.evident_rules(self.story, scene)
        if not rules:
            return []
        return [StageRulesEvident(scene=scene, rules=[r.id for r in rules], names=[r.name for r in rules])]


def _postscript_text(text: str, name: str, story: Story) -> str:
    """A postscript entry with ``{name}`` (and its forms, ``{name.their}`` ...) filled for one character."""
    from wyrd.oracle.grammar import person
    from wyrd.oracle.text import fill

    pronouns = next((p.pronouns for p in story.pregens if p.name == name), None)
    return fill(text, {"name": person(name, pronouns)}, capital=False)


def _weighted_index(weights: Sequence[int], face: int) -> int:
    """The entry a face of a die with ``sum(weights)`` sides lands on."""
    for index, weight in enumerate(weights):
        face -= weight
        if face <= 0:
            return index
    return len(weights) - 1


def _pick(word: str, choices: list[str], what: str) -> str:
    from wyrd.play.engine.words import resolve

    if not choices:
        raise UsageError(f"there is no {what} to choose")
    return resolve(word, choices, what)


def _draw(choices: list[str], dice: Dice, what: str) -> str:
    if not choices:
        raise UsageError(f"the setting has no {what}s")
    return choices[dice.roll(1, len(choices), f"freeform {what}").faces[0] - 1]


class StoryFollower:
    """The Abacus kit's follower: the story chosen with ``story ID`` (if any) and where play stands in it."""

    def __init__(self, play: StoryPlay | None = None) -> None:
        self.play = play
        # the kinds of event the last command brought (what the hints after it speak of)
        self.last_kinds: frozenset[str] = frozenset()

    @classmethod
    def restore(cls, data: Mapping[str, Any] | None) -> StoryFollower:
        """A follower from nothing, or from its snapshot (empty when no story was chosen)."""
        return cls(StoryPlay.restore(dict(data)) if data else None)

    def observe(self, verb: str, args: Mapping[str, Any], events: Sequence[Event]) -> None:
        self.last_kinds = frozenset(e.kind for e in events)
        if verb == "story":
            self.play = StoryPlay.from_args(dict(args))
        if self.play is not None:
            self.play.observe(events)

    def snapshot(self) -> dict[str, Any]:
        return self.play.snapshot() if self.play is not None else {}


def story_of(ctx: PlayContext) -> StoryPlay | None:
    """The story the session follows, if one was chosen."""
    follower = ctx.follower
    return follower.play if isinstance(follower, StoryFollower) else None
