"""How the bot players decide: who leads, how many points go in, how much Wyrd they will draw.

A policy sees a :class:`Situation` (one challenge about to be faced: its value,
the characters who could put points in, the Wyrd the scene pool could still give)
and answers with a :class:`Plan`: the lead, the points each character assigns
before the roll, and the most Wyrd the players will draw to rescue a failed roll.
The budget is fixed before the die is cast, so the chance of overcoming given the
plan is exact (:func:`wyrd.rules.odds.challenge_odds`) and the report can average exact
chances instead of counting coin flips.

The three named policies (``--policy``):

* ``cautious`` spends to make success certain, counting on at most one Wyrd point
  to cover a 1 on the die, when the characters can afford it (each keeps one
  point of the ability as a cushion against damage); it draws Wyrd to save a
  roll only while the lead's own Wyrd stays at 2 or less (4 in the finale scene,
  whose challenges decide the ending), as play shows the price beside the odds:
  every point drawn raises the chance of being held by the Vale at the finale
  (1 - (5/6)^W: 31% at 2, 52% at 4).
* ``bold`` spends only what gives an even chance with the whole pool behind the
  die, from the lead alone, and draws to save any roll the pool can save.
* ``random`` picks the lead, the points and the Wyrd budget with the run's own
  seeded generator.

Leads are the characters with most points in the challenge's ability (except for
``random``). A policy must be a picklable object (a dataclass) so that worker
processes can use it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from wyrd.rules.abacus import Ability, ChallengeType
from wyrd.rules.odds import SIDES, certain_points

__all__ = [
    "POLICIES",
    "Bold",
    "Cautious",
    "Fixed",
    "Member",
    "Plan",
    "Policy",
    "RandomPolicy",
    "Situation",
    "points_for",
    "policy_named",
]


@dataclass(frozen=True)
class Member:
    """A character who could take part: points left in the challenge's ability, personal Wyrd."""

    name: str
    points: int
    wyrd: int


@dataclass(frozen=True)
class Situation:
    """A challenge about to be faced, as the players see it.

    Attributes:
        challenge: The challenge's id in the scene.
        type: Its type (and so the ability whose points count).
        value: Its effective value now (stage rules included).
        pool: The Wyrd that could be drawn after a failed roll: the scene pool
            (after any price of attempting) plus defeated players' allowance.
        members: Characters present and standing, most points first (ties in cast order).
        left: Open challenges in the scene, this one included.
        finale: Whether the scene is the story's finale (its climax: the ending rides on it).
    """

    challenge: str
    type: ChallengeType
    value: int
    pool: int
    members: tuple[Member, ...]
    left: int
    finale: bool = False

    @property
    def ability(self) -> Ability:
        return self.type.ability


@dataclass(frozen=True)
class Plan:
    """What the players do: the lead, points assigned before the roll, the Wyrd they will draw."""

    lead: str
    spend: tuple[tuple[str, int], ...] = ()
    draw_up_to: int = 0

    @property
    def points(self) -> int:
        return sum(n for _, n in self.spend)


class Policy(Protocol):
    """Anything with a name that turns a situation into a plan (using only ``rng`` for chance)."""

    @property
    def name(self) -> str: ...

    def plan(self, at: Situation, rng: random.Random) -> Plan: ...


def points_for(value: int, chance: Fraction, pool: int) -> int:
    """The fewest points giving at least ``chance`` of overcoming ``value`` with ``pool`` Wyrd behind the die.

    The closed form of :func:`wyrd.rules.odds.challenge_odds`: with ``p`` points the faces
    that win, drawing up to ``pool`` after the roll, are those at or above
    ``value - p - pool``, so ``ceil(6 * chance)`` winning faces need
    ``p = value - pool - 7 + ceil(6 * chance)`` (0 at least; a chance over 1 is treated as 1).
    """
    faces = min(SIDES, max(0, math.ceil(chance * SIDES)))
    return max(0, value - pool - (SIDES + 1) + faces) if faces else 0


def spread(at: Situation, lead: str, points: int, keep: int, helpers: bool) -> tuple[tuple[str, int], ...]:
    """Share ``points`` out: the lead first, then (with ``helpers``) the others, most points first.

    Each character keeps ``keep`` points; what nobody can give is left out.
    """
    order = [m for m in at.members if m.name == lead]
    if helpers:
        order += [m for m in at.members if m.name != lead]
    out: list[tuple[str, int]] = []
    for member in order:
        if points <= 0:
            break
        give = min(points, max(0, member.points - keep))
        if give:
            out.append((member.name, give))
            points -= give
    return tuple(out)


def _top(at: Situation) -> str:
    return at.members[0].name


@dataclass(frozen=True)
class Cautious:
    """Spend for certainty (one Wyrd point allowed for) when affordable; draw to save a roll only
    while the lead's own Wyrd stays at ``wyrd_cap`` or less (the finale's price, shown in play)."""

    keep: int = 1
    wyrd_cap: int = 2
    # at the story's climax the ending rides on each roll: a careful party pays more for it
    finale_cap: int = 4
    name: str = "cautious"

    def plan(self, at: Situation, rng: random.Random) -> Plan:
        lead = _top(at)
        cap = self.finale_cap if at.finale else self.wyrd_cap
        allowance = min(at.pool, max(0, cap - at.members[0].wyrd))
        want = certain_points(at.value, pool=min(allowance, 1))
        return Plan(lead, spread(at, lead, want, self.keep, helpers=True), draw_up_to=allowance)


@dataclass(frozen=True)
class Bold:
    """Spend only for an even chance with the whole pool behind the die; draw to save any roll."""

    chance: Fraction = Fraction(1, 2)
    name: str = "bold"

    def plan(self, at: Situation, rng: random.Random) -> Plan:
        lead = _top(at)
        want = points_for(at.value, self.chance, at.pool)
        return Plan(lead, spread(at, lead, want, 0, helpers=False), draw_up_to=at.pool)


@dataclass(frozen=True)
class RandomPolicy:
    """A random lead, a random number of points (never more than certainty needs), a random Wyrd budget."""

    name: str = "random"

    def plan(self, at: Situation, rng: random.Random) -> Plan:
        lead = rng.choice(at.members).name
        have = sum(m.points for m in at.members)
        points = rng.randint(0, min(have, max(0, at.value - 1)))
        return Plan(lead, spread(at, lead, points, 0, helpers=True), draw_up_to=rng.randint(0, at.pool))


@dataclass(frozen=True)
class Fixed:
    """Always the same: ``points`` from the lead (as far as they go) and at most ``draw_up_to`` Wyrd."""

    points: int = 0
    draw_up_to: int = 0
    name: str = "fixed"

    def plan(self, at: Situation, rng: random.Random) -> Plan:
        lead = _top(at)
        return Plan(lead, spread(at, lead, self.points, 0, helpers=False), min(self.draw_up_to, at.pool))


POLICIES: dict[str, Policy] = {"cautious": Cautious(), "bold": Bold(), "random": RandomPolicy()}
"""The policies ``wyrd simulate --policy`` offers, by name."""


def policy_named(name: str) -> Policy:
    """The named policy (KeyError listing the names if there is none)."""
    try:
        return POLICIES[name]
    except KeyError:
        raise KeyError(f"no policy {name!r}; the policies are: {', '.join(POLICIES)}") from None
