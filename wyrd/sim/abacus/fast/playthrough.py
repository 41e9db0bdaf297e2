"""One simulated playthrough on plain data: the bots of :mod:`wyrd.sim.abacus.game`, the rules of this package.

The bots decide exactly as ``wyrd.sim.abacus.game`` describes (the same policy,
asked the same questions, with the same generator), and a chunk of runs adds up
to the same :class:`~wyrd.sim.abacus.tally.Tally` as the rules core's records of
them. A run the plain rules cannot finish (:class:`~wyrd.sim.abacus.fast.rules.Unplain`)
is played again from its seed by ``wyrd.sim.abacus.game.play``, and its record says
so (``rules_core``).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from operator import attrgetter
from typing import Any, cast

import wyrd.rules.abacus as A
from wyrd.rules.odds import challenge_odds
from wyrd.sim.abacus.engine import Kit
from wyrd.sim.abacus.fast.actions import Actions
from wyrd.sim.abacus.fast.board import Decision, Layout, Pending, recoveries
from wyrd.sim.abacus.fast.kinds import DO_ATTEMPT_COST, DO_MODIFY, FAILED, OPEN, OVERCOME
from wyrd.sim.abacus.fast.rules import Unplain
from wyrd.sim.abacus.game import (
    MAX_ATTEMPTS,
    MAX_SCENES,
    ChallengeRecord,
    SceneRecord,
    play,
)
from wyrd.sim.abacus.policy import Bold, Cautious, Fixed, Member, Plan, Policy, Situation
from wyrd.sim.abacus.tally import Outcome, Tally
from wyrd.sim.runner import run_seed
from wyrd.stories.abacus import flow

__all__ = ["PURE", "Fold", "play_chunk"]

_SIXTHS: dict[tuple[int, int, int], int] = {}
_RECORDS: dict[tuple[object, ...], int] = {}  # a challenge record's fields -> its place in _RECORD_LIST
_RECORD_LIST: list[ChallengeRecord] = []
# A scene as it went: its id, points, Wyrd, who was defeated, and its challenge records (places in _RECORD_LIST).
SceneKey = tuple[str, int, int, tuple[str, ...], tuple[int, ...]]
# Policies whose plan depends on the situation alone (not on the generator, nor on what came before).
PURE = (Cautious, Bold, Fixed)
_PLANS: dict[Policy, dict[tuple[Any, ...], Decision]] = {}
_KNOWN_MAX = 100_000
_VALUE = attrgetter("value")
_SITUATION = 6  # the fields of a situation's key before its members'


def _most_points(member: tuple[str, int, int]) -> int:
    return -member[1]


class Fold:
    """Runs played on plain data, added up (by the rules core where the story's ``plan`` is None or a run
    needs it).

    Scenes that went the same way, and runs that ended the same way, are counted first and added to the
    tally once each with their number when it is asked for (:meth:`tally`): the tally's sums are the
    same, for much less work a run, and the more runs are folded together the less.
    """

    def __init__(self, plan: Layout | None, kit: Kit, policy: Policy, seed: int) -> None:
        self.plan, self.kit, self.policy, self.seed = plan, kit, policy, seed
        self.scenes: Counter[SceneKey] = Counter()
        self.outcomes: Counter[Outcome] = Counter()
        self.checked = Tally()  # the runs the rules core played
        self.known = _PLANS.setdefault(policy, {}) if type(policy) in PURE else None

    def play(self, start: int, stop: int) -> None:
        """Play runs ``start`` to ``stop``."""
        plan, policy, known, seed = self.plan, self.policy, self.known, self.seed
        # counted once for the whole range: ``Counter.update`` counts a list in C
        scenes: list[SceneKey] = []
        outcomes: list[Outcome] = []
        for index in range(start, stop):
            if plan is not None:
                try:
                    played, outcome = _Run(plan, policy, known, seed, index).play()
                except Unplain:
                    pass
                else:
                    scenes += played
                    outcomes.append(outcome)
                    continue
            self.checked.add(replace(play(self.kit, policy, seed, index), rules_core=True))
        self.scenes.update(scenes)
        self.outcomes.update(outcomes)

    def tally(self) -> Tally:
        """Everything played so far, added up."""
        tally = Tally()
        tally.merge(self.checked)
        records = _RECORD_LIST
        tally.add_scenes((SceneRecord(ident, points, wyrd, defeated, tuple([records[i] for i in found])), times)
                         for (ident, points, wyrd, defeated, found), times in self.scenes.items())
        tally.add_outcomes(self.outcomes)
        return tally


def play_chunk(plan: Layout | None, kit: Kit, policy: Policy, seed: int, start: int, stop: int) -> Tally:
    """Runs ``start`` to ``stop`` of ``seed`` on plain data, added up (see :class:`Fold`)."""
    fold = Fold(plan, kit, policy, seed)
    fold.play(start, stop)
    return fold.tally()


def _sixths(need: int, points: int, budget: int) -> int:
    """The exact chance of overcoming, in sixths (``wyrd.rules.odds.challenge_odds``, remembered)."""
    key = (need, points, budget)
    found = _SIXTHS.get(key)
    if found is None:
        chance = challenge_odds(need, points, budget).p_with_pool
        found = _SIXTHS[key] = chance.numerator * (6 // chance.denominator)
    return found


def _decision(plan: Plan, members: tuple[tuple[str, int, int], ...], value: int, pool: int) -> Decision:
    """``plan`` with what follows from it in its situation (``members``: name, points, Wyrd)."""
    have = {name: points for name, points, _ in members}
    checked = plan.lead in have
    involved = [plan.lead]
    for who, n in plan.spend:
        if n <= 0 or have.get(who, 0) < n:
            checked = False
            break
        have[who] -= n
        if who not in involved:
            involved.append(who)
    points = plan.points
    budget = min(plan.draw_up_to, pool)
    return Decision(plan.lead, plan.spend, plan.draw_up_to, checked, tuple(involved), points, pool, budget,
                    _sixths(value, points, budget))


class _Run:
    def __init__(self, plan: Layout, policy: Policy, known: dict[tuple[Any, ...], Decision] | None, seed: int,
                 index: int) -> None:
        kit = plan.kit
        self.kit = kit
        self.plan = plan
        self.policy = policy
        self.known = known  # a pure policy's decisions (``_PLANS``), or None
        # a pure policy never draws from its generator: it is seeded only if it is asked for
        self.seeded = (seed, index)
        self.rng = None if known is not None else random.Random(run_seed(seed, index, "policy"))
        self.step = 0
        self.defeated_at: dict[str, int] = {}
        self.total_points = self.total_wyrd = 0
        dice = random.Random(run_seed(seed, index, "dice"))
        self.rules = Actions(plan, dice, kit.players)

    def _note_fallen(self) -> None:
        for who in self.rules.fallen:
            self.defeated_at.setdefault(who, self.step)

    def play(self) -> tuple[list[SceneKey], Outcome]:
        scenes: list[SceneKey] = []
        self._story(scenes)
        board = self.rules.board
        chars = board.characters
        return scenes, Outcome(
            len(scenes), self.total_points, self.total_wyrd, self.rules.faces, tuple(self.defeated_at.items()),
            tuple(self.rules.points_by.items()), tuple([(n, chars[n].wyrd) for n in self.kit.players]),
            tuple([(k, c.value, tuple(c.reached)) for k, c in board.clocks.items()]),
            tuple([(k, c.value) for k, c in board.counters.items()]), tuple(board.results.items()),
            scenes[-1][0] if scenes else None)

    def _story(self, scenes: list[SceneKey]) -> None:
        kit, rules = self.kit, self.rules
        chars = rules.board.characters
        # the challenges overcome and failed, in the order first closed so (a key of ``_next_scene`` made
        # without hashing them again)
        overcome: dict[str, None] = {}
        failed: dict[str, None] = {}
        current: str | None = kit.first
        while current is not None and self.step < MAX_SCENES:
            standing = [n for n in kit.players if not chars[n].defeated]
            if not standing:
                break
            self.step += 1
            rules.scene_points = rules.scene_wyrd = 0
            rules.fallen = []
            rules.start_scene(standing, current)
            self._face()
            scenes.append(self._close(current, overcome, failed))
            if self.plan.scenes[current].finale:
                break
            current = self._next_scene(current, overcome, failed)
        rules.fallen = []
        rules.finale()
        self._note_fallen()

    def _next_scene(self, current: str, overcome: dict[str, None], failed: dict[str, None]) -> str | None:
        """The story's default exit from ``current``: what ``flow.next_scene`` answers, asked once per progress."""
        board = self.rules.board
        # (every defeat in play so far is in ``defeated_at`` by now: a defeat is never undone)
        key = (current, tuple(overcome), tuple(failed), tuple(map(_VALUE, board.clocks.values())),
               tuple(map(_VALUE, board.counters.values())), bool(self.defeated_at) or self.plan.fallen)
        ways = self.plan.exits
        if key in ways:
            return ways[key]
        # Progress reads only the clocks', counters' and characters' plain fields, which the board has.
        progress = flow.Progress.of(cast(A.GameState, board), overcome, failed, known=self.kit.known)
        if len(ways) >= _KNOWN_MAX:
            ways.clear()
        found = ways[key] = flow.next_scene(self.kit.story, current, progress)
        return found

    def _face(self) -> None:
        """Face the scene's challenges as ``game`` does: the next one the bots can face (``next_challenge``),
        planned, attempted, its points assigned, rolled, then rescued with Wyrd or accepted.

        One loop over locals, the bots' questions asked inline (the situation read and looked up as
        ``game``'s ``_situation`` makes it): it runs for every challenge of every run. What the standing
        rules are does not change while a scene's challenges are faced.
        """
        rules = self.rules
        board = rules.board
        scene = board.scene
        assert scene is not None
        challenges = scene.challenges
        cast = scene.cast
        finale = self.plan.scenes[scene.id].finale
        standing = board.standing
        priced = DO_ATTEMPT_COST in standing
        named = board.priced  # (the price is asked only of a challenge a rule for it names)
        modified = DO_MODIFY in standing
        plain = board.plain
        known = self.known
        skipped: set[str] = set()
        for _ in range(MAX_ATTEMPTS):
            # the next challenge (``next_challenge``), and how many are open (the situation's ``left``)
            target = None
            left = 0
            for ch in challenges.values():
                if ch.status is not OPEN:
                    continue
                left += 1
                if target is not None or ch.id in skipped:
                    continue
                for prior in ch.after:
                    before = challenges.get(prior)
                    if before is not None and before.status is not OVERCOME:
                        break
                else:
                    target = ch
            if target is None:
                return
            ability = target.ability
            cost = 0
            if priced and (named is None or target.id in named or target.type in named or target.denizen in named):
                cost = rules.attempt_cost(target)
            pool = scene.pool - cost + sum(scene.ghost.values()) if scene.ghost else scene.pool - cost
            value = rules.effective_value(target) if modified else target.value
            # The situation as a key: its fields, then each member's (name, points, Wyrd) in the scene's order,
            # flat (a nested tuple costs a tuple a member to make, hash and compare).
            key = [target.id, target.type, value, pool, left, finale]
            for c in cast:
                if not c.defeated:
                    key += (c.name, c.points[ability], c.wyrd)
            if len(key) == _SITUATION or cost > scene.pool:  # nobody standing, or the price can't be paid
                skipped.add(target.id)
                continue
            situation = tuple(key)
            decision = None if known is None else known.get(situation)
            if decision is None:
                members = tuple([(c.name, c.points[ability], c.wyrd) for c in cast if not c.defeated])
                decision = self._decide(situation, (target.id, target.type, value, pool, members, left, finale))
            if plain and decision.checked:  # the common case, in one call
                total = rules.tackle_and_roll(target, decision, cost)
                target.sixths = decision.sixths
                pending = board.pending
                if pending is not None:
                    self._rescue(pending, pending.value - total, decision.budget)
                continue
            pending = rules.tackle(target, decision.lead, cost, decision.spend)  # nothing has changed since the price
            budget = min(decision.draw_up_to, rules.drawable(pending))
            total = rules.roll()
            target.sixths = _sixths(max(0, pending.value - pending.bonus), pending.points, budget)
            if board.pending is not None:
                self._rescue(pending, pending.value - total, budget)

    def _decide(self, key: tuple[Any, ...],
                situation: tuple[str, A.ChallengeType, int, int, tuple[tuple[str, int, int], ...], int, bool]
                ) -> Decision:
        """The policy's plan in ``situation`` (``_face``'s, ``key`` its flat form), as ``game`` asks for it,
        with what follows from it.

        A policy that decides by the situation alone (:data:`PURE`) is asked once per situation.
        """
        ident, kind, value, pool, members, left, finale = situation
        # the key keeps the scene's order; the policy sees the most points first (ties in that order)
        ranked = tuple(Member(*m) for m in sorted(members, key=_most_points))
        at = Situation(ident, kind, value, pool, ranked, left, finale=finale)
        if self.rng is None:
            self.rng = random.Random(run_seed(*self.seeded, "policy"))
        decision = _decision(self.policy.plan(at, self.rng), members, value, pool)
        known = self.known
        if known is not None:
            if len(known) >= _KNOWN_MAX:
                known.clear()
            known[key] = decision
        return decision

    def _rescue(self, pending: Pending, short: int, budget: int) -> None:
        """After a failed roll: draw what it lacks if the plan's budget covers it (defeated players' allowance
        first, then the involved character with least Wyrd), or accept the failure."""
        rules = self.rules
        if short > budget:
            rules.accept()
            return
        scene = rules.scene()
        if scene.ghost:
            for ghost, left in list(scene.ghost.items()):
                if short and left:
                    n = min(left, short)
                    rules.draw_for(ghost, n)
                    short -= n
        if short:
            chars = rules.board.characters
            involved = pending.involved
            if len(involved) == 1 and not chars[involved[0]].defeated and involved[0] in scene.present:
                who = involved[0]  # (most rolls: the lead alone)
            else:
                drawers = [n for n in involved if not chars[n].defeated and n in scene.present]
                who = min(drawers, key=lambda n: chars[n].wyrd)
            rules.draw_for(who, short)

    def _close(self, ident: str, overcome: dict[str, None], failed: dict[str, None]) -> SceneKey:
        rules = self.rules
        scene = rules.scene()
        found = []
        records = _RECORDS
        for ch in scene.challenges.values():
            status = ch.status
            if status is OVERCOME:
                overcome[ch.id] = None
            elif status is FAILED:
                failed[ch.id] = None
            sixths = ch.sixths
            key = (ch.id, ch.name, ch.type, ch.value, status, ch.tackled, sixths)
            place = records.get(key)
            if place is None:  # records are frozen: one of each serves every run
                place = _RECORDS[key] = len(_RECORD_LIST)
                _RECORD_LIST.append(ChallengeRecord(ch.id, ch.name, ch.type.value, ch.value, ch.status.value,
                                                    ch.tackled, sixths))
            found.append(place)
        rules.end_scene(self._bonds() if self.kit.bonds else {})
        if rules.fallen:
            self._note_fallen()
        self.total_points += rules.scene_points
        self.total_wyrd += rules.scene_wyrd
        return ident, rules.scene_points, rules.scene_wyrd, tuple(rules.fallen), tuple(found)

    def _bonds(self) -> dict[str, int]:
        """As ``wyrd.sim.abacus.game``: who claims a connection, and on which ability (an index)."""
        board = self.rules.board
        scene = board.scene
        assert scene is not None
        chars = board.characters
        claims: dict[str, int] = {}
        faced, present = scene.faced, scene.present
        for name, other in self.kit.bonds.items():
            if name not in faced or other not in present:
                continue
            char = chars[name]
            if char.defeated or chars[other].defeated:
                continue
            claim = recoveries(char)[1]
            if claim is not None:
                claims[name] = claim
        return claims
