"""Challenge rolls, as the staged action seed 000 describes.

1. ``attempt``: a lead opens the roll on an open challenge of the scene (after the
   challenges it must follow are overcome, and after paying any Wyrd a stage rule
   demands just to try).
2. ``spend``: any involved character assigns points, unlimited, from the
   challenge's ability. One scene Wyrd point lets a character spend another
   ability on this challenge; one lets a character who is not in the scene help;
   both cost two. Points spent are lost whatever happens.
3. ``roll``: one d6 + points (+ standing bonuses) against the value.
4. After a failure: ``draw`` (each scene Wyrd point an involved character takes
   adds 1) or ``accept`` the failure and its consequences.
"""

import re
from collections.abc import Sequence
from typing import NamedTuple

from wyrd.rules.abacus.effects import (
    Moment,
    apply_effect,
    attempt_cost,
    default_damage,
    effective_value,
    fire,
    free_ability,
    place,
    take_roll_bonus,
)
from wyrd.rules.abacus.enums import Ability, ChallengeStatus, ChallengeType
from wyrd.rules.abacus.errors import NotEnoughPoints, NotEnoughWyrd, OutOfTurn, UnknownName
from wyrd.rules.abacus.events import ChallengeResolved, ChallengeRolled, PointsSpent, RollOpened
from wyrd.rules.abacus.reasons import DrawReason
from wyrd.rules.abacus.stage import Effect, EffectKind, Target, TriggerKind
from wyrd.rules.abacus.standing import roll_bonus
from wyrd.rules.abacus.state import Assignment, Challenge, ChallengeSpec, GameState, Needs, PendingRoll, RollStage
from wyrd.rules.abacus.turn import Turn, action

__all__ = [
    "RollTerms",
    "accept",
    "add_challenge",
    "attempt",
    "draw",
    "needed",
    "place_spec",
    "roll",
    "roll_terms",
    "slug",
    "spend",
]


def slug(name: str) -> str:
    """A stable id from a name: lower case, words joined by hyphens."""
    text = re.sub(r"[^a-z0-9]+", "-", re.sub(r"['\u2019]", "", name.casefold())).strip("-")
    return text or "challenge"


@action
def add_challenge(
    turn: Turn, name: str, type: ChallengeType, value: int, *, ident: str | None = None,
    denizen: str | None = None, after: Sequence[str] = (),
) -> None:
    """Place an ad hoc challenge in the scene (between scenes there are none)."""
    turn.not_ended()
    scene = turn.in_scene()
    if value < 0:
        raise OutOfTurn(f"a challenge value cannot be {value}", rule="abacus.challenge.value")
    for prior in after:
        if prior not in scene.challenges:
            raise UnknownName(f"no challenge {prior!r} to follow", rule="abacus.unknown.challenge")
    place(turn, ChallengeSpec(
        id=ident or slug(name), name=name, type=ChallengeType(type), value=value,
        denizen=denizen, after=list(after),
    ))


@action
def place_spec(turn: Turn, spec: ChallengeSpec) -> None:
    """Place a challenge a story describes."""
    turn.not_ended()
    place(turn, spec)


def _pending(turn: Turn, stage: RollStage) -> PendingRoll:
    pending = turn.state.pending
    if pending is None:
        raise OutOfTurn("no challenge roll is open", rule="abacus.roll.none-open")
    if pending.stage != stage:
        if stage == RollStage.ASSIGNING:
            raise OutOfTurn(
                "the die has been rolled: points can no longer be assigned, only Wyrd drawn",
                rule="abacus.roll.points-before-roll",
            )
        raise OutOfTurn("the die has not been rolled yet", rule="abacus.roll.not-rolled")
    return pending


@action
def attempt(turn: Turn, challenge: str, lead: str, involved: Sequence[str] = ()) -> None:
    """Open a challenge roll with ``lead`` at its head."""
    turn.not_ended()
    scene = turn.in_scene()
    if turn.state.pending is not None:
        raise OutOfTurn(
            f"the roll on {turn.state.pending.challenge} is still open",
            rule="abacus.roll.one-at-a-time",
        )
    target = turn.challenge(challenge)
    if target.status != ChallengeStatus.OPEN:
        raise OutOfTurn(f"{target.name} is already {target.status.value}", rule="abacus.challenge.closed")
    for prior in target.after:
        before = scene.challenges.get(prior)
        if before is not None and before.status != ChallengeStatus.OVERCOME:
            raise OutOfTurn(
                f"{before.name} must be overcome before {target.name} can be faced",
                rule="abacus.challenge.sequential",
            )
    leader = turn.active(lead)
    if leader.name not in scene.present:
        raise OutOfTurn(f"{leader.name} is not in this scene and cannot lead", rule="abacus.roll.lead-present")
    helpers = [n for n in turn.names(involved) if n != leader.name]
    for name in helpers:
        turn.active(name)
    cost = attempt_cost(turn.state, target)
    if cost:
        turn.draw(leader.name, cost, DrawReason.PRICE.said(target.name))
    target.tackled = True
    turn.state.pending = PendingRoll(challenge=target.id, lead=leader.name, involved=[leader.name, *helpers])
    turn.emit(RollOpened(
        challenge=target.id, name=target.name, lead=leader.name, involved=[leader.name, *helpers],
        value=effective_value(turn.state, target),
    ))
    fire(turn, Moment(kind=TriggerKind.ATTEMPT, challenge=target, subject=leader.name,
                      lead=leader.name, involved=[leader.name, *helpers]))


