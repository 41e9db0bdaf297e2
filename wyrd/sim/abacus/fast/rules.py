"""The Abacus rules the bots use, carried out on a plain :class:`~wyrd.sim.abacus.fast.board.Board`.

Each method follows the rules core's function of the same name (``wyrd.rules.abacus``:
``challenge``, ``effects``, ``standing``, ``scenes``, ``story``) step for step: the
same faces drawn from the same dice in the same order, the same rules fired in the
same order, the same numbers moved. It keeps no events; what the simulator's report
counts from them (points assigned, Wyrd drawn, defeats) it counts as it goes.

Where the rules core would refuse (an action out of turn, a tie that will not
break), :class:`Unplain` is raised and the run is played again by the rules core,
which knows every refusal's exact outcome. ``wyrd.rules`` stays the single source
of the rules for play; this is the simulator's copy of the parts it uses, held to
the rules core by a test that compares whole reports. The dice are drawn as
:mod:`~wyrd.sim.abacus.fast.dice` says.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

import wyrd.rules.abacus as A
from wyrd.rules.abacus.influence import TraitRoll, rank
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.sim.abacus.fast.board import Board, Char, Clock, Layout, Placed, Plain, Rule, Scene, Spec, fresh
from wyrd.sim.abacus.fast.board import Look as Match
from wyrd.sim.abacus.fast.dice import BITS_ARE_FACES, RunFaces
from wyrd.sim.abacus.fast.kinds import (
    DO_ATTEMPT_COST,
    DO_CLOCK,
    DO_COUNTER,
    DO_DAMAGE,
    DO_MODIFY,
    DO_PLACE,
    DO_ROLL_BONUS,
    DO_SCRATCH,
    DO_WYRD_ROLL,
    LASTS_USES,
    ON_DAMAGE,
    ON_WYRD_ROLL,
    ON_WYRD_SIX,
    OPEN,
    TO_INVOLVED,
    TO_LEAD,
    TO_OTHER,
    TO_PRESENT,
    TO_SUBJECT,
    TOLD,
)

__all__ = ["BITS_ARE_FACES", "MAX_DEPTH", "Moment", "Rules", "Unplain"]

MAX_DEPTH = 4  # as ``wyrd.rules.abacus.turn.Turn.MAX_DEPTH``
GHOST_WYRD = 2


def _results(rolled: dict[str, list[int]]) -> dict[str, int]:
    """Each one's result of a Wyrd roll: the best face, 1 without Wyrd."""
    return {n: max(faces) if faces else 1 for n, faces in rolled.items()}


class Unplain(Exception):
    """Something the plain rules leave to the rules core (a refusal, mostly): play the run there."""


@dataclass(slots=True)
class Moment:
    """What a rule fires on (slots: its fields are read by every rule and effect it sets off)."""

    kind: A.TriggerKind
    challenge: Placed | None = None
    subject: str | None = None
    amount: int | None = None
    lead: str | None = None
    involved: Sequence[str] = ()
    results: dict[str, int] | None = None


