"""Invariants of Wolden under random play (hypothesis).

Random programs of actions with random arguments (many of them refused) run from a random seed
with the test cults. After every action:

* no ability score below 0 or past 5 (RULES.md [ours]); ability damage within 0..score; wounds and
  slots never negative; gifts and wounds never take more slots than there are (RULES.md [ours]: a wound
  with no slot takes the character out instead);
* an open extended challenge's rating stays within 1..(twice its start - 1) (seed 001: done at 0;
  RULES.md [ours]: lost at twice the start); an enemy's harm within 0..its capacity; a pool of 1 to 4 d12;
  who has acted this round is among the participants;
* a refused action (RuleError) leaves the state equal (== and model_dump) and the dice where they were;
* an action never changes the state it was given;
* the same seed and the same actions give the same events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.testing import try_action
from wyrd.rules.wolden import (
    Ability,
    Character,
    Cult,
    DamageDice,
    DowntimeChoice,
    Enemy,
    Extended,
    Fight,
    GameState,
    Gift,
    Item,
    PowerRow,
    RollTable,
    Situation,
    abandon,
    add_character,
    attempt,
    cancel,
    check,
    downtime,
    end_fight,
    harm,
    install,
    new_session,
    pass_turn,
    roll,
    start_extended,
    start_fight,
    start_montage,
    wound,
)
from wyrd.rules.wolden.cults import CarouseRow

NAMES = ["Ada", "Bram", "Cora"]
SPREADS = [(3, 2, 1, 0), (0, 1, 2, 3), (2, 3, 0, 1)]
ABILITIES = list(Ability)
ITEMS = ["cloak", "flute", "nothing"]

CULT = Cult(
    id="owls", name="Owls", gifts=[Gift(id="hush", name="Hush"), Gift(id="ears", name="Ears")],
    powers=RollTable[PowerRow](die=3, rows=[PowerRow(low=1, high=1, gift=Gift(id="glide", name="Glide")),
                                            PowerRow(low=2, high=2, gift=Gift(id="call", name="Call")),
                                            PowerRow(low=3, high=3, gift=Gift(id="moon", name="Moon", slots=2))]),
    equipment=[Item(id="cloak", name="Cloak"), Item(id="flute", name="Flute")],
    carousing=RollTable[CarouseRow](die=4, rows=[
        CarouseRow(low=1, high=1, id="quiet"), CarouseRow(low=2, high=2, id="trick", gift=Gift(id="step", name="S")),
        CarouseRow(low=3, high=3, id="dance", ability=Ability.AGILITY), CarouseRow(low=4, high=4, id="brawl", wounds=3),
    ]),
)
SITUATIONS = [Situation(id=f"s{i}") for i in range(4)]

who = st.integers(0, 3)  # 3 is nobody of that name
ability = st.sampled_from(ABILITIES)
roll_args = st.tuples(who, ability, st.booleans(), st.booleans(), st.lists(who, max_size=3),
                      st.sampled_from(["none", "encounter", "enemy0", "enemy1", "wrong"]), st.booleans())

steps = st.one_of(
    st.tuples(st.just("check"), roll_args),
    st.tuples(st.just("check"), roll_args),
    st.tuples(st.just("attempt"), roll_args),
    st.tuples(st.just("roll")),
    st.tuples(st.just("cancel")),
    st.tuples(st.just("extended"), st.integers(-1, 12), st.booleans(), st.booleans(), st.lists(who, max_size=3),
              st.booleans()),
    st.tuples(st.just("fight"), st.integers(0, 3), st.lists(who, max_size=3), st.integers(1, 6)),
    st.tuples(st.just("pass"), who),
    st.tuples(st.just("abandon")),
    st.tuples(st.just("end_fight")),
    st.tuples(st.just("harm"), who, ability, st.integers(-1, 7)),
    st.tuples(st.just("wound"), who, st.integers(-1, 3)),
    st.tuples(st.just("downtime"), who, st.sampled_from(list(DowntimeChoice)), st.sampled_from([None, *ITEMS])),
    st.tuples(st.just("session")),
)


def translate(step: tuple[Any, ...], state: GameState) -> tuple[Callable[..., Any], tuple[Any, ...], dict[str, Any]]:
    def name(i: int) -> str:
        return NAMES[i] if i < len(NAMES) else "Nobody"

    kind = step[0]
    if kind in ("check", "attempt"):
        lead, ab, gift, advantage, helpers, mode, attack = step[1]
        encounter = state.encounter
        against: str | None = None
        if mode == "encounter" and encounter is not None:
            against = encounter.id
        elif mode.startswith("enemy") and isinstance(encounter, Fight):
            ids = sorted(encounter.enemies)
            against = ids[int(mode[-1]) % len(ids)]
        elif mode.startswith("target") and encounter is not None:  # whatever the encounter takes
            ids = sorted(encounter.enemies) if isinstance(encounter, Fight) else [encounter.id]
            against = ids[int(mode[-1]) % len(ids)]
        elif mode == "wrong":
            against = "wrong"
        kwargs = {"gift": "hush" if gift else None, "advantage": advantage,
                  "helpers": [name(i) for i in helpers], "against": against, "attack": attack}
        return (check if kind == "check" else attempt), (name(lead), ab), kwargs
    if kind in ("roll", "cancel", "abandon", "end_fight", "session"):
        return {"roll": roll, "cancel": cancel, "abandon": abandon, "end_fight": end_fight,
                "session": new_session}[kind], (), {}
    if kind == "extended":
        _, rating, montage, per_check, people, dangerous = step
        kwargs = {"participants": [name(i) for i in people], "danger": DamageDice() if dangerous else None}
        if montage:
            return start_montage, ("Trip", rating, SITUATIONS), {**kwargs, "per_check": per_check}
        return start_extended, ("Gate", rating), kwargs
    if kind == "fight":
        _, count, people, capacity = step
        enemies = [Enemy(id=f"e{i}", name=f"E{i}", harm=capacity) for i in range(count)]
        return start_fight, (enemies,), {"participants": [name(i) for i in people]}
    if kind == "pass":
        return pass_turn, (name(step[1]),), {}
    if kind == "harm":
        return harm, (name(step[1]), step[2], step[3]), {}
    if kind == "wound":
        return wound, (name(step[1]), step[2]), {}
    if kind == "downtime":
        _, i, choice, item = step
        return downtime, (name(i), choice), {"item": item}
    raise AssertionError(kind)


def peek(dice: Dice) -> int:
    """The face the next d12 will show, without moving the dice."""
    mark = dice.mark()
    face = dice.roll(1, 12, "peek").faces[0]
    dice.rewind(mark)
    return face


def check_character(char: Character) -> None:
    for a in Ability:
        assert 0 <= char.scores[a] <= 5, (char.name, a)
        assert 0 <= char.damage[a] <= char.scores[a], (char.name, a)
        assert char.current(a) >= 0
    assert char.wounds >= 0
    assert char.slots >= 4
    assert char.free_slots >= 0


def check_state(state: GameState) -> None:
    for char in state.characters.values():
        check_character(char)
    encounter = state.encounter
    if isinstance(encounter, Extended):
        assert 1 <= encounter.rating < 2 * encounter.start
    if isinstance(encounter, Fight):
        assert all(0 <= e.taken <= e.harm for e in encounter.enemies.values())
        assert encounter.standing
    if encounter is not None:
        assert set(encounter.rounds.acted) <= set(encounter.rounds.participants)
        assert any(not state.characters[n].out for n in encounter.rounds.participants)
    if state.pending is not None:
        assert 1 <= state.pending.dice <= 4


def run(seed: int, program: list[tuple[Any, ...]]) -> list[Any]:
    dice = Dice.seeded(seed)
    state = install(GameState(), dice, [CULT]).state
    for n, (might, agility, mind, graces) in zip(NAMES, SPREADS, strict=True):
        state = add_character(state, dice, n, "owls", might=might, agility=agility, mind=mind, graces=graces).state
    log: list[Any] = []
    for step in program:
        action, args, kwargs = translate(step, state)
        next_face = peek(dice)
        out = try_action(state, dice, action, *args, **kwargs)  # checks a refusal left no trace
        if isinstance(out, RuleError):
            assert peek(dice) == next_face
            log.append(("refused", out.rule))
            continue
        state = out.state
        check_state(state)
        assert all(e.model_dump()["kind"] for e in out.events)
        log.append([e.model_dump(mode="json") for e in out.events])
    return log


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), program=st.lists(steps, min_size=5, max_size=60))
def test_invariants_hold_and_runs_repeat(seed: int, program: list[tuple[Any, ...]]) -> None:
    """Seed 001 / RULES.md / DESIGN.md invariants under random play, and the same events from the same seed."""
    assert run(seed, program) == run(seed, program)


# Denser play: an encounter is started, then many rolls against it, by characters who exist.
busy_roll = st.tuples(st.integers(0, 2), ability, st.booleans(), st.booleans(),
                      st.lists(st.integers(0, 2), max_size=2, unique=True),
                      st.sampled_from(["target0", "target1"]), st.booleans())
encounter_play = st.tuples(
    st.one_of(st.tuples(st.just("extended"), st.integers(1, 10), st.booleans(), st.booleans(), st.just([]),
                        st.booleans()),
              st.tuples(st.just("fight"), st.integers(1, 2), st.just([]), st.integers(1, 4))),
    st.lists(st.one_of(st.tuples(st.just("check"), busy_roll), st.tuples(st.just("pass"), st.integers(0, 2))),
             min_size=3, max_size=25),
).map(lambda p: [p[0], *p[1]])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), chunks=st.lists(encounter_play, min_size=1, max_size=4),
       rest=st.lists(st.tuples(st.just("downtime"), who, st.sampled_from(list(DowntimeChoice)),
                               st.sampled_from([None, *ITEMS])), max_size=3))
def test_invariants_in_busy_encounters(seed: int, chunks: list[list[tuple[Any, ...]]],
                                       rest: list[tuple[Any, ...]]) -> None:
    """The same invariants through whole challenges and fights, with downtime between them."""
    program: list[tuple[Any, ...]] = []
    for chunk in chunks:
        program += [*chunk, ("abandon",), ("end_fight",), *rest, ("session",)]
    assert run(seed, program) == run(seed, program)
