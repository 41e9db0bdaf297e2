"""What a Thaeborn bot decides to do next, as typed moves, and each move as the line a player types.

The bots (:mod:`wyrd.sim.lots.bots`) decide on a :data:`Move`; through a play session
it is typed as its :func:`line`, and the plain-data table (:mod:`wyrd.sim.lots.table`)
applies it directly. The bots read the game through the small views below, which the
rules' own :class:`~wyrd.rules.lots.GameState` and the session's
:class:`~wyrd.stories.lots.ScenarioPlay` have, and so does the plain-data table.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple, Protocol, TypeAlias

from wyrd.rules.lots import Discipline
from wyrd.stories.lots import AssessCall, CheckCall, Scenario, Scene

__all__ = [
    "Assess",
    "Check",
    "Enlist",
    "LastCast",
    "Lots",
    "Move",
    "NextScene",
    "Person",
    "Place",
    "Rest",
    "Retell",
    "Strike",
    "Table",
    "line",
    "spoken",
]


class Condition(Protocol):
    @property
    def pain(self) -> int: ...

    @property
    def incapacitated(self) -> bool: ...


class Person(Protocol):
    """A character as the bots read one."""

    @property
    def name(self) -> str: ...

    @property
    def npc(self) -> bool: ...

    @property
    def portents(self) -> int: ...

    @property
    def condition(self) -> Condition: ...

    def discipline(self, which: Discipline) -> int: ...


class Table(Protocol):
    """The characters in play, in the order they came in."""

    @property
    def characters(self) -> Mapping[str, Person]: ...


class Place(Protocol):
    """Where the run stands in the scenario."""

    @property
    def scenario(self) -> Scenario | None: ...

    @property
    def current(self) -> Scene | None: ...

    @property
    def ended(self) -> bool: ...


class LastCast(NamedTuple):
    """The latest check cast by the previous move (``check_cast``): whose, what for, and whether it failed them."""

    character: str | None
    form: str
    failed: bool


class Enlist(NamedTuple):
    names: tuple[str, ...]  # the story's pregenerated characters to take (none: all of them)


class Check(NamedTuple):
    who: str
    call: CheckCall


class Assess(NamedTuple):
    who: str
    call: AssessCall


class Lots(NamedTuple):
    purpose: str  # the world's secret cast


class Strike(NamedTuple):
    """A blow in a fight: ``defend`` (the NPC strikes ``who``) or ``attack`` (``who`` strikes the NPC)."""

    verb: str
    who: str
    npc: str
    effort: int


class Retell(NamedTuple):
    who: str


class Rest(NamedTuple):
    who: str


class NextScene(NamedTuple):
    pass


Move: TypeAlias = Enlist | Check | Assess | Lots | Strike | Retell | Rest | NextScene


def spoken(text: str) -> str:
    """A name or a text as it goes between the quotes of a line."""
    return text.replace('"', "'")


def _q(text: str) -> str:
    return f'"{spoken(text)}"'


def line(move: Move) -> str:
    """The line a player types for ``move``."""
    if isinstance(move, Enlist):
        return "pc take " + " ".join(_q(n) for n in move.names) if move.names else "pc take all"
    if isinstance(move, Check):
        c = move.call
        effort = f" effort={c.effort}" if c.effort else ""
        return f"check {_q(move.who)} {c.discipline.value} vs {c.difficulty}{effort} {_q(c.purpose)}"
    if isinstance(move, Assess):
        a = move.call
        living = " living" if a.living else ""
        return f"assess {_q(move.who)} {a.discipline.value} {a.tier} {a.commitment.value}{living} {_q(a.subject)}"
    if isinstance(move, Lots):
        return f"lots {_q(move.purpose)}"
    if isinstance(move, Strike):
        if move.verb == "defend":
            return f"defend {_q(move.who)} against {_q(move.npc)} effort={move.effort}"
        return f"attack {_q(move.who)} {_q(move.npc)} effort={move.effort}"
    if isinstance(move, Retell):
        return f"retell {_q(move.who)}"
    if isinstance(move, Rest):
        return f"rest {_q(move.who)}"
    return "scene"
