"""Every die in Wyrd is rolled here, and every roll is recorded.

A :class:`Dice` hands out faces from one of three sources and keeps a record of
each roll (how many dice, how many sides, the faces, and what the roll was for):

* :class:`SeededSource` draws from its own ``random.Random``; the same seed gives
  the same faces, so a session is reproducible from its seed.
* :class:`ScriptedSource` hands out faces it was given in advance. Tests use it,
  and so does replay: a save file stores the faces, so a resumed session reads
  them back instead of rolling again.
* :class:`TypedSource` asks a callback for the faces, so players can roll physical
  dice and type what they show. A face outside ``1..sides`` is refused.

Faces can also be queued on any source with :meth:`Dice.supply` (the play layer's
``roll 4``); queued faces are used before the source is asked.

The module never touches the global ``random`` and does no I/O: the typed-in
source's callback is supplied by whoever drives the game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar, NamedTuple, Protocol

from wyrd.rules.errors import RuleError

__all__ = [
    "Dice",
    "DiceExhausted",
    "DiceMark",
    "DiceSource",
    "FaceOutOfRange",
    "Roll",
    "ScriptedSource",
    "SeededSource",
    "TypedSource",
]


class FaceOutOfRange(RuleError):
    """A typed or scripted face is not on the die."""

    rule = "dice.face-range"


class DiceExhausted(RuleError):
    """A scripted source has no faces left for the roll asked of it."""

    rule = "dice.script-exhausted"


# Rolls and marks are made by this module alone, from values it has checked: named
# tuples, not validated models (a roll is made for every die in play).
class Roll(NamedTuple):
    """One recorded roll: ``faces`` of ``len(faces)`` dice with ``sides`` sides."""

    sides: int
    faces: tuple[int, ...]
    purpose: str

    @property
    def highest(self) -> int:
        """The highest face, or 0 for a roll of no dice."""
        return max(self.faces, default=0)

    @property
    def total(self) -> int:
        return sum(self.faces)


class DiceSource(Protocol):
    """Where faces come from. ``faces`` returns exactly ``n`` values, which Dice checks
    unless the source says it is ``trusted`` (it makes its faces itself, always on the die);
    a source that does not say is checked."""

    def faces(self, n: int, sides: int, purpose: str) -> Sequence[int]: ...

    def get_state(self) -> object: ...

    def set_state(self, state: object) -> None: ...


class SeededSource:
    """Faces from a private ``random.Random`` seeded once; never the global one."""

    trusted: ClassVar[bool] = True

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self._random = random.Random(seed)

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        randint = self._random.randint
        return [randint(1, sides) for _ in range(n)]

    def get_state(self) -> object:
        return self._random.getstate()

    def set_state(self, state: object) -> None:
        self._random.setstate(state)  # type: ignore[arg-type]


class ScriptedSource:
    """Faces given in advance, handed out in order; running out is an error."""

    trusted: ClassVar[bool] = False

    def __init__(self, faces: Sequence[int] = ()) -> None:
        self._faces = list(faces)
        self._next = 0

    def extend(self, faces: Sequence[int]) -> None:
        self._faces.extend(faces)

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._next

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        if self.remaining < n:
            raise DiceExhausted(
                f"the script has {self.remaining} faces left but {purpose} needs {n}d{sides}"
            )
        out = self._faces[self._next : self._next + n]
        self._next += n
        return out

    def get_state(self) -> object:
        return self._next

    def set_state(self, state: object) -> None:
        assert isinstance(state, int)
        self._next = state


TypedCallback = Callable[[int, int, str], Sequence[int]]


class TypedSource:
    """Faces typed in by players who roll physical dice.

    ``ask(n, sides, purpose)`` is called for every roll and must return the faces
    shown; :class:`Dice` refuses a face that is not on the die.
    """

    trusted: ClassVar[bool] = False

    def __init__(self, ask: TypedCallback) -> None:
        self._ask = ask

    def faces(self, n: int, sides: int, purpose: str) -> Sequence[int]:
        return self._ask(n, sides, purpose)

    def get_state(self) -> object:
        return None

    def set_state(self, state: object) -> None:
        return None


class DiceMark(NamedTuple):
    """Where the dice stood, so a refused action can put them back."""

    source_state: object
    history_length: int
    queued: tuple[int, ...]


class Dice:
    """The one place dice are rolled. Every roll is appended to :attr:`history`."""

    def __init__(self, source: DiceSource | None = None) -> None:
        self.source: DiceSource = source if source is not None else SeededSource()
        self.history: list[Roll] = []
        self._queued: list[int] = []

    @classmethod
    def seeded(cls, seed: int | str | None) -> Dice:
        return cls(SeededSource(seed))

    @classmethod
    def scripted(cls, faces: Sequence[int]) -> Dice:
        return cls(ScriptedSource(faces))

    @classmethod
    def typed(cls, ask: TypedCallback) -> Dice:
        return cls(TypedSource(ask))

    def supply(self, faces: Sequence[int], sides: int | None = 6) -> None:
        """Queue faces of physical dice to be used by the next rolls.

        With ``sides``, each face is checked now; with None (dice of several kinds
        queued together), each is checked against the die that uses it.
        """
        for face in faces:
            _check_face(face, sides if sides is not None else 10**9)
        self._queued.extend(faces)

    @property
    def queued(self) -> tuple[int, ...]:
        return tuple(self._queued)

    def roll(self, n: int, sides: int = 6, purpose: str = "roll") -> Roll:
        """Roll ``n`` dice of ``sides`` sides and record it."""
        if n < 0:
            raise ValueError(f"cannot roll {n} dice")
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        source = self.source
        if not self._queued and getattr(source, "trusted", False):
            # The common case in play and simulation: a seeded source's own faces need no check.
            faces = tuple(source.faces(n, sides, purpose))
        else:
            faces = self._checked(n, sides, purpose)
        result = Roll(sides, faces, purpose)
        self.history.append(result)
        return result

    def _checked(self, n: int, sides: int, purpose: str) -> tuple[int, ...]:
        """Queued faces first, then the source's; every face checked against the die."""
        from_queue = self._queued[:n]
        rest = n - len(from_queue)
        faces = list(from_queue)
        if rest:
            faces.extend(self.source.faces(rest, sides, purpose))
        if len(faces) != n:
            raise FaceOutOfRange(f"{purpose} needs {n} faces, got {len(faces)}")
        for face in faces:
            _check_face(face, sides)
        del self._queued[: len(from_queue)]
        return tuple(faces)

    def d6(self, n: int = 1, purpose: str = "roll") -> Roll:
        return self.roll(n, 6, purpose)

    def mark(self) -> DiceMark:
        """Remember the dice's position (source state, history, queue)."""
        return DiceMark(
            source_state=self.source.get_state(),
            history_length=len(self.history),
            queued=tuple(self._queued),
        )

    def rewind(self, mark: DiceMark) -> None:
        """Go back to ``mark``: the rolls made since are forgotten and will come again."""
        self.source.set_state(mark.source_state)
        del self.history[mark.history_length :]
        self._queued = list(mark.queued)

    def rolls_since(self, mark: DiceMark) -> list[Roll]:
        return self.history[mark.history_length :]


def _check_face(face: int, sides: int) -> None:
    if not isinstance(face, int) or isinstance(face, bool) or not 1 <= face <= sides:
        raise FaceOutOfRange(f"{face!r} is not a face of a d{sides} (1 to {sides})")
