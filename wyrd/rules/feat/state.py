"""The whole state of a Heroes of the Fall game, as plain pydantic data.

Actions never change a state in place: they work on a copy and hand back the new
state with its events (see :mod:`wyrd.rules.actions`), so a refused action leaves the
caller's state untouched and a save file can rebuild any state by replaying.

Besides the characters, the state remembers who has searched for what: seed 003
allows one roll on the Feat table per search unless the circumstances change.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from wyrd.rules.feat.characters import Character

__all__ = ["GameState"]


class GameState(BaseModel):
    """Characters by name, and the searches made (hidden thing's id -> searchers' names)."""

    characters: dict[str, Character] = Field(default_factory=dict)
    searches: dict[str, list[str]] = Field(default_factory=dict)

    def living(self) -> list[str]:
        """The names of the characters still alive, in the order they joined."""
        return [name for name, char in self.characters.items() if not char.dead]
