"""Wolden at play as its text decides: the odds shown are the roll's, and passing in a fight is not safe.

Seed 001 (001_0ed33d63b95f167b.txt): "Assemble your dice pool (maximum 4d12). Take 1d12 to begin with. If you
have a relevant gift ... add 1d12. ... If someone helps you, add 1d12 for each person who does so". The odds
shown before a roll must come from the pool and ability the roll will use: checked here for random gifts,
advantages, helpers (past the cap too) and ability damage, against the exact chances found by running the
real roll action over every face of the pool.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import wyrd.rules.wolden as W
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.wolden.kit import odds_lines
from wyrd.rules.dice import Dice, ScriptedSource
from wyrd.rules.wolden.events import CheckRolled
from wyrd.rules.wolden.odds import pending_odds

OWLS = W.Cult(
    id="owls", name="Owls", gifts=[W.Gift(id="hush", name="Hush"), W.Gift(id="keen-ears", name="Keen Ears")],
    powers=W.RollTable[W.PowerRow](die=1, rows=[W.PowerRow(low=1, high=1, gift=W.Gift(id="glide", name="Glide"))]),
    carousing=W.RollTable[W.CarouseRow](die=1, rows=[W.CarouseRow(low=1, high=1, id="quiet")]),
    equipment=[W.Item(id="lamp", name="Lamp")],
)
NAMES = ("Ada", "Bram", "Cora", "Dot", "Eli")
LABELS = {"critical failure": W.Result.CRITICAL_FAILURE, "failure": W.Result.FAILURE, "partial": W.Result.PARTIAL,
          "success": W.Result.SUCCESS, "critical success": W.Result.CRITICAL_SUCCESS}


def table(scores: list[tuple[int, int, int, int]], damage: list[int]) -> W.GameState:
    state = W.install(W.GameState(), Dice(ScriptedSource()), [OWLS]).state
    for name, (might, agility, mind, graces), hurt in zip(NAMES, scores, damage, strict=True):
        sheet = W.Character(name=name, cult="owls", gifts=list(OWLS.gifts),
                            scores={W.Ability.MIGHT: might, W.Ability.AGILITY: agility, W.Ability.MIND: mind,
                                    W.Ability.GRACES: graces})
        sheet.damage[W.Ability.MIGHT] = min(hurt, might)
        state = W.enlist(state, Dice(ScriptedSource()), sheet).state
    return state


def shown(state: W.GameState) -> dict[W.Result, Fraction]:
    """The chances the players read on the odds line."""
    line = odds_lines(state)[0]
    # Issue 18, point 4: a percentage first, the exact fraction after it in brackets (none for 0% or 100%)
    found = re.findall(r"(critical failure|failure|partial|critical success|success) "
                       r"(\d+(?:\.\d)?)%(?: \((\d+/\d+)\))?", line)
    return {LABELS[k]: Fraction(exact) if exact else Fraction(int(float(pc)), 100) for k, pc, exact in found}


def exact(state: W.GameState) -> dict[W.Result, Fraction]:
    """Every face of the open pool through the real roll action, each multiset weighted by its orderings."""
    assert state.pending is not None
    dice = state.pending.dice
    tally: Counter[W.Result] = Counter()
    for faces in combinations_with_replacement(range(1, W.SIDES + 1), dice):
        orderings = factorial(dice)
        for n in Counter(faces).values():
            orderings //= factorial(n)
        # the same multiset in any order reads alike: roll one ordering, count them all
        events = W.roll(state, Dice(ScriptedSource(list(faces)))).events
        rolled = next(e for e in events if isinstance(e, CheckRolled))
        assert sorted(rolled.faces) == sorted(faces)
        tally[rolled.result] += orderings
    total = W.SIDES**dice
    return {result: Fraction(tally[result], total) for result in W.Result}


abilities = st.tuples(*[st.integers(0, 5)] * 4)


@settings(max_examples=20, deadline=None)
@given(scores=st.lists(abilities, min_size=5, max_size=5), damage=st.lists(st.integers(0, 3), min_size=5,
                                                                             max_size=5),
       ability=st.sampled_from(list(W.Ability)), gift=st.sampled_from([None, "hush", "keen-ears"]),
       advantage=st.booleans(), helpers=st.lists(st.sampled_from(NAMES[1:]), max_size=4, unique=True))
def test_the_odds_shown_are_the_odds_of_the_roll(scores: list[tuple[int, int, int, int]], damage: list[int],
                                                 ability: W.Ability, gift: str | None, advantage: bool,
                                                 helpers: list[str]) -> None:
    """The shown probability of each result equals the exact one of running `roll` over every face."""
    state = table(scores, damage)
    state = W.attempt(state, Dice(ScriptedSource()), "Ada", ability, gift=gift, advantage=advantage,
                      helpers=helpers).state
    assert state.pending is not None and state.pending.dice <= W.MAX_DICE
    odds = pending_odds(state)
    assert odds is not None
    truth = exact(state)
    assert {r: odds.p(r) for r in W.Result} == truth
    assert shown(state) == truth


def _events(console: Console, line: str) -> list[dict[str, Any]]:
    return console.handle(line).events


def test_passing_in_a_fight_takes_the_blow_at_play() -> None:
    """Seed 001: "it is taken as granted that they're at the same time trying to avoid any attacks on them":
    whoever passes makes no such attempt, so the enemy going for them this round strikes them."""
    session = Session.new(None, seed=4, ruleset="wolden")
    console = Console(session)
    console.handle("pc add Ada lantern-wardens might=3 agility=2 mind=1 graces=0 gifts=steady-flame,roadwise")
    console.handle("pc add Bo brine-choir might=0 agility=1 mind=2 graces=3")
    events = _events(console, "fight wolf:2")
    target = next(e["target"] for e in events if e["kind"] == "enemy_acted")
    other = "Bo" if target == "Ada" else "Ada"
    assert [e["kind"] for e in _events(console, f"pass {other}")] == ["turn_passed"]
    passed = _events(console, f"pass {target}")
    struck = [e for e in passed if e["kind"] == "struck"]
    assert struck and struck[0]["source"] == "wolf" and struck[0]["character"] == target
    assert any(e["kind"] == "harm_taken" and e["ability"] == "agility" for e in passed)
