"""The working context of one Thaeborn action, and its ``@action`` decorator.

An action is written as ``f(turn, ...)``; :data:`action` gives it the public form
``f(state, dice, ...) -> Outcome``, working on a copy and leaving state and dice
untouched when it is refused. The :class:`Turn` holds the lookups and the
bookkeeping actions share: finding characters, closing the Portent window, and
taking and restoring the conditions a Blot-out or a Re-tell puts back.

Games saved before Wyrd followed seed 004 on who rolls, damage, the Rule of
Fours and second tries replay as they were played: inside :func:`first_reading`
the actions keep that first reading (NPCs cast, a negative Accuracy lowers the
damage, a modifier counts toward the Proficiency, a second try stays open).
The play kit plays an old command that way; everything new follows the text.
"""

from __future__ import annotations

from typing import TypeAlias

from wyrd.rules.actions import Outcome as BaseOutcome
from wyrd.rules.actions import Reading, action_for, find_named
from wyrd.rules.actions import Turn as BaseTurn
from wyrd.rules.lots.characters import Character, Condition
from wyrd.rules.lots.errors import OutOfTurn, UnknownName
from wyrd.rules.lots.events import ActionLost
from wyrd.rules.lots.state import GameState

__all__ = ["Outcome", "Turn", "action", "first_reading"]

# Commands saved before an edition changed these rules replay inside ``first_reading()``.
_READING = Reading("lots")
first_reading = _READING.first

# What every Thaeborn action returns: the new game state and its events.
Outcome: TypeAlias = BaseOutcome[GameState]


class Turn(BaseTurn[GameState]):
    """An action's working copy of a Thaeborn game."""

    @property
    def legacy(self) -> bool:
        """Whether this action replays a command saved under the first reading of the rules."""
        return _READING.legacy

    # -- lookups -------------------------------------------------------------

    def character(self, name: str) -> Character:
        """The character called ``name`` (case does not matter)."""
        found = find_named(self.state.characters, name)
        if found is not None:
            return found
        raise UnknownName(f"there is no character called {name!r}", rule="lots.unknown.character")

    def player(self, name: str, doing: str) -> Character:
        """A player's character: only they hold Portents, Story and Development Points."""
        char = self.character(name)
        if char.npc:
            raise OutOfTurn(f"{char.name} is not a player's character and can't {doing}", rule="lots.player.npc")
        return char

    def caster(self, name: str, doing: str) -> Character:
        """A player's character able to act, who casts lots: NPCs never do ("Only players roll")."""
        char = self.character(name)
        if char.npc and not self.legacy:
            raise OutOfTurn(
                f"{char.name} is an NPC and can't {doing}: only players roll (the world's own cast, "
                "`lots` with no one named, is the GM's secret roll)",
                rule="lots.npc.roll",
            )
        return self.able(name, doing)

    def able(self, name: str, doing: str) -> Character:
        """A character who can act by choice: not incapacitated."""
        char = self.character(name)
        if char.condition.incapacitated:
            raise OutOfTurn(
                f"{char.name} is incapacitated and can't {doing} until rest eases the Pain",
                rule="lots.mettle.incapacitated",
            )
        return char

    # -- the Portent window and conditions -----------------------------------------

    def close_window(self) -> None:
        """From now on the earlier casts are settled: no Portent can change them.

        A second try comes right after the spoiled check or not at all, so the
        chance of one closes too.
        """
        self.state.window.clear()
        if self.legacy:
            return
        for char in self.state.characters.values():
            char.condition.retry = None

    def new_cast_id(self) -> str:
        self.state.casts += 1
        return f"c{self.state.casts}"

    def snapshot(self) -> dict[str, Condition]:
        return {name: char.condition.model_copy(deep=True) for name, char in self.state.characters.items()}

    def restore(self, snapshot: dict[str, Condition]) -> None:
        for name, condition in snapshot.items():
            if name in self.state.characters:
                self.state.characters[name].condition = condition.model_copy(deep=True)

    def loses_action(self, char: Character, doing: str) -> bool:
        """If a failed Mettle test cost ``char`` this action, spend it reeling and say so."""
        if not char.condition.loses_action:
            return False
        self.close_window()
        char.condition.loses_action = False
        self.emit(ActionLost(character=char.name, action=doing))
        return True


action = action_for(Turn)
