"""The working context of one Wolden action, and the wrapper that makes actions safe.

An action is written as ``@action def f(turn, ...)`` over a :class:`Turn` (a
private copy of the state, the dice, and the events so far); its public form is
``f(state, dice, ...) -> Outcome``. A refused action raises a
:class:`~wyrd.rules.errors.RuleError` and leaves the caller's state and dice exactly
as they were (see :func:`wyrd.rules.actions.action_for`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from wyrd.rules.actions import Outcome as BaseOutcome
from wyrd.rules.actions import Turn as BaseTurn
from wyrd.rules.actions import action_for, find_named
from wyrd.rules.wolden.characters import Character
from wyrd.rules.wolden.cults import Cult
from wyrd.rules.wolden.errors import OutOfTurn, UnknownName
from wyrd.rules.wolden.state import Extended, Fight, GameState

__all__ = ["Outcome", "Turn", "action"]

# What every Wolden action returns: the new game state and its events.
Outcome: TypeAlias = BaseOutcome[GameState]


class Turn(BaseTurn[GameState]):
    """An action's working copy of a Wolden game, with the lookups actions share."""

    def character(self, name: str) -> Character:
        """A character by name (exact first, then case-insensitive)."""
        found = find_named(self.state.characters, name)
        if found is not None:
            return found
        raise UnknownName(f"there is no character called {name!r}", rule="wolden.unknown.character")

    def active(self, name: str) -> Character:
        """A character who can still act (not taken out)."""
        char = self.character(name)
        if char.out:
            raise OutOfTurn(f"{char.name} has been taken out and can't act", rule="wolden.out.no-actions")
        return char

    def cult(self, ident: str) -> Cult:
        found = self.state.cults.get(ident)
        if found is not None:
            return found
        folded = ident.casefold()
        for cult in self.state.cults.values():
            if folded in (cult.id.casefold(), cult.name.casefold()):
                return cult
        raise UnknownName(f"there is no cult {ident!r}", rule="wolden.unknown.cult")

    def names(self, names: Sequence[str]) -> list[str]:
        """Canonical names, each once, in the order given."""
        out: list[str] = []
        for name in names:
            canonical = self.character(name).name
            if canonical not in out:
                out.append(canonical)
        return out

    def no_pending(self) -> None:
        pending = self.state.pending
        if pending is not None:
            raise OutOfTurn(f"{pending.lead}'s roll is still open", rule="wolden.check.one-at-a-time")

    def no_encounter(self) -> None:
        found = self.state.encounter
        if found is not None:
            raise OutOfTurn(f"{found.name} is still going", rule="wolden.encounter.one-at-a-time")

    def extended(self) -> Extended:
        found = self.state.encounter
        if not isinstance(found, Extended):
            raise OutOfTurn("no extended challenge or travel montage is going", rule="wolden.extended.none")
        return found

    def fight(self) -> Fight:
        found = self.state.encounter
        if not isinstance(found, Fight):
            raise OutOfTurn("no fight is going", rule="wolden.fight.none")
        return found


action = action_for(Turn)
