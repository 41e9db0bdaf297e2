"""The plain-data board: a run's game state as slots objects, ints, lists and dicts.

The rules core keeps its state in pydantic models and copies or pickles them;
here a :class:`Layout` reads the prepared story (:class:`~wyrd.sim.abacus.engine.Kit`)
once per process and each run gets a :class:`Board` of plain objects built from
it, in the same order as the rules core's dictionaries (the order decides who
rolls first, which rule fires first, which challenge is faced next).

Abilities are list indices (body 0, mind 1, soul 2: the order of
:class:`~wyrd.rules.abacus.Ability`). Stage rules, challenges and effects keep
the rules core's own enums, so comparisons read as in ``wyrd.rules.abacus``.

:func:`layout` answers None for a story using something the plain rules do not
carry out (:data:`UNSUPPORTED`): its runs are left to the rules core.
"""

from __future__ import annotations

from collections.abc import Container, Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

import wyrd.rules.abacus as A
from wyrd.rules.abacus.effects import check_references
from wyrd.rules.errors import RuleError
from wyrd.sim.abacus.engine import Kit
from wyrd.sim.abacus.fast.kinds import OPEN

__all__ = [
    "ABILITIES",
    "UNSUPPORTED",
    "Board",
    "Char",
    "Clock",
    "Decision",
    "Filed",
    "Layout",
    "Pending",
    "Placed",
    "Plain",
    "Rule",
    "Scene",
    "Spec",
    "fresh",
    "layout",
    "most_spent",
    "recoveries",
]

ABILITIES: tuple[A.Ability, ...] = tuple(A.Ability)
_INDEX = {a: i for i, a in enumerate(ABILITIES)}

# Stage rules the plain rules leave to the rules core: a rule of limited uses (which a roll's
# bonus or a firing spends) is rare in stories, and none of the bundled ones has one.
UNSUPPORTED = frozenset({A.Lasts.USES})
_MOVE_ROLL = frozenset({A.EffectKind.MODIFY, A.EffectKind.ROLL_BONUS})  # standing effects a roll reads


@dataclass(frozen=True, slots=True)
class Plain:
    """An effect as plain data (``ability`` an index, the match a :class:`Look`).

    This, :class:`Look` and :class:`Rule` are slots, not named tuples: the plain rules read their fields at
    every moment, and CPython 3.11 reads a slot directly, a named tuple's field through a descriptor.
    """

    do: A.EffectKind
    n: int | None
    ability: int | None
    target: A.Target
    match: Look
    counter: str | None
    clock: str | None
    challenge: str | None


@dataclass(frozen=True, slots=True)
class Look:
    """A match (which challenges a trigger or an effect concerns)."""

    challenge: str | None
    type: A.ChallengeType | None
    denizen: str | None
    untackled: bool
    empty: bool


class Spec(NamedTuple):
    """A challenge as a story describes it (``on_fail`` None: the default damage)."""

    id: str
    name: str
    type: A.ChallengeType
    ability: int
    value: int
    denizen: str | None
    after: tuple[str, ...]
    on_fail: tuple[Plain, ...] | None


class Placed:
    """A challenge placed in the scene."""

    __slots__ = ("ability", "after", "denizen", "id", "name", "on_fail", "sixths", "status", "tackled", "type",
                 "value")

    def __init__(self, spec: Spec, ident: str) -> None:
        # (unpacked: a named tuple's fields read by name each go through a descriptor, for every placement)
        _, self.name, self.type, self.ability, self.value, self.denizen, self.after, self.on_fail = spec
        self.id = ident
        self.status = OPEN
        self.tackled = False
        self.sixths: int | None = None  # the exact chance of the attempt on it, in sixths, once attempted


@dataclass(frozen=True, slots=True)
class Rule:
    """A stage rule, shared by every run.

    Nothing of it changes in play: every rule in play is active (a rule of limited uses is left to the
    rules core, :data:`UNSUPPORTED`), and a scene's rules leave play when it ends.
    """

    id: str
    on: A.TriggerKind
    match: Look
    at_or_under: str | None
    effects: tuple[Plain, ...]
    lasts: A.Lasts
    scene_only: bool
    standing: bool  # ``always`` or ``attempt``: read where it matters


class ClockShape(NamedTuple):
    id: str
    faces: frozenset[int]
    scene_end_only: bool
    value: int
    thresholds: tuple[tuple[int, tuple[Plain, ...]], ...]
    reached: tuple[int, ...]
    least: int | None  # the least threshold not reached (``Clock.unreached``)