@action
def spend(
    turn: Turn, who: str, n: int, ability: Ability | None = None, *, paid_by: str | None = None,
) -> None:
    """``who`` assigns ``n`` points to the open roll (a servant's pool counts too)."""
    pending = _pending(turn, RollStage.ASSIGNING)
    scene = turn.in_scene()
    target = scene.challenges[pending.challenge]
    if n <= 0:
        raise NotEnoughPoints(f"points are assigned one or more at a time, not {n}", rule="abacus.spend.positive")
    servant = turn.state.servants.get(who) or next(
        (s for s in turn.state.servants.values() if s.name.casefold() == who.casefold()), None
    )
    if servant is not None:
        if servant.pool < n:
            raise NotEnoughPoints(f"{servant.name} has {servant.pool} left and can't give {n}",
                                  rule="abacus.magic.servant-pool")
        servant.pool -= n
        pending.assigned.append(Assignment(character=servant.id, ability=None, n=n))
        turn.emit(PointsSpent(character=servant.id, ability=None, n=n, challenge=target.id,
                              points_after=servant.pool))
        return
    char = turn.active(who)
    use = Ability(ability) if ability is not None else target.type.ability
    cost = 0
    # Seed 000 prices "a different ability" at one point each: a second other ability costs again.
    # (The first reading priced them all at one point together, kept under the name alone.)
    paid_for = char.name if turn.legacy else f"{char.name}:{use.value}"
    if use != target.type.ability and paid_for not in pending.other_ability and not free_ability(turn.state, target):
        cost += 1
        pending.other_ability.append(paid_for)
    if char.name not in scene.present and char.name not in pending.absent_help:
        cost += 1
        pending.absent_help.append(char.name)
    have = char.points[use]
    if have < n:
        raise NotEnoughPoints(
            f"{char.name} has {have} {use.value.title()} left and can't spend {n}",
            rule="abacus.spend.not-enough-points",
        )
    if cost:
        payer = char.name
        if paid_by is not None:
            # Only a defeated character's player spends Wyrd for someone else (seed 000).
            payer = next((g for g in scene.ghost if g.casefold() == paid_by.casefold()), "")
            if not payer:
                raise NotEnoughWyrd(
                    f"{paid_by} has no Wyrd to give: only a defeated character's player pays for others",
                    rule="abacus.spend.payer",
                )
        turn.draw(payer, cost, DrawReason.SPEND.said(f"{char.name} to spend {use.value.title()} on {target.name}"))
    char.points[use] = have - n
    if char.name not in pending.involved:
        pending.involved.append(char.name)
    pending.assigned.append(Assignment(character=char.name, ability=use, n=n))
    turn.emit(PointsSpent(character=char.name, ability=use, n=n, challenge=target.id, wyrd_cost=cost,
                          points_after=char.points[use]))


def needed(turn: Turn, pending: PendingRoll) -> int:
    """How much more the rolled total needs to reach the value."""
    target = turn.in_scene().challenges[pending.challenge]
    total = (pending.die or 0) + pending.points + pending.bonus + pending.boost
    value = pending.value if pending.value is not None else effective_value(turn.state, target)
    return max(0, value - total)


def drawable(state: GameState, pending: PendingRoll) -> int:
    """The Wyrd that can still be drawn for this roll: the scene pool if any involved character may
    draw (not defeated, no Ward of theirs, in the scene or paid to help), plus defeated players' gifts."""
    scene = state.scene
    if scene is None:
        return 0
    drawers = [n for n in pending.involved if not state.characters[n].defeated and n not in scene.warded
               and (n in scene.present or n in pending.absent_help)]
    return (scene.pool if drawers else 0) + sum(scene.ghost.values())


def _drawable(turn: Turn, pending: PendingRoll) -> int:
    return drawable(turn.state, pending)


class RollTerms(NamedTuple):
    """What the open roll will be (or was) made of, as the roll itself reads it: the odds
    shown in play come from these, so they are the odds of the roll actually made."""

    value: int  # the value to reach (fixed once the die is rolled)
    points: int  # points assigned, a servant's included
    bonus: int  # standing bonuses (a Charm's +2) the roll will take
    drawable: int  # Wyrd that can still be drawn after a failure


