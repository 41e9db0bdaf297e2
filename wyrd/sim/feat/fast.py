"""Heroes of the Fall's fast path: the bots' runs played on the rules core, with no play session.

The checked path (:func:`wyrd.sim.playthrough.play_run`) has the bots type lines into a
real session, which for every line parses it, applies the rules to a deep copy of the
state, works out the odds shown, settles the story's stakes, adds the narration's scene
tests and twists and tells them, and keeps the save's bookkeeping. The narration draws on
dice of its own (seeded ``"{seed}:{command}:oracle"``, never the rules' ones) and is added
after the follower has seen the command, so it changes nothing a bot reads; only the rules
state, the story follower and the rules' own events reach the bots and their tally. This
module keeps exactly those, and does the rest no more:

* the story is read and checked, and the opening (``story ID``, which rolls no dice) is
  played, once per process by a real session (:class:`Plan`); each run starts from a copy
  of the state it left (:func:`~wyrd.sim.copies.fresh`) and a new follower of the same story;
* each line is read by the kit's own verbs once per process (the words of a line read the
  same for the same characters in play) and applied by the body of the rules action its
  verb calls, on the run's own state, with no copy and no odds (:data:`RUNNERS`);
* a rolling command's dice are the ones the session would give it, seeded
  ``"{session seed}:{command number}"``, the number counting the committed commands as
  the session does (drawn as :mod:`wyrd.sim.faces` draws them, the faces ``randint`` gives);
* the stakes a roll settles are found as the kit's ``stakes_settled`` finds them (the
  story's own :func:`~wyrd.stories.feat.branching.settled_by` on each stake still open: which
  stakes of a scene a line :func:`~wyrd.stories.feat.branching.touches` is worked out once
  per process, how its dice settle them for every roll),
  and the follower (the story's own :class:`~wyrd.stories.feat.FeatProgress`) observes
  every command as in a session, given the events it reads (:class:`Begun`,
  :class:`Ended`, :class:`Settled`: the kit's own, without their texts);
* ``scene`` is the session's scene verb without its texts: the next scene the follower
  offers, the others who enter there (each as the rules' ``add_character`` made them once
  per process) and the scene's start, or the story's end.

Whatever else a run meets (a line refused by the words or the rules, a verb not listed
here, a scene asked for by another name) raises
:class:`~wyrd.sim.playthrough.Unsupported`, and the run is played again on the checked
path (the report counts it). A refused action may have half-changed the run's state,
which is dropped with it. The same seed gives the same report either way
(``tests/sim/test_fast_path_feat.py``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import wyrd.rules.feat as F
from wyrd.play.engine.verbs import Args, Verb
from wyrd.play.engine.words import UsageError
from wyrd.play.kits.feat.kit import KIT
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.feat.turn import Turn
from wyrd.sim.bots import kinds
from wyrd.sim.copies import fresh
from wyrd.sim.faces import SeededFaces
from wyrd.sim.feat.bots import COUNTED, FeatBots
from wyrd.sim.playthrough import Game, Unsupported, ending, session_seed
from wyrd.sim.runner import run_seed
from wyrd.sim.summary import RunRecord
from wyrd.stories.feat import FeatProgress, FeatStory
from wyrd.stories.feat.branching import FeatStake, settled_by_events, touches

__all__ = ["RUNNERS", "Begun", "Ended", "Line", "Plan", "Settled", "Table", "plan_for", "play_fast"]

Runner = Callable[[Turn, Mapping[str, Any]], None]


def _raw(action: Callable[..., F.Outcome]) -> Callable[..., None]:
    """The body of a rules action (``f(turn, ...)``), as ``wyrd.rules.actions.action_for`` wrapped it."""
    return cast(Callable[..., None], action.__wrapped__)  # type: ignore[attr-defined]


def _attribute(args: Mapping[str, Any]) -> F.Attribute | None:
    return F.Attribute(args["attribute"]) if args.get("attribute") else None


_skill_feat, _feat, _attribute_feat, _opposed = (_raw(F.skill_feat), _raw(F.feat), _raw(F.attribute_feat),
                                                 _raw(F.opposed))
_search, _reaction, _shock, _survive = _raw(F.search), _raw(F.reaction), _raw(F.shock), _raw(F.survive)
_first, _race, _fatigue, _rest = _raw(F.first_to_act), _raw(F.race), _raw(F.fatigue), _raw(F.rest)
_recover, _wound, _initiative, _award = _raw(F.recover), _raw(F.wound), _raw(F.initiative), _raw(F.award)

RUNNERS: dict[str, Runner] = {
    "try": lambda t, a: _skill_feat(t, a["who"], a["skill"], a["difficulty"], attribute=_attribute(a),
                                    eights=a["eights"]),
    "feat": lambda t, a: _feat(t, a["who"], a["level"], eights=a["eights"], reason=a["text"]),
    "test": lambda t, a: _attribute_feat(t, a["who"], F.Attribute(a["attribute"]), a["difficulty"],
                                         eights=a["eights"]),
    "oppose": lambda t, a: _opposed(t, a["who"], a["target"], a["skill"], opposing=a["opposing"],
                                    attribute=_attribute(a), extra=a["extra"], eights=a["eights"]),
    "search": lambda t, a: _search(t, a["who"], a["thing"], a["difficulty"], again=a["again"], eights=a["eights"]),
    "react": lambda t, a: _reaction(t, a["who"], a["difficulty"], toward=a["text"], eights=a["eights"]),
    "shock": lambda t, a: _shock(t, a["who"], a["difficulty"], eights=a["eights"]),
    "survive": lambda t, a: _survive(t, a["who"], a["difficulty"], cause=a["text"], eights=a["eights"]),
    "first": lambda t, a: _first(t, a["who"], a["other"], eights=a["eights"], edges=list(a.get("edges", []))),
    "race": lambda t, a: _race(t, a["who"], a["rival"], long=a["long"], eights=a["eights"]),
    "fatigue": lambda t, a: _fatigue(t, a["who"], a["difficulty"], encumbered=a["encumbered"], cause=a["text"],
                                     eights=a["eights"]),
    "rest": lambda t, a: _rest(t, a["who"]),
    "recover": lambda t, a: _recover(t, a["who"]),
    "wound": lambda t, a: _wound(t, a["who"], a["n"], cause=a["cause"]),
    "initiative": lambda t, a: _initiative(t, list(a["names"]), edges=list(a.get("edges", []))),
    "award": lambda t, a: _award(t, a["who"], a["n"], a["reason"]),
}
"""Each verb of the kit the fast path plays, as the body of the rules action its ``run`` calls, with the same
arguments (the odds it shows beside them are left out: no bot reads them)."""

ROLL_FREE = frozenset({"move"})
"""Verbs whose kit ``run`` copies nothing and rolls nothing: the fast path calls it as it is."""


class Begun(Event):
    """The kit's ``scene_started`` as the follower and the bots read it (its texts are for the screen)."""

    kind: Literal["scene_started"] = "scene_started"
    scene: str