class Clock:
    __slots__ = ("faces", "id", "least", "reached", "scene_end_only", "thresholds", "value")

    def __init__(self, clock: ClockShape) -> None:
        self.id = clock.id
        self.faces = clock.faces
        self.scene_end_only = clock.scene_end_only
        self.value = clock.value
        self.thresholds = clock.thresholds
        self.reached = list(clock.reached)
        self.least = clock.least

    def unreached(self) -> int | None:
        """The least threshold not reached yet (None if none is left): the clock crosses none below it."""
        return min((at for at, _ in self.thresholds if at not in self.reached), default=None)


class Counter:
    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value


class CharShape(NamedTuple):
    name: str
    scores: tuple[int, ...]
    points: tuple[int, ...]
    scratched: tuple[int, ...]
    wyrd: int
    connection: str | None
    defeated: bool


class Char:
    __slots__ = ("connection", "defeated", "name", "points", "scores", "scratched", "wyrd")

    def __init__(self, char: CharShape) -> None:
        self.name, self.scores, points, scratched, self.wyrd, self.connection, self.defeated = char
        self.points = list(points)
        self.scratched = list(scratched)


class Scene:
    __slots__ = ("cast", "challenges", "faced", "ghost", "id", "pool", "present", "wyrd_rolls")

    def __init__(self, ident: str, present: list[str], pool: int, ghost: dict[str, int],
                 cast: list[Char]) -> None:
        self.id = ident
        self.present = present
        self.cast = cast  # the characters present, in the order of ``present``
        self.pool = pool
        self.ghost = ghost
        self.challenges: dict[str, Placed] = {}
        self.wyrd_rolls = 0
        self.faced: list[str] = []


class Pending:
    __slots__ = ("bonus", "boost", "challenge", "die", "involved", "lead", "points", "rolled", "value")

    def __init__(self, challenge: Placed, lead: str) -> None:
        self.challenge = challenge
        self.lead = lead
        self.involved = [lead]
        self.points = 0
        self.bonus = 0
        self.die = 0
        self.value = 0
        self.boost = 0
        self.rolled = False


@dataclass(frozen=True)
class SceneShape:
    """A scene of the story as the plain rules place it."""

    challenges: tuple[Spec, ...]
    rules: tuple[Rule, ...]  # ``story`` rules already made ``scene`` rules, as ``start_scene`` does
    finale: bool


@dataclass(frozen=True)
class Layout:
    """What every run of a story starts from, as plain data (made once per process)."""

    kit: Kit
    chars: tuple[CharShape, ...]
    rules: tuple[Rule, ...]
    clocks: tuple[ClockShape, ...]
    counters: tuple[tuple[str, int], ...]
    catalogue: dict[str, Spec]
    any_of: frozenset[str]  # denizens overcome by one of their challenges (``needs: any``)
    scenes: dict[str, SceneShape]
    waiting: tuple[Spec, ...]
    scene_end_clock: bool  # a clock counting only scene-end rolls: every scene ends with one
    fallen: bool  # a character the story begins defeated
    # the default exit of a scene for a given progress, as runs find it (see ``playthrough``)
    exits: dict[tuple[object, ...], str | None] = field(default_factory=dict, compare=False)
    # the rules in play filed (``Board.index``), by the rules in play (their ids in memory: a layout's rules
    # live as long as it does); every run meets the same few sets of rules
    filed: dict[tuple[int, ...], Filed] = field(default_factory=dict, compare=False)


class Filed(NamedTuple):
    """The rules in play by what fires them, and the standing effects by kind, in the order of play."""

    firing: dict[A.TriggerKind, list[Rule]]
    standing: dict[A.EffectKind, list[tuple[Rule, Plain]]]
    passing: bool  # some rule leaves play when the scene ends
    plain: bool  # no rule moves a roll (a bonus, a value modified) and none fires on an attempt
    # for a kind of moment whose every rule names what it matches (a challenge, a type or a denizen) and reads
    # no counter: every name they match on; a challenge named by none of them fires none of those rules
    named: dict[A.TriggerKind, frozenset[str]]
    priced: frozenset[str] | None  # the same for the prices of attempting, None if one can't be told so