class Rules:
    """One run's board and dice, and the rules acting on them.

    What the simulator's report counts from the rules core's events it counts here as it goes, in
    plain fields the bots read and reset: the points assigned (:attr:`scene_points`, and
    :attr:`points_by` each player), the Wyrd drawn (:attr:`scene_wyrd`) and who was defeated
    (:attr:`fallen`) since the scene began.

    Args:
        plan: The story's plain layout.
        dice: The run's dice generator (the ``random.Random`` of ``wyrd.rules.dice.SeededSource``).
        players: The players whose assigned points are counted one by one.
    """

    def __init__(self, plan: Layout, dice: random.Random, players: Sequence[str]) -> None:
        self.plan = plan
        self.board = Board(plan)
        self.bits = dice.getrandbits if BITS_ARE_FACES else None
        self.randint = dice.randint
        self.faces = 0
        self.depth = 0
        self.closing = False
        self.points_by = dict.fromkeys(players, 0)
        self.scene_points = 0
        self.scene_wyrd = 0
        self.fallen: list[str] = []

    def d6(self, n: int) -> list[int]:
        self.faces += n
        bits = self.bits
        if bits is None:
            randint = self.randint
            return [randint(1, 6) for _ in range(n)]
        if n == 1:  # most rolls: a challenge's die, one Wyrd point
            r = bits(3)
            while r >= 6:
                r = bits(3)
            return [r + 1]
        faces = []
        for _ in range(n):
            r = bits(3)
            while r >= 6:
                r = bits(3)
            faces.append(r + 1)
        return faces

    # -- standing rules (``standing``) -----------------------------------------------------

    def matches(self, match: Match, ch: Placed | None) -> bool:
        if match.empty and not match.untackled:
            return True  # every challenge, and the scene
        if ch is None:
            if match.empty:
                return True
            scene = self.board.scene
            return scene is not None and any(self.matches(match, c) for c in scene.challenges.values())
        if match.challenge is not None and match.challenge != ch.id:
            return False
        if match.type is not None and match.type != ch.type:
            return False
        if match.denizen is not None and match.denizen != ch.denizen:
            return False
        return not (match.untackled and (ch.tackled or ch.status is not OPEN))

    def standing(self, kind: A.EffectKind, ch: Placed) -> list[tuple[Rule, Plain]]:
        filed = self.board.standing.get(kind)
        if not filed:
            return []
        matches = self.matches
        return [(rule, e) for rule, e in filed
                if matches(rule.match, ch) and matches(e.match, ch)]

    def effective_value(self, ch: Placed) -> int:
        if DO_MODIFY not in self.board.standing:
            return ch.value  # (a value is never below 0)
        change = sum(e.n or 0 for _, e in self.standing(DO_MODIFY, ch))
        return max(0, ch.value + change)

    def attempt_cost(self, ch: Placed) -> int:
        """The price of attempting ``ch`` (asked before every attempt: the usual rule, naming another
        denizen, is passed over inline)."""
        total = 0
        for rule, effect in self.board.standing.get(DO_ATTEMPT_COST, ()):
            match = rule.match
            if not match.untackled and ((match.challenge is not None and match.challenge != ch.id)
                                        or (match.type is not None and match.type != ch.type)
                                        or (match.denizen is not None and match.denizen != ch.denizen)):
                continue
            if self.matches(match, ch) and self.matches(effect.match, ch):
                total += 1 if effect.n is None else effect.n
        return total

    def take_roll_bonus(self, ch: Placed) -> int:
        if DO_ROLL_BONUS not in self.board.standing:
            return 0
        total = 0
        for rule, effect in self.standing(DO_ROLL_BONUS, ch):
            total += effect.n or 0
            self.use_up(rule)
        return total

    def use_up(self, rule: Rule) -> None:
        if rule.lasts is LASTS_USES:  # rules of limited uses never reach here (board.UNSUPPORTED)
            raise Unplain("a rule of limited uses")

    # -- the scene pool (``turn``) -----------------------------------------------------------

    def scene(self) -> Scene:
        if self.board.scene is None:
            raise Unplain("no scene")
        return self.board.scene

    def active(self, name: str) -> Char:
        char = self.board.characters.get(name)
        if char is None or char.defeated:
            raise Unplain(f"{name} cannot act")
        return char

    def draw(self, name: str, n: int) -> None:
        scene = self.board.scene
        if scene is None or n <= 0:
            raise Unplain("no Wyrd to draw")
        if name in scene.ghost:
            left = scene.ghost[name]
            if left < n:
                raise Unplain("a defeated player's Wyrd is spent")
            scene.ghost[name] = left - n
            self.scene_wyrd += n
            return
        char = self.active(name)
        if scene.pool < n:
            raise Unplain("the scene pool is empty")
        scene.pool -= n
        char.wyrd += n
        self.scene_wyrd += n

    # -- placing (``effects``) ---------------------------------------------------------------

    def place(self, spec: Spec) -> None:
        challenges = self.scene().challenges
        ident = spec.id
        if ident in challenges:
            ident = fresh(ident, challenges)
        challenges[ident] = Placed(spec, ident)

    def place_or_wait(self, spec: Spec) -> None:
        if self.board.scene is None or self.closing:
            self.board.waiting.append(spec)
        else:
            self.place(spec)

    # -- triggered rules and effects (``effects``) ---------------------------------------------

    def may_fire(self, kind: A.TriggerKind, ch: Placed | None, low: int | None = None) -> bool:
        """Whether a moment of ``kind`` about ``ch`` may fire a rule: False only where :meth:`fire` would
        surely fire none.

        Most moments meet no rule: a challenge overcome whose denizen, type or id no rule names, a Wyrd
        roll with every result above the counter a rule reads (``low``: the least result of the roll, None
        for a moment without one). Asked before the moment is made, this saves making it (and, inline, a
        call per rule).
        """
        board = self.board
        filed = board.firing.get(kind)
        if not filed or self.depth >= MAX_DEPTH:
            return False
        for rule in filed:
            match = rule.match
            if ch is not None and not match.untackled and (
                    (match.challenge is not None and match.challenge != ch.id)
                    or (match.type is not None and match.type != ch.type)
                    or (match.denizen is not None and match.denizen != ch.denizen)):
                continue
            if rule.at_or_under is not None:
                counter = board.counters.get(rule.at_or_under)
                if counter is None or low is None or low > counter.value:
                    continue
            return True
        return False

    def fire(self, moment: Moment) -> None:
        results = moment.results
        if self.may_fire(moment.kind, moment.challenge, min(results.values()) if results else None):
            self.fire_now(moment)

    def fire_now(self, moment: Moment) -> None:
        """:meth:`fire` for a moment :meth:`may_fire` has let through."""
        board = self.board
        filed = board.firing[moment.kind]
        self.depth += 1
        try:
            for rule in filed:  # (a new list whenever the rules change: never changed under this loop)
                if not self.matches(rule.match, moment.challenge):
                    continue
                subjects: list[str | None] = [moment.subject]
                if rule.at_or_under is not None:
                    counter = board.counters.get(rule.at_or_under)
                    if counter is None:
                        continue
                    subjects = [n for n, r in (moment.results or {}).items() if r <= counter.value]
                for subject in subjects:
                    about = moment.challenge or self.first_match(rule.match)
                    here = Moment(moment.kind, about, subject, moment.amount, moment.lead, moment.involved,
                                  moment.results)
                    for effect in rule.effects:
                        self.apply(effect, here)
                    self.use_up(rule)
        finally:
            self.depth -= 1

    def first_match(self, match: Match) -> Placed | None:
        scene = self.board.scene
        if match.empty or scene is None:
            return None
        return next((ch for ch in scene.challenges.values() if self.matches(match, ch)), None)

    def targets(self, target: A.Target, moment: Moment) -> list[str]:
        chars = self.board.characters
        if target is TO_LEAD or (target is TO_SUBJECT and moment.subject):
            one = moment.lead if target is TO_LEAD else moment.subject
            char = chars.get(one) if one else None
            return [char.name] if char is not None and not char.defeated else []
        if target is TO_INVOLVED:
            return [n for n in moment.involved if n in chars and not chars[n].defeated]
        scene = self.board.scene
        present = [c.name for c in scene.cast if not c.defeated] if scene else []
        if target is TO_PRESENT:
            return present
        pool = [n for n in present if n != moment.subject] if target is TO_OTHER else present
        chosen = self.single_out(pool)
        return [chosen] if chosen else []

    def apply(self, effect: Plain, moment: Moment, *, from_failure: bool = False) -> None:
        kind = effect.do
        board = self.board
        if kind in TOLD:
            return
        if kind is DO_COUNTER:
            counter = board.counters[effect.counter or ""]
            counter.value = max(0, counter.value + (effect.n if effect.n is not None else 1))
        elif kind is DO_CLOCK:
            self.advance_clock(effect.clock or "", effect.n or 1)
        elif kind is DO_PLACE:
            self.place_or_wait(self.plan.catalogue[effect.challenge or ""])
        elif kind is DO_WYRD_ROLL:
            names = self.targets(effect.target, moment)
            if names:
                self.wyrd_roll(names)
        elif kind in (DO_DAMAGE, DO_SCRATCH):
            if board.scene is None:
                return  # no consequences between scenes
            ch = moment.challenge
            ability = effect.ability
            if ability is None:
                ability = ch.ability if ch is not None else 0
            source = ch.id if ch is not None else None
            for name in self.targets(effect.target, moment):
                if kind is DO_SCRATCH:
                    self.scratch(name, ability)
                    continue
                if effect.n is not None:
                    n = effect.n
                elif moment.amount is not None:
                    n = moment.amount
                elif ch is not None:
                    n = (self.effective_value(ch) + 1) // 2
                else:
                    n = 1
                self.damage(name, ability, n, source, from_failure)
        else:
            raise Unplain(f"an effect {kind}")

    def advance_clock(self, ident: str, change: int) -> None:
        if change == 0:
            return
        clock = self.board.clocks[ident]
        before = clock.value
        clock.value = after = max(0, before + change)
        if clock.least is not None and after >= clock.least:  # (most advances reach no threshold)
            self.cross(clock, before)

    def cross(self, clock: Clock, before: int) -> None:
        """The thresholds ``clock`` has reached since it stood at ``before``, their effects applied."""
        after = clock.value
        crossed = [(at, effects) for at, effects in clock.thresholds
                   if before < at <= after and at not in clock.reached]
        if not crossed:
            return
        clock.reached.extend(at for at, _ in crossed)
        clock.least = clock.unreached()
        for _, effects in crossed:
            for effect in effects:
                self.apply(effect, Moment(ON_WYRD_ROLL))

    # -- harm ----------------------------------------------------------------------------------

    def damage(self, name: str, ability: int, n: int, source: str | None, from_failure: bool) -> None:
        char = self.board.characters[name]
        if char.defeated or n <= 0:
            return
        before = char.points[ability]
        char.points[ability] = max(0, before - n)
        if n > before:
            self.scratch(name, ability)
        if from_failure and ON_DAMAGE in self.board.firing:
            scene = self.board.scene
            ch = scene.challenges.get(source or "") if scene else None
            self.fire(Moment(ON_DAMAGE, challenge=ch, subject=name, amount=n))

    def scratch(self, name: str, ability: int) -> None:
        char = self.board.characters[name]
        if char.defeated:
            return
        if ability in char.scratched:
            self.defeat(name)
            return
        char.scratched.append(ability)

    def defeat(self, name: str) -> None:
        self.board.characters[name].defeated = True
        self.wyrd_roll([name], include_defeated=True)
        self.fallen.append(name)

    # -- Wyrd rolls ----------------------------------------------------------------------------

    def wyrd_roll(self, names: Sequence[str], *, scene_end: bool = False,
                  include_defeated: bool = False) -> dict[str, list[int]]:
        """Each one's faces, in the order named (none for a character without Wyrd, whose result is 1).

        The rules core's ``TraitRoll`` records are made only where they are ranked (:meth:`single_out`):
        most Wyrd rolls are a scene test or a lead's roll, whose faces only the clocks read.
        """
        board = self.board
        chars = board.characters
        rolled: dict[str, list[int]] = {}
        every: list[int] = []  # every face rolled, for the clocks
        low = 6  # the least result, for the rules that fire at or under a counter
        for name in names:
            if name in rolled:
                continue
            char = chars[name]
            if char.defeated and not include_defeated:
                raise Unplain(f"{name} cannot act")
            n = char.wyrd
            if n <= 0:
                rolled[name] = []
                low = 1
                continue
            rolled[name] = faces = self.d6(n)
            every += faces
            top = max(faces) if n > 1 else faces[0]
            if top < low:
                low = top
        scene = board.scene
        if scene is not None:
            scene.wyrd_rolls += 1
        if every:
            for clock in board.clocks.values():
                if clock.scene_end_only and not scene_end:
                    continue
                counting = clock.faces
                counted = 0
                for face in every:  # (a loop: a roll has a face or two, too few for ``map`` to pay)
                    if face in counting:
                        counted += 1
                if counted:  # ``advance_clock``, its usual case inline: no threshold reached
                    before = clock.value
                    clock.value = before + counted
                    if clock.least is not None and before + counted >= clock.least:
                        self.cross(clock, before)
        firing = board.firing
        if ON_WYRD_SIX in firing or ON_WYRD_ROLL in firing:
            least = low if rolled else None  # (no one rolled: no result at or under any counter)
            if ON_WYRD_SIX in firing and self.may_fire(ON_WYRD_SIX, None, least):
                sixes = [n for n, faces in rolled.items() if 6 in faces]
                if sixes:
                    self.fire(Moment(ON_WYRD_SIX, subject=sixes[0], results=_results(rolled)))
            if ON_WYRD_ROLL in firing and self.may_fire(ON_WYRD_ROLL, None, least):
                self.fire_now(Moment(ON_WYRD_ROLL, results=_results(rolled)))
        return rolled

    def single_out(self, names: Sequence[str]) -> str | None:
        if not names:
            return None
        if len(names) == 1:
            return names[0]
        rolls = [TraitRoll(n, tuple(f), max(f), f.count(max(f))) if f else TraitRoll(n, (), 1, 1)
                 for n, f in self.wyrd_roll(names).items()]
        return self.rank(rolls)

    def rank(self, rolls: Sequence[TraitRoll]) -> str:
        """The first of ``wyrd.rules.abacus.influence.rank``'s order, its tie-breaks drawn from this run's dice."""
        try:
            return rank(rolls, Dice(RunFaces(self.d6)), purpose="wyrd tie-break").order[0]
        except RuleError as refusal:  # a tie that would not break
            raise Unplain(str(refusal)) from refusal
