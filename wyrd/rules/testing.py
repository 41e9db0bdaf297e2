"""A table for testing a ruleset: a game state, scripted dice, and checked refusals.

Ruleset authors (ours and third parties') test their actions the way the play
layer applies them::

    table = Table(GameState(), faces=[6, 2])
    events = table.do(attempt, "door", "Ada")          # keeps the new state
    table.refuse("abacus.roll.none-open", roll)         # refused, and no trace left

:meth:`Table.refuse` checks that the action raised a :class:`~wyrd.rules.errors.RuleError`
naming the rule, and that the state (``==`` and its dump) and the dice's position are
exactly as they were. Pure: no test framework is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice, ScriptedSource
from wyrd.rules.errors import RuleError

__all__ = ["Action", "Table", "try_action"]

S = TypeVar("S", bound=BaseModel)
Action = Callable[..., Any]


def _name(action: Action) -> str:
    return str(getattr(action, "__name__", action))


def try_action(state: S, dice: Dice, action: Action, *args: Any, keep_given: bool = True,
               **kwargs: Any) -> Any:
    """Apply ``action``: its outcome, or the :class:`RuleError` that refused it.

    A refusal must leave the state (``==`` and its dump) and the dice's position as they
    were; with ``keep_given``, a success must not have changed the state it was given
    either (actions work on a copy). Either failing is an :class:`AssertionError`.
    """
    before = state.model_copy(deep=True)
    dump = state.model_dump()
    mark = dice.mark()
    try:
        outcome = action(state, dice, *args, **kwargs)
    except RuleError as refused:
        if state != before or state.model_dump() != dump:
            raise AssertionError(f"the refused {_name(action)} changed the state") from refused
        if dice.mark() != mark:
            raise AssertionError(f"the refused {_name(action)} moved the dice") from refused
        return refused
    if keep_given and state.model_dump() != dump:
        raise AssertionError(f"{_name(action)} changed the state it was given")
    return outcome


class Table(Generic[S]):
    """A game in progress: state, scripted dice, and every event so far."""

    def __init__(self, state: S, faces: Sequence[int] = ()) -> None:
        self.dice = Dice.scripted(faces)
        self.state = state
        self.events: list[Event] = []

    def faces(self, *faces: int) -> Table[S]:
        """Script the next faces."""
        self._source().extend(faces)
        return self

    @property
    def faces_left(self) -> int:
        return self._source().remaining

    def _source(self) -> ScriptedSource:
        source = self.dice.source
        if not isinstance(source, ScriptedSource):
            raise TypeError("this table's dice are not scripted")
        return source

    def do(self, action: Action, *args: Any, **kwargs: Any) -> list[Event]:
        """Apply ``action``, keep the new state, and return its events."""
        out = action(self.state, self.dice, *args, **kwargs)
        self.state = out.state
        self.events.extend(out.events)
        return list(out.events)

    def refuse(self, rule: str, action: Action, *args: Any, **kwargs: Any) -> RuleError:
        """``action`` must be refused under ``rule`` and leave no trace."""
        refused = try_action(self.state, self.dice, action, *args, keep_given=False, **kwargs)
        if not isinstance(refused, RuleError):
            raise AssertionError(f"{_name(action)} was not refused (expected {rule})")
        if refused.rule != rule:
            raise AssertionError(f"refused under {refused.rule}, not {rule}: {refused.message}")
        return refused

    def of(self, kind: type[Any], events: Sequence[Event] | None = None) -> list[Any]:
        """The events of one class, from ``events`` or from the whole game."""
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]
