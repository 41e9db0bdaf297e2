"""Playing Heroes of the Fall: characters and stories, and the hooks the shared play layer calls.

Importing this module registers every ``feat`` verb (the feats in
:mod:`wyrd.play.kits.feat.verbs`, body and fortune in :mod:`wyrd.play.kits.feat.body`, characters,
stories and scenes here) and the ruleset's :class:`~wyrd.play.engine.kits.PlayHooks`:
the lines shown after each change, the status, the sheets, the toolbar, how
each event reads (:mod:`wyrd.play.kits.feat.texts`), the narration hook
(:mod:`wyrd.play.kits.feat.narration`), and the follower that keeps where play stands in
a scenario (:class:`wyrd.stories.feat.FeatProgress`).

A scenario's whole content goes into the saved arguments of ``story ID``, and
each scene's into those of ``scene``, so a replay needs no file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from pydantic import Field

import wyrd.play.kits.feat.body  # noqa: F401  (registers the verbs of body and fortune)
import wyrd.rules.feat as F
from wyrd.oracle.narrators.telling import LazyNarration
from wyrd.play.engine.events import ORACLE_ADDED, ORACLE_EVENTS, EventKinds, StoryChosen
from wyrd.play.engine.kits import Move, OracleHooks, PlayHooks
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import UsageError, Words, pick_names, resolve
from wyrd.play.frontends.view import short_names
from wyrd.play.kits.feat import (
    body,  # noqa: F401  (registers the verbs of body and fortune)
    narrator,
)
from wyrd.play.kits.feat import words as vocabulary
from wyrd.play.kits.feat.body import Moved
from wyrd.play.kits.feat.narrator import when_words
from wyrd.play.kits.feat.texts import RECALL, TEXTS, first_name, sheet_lines
from wyrd.play.kits.feat.verbs import (
    ATTRIBUTES,
    TIERS,
    VERBS,
    FeatVerb,
    OddsShown,
    StakeDecided,
    feat_state,
    take_who,
)
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.dice import Dice
from wyrd.rules.feat import Attribute, Edge, GameState, Outcome, Skill, Tier
from wyrd.stories.feat import FeatCharacterSpec, FeatProgress, FeatStory, FeatStoryError, find_feat_story, parse_skill
from wyrd.stories.modelkept import dumped, validated

__all__ = ["KIT", "SceneStarted", "StoryEnded"]


class SceneStarted(Event):
    """A scene of the story begins: what is found there, what it asks, where it may lead."""

    kind: Literal["scene_started"] = "scene_started"
    scene: str
    number: int
    title: str
    text: str
    asks: list[str] = Field(default_factory=empty_list)
    narration: list[str] = Field(default_factory=empty_list)
    exits: list[str] = Field(default_factory=empty_list)
    # Issue 18, point 1: where it is, who is present, what stands in the way and what losing it
    # costs, its standing rules (left out when empty, so scenes saved before them read the same)
    place: str = Field(default="", exclude_if=lambda v: not v)
    present: list[str] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    stakes: list[dict[str, str]] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    rules: list[dict[str, str]] = Field(default_factory=empty_list, exclude_if=lambda v: not v)
    # each way on, by title, and its opening
    ways: list[str] = Field(default_factory=empty_list, exclude_if=lambda v: not v)


class StoryEnded(Event):
    """The last scene is done: the ending, and which of the story's heroes still stand."""

    kind: Literal["story_ended"] = "story_ended"
    story: str
    title: str
    ending: str
    standing: list[str]
    fallen: list[str]


