"""A Wolden game as plain data, for the fast simulator: what one run changes, and nothing else.

The rules core's state (:class:`wyrd.rules.wolden.GameState`) is pydantic data that every
action copies; a simulated run needs neither the copy nor the validation, only the
numbers the rules and the bots read. These classes hold them with the names the rules'
models use, so the bots (:class:`wyrd.sim.wolden.bots.WoldenBot`) read a plain game
exactly as they read a session's. The story's part that never changes in a run (gifts,
cults, scenes) stays the story's own models, shared by every run.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import wyrd.rules.wolden as W

__all__ = ["Challenge", "Char", "Damage", "Fight", "Foe", "Pending", "PlainGame", "Rounds"]

Damage = tuple[int, int, int]
"""A damage roll: how many dice, their sides, the bonus (1d4+1 is ``(1, 4, 1)``)."""


class Char:
    """A character sheet: the scores, damage, slots, gifts and wounds the rules change."""

    __slots__ = ("cult", "damage", "gifts", "name", "out", "scores", "slots", "wounds")

    def __init__(self, sheet: W.Character) -> None:
        self.name = sheet.name
        self.cult = sheet.cult
        self.scores = dict(sheet.scores)
        self.damage = dict(sheet.damage)
        self.slots = sheet.slots
        self.gifts = list(sheet.gifts)
        self.wounds = sheet.wounds
        self.out = sheet.out

    def current(self, ability: W.Ability) -> int:
        """The ability as it stands: the score less its damage."""
        return self.scores[ability] - self.damage[ability]

    @property
    def free_slots(self) -> int:
        return self.slots - sum(g.slots for g in self.gifts) - self.wounds

    def holds(self, gift: W.Gift) -> bool:
        return any(g.id == gift.id for g in self.gifts)


class Foe:
    """An enemy of a fight: its harm taken, and whom its table of actions goes for."""

    __slots__ = ("actions", "damage", "harm", "id", "taken")

    def __init__(self, ident: str, harm: int, damage: Damage, actions: tuple[str | None, ...]) -> None:
        self.id = ident
        self.harm = harm
        self.damage = damage
        self.actions = actions  # each row's target (weakest, strongest; else the dice choose)
        self.taken = 0

    @property
    def defeated(self) -> bool:
        return self.taken >= self.harm


@dataclass
class Rounds:
    participants: list[str]
    number: int = 1
    acted: list[str] = field(default_factory=list)


@dataclass
class Challenge:
    """An extended challenge or a travel montage (its situations change nothing the rules count)."""

    id: str
    rounds: Rounds
    start: int
    rating: int
    danger: Damage | None
    kind: str = "extended"


@dataclass
class Fight:
    id: str
    rounds: Rounds
    enemies: dict[str, Foe]
    kind: str = "fight"


@dataclass(frozen=True)
class Pending:
    """A roll opened and not yet rolled."""

    lead: str
    ability: W.Ability
    dice: int
    against: str | None


@dataclass
class PlainGame:
    """A whole run's game: the characters, the encounter under way, the roll open, the session.

    ``session_run`` and ``sitting`` stand for the play sessions' ids (the rules compare them
    and nothing else): a run begins in sitting 0, and each new session the players call
    begins the next.
    """

    characters: dict[str, Char] = field(default_factory=dict)
    encounter: Challenge | Fight | None = None
    pending: Pending | None = None
    downtime: list[str] = field(default_factory=list)
    session_run: int | None = None
    sitting: int = 0
