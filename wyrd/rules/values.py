"""Rules data that never changes once made, so copies of a game state may share it.

Every action works on a deep copy of the state (see :mod:`wyrd.rules.actions`), and in a
story most of that state is the story's own definitions: the challenges it can
place, its denizens, the triggers and effects of its stage rules. They are read,
never written, so copying them on every action buys nothing. A :class:`Value` is a
frozen model that a deep copy hands back as it is, the way ``copy`` treats a string.
"""

from __future__ import annotations

from typing import Any, Self

from pydantic import BaseModel, ConfigDict

__all__ = ["Value"]


class Value(BaseModel):
    """A frozen model: assigning to a field is refused, and a deep copy is the model itself."""

    model_config = ConfigDict(frozen=True)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Self:
        return self
