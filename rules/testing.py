"""A table for testing a ruleset: a game state, scripted dice, and checked refusals.

Ruleset authors (ours and third parties') test their actions the way the play
layer applies them::

    table = Table(GameState(), faces=[6, 2])
    events = table.do(attempt, "door", "Ada")          # keeps the new state
    table.refuse("abacus.roll.none-open", roll)         # refused, and no trace left

:meth:`Table.refuse` checks that the action raised a :class:`~rules.errors.RuleError`
naming the rule, and that the state (``==`` and its dump) and the dice's position are
exactly as they were. Pure: no test framework is imported.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel

from rules.actions import Event
from rules.dice import Dice, ScriptedSource
from rules.errors import RuleError

__all__ = ["Action", "Table"]

S = TypeVar("S", bound=BaseModel)
Action = Callable[..., Any]


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
        before = self.state.model_copy(deep=True)
        dump = self.state.model_dump()
        mark = self.dice.mark()
        try:
            action(self.state, self.dice, *args, **kwargs)
        except RuleError as error:
            refused = error
        else:
            raise AssertionError(f"{getattr(action, '__name__', action)} was not refused (expected {rule})")
        if refused.rule != rule:
            raise AssertionError(f"refused under {refused.rule}, not {rule}: {refused.message}")
        if self.state != before or self.state.model_dump() != dump:
            raise AssertionError(f"the refused {getattr(action, '__name__', action)} changed the state")
        if self.dice.mark() != mark:
            raise AssertionError(f"the refused {getattr(action, '__name__', action)} moved the dice")
        return refused

    def of(self, kind: type[Any], events: Sequence[Event] | None = None) -> list[Any]:
        """The events of one class, from ``events`` or from the whole game."""
        return [e for e in (self.events if events is None else events) if isinstance(e, kind)]
