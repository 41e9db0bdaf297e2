"""The simulator's table: a story made ready once, and one run's state and dice.

Here every rule is applied by the rules core's own actions (``wyrd.rules.abacus``);
the simulator only decides, as players do. (By default runs are played on plain
data by :mod:`wyrd.sim.abacus.fast`, which gives the same records; a run or a story
that path does not cover comes here.) Two ways of applying an action:

* **safe**: the public form ``action(state, dice, ...) -> Outcome``. Each call
  deep-copies the state (so a refused action leaves the caller's state as it was)
  and marks the dice (so they can be rewound).
* **fast**: the same action body, run on the run's own state with
  no copy and no mark. A run's state belongs to the simulator alone and is never
  looked at again once changed, so the copy protects nobody, and it costs more
  than the action itself (a run of hollow-fair takes about 14 times as long in
  safe mode; bench/RESULTS.md has the figures). What the copy would have bought,
  a clean state after a refusal, the simulator gets another way: a refused action
  raises :class:`Refused`, and the whole run is played again from its seed in safe
  mode. The bot checks what it can before acting, so that is rare, and a report
  counts it (``safe_reruns``).

Both ways run the same code on the same dice, so a run gives the same record
either way (a test plays every policy both ways and compares the reports).

A :class:`Kit` is what a story needs for every run, made once per process: the
state after the story's ``install`` and the party's ``enlist_party`` (kept as a
pickle, so each run starts from a fresh copy cheaply), the challenges and rules
of each scene, and the ids the story's exit conditions know.
"""

from __future__ import annotations

import enum
import io
import pickle
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, cast

import wyrd.rules.abacus as A
from wyrd.rules.abacus.turn import Turn
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.sim.simulator import SimError
from wyrd.stories.abacus import flow
from wyrd.stories.abacus.schema import Story

__all__ = ["Action", "Kit", "Refused", "SceneKit", "SimError", "Table", "prepare"]

Action = Callable[..., A.Outcome]


class Refused(Exception):
    """A fast-mode action was refused: the run's state may be half-changed, so replay it safely."""


@dataclass(frozen=True)
class SceneKit:
    """A scene as the rules core wants it: what it places and the rules that hold in it."""

    id: str
    title: str
    finale: bool
    challenges: tuple[A.ChallengeSpec, ...]
    rules: tuple[A.StageRule, ...]


@dataclass(frozen=True)
class Kit:
    """A story made ready for many runs with a given party."""

    story: Story
    players: tuple[str, ...]
    scenes: Mapping[str, SceneKit]
    first: str
    known: frozenset[str]
    bonds: Mapping[str, str]  # who has a connection to whom (only when the story uses the rule)
    initial: bytes  # the pickled state after install and enlist_party

    def fresh_state(self) -> A.GameState:
        """A private copy of the starting state (unpickling is several times quicker than a deep copy)."""
        state = pickle.loads(self.initial)
        assert isinstance(state, A.GameState)
        return state


