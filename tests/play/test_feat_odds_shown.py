"""Issue 17, items 3 and 11 (Heroes of the Fall): the odds shown before a roll are the odds of the roll made.

For random characters (attributes, trained and untrained skills, ratings as written, Wyrd to buy
8s, Edges of speed) and random rolling commands (`try`, `feat`, `test`, `oppose`, `search`, `react`,
`shock`, `survive`, `fatigue`, `first`, `race`, bought 8s included), the ``odds_shown`` event a
verb puts before its dice must equal the exact chance got by running that very verb, as the
session runs it, over every face of its dice:

* every face of each d100 is run, and the faces are grouped by the step-up they give (the
  event the die leads to: stepped or not, the level left); the two d100s of an opposed feat
  are separate dice, so their groups combine as independent dice do;
* for each combination of groups, every one of the 8^3 ways the three d8 can fall is run.

Success is the one the command settles: the opposed feat won, the Feat table's success, or acting
first. The sample is fixed (derandomized), so the test never depends on chance or on a clock.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import wyrd.play.kits.feat.kit  # noqa: F401  (registers every feat verb)
import wyrd.rules.feat as F
from wyrd.play.kits.feat.verbs import EDITION, VERBS, FeatVerb, OddsShown
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice, DiceExhausted, ScriptedSource
from wyrd.rules.errors import RuleError
from wyrd.rules.feat import Attribute, GameState, Skill, SkillRating

ATTRS = [a.value for a in Attribute]
D8S = list(product(range(1, 9), repeat=3))


@st.composite
def skills(draw: st.DrawFn) -> dict[str, Skill]:
    if not draw(st.booleans()):
        return {}
    attribute = Attribute(draw(st.sampled_from(ATTRS)))
    if draw(st.booleans()):
        rating = SkillRating(level=draw(st.integers(0, 9)), modifier=draw(st.integers(1, 99)))
        return {"craft": Skill(attribute=attribute, rating=rating)}
    return {"craft": Skill(attribute=attribute, ranks=draw(st.integers(0, 6)))}


@st.composite
def games(draw: st.DrawFn) -> GameState:
    state = GameState()
    for name in ("Ann", "Bo"):
        values = {a: draw(st.integers(1 if a is Attribute.METTLE else 0, 9)) for a in Attribute}
        state = F.add_character(state, Dice(), name, values, skills=draw(skills()), tier=None,
                                wyrd=draw(st.one_of(st.just(20), st.integers(0, 20))),
                                edges=[F.Edge.SPEED] if draw(st.integers(0, 3)) else []).state
    return state


def _common(draw: st.DrawFn) -> dict[str, Any]:
    return {"eights": draw(st.integers(0, 3)), "faces": [], "edition": EDITION}


KINDS = ["try", "feat", "test", "oppose", "search", "react", "shock", "survive", "fatigue", "first", "race"]


@st.composite
def commands(draw: st.DrawFn, kind: str) -> tuple[str, dict[str, Any]]:
    difficulty = draw(st.integers(0, 16))
    base = {"who": "Ann", **_common(draw)}
    if kind == "try":
        skill = draw(st.sampled_from(["craft", "sailing", *ATTRS]))
        attribute = draw(st.sampled_from(ATTRS)) if skill == "sailing" else None
        return kind, {**base, "skill": skill, "difficulty": difficulty, "attribute": attribute}
    if kind == "feat":
        return kind, {**base, "level": draw(st.integers(-8, 8)), "text": ""}
    if kind == "test":
        return kind, {**base, "attribute": draw(st.sampled_from(ATTRS)), "difficulty": difficulty}
    if kind == "oppose":
        return kind, {**base, "target": "Bo", "skill": draw(st.sampled_from(["craft", "wit", "vigour"])),
                      "opposing": draw(st.sampled_from([None, "craft", "wit", "glamour"])),
                      "extra": draw(st.integers(-3, 3)), "attribute": "vigour"}
    if kind == "search":
        return kind, {**base, "thing": "the key", "difficulty": difficulty, "again": False}
    if kind in ("react", "survive"):
        return kind, {**base, "difficulty": difficulty, "text": ""}
    if kind == "shock":
        return kind, {**base, "difficulty": difficulty}
    if kind == "fatigue":
        return kind, {**base, "difficulty": difficulty, "encumbered": draw(st.booleans()), "text": ""}
    if kind == "first":
        edges = draw(st.sampled_from([[], ["Ann"], ["Bo"], ["Ann", "Bo"]]))
        return kind, {**base, "other": "Bo", **({"edges": edges} if edges else {})}
    return kind, {**base, "rival": "Bo", "long": draw(st.booleans())}


def run(verb: FeatVerb, state: GameState, args: Mapping[str, Any], faces: Sequence[int]) -> list[Event]:
    return list(verb.apply(state, Dice(ScriptedSource(faces)), args).events)


def succeeded(events: Sequence[Event], who: str) -> bool:
    """What the command settles for ``who``: an opposed feat won, a feat made, or acting first."""
    for event in reversed(events):
        if isinstance(event, F.events.OpposedDecided):
            return event.success
        if isinstance(event, F.events.InitiativeDecided):
            return event.order[0] == who
        if isinstance(event, F.events.FeatRolled):
            return event.success
    raise AssertionError(f"nothing settled in {[e.kind for e in events]}")


def d100s(verb: FeatVerb, args: Mapping[str, Any], state: GameState) -> int | None:
    """How many d100s the command rolls before its three d8 (None if it is refused; -3 if it rolls nothing)."""
    try:
        run(verb, state, args, [])
        return -3  # settled with no dice (an Edge of speed)
    except DiceExhausted:
        pass
    except RuleError:
        return None
    for n in range(3):
        try:
            run(verb, state, args, [1] * (n + 3))
        except DiceExhausted:
            continue
        except RuleError:
            return None
        return n
    raise AssertionError("a feat rolls at most two d100s before its three d8")


def exact(verb: FeatVerb, state: GameState, args: Mapping[str, Any]) -> Fraction:
    """The chance of success, running the verb over every face of its dice."""
    n = d100s(verb, args, state)
    assert n is not None
    if n < 0:
        return Fraction(succeeded(run(verb, state, args, []), "Ann"))
    # Each d100 is its own die: every face of die i is run (the others at 1) and grouped by the
    # step-up it gives; the groups of the dice then combine as independent dice do.
    classes: list[dict[str, tuple[int, int]]] = []
    for i in range(n):
        found: dict[str, tuple[int, int]] = {}
        for face in range(1, 101):
            prefix = [1] * n
            prefix[i] = face
            steps = [e for e in run(verb, state, args, [*prefix, 1, 1, 1]) if isinstance(e, F.events.StepUpRolled)]
            key = repr(steps[i].model_copy(update={"d100": 0}))  # what the face gave, not the face
            first, count = found.get(key, (face, 0))
            found[key] = (first, count + 1)
        classes.append(found)
    total = Fraction(0)
    for combo in product(*(list(c.values()) for c in classes)):
        prefix = [face for face, _ in combo]
        weight = Fraction(1)
        for _, count in combo:
            weight *= Fraction(count, 100)
        wins = sum(succeeded(run(verb, state, args, [*prefix, *d8]), "Ann") for d8 in D8S)
        total += weight * Fraction(wins, len(D8S))
    return total


@pytest.mark.parametrize("kind", KINDS)
def test_the_odds_shown_are_the_odds_of_the_roll(kind: str) -> None:
    @settings(max_examples=10, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
    @given(state=games(), command=commands(kind))
    def check(state: GameState, command: tuple[str, dict[str, Any]]) -> None:
        shown_equals_exact(state, *command)

    check()


def shown_equals_exact(state: GameState, key: str, args: dict[str, Any]) -> None:
    verb = VERBS.verbs()[key]
    assert isinstance(verb, FeatVerb)
    n = d100s(verb, args, state)
    assume(n is not None)  # refused (Wyrd short, an opponent to name): nothing is shown, nothing rolled
    assert n is not None
    events = run(verb, state, args, [50] * n + [1, 1, 1] if n >= 0 else [])
    shown = events[0]
    assert isinstance(shown, OddsShown)
    assert Fraction(shown.p_success) == exact(verb, state, args), (key, args)