@VERBS.register
class Pc(FeatVerb):
    """pc add NAME vigour=N mettle=N wit=N glamour=N spirit=N [tier=novice] [skill=NAME:ATTRIBUTE:RANKS ...]
    pc take NAME [NAME ...] | pc take all
    pc [NAME]

    Make a character. Each attribute runs 0 to 9; a novice spends exactly 25
    points (each attribute 1 to 9) and 10 skill ranks, at most 3 in a skill; a
    journeyman 27 and 20 (5 a skill), an expert 30 and 30 (6 a skill).
    tier=none makes a character outside any budget (a rival, a stranger), whose
    skills may be written as a rating: skill=brawling:vigour:4/50. Also wyrd=N
    (starting Wyrd points), edge=speed (an Edge of speed: `first` and
    `initiative` may activate it to act first) and concept="...". `pc` alone
    shows everyone; `pc NAME` one character sheet. A story's heroes come into
    play with `story ID`; `pc take NAME` or `pc take all` takes any of them
    not in play yet (`pregens` shows their sheets).
    """

    key = "pc"
    aliases = ("character",)
    completes = ("add", "character")

    def read(self, words: Words, state: GameState) -> Args:
        if words.keyword("take"):
            return {"take": [words.take("NAME"), *words.until()]}
        if not words.keyword("add"):
            name = take_who(words, state, "NAME") if not words.empty else None
            words.done()
            return {"view": name}
        name = words.take("NAME")
        values = {a: words.option_int(a, low=0, high=99) for a in ATTRIBUTES}
        missing = [a for a, v in values.items() if v is None]
        if missing:
            raise words.fail(f"missing {', '.join(f'{a}=N' for a in missing)}")
        tier = resolve(words.option("tier", "novice") or "novice", TIERS, "tier")
        wyrd = words.option_int("wyrd", low=0, high=99)
        concept = words.option("concept", "") or ""
        skills: dict[str, Any] = {}
        while (text := words.option("skill")) is not None:
            skill_name, _, rest = text.partition(":")
            try:
                skill = parse_skill(rest.replace(":", " "))
            except ValueError as exc:
                raise words.fail(f"skill={text}: {exc}; write NAME:ATTRIBUTE:RANKS") from None
            skills[skill_name] = skill.model_dump(mode="json")
        edges: list[str] = []
        while (edge := words.option("edge")) is not None:
            edges.append(resolve(edge, [e.value for e in Edge], "Edge"))
        words.done()
        added: dict[str, Any] = {"name": name, "attributes": values, "tier": None if tier == "none" else tier,
                                 "wyrd": wyrd, "concept": concept, "skills": skills}
        if edges:  # saved only when given, as commands saved before Edges have none
            added["edges"] = edges
        return {"add": added}

    def is_change(self, args: Mapping[str, Any]) -> bool:
        return "add" in args or "take" in args

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "take" not in args or (args["take"] and isinstance(args["take"][0], dict)):
            return args
        story = _progress(ctx).story
        if story is None:
            raise UsageError("no story is being played, so there are no pregenerated characters")
        cast = {c.name: c for c in story.cast}
        state = feat_state(ctx.state)
        if [w.casefold() for w in args["take"]] == ["all"] and all(n in state.characters for n in cast):
            raise UsageError(f"already in play: {', '.join(cast)} (a story's heroes come into play with `story`; "
                             "`pc` shows their sheets)")
        names = pick_names(args["take"], list(cast), "pregenerated character", taken=state.characters)
        here = [n for n in names if n in state.characters]
        if len(here) == len(names):
            raise UsageError(f"already in play: {', '.join(names)} (a story's heroes come into play with `story`; "
                             "`pc` shows their sheets)")
        return {**args, "take": [cast[n].model_dump(mode="json") for n in names if n not in here]}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        if "take" in args:
            return _enlist(state, dice, [FeatCharacterSpec.model_validate(c) for c in args["take"]])
        a = args["add"]
        return F.add_character(
            state, dice, a["name"], {Attribute(k): v for k, v in a["attributes"].items()},
            skills={k: Skill.model_validate(v) for k, v in a["skills"].items()},
            tier=Tier(a["tier"]) if a["tier"] else None, wyrd=a["wyrd"], concept=a["concept"],
            edges=[Edge(e) for e in a.get("edges", [])])


def _enlist(state: GameState, dice: Dice, cast: Sequence[FeatCharacterSpec]) -> Outcome:
    """The story's characters ``cast`` come into play, in order."""
    events: list[Event] = []
    for spec in cast:
        outcome = F.add_character(state, dice, spec.name, spec.attributes(), skills=spec.skill_map(),
                                  tier=spec.tier, wyrd=spec.wyrd, concept=spec.concept, edges=spec.edges)
        state, events = outcome.state, events + outcome.events
    return Outcome(state, events)


def _progress(ctx: PlayContext) -> FeatProgress:
    follower = ctx.follower
    return follower if isinstance(follower, FeatProgress) else FeatProgress()