def roll_terms(state: GameState) -> RollTerms | None:
    """The terms of the open roll, or None if no roll is open."""
    pending = state.pending
    if pending is None or state.scene is None:
        return None
    target = state.scene.challenges[pending.challenge]
    if pending.die is not None:
        value = pending.value if pending.value is not None else effective_value(state, target)
        return RollTerms(value=value, points=pending.points, bonus=pending.bonus + pending.boost,
                         drawable=drawable(state, pending))
    return RollTerms(value=effective_value(state, target), points=pending.points,
                     bonus=roll_bonus(state, target), drawable=drawable(state, pending))


@action
def roll(turn: Turn) -> None:
    """Roll the die for the open challenge roll."""
    pending = _pending(turn, RollStage.ASSIGNING)
    scene = turn.in_scene()
    target = scene.challenges[pending.challenge]
    face = turn.dice.d6(1, f"challenge roll: {target.id}").faces[0]
    pending.die = face
    pending.bonus = take_roll_bonus(turn, target)
    value = effective_value(turn.state, target)
    pending.value = value
    total = face + pending.points + pending.bonus
    for name in pending.involved:
        if name in scene.present and name not in scene.faced:
            scene.faced.append(name)
    turn.emit(ChallengeRolled(
        challenge=target.id, lead=pending.lead, die=face, points=pending.points, bonus=pending.bonus,
        total=total, value=value, overcome=total >= value,
    ))
    if total >= value:
        _resolve(turn, target, pending, overcome=True)
        return
    pending.stage = RollStage.ROLLED
    # With too little Wyrd left to make up the gap, the failure stands at once.
    if _drawable(turn, pending) < needed(turn, pending):
        _resolve(turn, target, pending, overcome=False)


@action
def draw(turn: Turn, who: str, n: int = 1) -> None:
    """After a failed roll, ``who`` draws ``n`` scene Wyrd, +1 to the result each."""
    pending = _pending(turn, RollStage.ROLLED)
    scene = turn.in_scene()
    target = scene.challenges[pending.challenge]
    if who not in scene.ghost:
        char = turn.character(who)
        # Someone elsewhere takes part only by paying to help (seed 000).
        if char.name not in pending.involved or (
            char.name not in scene.present and char.name not in pending.absent_help
        ):
            raise OutOfTurn(f"{char.name} is not involved in this roll", rule="abacus.draw.involved")
        who = char.name
    # Seed 000: "for every point of Wyrd that any involved character takes ... add 1": any number,
    # even past what the roll still needs (each point drawn still goes to the drawer's pool).
    turn.draw(who, n, DrawReason.OVERCOME.said(target.name))
    pending.boost += n
    if needed(turn, pending) == 0:
        _resolve(turn, target, pending, overcome=True)


@action
def accept(turn: Turn) -> None:
    """Take the failure of the open roll and its consequences."""
    pending = _pending(turn, RollStage.ROLLED)
    target = turn.in_scene().challenges[pending.challenge]
    _resolve(turn, target, pending, overcome=False)


def _resolve(turn: Turn, target: Challenge, pending: PendingRoll, *, overcome: bool) -> None:
    scene = turn.in_scene()
    total = (pending.die or 0) + pending.points + pending.bonus + pending.boost
    target.status = ChallengeStatus.OVERCOME if overcome else ChallengeStatus.FAILED
    turn.state.pending = None
    turn.emit(ChallengeResolved(challenge=target.id, name=target.name, overcome=overcome, boost=pending.boost,
                                total=total,
                                status=target.status.value))
    if overcome and target.denizen:
        denizen = turn.state.denizens.get(target.denizen)
        if denizen is not None and denizen.needs == Needs.ANY:
            for other in scene.challenges.values():
                if other.denizen == target.denizen and other.status == ChallengeStatus.OPEN:
                    other.status = ChallengeStatus.BYPASSED
                    turn.emit(ChallengeResolved(challenge=other.id, name=other.name, overcome=False, boost=0, total=0,
                                                status=other.status.value))
    # The damage a failure deals by default is half the value as rolled, not the base value.
    # (The first reading took half the base value, and left the moment's amount unset.)
    rolled = pending.value if pending.value is not None else effective_value(turn.state, target)
    if turn.legacy:
        rolled = target.value
    moment = Moment(kind=TriggerKind.OVERCOME if overcome else TriggerKind.FAIL, challenge=target,
                    subject=pending.lead, lead=pending.lead, involved=list(pending.involved),
                    amount=None if overcome or turn.legacy else default_damage(rolled))
    if not overcome:
        consequences = target.on_fail if target.on_fail is not None else [
            Effect(do=EffectKind.DAMAGE, target=Target.LEAD, n=default_damage(rolled))
        ]
        for effect in consequences:
            apply_effect(turn, effect, moment, from_failure=True)
    fire(turn, moment)
