"""Invariants of the Wyrd Abacus under random play (hypothesis).

Random programs of actions with random arguments (many of them refused) run from
a random seed, with a random cast and, sometimes, the published stage rules in
play. After every action:

* current points stay within 0..score (seed 000: the score is the maximum);
  personal Wyrd never goes negative;
* the scene pool stays within 0..its start (present + 1), the defeated player's
  allowance within 0..2;
* conservation (seed 000 / RULES.md: every scene Wyrd point drawn moves into the
  drawer's personal pool; a defeated player's points go to no pool): the Wyrd
  drawn in the events equals what left the scene pool and what the personal
  pools gained, or what left the allowance;
* a refused action (RuleError) leaves the state equal (== and model_dump) and
  the dice where they were (the next roll shows the same face);
* the same seed and the same actions give the same events.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wyrd.rules.abacus import (
    Ability,
    Casting,
    ChallengeSpec,
    ChallengeType,
    Clock,
    Counter,
    Denizen,
    Effect,
    EffectKind,
    GameState,
    Lasts,
    MagicForm,
    Match,
    Needs,
    StageRule,
    Target,
    Template,
    TemplateKind,
    Threshold,
    Trigger,
    TriggerKind,
    accept,
    add_challenge,
    add_character,
    attempt,
    cast,
    contest,
    draw,
    end_scene,
    finale,
    harm,
    influence,
    install,
    rest,
    roll,
    sabotage,
    scratch_out,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import SceneEnded, SceneStarted, WyrdDrawn
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.testing import try_action

NAMES = ["Ada", "Bram", "Cora", "Dot"]
SPREADS = [(b, m, 15 - b - m) for b in range(3, 10) for m in range(3, 10) if 3 <= 15 - b - m <= 9]
ABILITIES = list(Ability)
TYPES = list(ChallengeType)

STORY: dict[str, Any] = {
    "clocks": [
        Clock(id="devil", name="Devil's Due", faces=[6],
              thresholds=[Threshold(at=3, effects=[Effect(do=EffectKind.PLACE, challenge="fiend")])]),
        Clock(id="beast", name="Beast", scene_end_only=True,
              thresholds=[Threshold(at=2, effects=[Effect(do=EffectKind.DAMAGE, n=1,
                                                          target=Target.SINGLED_OUT)])]),
    ],
    "counters": [Counter(id="kills", name="Kill Count", value=1)],
    "denizens": [Denizen(id="hound", name="Hound", needs=Needs.ANY)],
    "catalogue": [ChallengeSpec(id="fiend", name="Fiend", type=ChallengeType.THREAT, value=8)],
    "rules": [
        StageRule(id="bloody", name="Bloody",
                  trigger=Trigger(on=TriggerKind.DAMAGE, match=Match(type=ChallengeType.THREAT)),
                  effects=[Effect(do=EffectKind.DAMAGE, target=Target.OTHER)]),
        StageRule(id="shutters", name="Close the Shutters",
                  trigger=Trigger(match=Match(type=ChallengeType.PRESSURE)),
                  effects=[Effect(do=EffectKind.ATTEMPT_COST, n=1)]),
        StageRule(id="killer", name="Killer",
                  trigger=Trigger(on=TriggerKind.WYRD_ROLL, at_or_under="kills"),
                  effects=[Effect(do=EffectKind.DAMAGE, n=1, ability=Ability.SOUL)]),
        StageRule(id="count", name="Count", trigger=Trigger(on=TriggerKind.FAIL),
                  effects=[Effect(do=EffectKind.COUNTER, counter="kills", n=1)]),
        StageRule(id="boom", name="Boom",
                  trigger=Trigger(on=TriggerKind.WYRD_SIX,
                                  match=Match(type=ChallengeType.OBSTRUCTION, untackled=True)),
                  effects=[Effect(do=EffectKind.SCRATCH, ability=Ability.BODY)]),
        StageRule(id="damp", name="Damp",
                  trigger=Trigger(on=TriggerKind.SCENE_END,
                                  match=Match(type=ChallengeType.TAINT, untackled=True)),
                  effects=[Effect(do=EffectKind.DAMAGE, n=2, target=Target.PRESENT)]),
        StageRule(id="luck", name="Luck", lasts=Lasts.USES, uses=2,
                  effects=[Effect(do=EffectKind.ROLL_BONUS, n=1)]),
        StageRule(id="crash", name="Crash", trigger=Trigger(on=TriggerKind.FAIL,
                                                            match=Match(type=ChallengeType.PURSUIT)),
                  effects=[Effect(do=EffectKind.WYRD_ROLL, target=Target.INVOLVED)]),
    ],
}

# -- the action language ------------------------------------------------------------------

who = st.integers(0, 3)
ability = st.sampled_from(ABILITIES)
maybe_ability = st.one_of(st.none(), ability)
idx = st.integers(0, 9)

steps = st.one_of(
    st.tuples(st.just("start"), st.lists(who, min_size=0, max_size=4)),
    st.tuples(st.just("start-standing")),
    st.tuples(st.just("end"), st.dictionaries(who, ability, max_size=2),
              st.dictionaries(who, ability, max_size=1)),
    st.tuples(st.just("add"), st.sampled_from(TYPES), st.integers(-1, 12), st.booleans(),
              st.booleans()),
    st.tuples(st.just("attempt"), idx, who, st.lists(who, max_size=2)),
    st.tuples(st.just("spend"), who, st.integers(-1, 6), maybe_ability, st.one_of(st.none(), who)),
    st.tuples(st.just("servant"), st.integers(-1, 4)),
    st.tuples(st.just("roll")),
    st.tuples(st.just("roll")),
    st.tuples(st.just("draw"), who, st.integers(0, 4)),
    st.tuples(st.just("draw"), who, st.integers(1, 2)),
    st.tuples(st.just("accept")),
    st.tuples(st.just("harm"), who, ability, st.integers(0, 7)),
    st.tuples(st.just("scratch"), who, ability),
    st.tuples(st.just("wyrd"), st.lists(who, max_size=4)),
    st.tuples(st.just("influence"), ability, st.lists(who, max_size=3)),
    st.tuples(st.just("contest"), ability, who, who),
    st.tuples(st.just("sabotage"), who, idx, ability),
    st.tuples(st.just("cast"), st.sampled_from(list(MagicForm)), st.lists(who, min_size=1, max_size=2),
              ability, st.integers(0, 3), st.booleans()),
    st.tuples(st.just("rest"), who, ability),
)
# the steps above that keep a scene open
scene_only = steps.filter(lambda s: s[0] not in ("start", "start-standing", "end"))

TEMPLATES = {
    MagicForm.WARD: Template(kind=TemplateKind.WARD, type=ChallengeType.THREAT),
    MagicForm.CHARM: Template(kind=TemplateKind.CHARM, type=ChallengeType.LOGIC),
    MagicForm.SPELL: Template(kind=TemplateKind.SPELL_ABILITY, challenge="c0"),
    MagicForm.CONJURATION: Template(kind=TemplateKind.SERVANT, name="the thing"),
}


def translate(step: tuple[Any, ...], state: GameState, names: list[str]) -> tuple[Callable[..., Any],
                                                                                  tuple, dict]:
    """Turn a generated step into an action call on the current state."""
    kind = step[0]

    def name(i: int) -> str:
        return names[i % len(names)]

    scene = state.scene
    challenges = sorted(scene.challenges) if scene else []
    still_open = [c for c in challenges if scene and scene.challenges[c].status == "open"]
    present = list(scene.present) if scene else []

    def challenge(i: int, pick: list[str] = challenges) -> str:
        # mostly a challenge of the scene (an open one when it matters), now and
        # then a name that isn't there
        if i == 9 or not challenges:
            return "nope"
        pick = pick or challenges
        return pick[i % len(pick)]

    def lead(i: int) -> str:
        # mostly someone present, now and then anyone
        return present[i % len(present)] if present and i < 3 else name(i)

    if kind == "start":
        return start_scene, ([name(i) for i in step[1]],), {}
    if kind == "start-standing":  # everyone not defeated
        return start_scene, ([n for n in names if not state.characters[n].defeated],), {}
    if kind == "end":
        return end_scene, ({name(k): v for k, v in step[1].items()},
                           {name(k): v for k, v in step[2].items()}), {}
    if kind == "add":
        _, ctype, value, hound, after = step
        extra: dict[str, Any] = {"ident": f"c{len(challenges)}"}
        if hound:
            extra["denizen"] = "hound"
        if after and challenges:
            extra["after"] = [challenges[-1]]
        return add_challenge, (f"C{len(challenges)}", ctype, value), extra
    if kind == "attempt":
        helpers = [name(i) for i in step[3]]
        return attempt, (challenge(step[1], still_open), lead(step[2]), helpers), {}
    if kind == "spend":
        _, i, n, ab, payer = step
        return spend, (name(i), n, ab), {"paid_by": None if payer is None else name(payer)}
    if kind == "servant":
        servants = sorted(state.servants)
        return spend, (servants[0] if servants else "nobody", step[1]), {}
    if kind in ("roll", "accept", "finale"):
        return {"roll": roll, "accept": accept, "finale": finale}[kind], (), {}
    if kind == "draw":
        return draw, (name(step[1]), step[2]), {}
    if kind == "rescue":  # one point by someone involved in the open roll (or a ghost)
        pending = state.pending
        drawers = [*(pending.involved if pending else []), *(scene.ghost if scene else [])]
        return draw, (drawers[step[1] % len(drawers)] if drawers else name(step[1]), 1), {}
    if kind == "ghost":  # a defeated character's player draws for the open roll
        ghosts = sorted(scene.ghost) if scene else []
        return draw, (ghosts[step[1] % len(ghosts)] if ghosts else name(step[1]), 1), {}
    if kind == "harm":
        return harm, (name(step[1]), step[2], step[3]), {}
    if kind == "scratch":
        return scratch_out, (name(step[1]), step[2]), {}
    if kind == "wyrd":
        return wyrd, ([name(i) for i in step[1]],), {}
    if kind == "influence":
        return influence, (step[1], [name(i) for i in step[2]]), {}
    if kind == "contest":
        return contest, (step[1], name(step[2]), name(step[3])), {}
    if kind == "sabotage":
        return sabotage, (name(step[1]), challenge(step[2]), step[3]), {}
    if kind == "cast":
        _, form, casters, ab, points, templated = step
        castings = [Casting(character=name(i), ability=ab, points=points) for i in casters]
        kwargs = {"template": TEMPLATES[form]} if templated else {}
        return cast, (form, castings, "an old rhyme"), kwargs
    if kind == "rest":
        return rest, (name(step[1]), step[2]), {}
    raise AssertionError(kind)


# -- the checks ---------------------------------------------------------------------------


def peek(dice: Dice) -> int:
    """The face the next d6 will show, without moving the dice."""
    mark = dice.mark()
    face = dice.d6(1, "peek").faces[0]
    dice.rewind(mark)
    return face


def check_state(state: GameState, start_pool: dict[int, int]) -> None:
    for char in state.characters.values():
        for a in Ability:
            assert 0 <= char.points[a] <= char.scores[a], (char.name, a, char.points[a])
        assert char.wyrd >= 0
    scene = state.scene
    if scene is not None:
        assert 0 <= scene.pool <= start_pool[scene.number]
        assert all(0 <= left <= 2 for left in scene.ghost.values())
        assert set(scene.ghost) <= {c.name for c in state.characters.values() if c.defeated}
    else:
        assert state.pending is None
    if state.ended:
        assert state.scene is None


def check_conservation(before: GameState, after: GameState, events: list[Any],
                       start_pool: dict[int, int]) -> None:
    drawn = [e for e in events if isinstance(e, WyrdDrawn)]
    from_pool = sum(e.n for e in drawn if not e.ghost)
    from_ghost = sum(e.n for e in drawn if e.ghost)
    assert all(e.n > 0 for e in drawn)

    # every point drawn from the pool lands in exactly one personal pool
    personal_before = sum(c.wyrd for c in before.characters.values())
    personal_after = sum(c.wyrd for c in after.characters.values())
    assert personal_after - personal_before == from_pool

    # and each event agrees with the running pools
    running = {n: c.wyrd for n, c in before.characters.items()}
    started = [e for e in events if isinstance(e, SceneStarted)]
    pool = started[0].pool if started else (before.scene.pool if before.scene else None)
    for e in drawn:
        assert pool is not None, "Wyrd drawn with no scene"
        if e.ghost:
            assert e.personal_after is None
            assert e.pool_after == pool
            assert before.characters[e.character].defeated
        else:
            running[e.character] += e.n
            pool -= e.n
            assert e.personal_after == running[e.character]
            assert e.pool_after == pool
    for n, c in after.characters.items():
        assert c.wyrd == running.get(n, c.wyrd)

    if started:
        s = started[0]
        start_pool[s.number] = s.pool
        # RULES.md: player characters present and not defeated, + 1
        assert all(not before.characters[n].defeated for n in s.present)
        assert s.pool == len(s.present) + 1
    ended = [e for e in events if isinstance(e, SceneEnded)]
    if before.scene is not None and after.scene is not None and before.scene.number == after.scene.number:
        assert before.scene.pool - after.scene.pool == from_pool
        assert sum(before.scene.ghost.values()) - sum(after.scene.ghost.values()) == from_ghost
    elif before.scene is not None and ended:
        assert ended[0].pool_lost == before.scene.pool - from_pool
    elif before.scene is None and after.scene is not None:
        assert start_pool[after.scene.number] - after.scene.pool == from_pool
    else:
        assert from_pool == 0 and from_ghost == 0


def run(seed: int, spreads: list[tuple[int, int, int]], wyrds: list[int], story: bool,
        program: list[tuple[Any, ...]]) -> list[Any]:
    """Play ``program``; check every invariant; return what happened, step by step."""
    dice = Dice.seeded(seed)
    state = GameState()
    names = NAMES[: len(spreads)]
    for n, (b, m, s), w in zip(names, spreads, wyrds, strict=True):
        state = add_character(state, dice, n, b, m, s, wyrd=w).state
    if story:
        state = install(state, dice, **STORY).state
    start_pool: dict[int, int] = {}
    log: list[Any] = []
    for step in program:
        action, args, kwargs = translate(step, state, names)
        next_face = peek(dice)
        out = try_action(state, dice, action, *args, **kwargs)  # checks a refusal left no trace
        if isinstance(out, RuleError):
            assert peek(dice) == next_face
            log.append(("refused", out.rule))
            continue
        check_conservation(state, out.state, out.events, start_pool)
        state = out.state
        check_state(state, start_pool)
        log.append([e.model_dump(mode="json") for e in out.events])
    return log


# the finale comes last, and a few actions after it (all to be refused)
program = st.tuples(st.lists(steps, min_size=8, max_size=50),
                    st.lists(steps, max_size=3)).map(lambda p: [*p[0], ("finale",), *p[1]])


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    spreads=st.lists(st.sampled_from(SPREADS), min_size=1, max_size=4),
    wyrd_bits=st.lists(st.integers(0, 1), min_size=4, max_size=4),
    story=st.booleans(),
    program=program,
)
def test_invariants_hold_and_runs_repeat(seed: int, spreads: list[tuple[int, int, int]],
                                         wyrd_bits: list[int], story: bool,
                                         program: list[tuple[Any, ...]]) -> None:
    """Seed 000 / RULES.md / DESIGN.md invariants under random play, and
    reproducibility from the seed (two runs, the same events)."""
    wyrds = wyrd_bits[: len(spreads)]
    first = run(seed, spreads, wyrds, story, program)
    second = run(seed, spreads, wyrds, story, program)
    assert first == second


# A denser program that keeps a scene open and plays whole challenge rolls, so
# spending, draws, failures and their consequences (the conservation cases) come
# up often.
one_roll = st.tuples(
    st.tuples(st.just("add"), st.sampled_from(TYPES), st.integers(2, 9), st.booleans(),
              st.booleans()),
    st.tuples(st.just("attempt"), st.integers(0, 8), st.just(0), st.lists(who, max_size=2)),
    st.lists(st.tuples(st.just("spend"), who, st.integers(1, 3), maybe_ability,
                       st.one_of(st.none(), who)), max_size=3),
    st.lists(st.tuples(st.just("servant"), st.integers(1, 2)), max_size=1),
    st.just(("roll",)),
    st.lists(st.one_of(st.tuples(st.just("draw"), who, st.integers(1, 2)),
                       st.tuples(st.just("rescue"), who), st.tuples(st.just("ghost"), who)),
             min_size=1, max_size=4),
    st.just(("accept",)),
).map(lambda parts: [parts[0], parts[1], *parts[2], *parts[3], parts[4], *parts[5], parts[6]])
scene_steps = st.one_of(
    one_roll,
    one_roll,
    st.tuples(st.just("scratch"), who, ability).map(lambda s: [s]),
    st.tuples(st.just("harm"), who, ability, st.integers(1, 4)).map(lambda s: [s]),
    st.tuples(st.just("wyrd"), st.lists(who, min_size=1, max_size=2)).map(lambda s: [s]),
    st.tuples(st.just("sabotage"), who, idx, ability).map(lambda s: [s]),
    st.tuples(st.just("cast"), st.sampled_from(list(MagicForm)),
              st.lists(who, min_size=1, max_size=2), ability, st.integers(1, 2),
              st.booleans()).map(lambda s: [s]),
    scene_only.map(lambda s: [s]),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    story=st.booleans(),
    chunks=st.lists(scene_steps, min_size=4, max_size=15),
    present=st.lists(who, min_size=1, max_size=3),
    doomed=st.one_of(st.none(), who),
)
def test_invariants_in_a_busy_scene(seed: int, story: bool, chunks: list[list[tuple[Any, ...]]],
                                    present: list[int], doomed: int | None) -> None:
    """Seed 000 / RULES.md: the same invariants in two scenes of busy play: whole challenge rolls with
    spending, drawing and accepting, among harm, magic and Wyrd rolls; sometimes a
    character is defeated first, so their player's Wyrd comes into the second scene."""
    body = [step for chunk in chunks for step in chunk]
    if doomed is not None:
        present = [*present, doomed]
        body = [("scratch", doomed, Ability.MIND), ("scratch", doomed, Ability.MIND), *body]
    prog: list[tuple[Any, ...]] = [("start", present), *body, ("end", {}, {}),
                                   ("start-standing",), *body, ("end", {}, {}), ("finale",)]
    first = run(seed, [(5, 5, 5), (7, 4, 4), (3, 5, 7), (9, 3, 3)], [0, 1, 0, 1], story, prog)
    assert first == run(seed, [(5, 5, 5), (7, 4, 4), (3, 5, 7), (9, 3, 3)], [0, 1, 0, 1], story,
                        prog)