def prepare(story: Story, players: int | None = None) -> Kit:
    """Make ``story`` ready for simulation with its first ``players`` pregens (all of them if None).

    Raises:
        SimError: If the story is freeform, has no scenes or pregens, or fewer pregens than asked.
    """
    if story.freeform or not story.scenes:
        raise SimError(f"{story.id} is a freeform setting: it has no scene flow for the bots to follow")
    cast_ = flow.characters(story)
    if not cast_:
        raise SimError(f"{story.id} has no pregenerated characters for the bots to play")
    if players is not None:
        if not 1 <= players <= len(cast_):
            raise SimError(f"{story.id} has {len(cast_)} pregenerated characters; can't play {players}")
        # A connection to a pregen left out of the party is dropped (the rules refuse one to nobody).
        party = {c.name for c in cast_[:players]}
        cast_ = [c if c.connection in party or c.connection is None else c.model_copy(update={"connection": None})
                 for c in cast_[:players]]
    dice = Dice.scripted(())  # setting up rolls no dice
    setup = flow.setup(story)
    state = A.install(A.GameState(), dice, rules=setup.rules, clocks=setup.clocks, counters=setup.counters,
                      denizens=setup.denizens, catalogue=setup.catalogue, connections=setup.connections).state
    state = A.enlist_party(state, dice, cast_).state
    scenes = {
        s.id: SceneKit(s.id, s.title, s.finale, tuple(flow.scene_challenges(story, s.id)),
                       tuple(flow.scene_rules(story, s.id)))
        for s in story.scenes
    }
    bonds = {c.name: c.connection for c in state.characters.values() if c.connection} if state.connections else {}
    # Only a ``place`` effect reads the catalogue: keep the challenges one can place, so that
    # each run's copy of the state is smaller (hollow-fair: 3 of 29).
    placeable = _placeable(setup.rules, scenes.values(), state)
    state = state.model_copy(update={"catalogue": {k: v for k, v in state.catalogue.items() if k in placeable}})
    return Kit(
        story=story,
        players=tuple(c.name for c in state.characters.values()),
        scenes=scenes,
        first=story.scenes[0].id,
        known=frozenset(flow.challenge_specs(story)),
        bonds=bonds,
        initial=_dumps(state),
    )


def _placeable(rules: Iterable[A.StageRule], scenes: Iterable[SceneKit], state: A.GameState) -> set[str]:
    """Every catalogue challenge a ``place`` effect of the story names (anywhere effects live)."""
    effects: list[A.Effect] = [e for r in rules for e in r.effects]
    effects += [e for s in scenes for r in s.rules for e in r.effects]
    effects += [e for s in scenes for c in s.challenges for e in c.on_fail or ()]
    effects += [e for c in state.catalogue.values() for e in c.on_fail or ()]
    effects += [e for c in state.clocks.values() for t in c.thresholds for e in t.effects]
    return {e.challenge for e in effects if e.do == A.EffectKind.PLACE and e.challenge is not None}


class _Pickler(pickle.Pickler):
    """Enum members by name (``getattr(cls, name)``): unpickling skips ``EnumType.__call__``'s lookup."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, enum.Enum):
            return getattr, (type(obj), obj.name)
        return NotImplemented


def _dumps(state: A.GameState) -> bytes:
    out = io.BytesIO()
    _Pickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(state)
    return out.getvalue()


_RAW: dict[Action, Callable[..., None]] = {}


def _raw(action: Action) -> Callable[..., None]:
    """The body of a rules action (``f(turn, ...)``), as ``wyrd.rules.actions.action_for`` wrapped it."""
    found = _RAW.get(action)
    if found is None:
        found = cast(Callable[..., None], action.__wrapped__)  # type: ignore[attr-defined]
        _RAW[action] = found
    return found


class Table:
    """One run's game: its state and dice, and the actions applied to them.

    Args:
        state: The run's own starting state (a fresh copy: fast mode changes it in place).
        dice: The run's dice.
        safe: Apply actions through their public, copying form.
    """

    def __init__(self, state: A.GameState, dice: Dice, *, safe: bool = False) -> None:
        self.state = state
        self.dice = dice
        self.safe = safe

    def act(self, action: Action, *args: Any, **kwargs: Any) -> list[Event]:
        """Apply ``action`` with these arguments; its events.

        Raises:
            RuleError: In safe mode, if the rules refuse (the state is unchanged).
            Refused: In fast mode, if the rules refuse (the state may be half-changed).
        """
        if self.safe:
            outcome = action(self.state, self.dice, *args, **kwargs)
            self.state = outcome.state
            return outcome.events
        turn = Turn(self.state, self.dice)
        try:
            _raw(action)(turn, *args, **kwargs)
        except RuleError as refusal:
            raise Refused(str(refusal)) from refusal
        return turn.events

    def attempt_or_skip(self, action: Action, *args: Any, **kwargs: Any) -> list[Event] | None:
        """Apply an action the players may be refused (safe mode): None if it was refused."""
        try:
            return self.act(action, *args, **kwargs)
        except RuleError:
            return None