@dataclass(frozen=True, slots=True)
class Decision:
    """The bots' plan for a challenge, with what follows from it alone (worked out once per situation).

    ``checked``: the lead and every helper are among the members standing and each has the points
    assigned, so the rules core would take the plan as it is. ``budget`` and ``sixths`` hold for a roll no
    standing rule moves and no rule fires on (:attr:`Filed.plain`): the most Wyrd the plan draws from the
    ``pool`` the situation had, and the exact chance of overcoming, in sixths. (Slots, not a named tuple:
    CPython 3.11 reads a slot directly and a named tuple's field through its descriptor, at every challenge.)
    """

    lead: str
    spend: tuple[tuple[str, int], ...]
    draw_up_to: int
    checked: bool
    involved: tuple[str, ...]  # the lead, then each helper once, as ``attempt`` and ``spend`` list them
    points: int
    pool: int
    budget: int
    sixths: int


class Board:
    """One run's game state."""

    __slots__ = ("characters", "clocks", "counters", "ended", "filed", "firing", "named", "passing", "pending",
                 "plain", "priced", "results", "rules", "scene", "scenes_played", "standing", "waiting")

    def __init__(self, plan: Layout) -> None:
        self.characters = {c.name: Char(c) for c in plan.chars}
        self.rules = {r.id: r for r in plan.rules}
        self.filed = plan.filed
        self.clocks = {c.id: Clock(c) for c in plan.clocks}
        self.counters = {k: Counter(v) for k, v in plan.counters}
        self.waiting = list(plan.waiting)
        self.scene: Scene | None = None
        self.pending: Pending | None = None
        self.scenes_played = 0
        self.ended = False
        self.results: dict[str, str] = {}
        self.firing: dict[A.TriggerKind, list[Rule]] = {}
        self.standing: dict[A.EffectKind, list[tuple[Rule, Plain]]] = {}
        self.passing = False
        self.plain = True
        self.named: dict[A.TriggerKind, frozenset[str]] = {}
        self.priced: frozenset[str] | None = None
        self.index()

    def index(self) -> None:
        """File the rules in play by what fires them and what they stand for (after the rules change).

        Both keep the order of :attr:`rules`, the order in which the rules core reads them. The same rules
        are filed once per process (the lists are never changed, only replaced).
        """
        key = tuple(map(id, self.rules.values()))
        found = self.filed.get(key)
        if found is None:
            firing: dict[A.TriggerKind, list[Rule]] = {}
            standing: dict[A.EffectKind, list[tuple[Rule, Plain]]] = {}
            for rule in self.rules.values():
                firing.setdefault(rule.on, []).append(rule)
                if rule.standing:
                    for effect in rule.effects:
                        standing.setdefault(effect.do, []).append((rule, effect))
            passing = any(rule.lasts == A.Lasts.SCENE or rule.scene_only for rule in self.rules.values())
            plain = A.TriggerKind.ATTEMPT not in firing and not standing.keys() & _MOVE_ROLL
            named = {kind: names for kind, rules in firing.items()
                     if (names := _names([(r.match, r.at_or_under) for r in rules])) is not None}
            priced = _names([(r.match, None) for r, _ in standing.get(A.EffectKind.ATTEMPT_COST, ())])
            found = self.filed[key] = Filed(firing, standing, passing, plain, named, priced)
        self.firing, self.standing, self.passing, self.plain, self.named, self.priced = found


def _names(rules: Iterable[tuple[Look, str | None]]) -> frozenset[str] | None:
    """Every challenge id, type and denizen the rules' matches name, if each names one and reads no
    counter (``at_or_under``): a challenge none of them names is matched by none of the rules."""
    names: set[str] = set()
    for match, at_or_under in rules:
        if at_or_under is not None or match.untackled or match.empty:
            return None
        names.update(n for n in (match.challenge, match.type, match.denizen) if n is not None)
    return frozenset(names)


def fresh(ident: str, taken: Container[str]) -> str:
    """``ident``, or ``ident-2``, ``ident-3``... the first not taken (how the rules core names what it places)."""
    found, suffix = ident, 2
    while found in taken:
        found, suffix = f"{ident}-{suffix}", suffix + 1
    return found


def most_spent(spent: list[int], scratched: list[int]) -> int | None:
    """[ours] The ability a recovery goes to unchosen: of those not scratched, the one with most points
    spent, the first of equals; None if nothing is spent."""
    best = None
    for a, n in enumerate(spent):
        if n > 0 and a not in scratched and (best is None or n > spent[best]):
            best = a
    return best


