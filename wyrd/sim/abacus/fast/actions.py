"""The players' actions the bots take, on plain data: a scene begun and ended, a challenge rolled, the finale.

Each follows the rules core's action of the same name (``wyrd.rules.abacus``:
``start_scene``, ``attempt``, ``spend``, ``roll``, ``draw``, ``accept``, ``end_scene``,
``finale``) as the bots call it: by exact ids and names, a character spending the
challenge's own ability from within the scene, no magic, no sabotage. Where the
rules core would refuse, :class:`~wyrd.sim.abacus.fast.rules.Unplain` is raised.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import wyrd.rules.abacus as A
from wyrd.sim.abacus.fast.board import Decision, Pending, Placed, Scene, fresh, recoveries
from wyrd.sim.abacus.fast.kinds import (
    BYPASSED,
    DO_MODIFY,
    DO_ROLL_BONUS,
    FAILED,
    LASTS_SCENE,
    ON_ATTEMPT,
    ON_FAIL,
    ON_OVERCOME,
    ON_SCENE_END,
    ON_SCENE_START,
    OPEN,
    OVERCOME,
)
from wyrd.sim.abacus.fast.rules import GHOST_WYRD, Moment, Rules, Unplain

__all__ = ["Actions"]


class Actions(Rules):
    """The rules, and the actions built on them."""

    def start_scene(self, present: Sequence[str], ident: str) -> None:
        # Once a scene: each step as the rules core takes it, read into locals; the cast in one comprehension.
        board = self.board
        if board.ended or board.scene is not None or not present:
            raise Unplain("a scene cannot begin")
        chars = board.characters
        names = list(present) if len(set(present)) == len(present) else list(dict.fromkeys(present))
        try:
            cast = [chars[name] for name in names]
        except KeyError as unknown:
            raise Unplain(f"{unknown} cannot act") from None
        for char in cast:
            if char.defeated:
                raise Unplain(f"{char.name} cannot act")
        # everyone present: nobody defeated, no allowance
        ghost = {} if len(cast) == len(chars) else {c.name: GHOST_WYRD for c in chars.values() if c.defeated}
        board.scene = scene = Scene(ident, names, len(names) + 1, ghost, cast)
        self.closing = False
        shape = self.plan.scenes[ident]
        if shape.rules:
            rules = board.rules
            for rule in shape.rules:
                rules[fresh(rule.id, rules) if rule.id in rules else rule.id] = rule
            board.index()
        challenges = scene.challenges
        for spec in shape.challenges:
            if spec.id in challenges:
                self.place(spec)
            else:
                challenges[spec.id] = Placed(spec, spec.id)
        if board.waiting:
            waiting, board.waiting = board.waiting, []
            for spec in waiting:
                self.place(spec)
        if ON_SCENE_START in board.firing:
            self.fire(Moment(ON_SCENE_START))
        touched = []
        for char in cast:
            if char.wyrd > 0:
                touched.append(char.name)
        if touched:  # the scene test
            self.wyrd_roll(touched)

    # The methods below run for every challenge of every run: each reads the scene and the characters once
    # into locals and checks what the rules core would refuse inline (a refusal is rare, and raises Unplain).
    # ``tackle`` is the rules core's ``attempt`` and ``spend`` in one, as the bots call them.

    def tackle(self, target: Placed, lead: str, cost: int, spend: Sequence[tuple[str, int]]) -> Pending:
        """``attempt`` on ``target`` led by ``lead`` at the price ``cost`` (read just before), then ``spend``
        for each ``(who, n)``: the bots' opening of a roll, in one call."""
        board = self.board
        scene = board.scene
        if scene is None or board.ended or board.pending is not None or target.status is not OPEN:
            raise Unplain("no attempt now")
        challenges = scene.challenges
        for prior in target.after:
            before = challenges.get(prior)
            if before is not None and before.status is not OVERCOME:
                raise Unplain("a challenge comes first")
        chars = board.characters
        present = scene.present
        char = chars.get(lead)
        if char is None or char.defeated or lead not in present:
            raise Unplain("the lead cannot act")
        if cost:
            self.draw(lead, cost)
        target.tackled = True
        board.pending = pending = Pending(target, lead)
        if ON_ATTEMPT in board.firing:
            self.fire(Moment(ON_ATTEMPT, challenge=target, subject=lead, lead=lead, involved=[lead]))
        use = target.ability
        involved = pending.involved
        for who, n in spend:
            # ``spend``: points of the challenge's ability assigned before the roll
            if board.pending is not pending or pending.rolled or n <= 0:
                raise Unplain("no points to assign now")
            char = chars.get(who)
            if char is None or char.defeated or who not in present:
                raise Unplain("help from elsewhere")  # costs Wyrd: the bots never ask for it
            have = char.points[use]
            if have < n:
                raise Unplain("not enough points")
            char.points[use] = have - n
            if who not in involved:
                involved.append(who)
            pending.points += n
            self.scene_points += n
            if who in self.points_by:
                self.points_by[who] += n
        return pending

    def tackle_and_roll(self, target: Placed, decision: Decision, cost: int) -> int:
        """:meth:`tackle` then :meth:`roll`, for a checked decision on a board where no rule moves the roll
        or fires on the attempt (``board.plain``): the same steps without the checks the decision has
        passed, its points counted once. The total rolled."""
        board = self.board
        scene = board.scene
        if scene is None or board.pending is not None or target.status is not OPEN:
            raise Unplain("no attempt now")
        lead = decision.lead
        if cost:
            self.draw(lead, cost)
        target.tackled = True
        use = target.ability
        chars = board.characters
        points_by = self.points_by
        for who, n in decision.spend:
            chars[who].points[use] -= n
            if who in points_by:
                points_by[who] += n
        involved = decision.involved
        points = decision.points
        self.scene_points += points
        face = self.d6(1)[0]
        value = target.value
        total = face + points
        faced = scene.faced
        for name in involved:  # (all present: the decision is checked)
            if name not in faced:
                faced.append(name)
        if total >= value:  # nothing reads the roll before it is resolved: it is left open only when it fails
            self.overcome(target, lead, involved)
            return total
        board.pending = pending = Pending(target, lead)
        pending.involved = list(involved)
        pending.points = points
        pending.die = face
        pending.value = value
        pending.rolled = True
        if decision.pool < value - total:  # (what could be drawn: the pool after the price)
            self.resolve(pending, overcome=False)
        return total

    def roll(self) -> int:
        """Roll for the open attempt; the total rolled (the die, the points and the bonus, left on the
        attempt as ``ChallengeRolled`` tells them)."""
        board = self.board
        pending = board.pending
        scene = board.scene
        if scene is None or pending is None or pending.rolled:
            raise Unplain("no roll open")
        target = pending.challenge
        face = self.d6(1)[0]
        pending.die = face
        standing = board.standing
        pending.bonus = bonus = self.take_roll_bonus(target) if DO_ROLL_BONUS in standing else 0
        pending.value = value = self.effective_value(target) if DO_MODIFY in standing else target.value
        total = face + pending.points + bonus
        faced = scene.faced
        for name in pending.involved:
            if name not in faced and name in scene.present:
                faced.append(name)
        if total >= value:
            self.resolve(pending, overcome=True)
            return total
        pending.rolled = True
        if self.drawable(pending) < self.needed(pending):
            self.resolve(pending, overcome=False)
        return total

    @staticmethod
    def needed(pending: Pending) -> int:
        return max(0, pending.value - (pending.die + pending.points + pending.bonus + pending.boost))

    def drawable(self, pending: Pending) -> int:
        """The Wyrd that can still be drawn for the roll (``wyrd.rules.abacus.challenge.drawable``)."""
        scene = self.board.scene
        if scene is None:
            return 0
        chars = self.board.characters
        present = scene.present
        for name in pending.involved:
            if name in present and not chars[name].defeated:
                return scene.pool + sum(scene.ghost.values()) if scene.ghost else scene.pool
        return sum(scene.ghost.values())

    def draw_for(self, who: str, n: int) -> None:
        """The ``draw`` action: after a failed roll, ``n`` Wyrd drawn, +1 each."""
        board = self.board
        pending = board.pending
        scene = board.scene
        if scene is None or pending is None or not pending.rolled:
            raise Unplain("no failed roll open")
        if who not in scene.ghost and (who not in pending.involved or who not in scene.present):
            raise Unplain("not involved")
        self.draw(who, n)
        pending.boost += n
        if self.needed(pending) == 0:
            self.resolve(pending, overcome=True)

    def accept(self) -> None:
        pending = self.board.pending
        if pending is None or not pending.rolled:
            raise Unplain("no failed roll open")
        self.resolve(pending, overcome=False)

    def resolve(self, pending: Pending, *, overcome: bool) -> None:
        board = self.board
        if board.scene is None:
            raise Unplain("no scene")
        board.pending = None
        target = pending.challenge
        if overcome:
            self.overcome(target, pending.lead, pending.involved)
            return
        target.status = FAILED
        amount = (pending.value + 1) // 2
        moment = Moment(ON_FAIL, challenge=target, subject=pending.lead, lead=pending.lead,
                        involved=list(pending.involved), amount=amount)
        if target.on_fail is None:  # half the value as rolled, to the lead
            if not board.characters[pending.lead].defeated:
                self.damage(pending.lead, target.ability, amount, target.id, True)
        else:
            for effect in target.on_fail:
                self.apply(effect, moment, from_failure=True)
        named = board.named.get(ON_FAIL)  # (as in ``overcome``)
        if ON_FAIL in board.firing and (named is None or target.id in named or target.type in named
                                        or target.denizen in named):
            self.fire(moment)

    def overcome(self, target: Placed, lead: str, involved: Sequence[str]) -> None:
        """The end of :meth:`resolve` for ``target`` overcome (no roll open any more) in a roll ``lead`` led."""
        board = self.board
        scene = board.scene
        if scene is None:
            raise Unplain("no scene")
        target.status = OVERCOME
        denizen = target.denizen
        if denizen and denizen in self.plan.any_of:
            for other in scene.challenges.values():
                if other.denizen == denizen and other.status is OPEN:
                    other.status = BYPASSED
        # Most challenges overcome fire no rule: a rule for them names another challenge, type or denizen.
        named = board.named.get(ON_OVERCOME)
        if named is not None and not (target.id in named or target.type in named or target.denizen in named):
            return
        if ON_OVERCOME in board.firing and self.may_fire(ON_OVERCOME, target):
            self.fire(Moment(ON_OVERCOME, challenge=target, subject=lead, lead=lead, involved=list(involved)))

    def end_scene(self, connections: Mapping[str, int]) -> None:
        """Close the scene; ``connections``: each who draws on their connection, and the ability (an index)."""
        board = self.board
        scene = board.scene
        if scene is None or board.pending is not None:
            raise Unplain("no scene to end")
        chars = board.characters
        self.closing = True
        if scene.wyrd_rolls == 0 or self.plan.scene_end_clock:  # the scene's Wyrd roll is owed
            present = [c.name for c in scene.cast if not c.defeated]
            if present:
                self.wyrd_roll(present, scene_end=True)
        if ON_SCENE_END in board.firing:
            self.fire(Moment(ON_SCENE_END))
        bonds = {}
        for name, wanted in connections.items():
            char = chars[name]
            if (not char.defeated and name in scene.faced and wanted not in char.scratched
                    and char.scores[wanted] > char.points[wanted] and char.connection is not None):
                bonds[name] = wanted  # the rest are refused, and the scene ends all the same
        for name in scene.faced:
            char = chars[name]
            if char.defeated:
                continue
            best = recoveries(char)[0]  # the default recovery
            if best is not None:
                char.points[best] += 1
            if name in bonds:
                a = bonds[name]
                if a in char.scratched or char.scores[a] - char.points[a] <= 0:
                    raise Unplain("a connection's recovery is refused")
                char.points[a] += 1
        if board.passing:  # the scene's rules leave play with it
            board.rules = {k: r for k, r in board.rules.items() if not (r.lasts is LASTS_SCENE or r.scene_only)}
            board.index()
        board.scene = None
        board.scenes_played += 1
        self.closing = False

    def finale(self) -> None:
        board = self.board
        if board.ended or board.scene is not None:
            raise Unplain("no finale now")
        standing = [c.name for c in board.characters.values() if not c.defeated]
        rolled = self.wyrd_roll(standing) if standing else {}
        results = {name: A.HELD if 6 in faces else A.FREED for name, faces in rolled.items()}
        for char in board.characters.values():
            results.setdefault(char.name, A.DEFEATED)
        board.results = results
        board.ended = True