class Ended(Event):
    """The kit's ``story_ended`` as the follower and the bots read it."""

    kind: Literal["story_ended"] = "story_ended"


class Settled(Event):
    """The kit's ``stake_decided`` as the follower reads it (what it changes is for the screen)."""

    kind: Literal["stake_decided"] = "stake_decided"
    stake: str
    won: bool


@dataclass
class Line:
    """A line as the kit's verbs read it, with what the fast path needs of it to play it."""

    verb: Verb
    args: Args
    rolls: bool  # it rolls dice, so its dice are seeded and it may settle stakes
    touching: dict[str, tuple[FeatStake, ...]] = field(default_factory=dict)  # by scene: the stakes it touches

    def stakes(self, scene: str, plan: Plan) -> tuple[FeatStake, ...]:
        """The stakes of ``scene`` this line can settle, in the scene's order."""
        found = self.touching.get(scene)
        if found is None:
            key, args = self.verb.key, self.args
            found = self.touching[scene] = tuple(st for st in plan.stakes[scene] if touches(st, key, args))
        return found


@dataclass(frozen=True)
class Plan:
    """A story made ready for many runs in one process: the game as a session's opening leaves it."""

    story: FeatStory
    start: F.GameState  # the rules state after ``story ID`` (each run changes a copy)
    first_command: int  # the number the session gives the bots' first line
    opening: Mapping[str, int]  # what the opening's events add to the figures
    entrants: Mapping[str, F.Character]  # each of the others as the rules make them when they enter
    others: tuple[str, ...]  # the story's characters who are not its heroes
    stakes: Mapping[str, tuple[FeatStake, ...]]  # each scene's stakes
    lines: dict[tuple[str, tuple[str, ...]], Line] = field(default_factory=dict, compare=False)


    def fresh_state(self) -> F.GameState:
        return fresh(self.start)

    def read(self, line: str, state: F.GameState) -> Line:
        """The verb and canonical arguments of ``line``, read as the session reads it (once per process)."""
        key = (line, tuple(state.characters))
        found = self.lines.get(key)
        if found is None:
            try:
                command = KIT.verbs.parse(line.strip(), state)
            except UsageError as exc:
                raise Unsupported(f"{line}: {exc}") from exc
            if not command.verb.is_change(command.args):
                raise Unsupported(f"{line}: changes nothing")
            found = self.lines[key] = Line(command.verb, command.args, bool(getattr(command.verb, "sides", ())))
        return found


_PLANS: dict[tuple[str, str, tuple[Any, ...]], Plan] = {}


