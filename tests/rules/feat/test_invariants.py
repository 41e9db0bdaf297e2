"""Invariants of Heroes of the Fall under random play (hypothesis).

Random programs of actions with random arguments (many of them refused) run on
seeded dice. After every action:

* a refused action (RuleError) leaves the state equal (== and model_dump) and the
  dice where they were (rules/actions.py: the safe-action wrapper);
* Wyrd points never go negative and Mettle stays 0..9; a character with Mettle 0
  is dead (seed 003);
* every ``feat_rolled`` agrees with the Feat table: its level is in -8..+8, it
  reads 1, 2 or 3 dice (RULES.md), and its success is what the table says;
* the Wyrd spent is 5 per bought 8 (RULES.md [pub]) and matches what left the sheet;
* the same seed and the same actions give the same events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.feat import (
    Attribute,
    GameState,
    Skill,
    add_character,
    attribute_feat,
    award,
    feat,
    first_to_act,
    initiative,
    opposed,
    race,
    reaction,
    recover,
    search,
    shock,
    skill_feat,
    survive,
    wound,
)
from wyrd.rules.feat.events import FeatRolled
from wyrd.rules.feat.table import read_feat
from wyrd.rules.testing import try_action

NAMES = ["Ada", "Bram", "Cora", "Nobody"]
TRAITS = ["climbing", "lore", "wit", "swimming", "vigour", ""]
ATTRS = list(Attribute)
V, M, W, G, S = ATTRS

small = st.integers(min_value=-2, max_value=14)
names = st.sampled_from(NAMES)
traits = st.sampled_from(TRAITS)
attributes = st.sampled_from(ATTRS)
bought = st.integers(min_value=-1, max_value=4)

STEPS: list[st.SearchStrategy[tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]]] = [
    st.tuples(st.just(skill_feat), st.tuples(names, traits, small),
              st.fixed_dictionaries({"eights": bought, "attribute": st.none() | attributes})),
    st.tuples(st.just(feat), st.tuples(names, st.integers(min_value=-10, max_value=10)),
              st.fixed_dictionaries({"eights": bought})),
    st.tuples(st.just(attribute_feat), st.tuples(names, attributes, small), st.fixed_dictionaries({"eights": bought})),
    st.tuples(st.just(opposed), st.tuples(names, names, traits),
              st.fixed_dictionaries({"opposing": st.none() | traits, "extra": small, "eights": bought})),
    st.tuples(st.just(shock), st.tuples(names), st.fixed_dictionaries({"eights": bought})),
    st.tuples(st.just(survive), st.tuples(names, small), st.fixed_dictionaries({})),
    st.tuples(st.just(wound), st.tuples(names, st.integers(min_value=-1, max_value=4)), st.fixed_dictionaries({})),
    st.tuples(st.just(recover), st.tuples(names), st.fixed_dictionaries({})),
    st.tuples(st.just(search), st.tuples(names, st.sampled_from(["key", "door", ""]), small),
              st.fixed_dictionaries({"again": st.booleans()})),
    st.tuples(st.just(reaction), st.tuples(names, small), st.fixed_dictionaries({})),
    st.tuples(st.just(initiative), st.tuples(st.lists(names, max_size=3)), st.fixed_dictionaries({})),
    st.tuples(st.just(first_to_act), st.tuples(names, names), st.fixed_dictionaries({"eights": bought})),
    st.tuples(st.just(race), st.tuples(names, names), st.fixed_dictionaries({"long": st.booleans()})),
    st.tuples(st.just(award), st.tuples(names, st.integers(min_value=-1, max_value=6)), st.fixed_dictionaries({})),
]
programs = st.lists(st.one_of(*STEPS), max_size=25)


def start(dice: Dice) -> GameState:
    state = GameState()
    cast = [
        ("Ada", {V: 6, M: 5, W: 5, G: 5, S: 4}, {"climbing": Skill(attribute=V, ranks=3)}),
        ("Bram", {V: 7, M: 2, W: 4, G: 4, S: 8}, {"lore": Skill(attribute=W, ranks=1)}),
        ("Cora", {V: 4, M: 5, W: 7, G: 6, S: 3}, {}),
    ]
    for name, attrs, skills in cast:
        state = add_character(state, dice, name, attrs, skills=skills, tier=None, wyrd=10).state
    return state


def check(state: GameState, before: GameState, events: list[Event]) -> None:
    for char in state.characters.values():
        assert char.wyrd >= 0
        assert 0 <= char.attributes[M] <= 9
        if char.attributes[M] == 0:
            assert char.dead
    spent: dict[str, int] = {}
    for event in events:
        if isinstance(event, FeatRolled):
            assert -8 <= event.level <= 8 and len(event.read) in (1, 2, 3)
            redo = read_feat(event.level, event.dice, len(event.bought))
            assert redo.success == event.success and list(redo.read) == event.read
            assert event.wyrd_spent == 5 * len(event.bought)
            spent[event.character] = spent.get(event.character, 0) + event.wyrd_spent
    for name, n in spent.items():
        gained = sum(getattr(e, "n", 0) for e in events if getattr(e, "kind", "") == "wyrd_awarded")
        assert before.characters[name].wyrd - n + gained == state.characters[name].wyrd


def play(seed: int, program: list[Any]) -> list[Event]:
    dice = Dice.seeded(seed)
    state = start(dice)
    log: list[Event] = []
    for action, args, kwargs in program:
        out = try_action(state, dice, action, *args, keep_given=False, **kwargs)
        if isinstance(out, RuleError):  # try_action checked it left no trace
            continue
        check(out.state, state, out.events)
        state = out.state
        log.extend(out.events)
    return log


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=2**32), programs)
def test_random_play(seed: int, program: list[Any]) -> None:
    """Refused actions change nothing; sheets stay in range; feats agree with the table; replaying
    the same seed gives the same events."""
    first = play(seed, program)
    again = play(seed, program)
    assert [e.model_dump() for e in first] == [e.model_dump() for e in again]