@VERBS.register
class StoryVerb(FeatVerb):
    """story ID

    Play the scenario ID (the bundled ones: lantern-at-gull-reach,
    the-pardon-at-kell-pass): its
    pregenerated heroes come into play, and `scene` follows its scenes. One
    story per session; `wyrd play --ruleset feat --story ID` begins with it.
    """

    key = "story"
    completes = ("story",)

    def read(self, words: Words, state: GameState) -> Args:
        ident = words.take("ID")
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        progress = _progress(ctx)
        if progress.story is not None:
            raise UsageError(f"this session already follows {progress.story.id}")
        try:
            story = find_feat_story(str(args["id"]), ctx.dirs)
        except FeatStoryError as exc:
            raise UsageError(str(exc)) from None
        return {"id": story.id, "story": dumped(story)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return _enlist(state, dice, validated(FeatStory, args["story"]).cast)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        story = args["story"]
        return [StoryChosen(story=story["id"], title=story["title"], premise=story.get("premise", ""),
                            pregens=[c["name"] for c in story["cast"]])]


@VERBS.register
class SceneVerb(FeatVerb):
    """scene [ID]

    Go on to the story's next scene: what is found there, who enters, what it
    asks of you (the commands to try). Where a scene may lead to several,
    the rolls that settle its stakes open or shut them (`exits` says which are
    open) and `scene ID` chooses among the open ones. After the last scene,
    `scene` ends the story.
    """

    key = "scene"
    completes = ("scene",)

    def read(self, words: Words, state: GameState) -> Args:
        ident = words.take_optional()
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        progress = _progress(ctx)
        story = progress.story
        if story is None:
            raise UsageError("`scene` follows a story: choose one first with `story ID` (lantern-at-gull-reach)")
        if progress.ended:
            raise UsageError(f"{story.title} has ended")
        choices = progress.next_scenes()
        if not choices and progress.current is not None and story.exits(progress.current):
            raise UsageError(f"no way on from {story.scene(progress.current).title} is open")
        if not choices:
            if args["id"] is not None:
                raise UsageError(f"no scene follows {story.scene(str(progress.current)).title}: "
                                 "`scene` alone ends the story")
            return {"id": None, "end": {"story": story.id, "title": story.title,
                                        "ending": story.ending_for(progress.outcomes_now()),
                                        "cast": [c.name for c in story.cast]}}
        if args["id"] is None:
            ident = choices[0]
        else:
            shut = [i for i in story.exits(str(progress.current)) if i not in choices] if progress.current else []
            titles = {story.scene(i).title.casefold(): i for i in [*choices, *shut]}
            word = titles.get(str(args["id"]).casefold(), str(args["id"]))
            if word in shut:
                raise UsageError(f"the way to {story.scene(word).title} is shut by what was rolled; "
                                 f"open: {', '.join(story.scene(i).title for i in choices)}")
            try:
                ident = resolve(word, choices, "scene that may follow")
            except UsageError:
                ways = "; ".join(f"{story.scene(i).title} (`scene {i}`)" for i in choices)
                raise UsageError(f"no scene that may follow is called {args['id']!r}; open now: {ways}") from None
        scene = story.scene(ident)
        dumped = scene.model_dump(mode="json", exclude={"exits", "enters", "openings"})
        dumped["text"] = story.opening(ident, progress.outcomes)
        return {"id": ident, "number": len(progress.played) + 1, "scene": dumped,
                "cast": story.present(ident),
                "ways": [story.scene(w.to).title + (f" (if {when_words(story, w.when)})" if w.when else "")
                         for w in story.ways(ident)],
                "exits": story.exits(ident), "enters": [story.other(n).model_dump(mode="json") for n in scene.enters]}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        if "end" in args:
            end = args["end"]
            heroes = [state.characters[n] for n in end["cast"] if n in state.characters]
            standing, fallen = [c.name for c in heroes if not c.dead], [c.name for c in heroes if c.dead]
            return Outcome(state, [StoryEnded(story=end["story"], title=end["title"], ending=end["ending"],
                                              standing=standing, fallen=fallen)])
        events: list[Event] = []
        for spec in args["enters"]:
            who = FeatCharacterSpec.model_validate(spec)
            if who.name not in state.characters:  # already met in an earlier scene
                outcome = F.add_character(state, dice, who.name, who.attributes(), skills=who.skill_map(),
                                          tier=who.tier, wyrd=who.wyrd, concept=who.concept, edges=who.edges)
                state, events = outcome.state, events + outcome.events
        scene = args["scene"]
        # scenes saved before `cast` was saved with them name no one present
        present = [n for n in args.get("cast", []) if n in state.characters and not state.characters[n].dead]
        stakes = [{"name": st["name"], "ask": st.get("ask", ""), "lost": st["lost"]} for st in scene.get("stakes", [])]
        events.append(SceneStarted(scene=args["id"], number=args["number"], title=scene["title"], text=scene["text"],
                                   asks=scene["asks"], narration=scene["narration"], exits=args["exits"],
                                   place=scene.get("place", ""), present=present if "cast" in args else [],
                                   stakes=stakes, rules=scene.get("rules", []), ways=list(args.get("ways", []))))
        return Outcome(state, events)


# -- the hooks -------------------------------------------------------------------------


def _hints(state: object, events: Sequence[Event] = ()) -> list[str]:
    if not isinstance(state, GameState):
        return []
    if not state.characters:
        return ["Make a character: pc add NAME vigour=5 mettle=5 wit=5 glamour=5 spirit=5 skill=climbing:vigour:3 "
                "(a novice spends 25 points and 10 skill ranks), or play a story: story lantern-at-gull-reach."]
    lines = []
    for char in state.characters.values():
        if char.out_of_action and not char.dead:
            lines.append(f"{char.name} is out of action after a shock: `recover {first_name(char.name)}` "
                         "when the table agrees they can act again.")
        if char.exhausted and not char.dead:
            lines.append(f"{char.name} is exhausted: no physical feat until `rest {first_name(char.name)}`.")
        if char.attribute(Attribute.METTLE) == 1 and not char.dead:
            lines.append(f"{char.name} has 1 Mettle left: one more wound kills.")
    return lines


def _sheets(state: object, name: str | None) -> list[str]:
    game = feat_state(state)
    lines: list[str] = []
    for who in [name] if name else list(game.characters):
        lines += sheet_lines(game.characters[who])
    return lines


def _pregens(state: object, follower: object) -> list[str]:
    """Each hero of the story with their whole sheet, marked taken or not (``pregens``)."""
    story = follower.story if isinstance(follower, FeatProgress) else None
    game = feat_state(state)
    lines: list[str] = []
    for spec in story.cast if story is not None else []:
        shown = sheet_lines(spec.build())
        shown[0] += " (taken)" if spec.name in game.characters else " (not taken yet)"
        lines += shown
    return lines


def _status(state: object) -> list[str]:
    game = feat_state(state)
    lines = _sheets(game, None) or ["No characters yet."]
    for thing, who in game.searches.items():
        lines.append(f"Searched for {thing}: {', '.join(who)} (again only if the circumstances change).")
    return lines + _hints(game)


def _toolbar(state: object) -> str:
    if not isinstance(state, GameState):
        return ""
    parts = []
    short = short_names(state.characters)
    for char in state.characters.values():
        a = char.attributes
        mark = " dead" if char.dead else (" OUT" if char.out_of_action else "") + (" TIRED" if char.exhausted else "")
        parts.append(f"{short[char.name]} V{a[Attribute.VIGOUR]} M{a[Attribute.METTLE]} W{a[Attribute.WIT]} "
                     f"G{a[Attribute.GLAMOUR]} S{a[Attribute.SPIRIT]} Wyrd {char.wyrd}{mark}")
    return " | ".join(parts) or "no characters yet"


def _askers(state: GameState) -> list[str]:
    return list(state.characters)


def _able(state: GameState) -> list[str]:
    return [n for n, c in state.characters.items() if not (c.dead or c.out_of_action)]


def _oracle_twist(answer: Event, asker: str, state: Any, dice: Dice, follower: Any) -> list[Event]:
    """A doubled answer's twist for the asker, from the story's own twist tables (a 6-kind twist)."""
    from wyrd.play.kits.feat.narration import fate_twist

    return [fate_twist(asker, True, dice, follower, result=int(getattr(answer, "roll", 6)))]


ORACLE = OracleHooks(askers=_askers, present=_able, tension=narrator.tension,
                     tension_words="the heroes laid low", twist=_oracle_twist, reading=narrator.READING)

# The common moves, as buttons at the shared table: a test or a try (the player names who and how hard),
# the next scene, a rest.
MOVES = (
    Move("Test...", "test ", send=False, when=lambda state, follower: bool(state.characters)),
    Move("Try...", "try ", send=False, when=lambda state, follower: bool(state.characters)),
    Move("Next scene", "scene", when=lambda state, follower: bool(state.characters)),
    Move("Rest...", "rest ", send=False, when=lambda state, follower: bool(state.characters)),
)

KIT = PlayHooks(ruleset="feat", verbs=VERBS, hints=_hints, status=_status, toolbar=_toolbar, sheet=_sheets,
                texts=TEXTS, recall=RECALL, follow=FeatProgress.restore,
                added_kinds=frozenset({"story_chosen", "stake_decided"}) | ORACLE_ADDED,
                events=EventKinds(F.FeatEvent, SceneStarted, StoryEnded, Moved, OddsShown, StoryChosen, StakeDecided,
                                  *ORACLE_EVENTS),
                tell=LazyNarration(f"{__package__}.narration:NARRATION"),
                words=vocabulary.words, complete=vocabulary.complete, quick_start="lantern-at-gull-reach",
                scene_opens=frozenset({"scene_started"}), oracle=ORACLE, frame=narrator.frame,
                stage_rules=narrator.stage_rules, exits=narrator.exits, spotlight=narrator.spotlight,
                preview=narrator.preview, follower_hints=narrator.follower_hints, pregens=_pregens,
                moves=MOVES)