def plan_for(game: Game) -> Plan:
    """The plan of ``game``'s story, made once per process from a real session's opening."""
    key = (game.ruleset, game.story, game.content)
    found = _PLANS.get(key)
    if found is None:
        session = game.session(0)
        try:
            progress = session.follower
            assert isinstance(progress, FeatProgress) and progress.story is not None
            story = progress.story
            found = Plan(story, fresh(session.state), session.next_command,
                         dict(game.bots.count(kinds(session.opening_events), session)), _entrants(story),
                         tuple(c.name for c in story.others), {s.id: tuple(s.stakes) for s in story.scenes})
        finally:
            session.close()
        _PLANS[key] = found
    return found


def _entrants(story: FeatStory) -> dict[str, F.Character]:
    """Each of the others as the rules' ``add_character`` makes them (they roll no dice), to be copied in."""
    made = {}
    for spec in story.others:
        turn = Turn(F.GameState(), Dice.scripted(()))
        _raw(F.add_character)(turn, spec.name, spec.attributes(), skills=spec.skill_map(), tier=spec.tier,
                              wyrd=spec.wyrd, concept=spec.concept, edges=spec.edges)
        made[spec.name] = next(iter(turn.state.characters.values()))
    return made


class Table:
    """One run's game: the rules state, the story's follower, and the number of the next command."""

    def __init__(self, plan: Plan, seed: int) -> None:
        self.plan = plan
        self.seed = seed  # the session's seed
        self.state = plan.fresh_state()
        self.follower = FeatProgress(plan.story)
        self.command = plan.first_command

    def execute(self, line: str) -> list[Mapping[str, Any]]:
        """Apply ``line`` as the session would; the events the bots count, as mappings.

        Raises:
            Unsupported: If the session would refuse it, or this path does not play it.
        """
        read = self.plan.read(line, self.state)
        key, args = read.verb.key, read.args
        events = self._scene(args) if key == "scene" else self._act(read)
        self.follower.observe(key, args, events)
        self.command += 1
        return [vars(e) for e in events if e.kind in COUNTED]

    def _act(self, line: Line) -> list[Event]:
        verb, args, rolls = line.verb, line.args, line.rolls
        key = verb.key
        dice = Dice(SeededFaces(f"{self.seed}:{self.command}")) if rolls else Dice.scripted(())
        try:
            if key in ROLL_FREE:
                events = list(verb.apply(self.state, dice, args).events)
            else:
                runner = RUNNERS.get(key)
                if runner is None:
                    raise Unsupported(f"{key}: not played by the fast path")
                turn = Turn(self.state, dice)
                runner(turn, args)
                events = turn.events
        except RuleError as exc:
            raise Unsupported(f"{key}: {exc}") from exc
        progress = self.follower
        if rolls and progress.current is not None:
            # the kit's stakes_settled: the first roll that touches a stake still open settles it
            settled: list[Event] = []
            for stake in line.stakes(progress.current, self.plan):
                if stake.id in progress.outcomes:
                    continue
                won = settled_by_events(events, self.plan.others)  # the same for every stake touched
                if won is not None:
                    settled.append(Settled(stake=stake.id, won=won))
            events += settled
        return events

    def _scene(self, args: Args) -> list[Event]:
        progress, story = self.follower, self.plan.story
        choices = progress.next_scenes()
        if progress.ended or not choices:
            if progress.ended or args["id"] is not None or (progress.current and story.exits(progress.current)):
                raise Unsupported("scene: refused")
            return [Ended()]
        ident = choices[0] if args["id"] is None else args["id"]
        if ident not in choices:
            raise Unsupported(f"scene {ident}: not one of {choices}")
        for name in story.scene(ident).enters:
            if name not in self.state.characters:  # already met in an earlier scene
                char = fresh(self.plan.entrants[name])
                self.state.characters[char.name] = char
        return [Begun(scene=ident)]


def play_fast(game: Game, seed: int, index: int) -> RunRecord | None:
    """Run ``index`` of ``seed`` as :func:`~wyrd.sim.playthrough.play_run` plays it, without a session; None
    if the run meets what this path does not play (the simulator then plays it through a session)."""
    try:
        return _play(game, seed, index)
    except Unsupported:
        return None


def _play(game: Game, seed: int, index: int) -> RunRecord:
    bots = game.bots
    assert isinstance(bots, FeatBots), "the fast path plays Heroes of the Fall's bots"
    table = Table(plan_for(game), session_seed(seed, index))
    bot = bots.bot(game.policy, random.Random(run_seed(seed, index, "policy")), game.players)
    figures: Counter[str] = Counter(table.plan.opening)
    # FeatBots.count adds up event by event and reads nothing else: it reads the whole run's at once
    counted: list[Mapping[str, Any]] = []
    lines = 0
    while (outcome := ending(bot, table, lines, game.step_cap)) is None:
        counted += table.execute(bot.next_line(table, None))
        lines += 1
    figures.update(bots.count(counted, table))
    figures.update(bots.final(table))
    return RunRecord(outcome, lines, (), dict(figures))
