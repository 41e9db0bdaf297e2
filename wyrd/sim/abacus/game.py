"""One simulated playthrough: bot players follow a story's scenes to its finale.

The bots do what the console's players do, through the rules core's actions:
every scene begins with everyone still standing (with its scene test, as in
play), each open challenge is faced in order (``after`` respected) with the plan
the policy makes, a failed roll is rescued with Wyrd when the plan's budget covers
the shortfall (defeated players' allowance first, since it adds to nobody's
personal pool; then the involved character with least personal Wyrd) and accepted
otherwise; a challenge whose price of attempting the pool cannot pay is left
untackled. The scene ends with its Wyrd roll if none was made, the rules' default
recovery, and, where the story uses connections, a connection claimed by each
character whose connected companion was in the scene. The next scene is the
default exit; with none (or nobody standing) comes the finale.

A run depends only on the story, the party, the policy and ``(seed, index)``:
its dice and the policy's own generator are seeded from those, never from the
process that happens to run it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

import wyrd.rules.abacus as A
from wyrd.rules.abacus.effects import attempt_cost
from wyrd.rules.abacus.events import ChallengeRolled, CharacterDefeated, PointsSpent, WyrdDrawn
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice, SeededSource
from wyrd.rules.errors import RuleError
from wyrd.rules.odds import challenge_odds
from wyrd.sim.abacus.engine import Action, Kit, Refused, Table
from wyrd.sim.abacus.policy import Member, Plan, Policy, Situation
from wyrd.sim.runner import run_seed
from wyrd.stories.abacus import flow

__all__ = [
    "MAX_SCENES", "ChallengeRecord", "Faceable", "RunRecord", "SceneRecord", "next_challenge", "play", "run_seed",
]

MAX_SCENES = 40  # a story whose exits loop is cut off here
MAX_ATTEMPTS = 40  # per scene: challenges placed by effects can keep coming


@dataclass(frozen=True)
class ChallengeRecord:
    """How one placed challenge ended; ``sixths``: the exact chance of the attempt, in sixths."""

    id: str
    name: str
    type: str
    value: int
    status: str  # overcome, failed, bypassed, or open (left untackled)
    attempted: bool
    sixths: int | None


@dataclass(frozen=True)
class SceneRecord:
    id: str
    points: int  # ability points assigned to rolls
    wyrd: int  # Wyrd drawn (prices of attempting, rescues, a defeated player's allowance)
    defeated: tuple[str, ...]
    challenges: tuple[ChallengeRecord, ...]


@dataclass(frozen=True)
class RunRecord:
    """Everything the report needs from one run."""

    scenes: tuple[SceneRecord, ...]
    defeated_at: dict[str, int]  # character -> the step (1 = first scene) of their defeat
    results: dict[str, str]  # held, freed, defeated
    clocks: dict[str, tuple[int, tuple[int, ...]]]  # final value, thresholds reached
    counters: dict[str, int]
    wyrd: dict[str, int]  # personal Wyrd at the end
    points: dict[str, int]  # ability points each character assigned
    safe_rerun: bool = False
    rules_core: bool = False  # played by the rules core: the plain-data path could not (wyrd.sim.abacus.fast)
    stuck: str | None = None  # the action the rules refused, leaving no way on (no finale then)
    dice: int = 0  # dice rolled in the run (every face the rules asked for)


def play(kit: Kit, policy: Policy, seed: int, index: int, *, safe: bool = False) -> RunRecord:
    """Play run ``index`` of ``seed`` to its finale (fast, replayed safely on a refusal)."""
    if not safe:
        try:
            return _Run(kit, policy, seed, index, safe=False).play()
        except Refused:
            return replace(_Run(kit, policy, seed, index, safe=True).play(), safe_rerun=True)
    return _Run(kit, policy, seed, index, safe=True).play()


@dataclass
class _Scene:
    points: int = 0
    wyrd: int = 0
    defeated: list[str] = field(default_factory=list)
    sixths: dict[str, int] = field(default_factory=dict)


class Faceable(Protocol):
    """A placed challenge as the bots look at it (the plain path asks the same questions inline, for speed)."""

    @property
    def id(self) -> str: ...

    @property
    def status(self) -> A.ChallengeStatus: ...

    @property
    def after(self) -> Sequence[str]: ...


C = TypeVar("C", bound=Faceable)


def next_challenge(challenges: Mapping[str, C], skipped: set[str]) -> C | None:
    """The challenge the bots face next: the first open one, not skipped, whose ``after`` are overcome."""
    for ch in challenges.values():
        if ch.status != A.ChallengeStatus.OPEN or ch.id in skipped:
            continue
        if all(challenges[p].status == A.ChallengeStatus.OVERCOME for p in ch.after if p in challenges):
            return ch
    return None


class _Stuck(Exception):
    """The rules refused something the game cannot go on without."""


class _Run:
    def __init__(self, kit: Kit, policy: Policy, seed: int, index: int, *, safe: bool) -> None:
        self.kit = kit
        self.policy = policy
        self.rng = random.Random(run_seed(seed, index, "policy"))
        dice = Dice(SeededSource(run_seed(seed, index, "dice")))
        self.table = Table(kit.fresh_state(), dice, safe=safe)
        self.step = 0
        self.now = _Scene()
        self.defeated_at: dict[str, int] = {}
        self.points = dict.fromkeys(kit.players, 0)

    def _do(self, events: list[Event] | None) -> list[Event] | None:
        """Note what the report counts in a list of events."""
        if events is None:
            return None
        now = self.now
        for event in events:
            if isinstance(event, PointsSpent):
                now.points += event.n
                if event.character in self.points:
                    self.points[event.character] += event.n
            elif isinstance(event, WyrdDrawn):
                now.wyrd += event.n
            elif isinstance(event, CharacterDefeated):
                now.defeated.append(event.character)
                self.defeated_at.setdefault(event.character, self.step)
        return events

    def must(self, action: Action, *args: object, **kwargs: object) -> list[Event]:
        """An action the game cannot go on without (start or end a scene, accept, the finale)."""
        try:
            return self.table.act(action, *args, **kwargs)
        except RuleError as refusal:
            raise _Stuck(f"{getattr(action, '__name__', 'action')} refused by {refusal.rule}") from refusal

    def play(self) -> RunRecord:
        scenes: list[SceneRecord] = []
        stuck = None
        try:
            self._story(scenes)
        except _Stuck as why:
            stuck = str(why)
        state = self.table.state
        return RunRecord(
            scenes=tuple(scenes),
            defeated_at=self.defeated_at,
            results=dict(state.results),
            clocks={k: (c.value, tuple(c.reached)) for k, c in state.clocks.items()},
            counters={k: c.value for k, c in state.counters.items()},
            wyrd={n: state.characters[n].wyrd for n in self.kit.players},
            points=self.points,
            stuck=stuck,
            dice=sum(len(r.faces) for r in self.table.dice.history),
        )

    def _story(self, scenes: list[SceneRecord]) -> None:
        kit, table = self.kit, self.table
        overcome: set[str] = set()
        failed: set[str] = set()
        current: str | None = kit.first
        while current is not None and self.step < MAX_SCENES:
            standing = [n for n in kit.players if not table.state.characters[n].defeated]
            if not standing:
                break
            self.step += 1
            self.now = _Scene()
            spec = kit.scenes[current]
            self._do(self.must(A.start_scene, standing, current, challenges=spec.challenges, rules=spec.rules,
                               test=True))
            self._face()
            scenes.append(self._close(current, overcome, failed))
            if spec.finale:
                break
            progress = flow.Progress.of(table.state, overcome, failed, known=kit.known)
            current = flow.next_scene(kit.story, current, progress)
        self._do(self.must(A.finale))

    # -- a scene --------------------------------------------------------------------------

    def _next_challenge(self, skipped: set[str]) -> A.Challenge | None:
        scene = self.table.state.scene
        assert scene is not None
        return next_challenge(scene.challenges, skipped)

    def _face(self) -> None:
        skipped: set[str] = set()
        for _ in range(MAX_ATTEMPTS):
            target = self._next_challenge(skipped)
            if target is None:
                return
            at = self._situation(target)
            if at is None:  # nobody standing, or the price of attempting can't be paid
                skipped.add(target.id)
                continue
            plan = self.policy.plan(at, self.rng)
            if self._do(self.table.attempt_or_skip(A.attempt, target.id, plan.lead)) is None:
                skipped.add(target.id)
                continue
            self._resolve(target.id, plan)

    def _situation(self, target: A.Challenge) -> Situation | None:
        state = self.table.state
        scene = state.scene
        assert scene is not None
        ability = target.type.ability
        members = sorted(
            (Member(n, state.characters[n].points[ability], state.characters[n].wyrd) for n in scene.present
             if not state.characters[n].defeated),
            key=lambda m: -m.points,
        )
        cost = attempt_cost(state, target)
        if not members or cost > scene.pool or (cost and members[0].name in scene.warded):
            return None
        left = sum(1 for ch in scene.challenges.values() if ch.status == A.ChallengeStatus.OPEN)
        pool = scene.pool - cost + sum(scene.ghost.values())
        spec = self.kit.scenes.get(scene.id)
        return Situation(target.id, target.type, A.effective_value(state, target), pool, tuple(members), left,
                         finale=spec is not None and spec.finale)

    def _resolve(self, challenge: str, plan: Plan) -> None:
        table = self.table
        for who, n in plan.spend:
            self._do(table.attempt_or_skip(A.spend, who, n))
        budget = min(plan.draw_up_to, self._drawable())  # the roll itself draws nothing
        rolled = next(e for e in self._do(self.must(A.roll)) or () if isinstance(e, ChallengeRolled))
        odds = challenge_odds(max(0, rolled.value - rolled.bonus), rolled.points, budget)
        chance = odds.p_with_pool  # k/6 in lowest terms: k without Fraction arithmetic
        self.now.sixths[challenge] = chance.numerator * (6 // chance.denominator)
        pending = table.state.pending
        if pending is None:
            return
        short = rolled.value - rolled.total
        if short > budget:
            self._do(self.must(A.accept))
            return
        scene = table.state.scene
        assert scene is not None
        for ghost, left in list(scene.ghost.items()):
            if short and left:
                n = min(left, short)
                self._do(self.must(A.draw, ghost, n))
                short -= n
        if short:
            chars = table.state.characters
            drawers = [n for n in pending.involved if not chars[n].defeated and n not in scene.warded
                       and (n in scene.present or n in pending.absent_help)]
            who = min(drawers, key=lambda n: chars[n].wyrd)
            self._do(self.must(A.draw, who, short))

    def _drawable(self) -> int:
        """What the open roll's players could still draw (as ``wyrd.rules.abacus.challenge`` counts it)."""
        state = self.table.state
        scene, pending = state.scene, state.pending
        if scene is None or pending is None:
            return 0
        living = any(not state.characters[n].defeated and n not in scene.warded
                     and (n in scene.present or n in pending.absent_help) for n in pending.involved)
        return (scene.pool if living else 0) + sum(scene.ghost.values())

    def _close(self, ident: str, overcome: set[str], failed: set[str]) -> SceneRecord:
        table = self.table
        scene = table.state.scene
        assert scene is not None
        records = []
        for ch in scene.challenges.values():
            if ch.status == A.ChallengeStatus.OVERCOME:
                overcome.add(ch.id)
            elif ch.status == A.ChallengeStatus.FAILED:
                failed.add(ch.id)
            records.append(ChallengeRecord(ch.id, ch.name, ch.type.value, ch.value, ch.status.value, ch.tackled,
                                           self.now.sixths.get(ch.id)))
        bonds = self._bonds() if self.kit.bonds else {}
        events = table.attempt_or_skip(A.end_scene, connections=bonds) if bonds else None
        if events is None:  # no connection to claim, or a scene-end scratch spoiled the claim
            events = self.must(A.end_scene)
        self._do(events)
        now = self.now
        return SceneRecord(ident, now.points, now.wyrd, tuple(now.defeated), tuple(records))

    def _bonds(self) -> dict[str, A.Ability]:
        """Connections to claim: each who faced a challenge with their companion present, on the
        ability with most still spent after the default recovery."""
        state = self.table.state
        scene = state.scene
        assert scene is not None
        claims: dict[str, A.Ability] = {}
        for name, other in self.kit.bonds.items():
            char = state.characters[name]
            if name not in scene.faced or char.defeated or other not in scene.present \
                    or state.characters[other].defeated:
                continue
            spent = {a: char.spent(a) for a in A.Ability if not char.is_scratched(a)}
            usable = [a for a, n in spent.items() if n > 0]
            if usable:
                spent[max(usable, key=lambda a: spent[a])] -= 1
            left = [a for a, n in spent.items() if n > 0]
            if left:
                claims[name] = max(left, key=lambda a: spent[a])
        return claims
