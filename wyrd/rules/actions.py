"""What every ruleset's actions share: events, the outcome, and the safe-action wrapper.

An action is written as a function of a :class:`Turn` (a private deep copy of the
state, the dice, and the events so far). A ruleset makes its decorator with
:func:`action_for`; the decorated function has the public form
``f(state, dice, ...) -> Outcome``. It copies the state first, and if the action
raises (a :class:`~wyrd.rules.errors.RuleError` above all) it rewinds the dice, so the
caller's state and dice are exactly as they were.
"""

import functools
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar, Concatenate, Generic, NamedTuple, ParamSpec, TypeVar

from pydantic import BaseModel, ConfigDict

from wyrd.rules.dice import Dice

__all__ = ["Event", "Labelled", "Outcome", "Reading", "Turn", "action_for", "find_named"]

P = ParamSpec("P")
S = TypeVar("S", bound=BaseModel)
V = TypeVar("V")
T = TypeVar("T", bound="Turn[Any]")


def find_named(found: Mapping[str, V], name: str) -> V | None:
    """The entry called ``name``: exactly, else ignoring case and outer spaces (None if none)."""
    if name in found:
        return found[name]
    folded = name.strip().casefold()
    return next((value for key, value in found.items() if key.casefold() == folded), None)


class Event(BaseModel):
    """A fact of what happened. Subclasses narrow ``kind`` to ``Literal["..."]`` and add their fields.

    ``kind`` is declared here so that code reading any event (``event.kind``) is
    typed; each subclass's own ``Literal`` is what a ruleset's union tells them apart by.
    """

    # An event held where the type says only ``Event`` (a recorded one, a narration request's) is
    # dumped as its own kind, with all its fields.
    model_config = ConfigDict(frozen=True, defer_build=True, polymorphic_serialization=True)

    kind: str


class Labelled(Event):
    """An event that also carries labels for readers (a clock's name, a contest's results).

    Labels are not facts of the rules: two events that differ only in them are the same
    event, so saves written before a label was kept replay as they were.
    """

    _labels: ClassVar[frozenset[str]] = frozenset()

    def _facts(self) -> dict[str, Any]:
        return self.model_dump(exclude=set(self._labels))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Labelled) or type(other) is not type(self):
            return NotImplemented
        return self._facts() == other._facts()

    def __hash__(self) -> int:
        return hash(repr(sorted(self._facts().items())))


class Reading:
    """Which reading of a ruleset's rules its actions follow: today's, or the first one.

    A command saved before an edition changed the rules replays inside :meth:`first`, and
    the ruleset's turn asks :attr:`legacy` where the two readings part.
    """

    def __init__(self, ruleset: str) -> None:
        self._first: ContextVar[bool] = ContextVar(f"{ruleset}_first_reading", default=False)

    @contextmanager
    def first(self) -> Iterator[None]:
        """Play the actions inside by the first reading of the rules (for commands saved under it)."""
        token = self._first.set(True)
        try:
            yield
        finally:
            self._first.reset(token)

    @property
    def legacy(self) -> bool:
        """Whether the action being played follows the first reading."""
        return self._first.get()


class Outcome(NamedTuple, Generic[S]):
    """The result of an action: the new state and what happened."""

    state: S
    events: list[Event]


class Turn(Generic[S]):
    """A private copy of the state plus the dice and the events being written."""

    def __init__(self, state: S, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []

    def emit(self, event: Event) -> None:
        self.events.append(event)


def action_for(
    make_turn: Callable[[S, Dice], T],
) -> Callable[[Callable[Concatenate[T, P], None]], Callable[Concatenate[S, Dice, P], Outcome[S]]]:
    """The ``@action`` decorator of a ruleset whose turns ``make_turn`` builds."""

    def decorate(fn: Callable[Concatenate[T, P], None]) -> Callable[Concatenate[S, Dice, P], Outcome[S]]:
        @functools.wraps(fn)
        def run(state: S, dice: Dice, /, *args: P.args, **kwargs: P.kwargs) -> Outcome[S]:
            mark = dice.mark()
            turn = make_turn(state.model_copy(deep=True), dice)
            try:
                fn(turn, *args, **kwargs)
            except BaseException:
                # Refused or broken, the action must leave no trace: the copy is
                # dropped, and the dice will give the same faces to the next action.
                dice.rewind(mark)
                raise
            return Outcome(turn.state, turn.events)

        return run

    return decorate