# by the scores, then the points and the scratches flat (as many points as abilities: the key is not ambiguous)
_RECOVERIES: dict[tuple[object, ...], tuple[int | None, int | None]] = {}


def recoveries(char: Char) -> tuple[int | None, int | None]:
    """The ability ``char``'s default recovery goes to at the end of a scene (:func:`most_spent`), and the one
    a connection's recovery would then be claimed on (the most spent once the first is made).

    Both depend on the scores, points and scratches alone, and the same few come up in every run:
    each is worked out once per process.
    """
    key = (char.scores, *char.points, *char.scratched)
    found = _RECOVERIES.get(key)
    if found is None:
        spent = [s - p for s, p in zip(char.scores, char.points, strict=True)]
        first = most_spent(spent, char.scratched)
        second = None
        if first is not None:  # (nothing spent: nothing to claim either)
            spent[first] -= 1
            second = most_spent(spent, char.scratched)
        found = _RECOVERIES[key] = (first, second)
    return found


def _look(match: A.Match) -> Look:
    return Look(match.challenge, match.type, match.denizen, match.untackled, match.is_empty)


def _plain(effect: A.Effect) -> Plain:
    return Plain(effect.do, effect.n, None if effect.ability is None else _INDEX[effect.ability], effect.target,
                 _look(effect.match), effect.counter, effect.clock, effect.challenge)


def _spec(spec: A.ChallengeSpec) -> Spec:
    on_fail = None if spec.on_fail is None else tuple(_plain(e) for e in spec.on_fail)
    return Spec(spec.id, spec.name, spec.type, _INDEX[spec.type.ability], spec.value, spec.denizen,
                tuple(spec.after), on_fail)


def _shape(rule: A.StageRule, lasts: A.Lasts | None = None) -> Rule:
    on = rule.trigger.on
    return Rule(rule.id, on, _look(rule.trigger.match), rule.trigger.at_or_under,
                     tuple(_plain(e) for e in rule.effects), lasts or rule.lasts, rule.scene_only,
                     on in (A.TriggerKind.ALWAYS, A.TriggerKind.ATTEMPT))


def _supported(state: A.GameState, rules: Iterable[A.StageRule]) -> bool:
    if state.scene is not None or state.pending is not None or state.servants or state.ended:
        return False
    return all(rule.lasts not in UNSUPPORTED and rule.active for rule in rules)


def layout(kit: Kit) -> Layout | None:
    """The plain form of ``kit``, or None if its story needs what only the rules core does."""
    state = kit.fresh_state()
    scene_rules = [r for s in kit.scenes.values() for r in s.rules]
    if not _supported(state, [*state.stage_rules.values(), *scene_rules]):
        return None
    try:  # a scene naming what the game lacks is refused by the rules core: leave it to it
        for s in kit.scenes.values():
            for rule in s.rules:
                check_references(state, rule.effects, rule.id)
            for spec in s.challenges:
                check_references(state, spec.on_fail or [], spec.id)
    except RuleError:
        return None
    return Layout(
        kit=kit,
        chars=tuple(CharShape(c.name, tuple(c.scores[a] for a in ABILITIES), tuple(c.points[a] for a in ABILITIES),
                              tuple(_INDEX[a] for a in c.scratched), c.wyrd, c.connection, c.defeated)
                    for c in state.characters.values()),
        rules=tuple(_shape(r) for r in state.stage_rules.values()),
        clocks=tuple(ClockShape(c.id, frozenset(c.faces), c.scene_end_only, c.value,
                                tuple((t.at, tuple(_plain(e) for e in t.effects)) for t in c.thresholds),
                                tuple(c.reached), min((t.at for t in c.thresholds if t.at not in c.reached),
                                                      default=None))
                     for c in state.clocks.values()),
        counters=tuple((k, c.value) for k, c in state.counters.items()),
        catalogue={k: _spec(v) for k, v in state.catalogue.items()},
        any_of=frozenset(d.id for d in state.denizens.values() if d.needs == A.Needs.ANY),
        scenes={
            s.id: SceneShape(tuple(_spec(c) for c in s.challenges),
                             tuple(_shape(r, A.Lasts.SCENE if r.lasts == A.Lasts.STORY else r.lasts)
                                   for r in s.rules), s.finale)
            for s in kit.scenes.values()
        },
        waiting=tuple(_spec(w) for w in state.waiting),
        scene_end_clock=any(c.scene_end_only for c in state.clocks.values()),
        fallen=any(c.defeated for c in state.characters.values()),
    )
