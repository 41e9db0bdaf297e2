"""Bots that play a story through a real play session, line by line: what a ruleset's bots provide.

A ruleset's bots (:class:`Bots`) are picklable: worker processes get them once.
For each run they make a :class:`Bot` with the run's own random generator; the
bot is shown the session (its rules state and story follower) and the reply to
its last line, and types the next line, as a player at the console would. It
also says when the run is over: the story has :attr:`Outcome.ENDED`, or the party
has :attr:`Outcome.FELL`. The simulator stops a run that goes on past its step cap
(:attr:`Outcome.CAPPED`).

What a report counts besides is the ruleset's own: :attr:`Bots.figures` names
them, and :meth:`Bots.count` finds them in a line's events (characters taken
out, wounds, deaths...), :meth:`Bots.final` in the state the run ended in.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from wyrd.play.engine.reply import Reply
    from wyrd.play.engine.session import Session

__all__ = ["Bot", "Bots", "Figure", "Outcome", "kinds", "plain"]


class Outcome(enum.StrEnum):
    """How a run ended."""

    ENDED = "ended"  # the story came to its end
    FELL = "fell"  # the party could not go on
    CAPPED = "capped"  # still going at the step cap


@dataclass(frozen=True)
class Figure:
    """One number a run adds to the report: its key in :meth:`Bots.count`, and what it is."""

    key: str
    label: str


class Bot(Protocol):
    """One run's player: the next line to type, and whether the run is over."""

    def over(self, session: Session) -> Outcome | None:
        """:attr:`Outcome.ENDED` or :attr:`Outcome.FELL` once the run is over; None while it goes on."""
        ...

    def next_line(self, session: Session, last: Reply | None) -> str:
        """The line to type now, given the session and the reply to the previous line."""
        ...


class Bots(Protocol):
    """A ruleset's bots: the policies they play by, and the figures they count."""

    @property
    def policies(self) -> tuple[str, ...]: ...

    @property
    def figures(self) -> tuple[Figure, ...]: ...

    def bot(self, policy: str, rng: random.Random, players: int | None) -> Bot:
        """A new player for one run (SimError if ``players`` can't be played)."""
        ...

    def count(self, events: Sequence[Mapping[str, Any]], session: Session) -> Mapping[str, int]:
        """What a line's events add to the figures (``session``: as the line left it)."""
        ...

    def final(self, session: Session) -> Mapping[str, int]:
        """Figures read from the state the run ended in."""
        ...


def plain(event: Any) -> Mapping[str, Any]:
    """An event as a mapping: the bots read a reply's typed events as their JSON, as a script would."""
    if isinstance(event, Mapping):
        return event
    numbered = getattr(event, "plain", None)  # an event with its number (a Reply's)
    if callable(numbered):
        flat: Mapping[str, Any] = numbered()
        return flat
    dump = getattr(event, "model_dump", None)
    if dump is None:
        raise TypeError(f"not an event: {event!r}")
    found: Mapping[str, Any] = dump(mode="json")
    return found


def kinds(events: Sequence[Any]) -> list[Mapping[str, Any]]:
    """A reply's events as mappings, in order."""
    return [plain(e) for e in events]
