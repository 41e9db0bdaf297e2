"""What a line did, and why a session cannot go on: the words a session answers in.

A :class:`Reply` is what one line did: the events it caused, each a
:class:`~wyrd.play.engine.events.Recorded` (its number and the typed event), or the
refusal that says why it changed nothing (:func:`refusal`, never saved). After
:meth:`~wyrd.play.engine.session.Session.act` it carries the moments the committed
command leaves to tell (:class:`Untold`, never saved either).

A :class:`SessionError` says the session cannot go on as asked; :func:`new_state`
raises one for a ruleset the registry does not know. The session and its history
(:mod:`wyrd.play.engine.history`) both answer in these words.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from wyrd.play.engine.events import Recorded, Refused, plain
from wyrd.rules.defaults import empty_list

if TYPE_CHECKING:
    from wyrd.play.engine.narration import Moments

__all__ = ["Reply", "SessionError", "Untold", "new_state", "refusal"]


def new_state(ruleset: str) -> Any:
    """An empty game of ``ruleset`` (its rules package's ``GameState``, found in the registry).

    Made from the model's defaults, which pydantic takes unvalidated either way, without its
    validator: building that validator (the whole state's, about 3 ms) waited before every
    first prompt, where nothing validates a state until a snapshot is read (bench/RESULTS.md,
    issue 21, point 2).
    """
    from wyrd.rulesets import UnknownRuleset, find_ruleset

    try:
        module = find_ruleset(ruleset).load()
    except UnknownRuleset as exc:
        raise SessionError(str(exc)) from None
    return module.GameState.model_construct()


class SessionError(Exception):
    """The session cannot go on as asked (a save that cannot be replayed, ...)."""


class Untold:
    """A committed command's moments still to be told (:meth:`~wyrd.play.engine.session.Session.tell`); never saved.

    ``command`` is the command's number in the save, ``line`` the line that made it,
    ``events`` what it committed (numbered) and ``moments`` what is left to tell.
    """

    __slots__ = ("command", "events", "line", "moments")

    def __init__(self, command: int, line: str, events: tuple[Recorded, ...], moments: Moments) -> None:
        self.command = command
        self.line = line
        self.events = events
        self.moments = moments

    def __repr__(self) -> str:
        return f"Untold(command={self.command}, line={self.line!r}, moments={len(self.moments.requests)})"


class Reply(BaseModel):
    """What a line did: the events it caused (typed, with their numbers), or why it was refused.

    After :meth:`~wyrd.play.engine.session.Session.act`, ``untold`` holds the moments the
    committed command leaves to tell.
    """

    # built at the first reply, after the prompt is shown
    model_config = ConfigDict(frozen=True, defer_build=True, arbitrary_types_allowed=True)

    line: str
    verb: str | None = None
    events: list[Recorded] = Field(default_factory=empty_list)
    refused: Recorded | None = None  # a Refused event, numbered None: it is never saved
    changed: bool = False
    untold: Untold | None = Field(default=None, exclude=True)

    @property
    def reason(self) -> str | None:
        """Why the line was refused (None: it was not)."""
        return self.refused.event.reason if self.refused is not None and isinstance(self.refused.event, Refused) \
            else None

    def plain(self) -> list[dict[str, Any]]:
        """The events as JSON, the refusal alone when refused (for a front-end's edge)."""
        return plain([self.refused] if self.refused is not None else self.events)


def refusal(command: str, reason: str, rule: str) -> Recorded:
    """A refused line's event, numbered None."""
    return Recorded(seq=None, event=Refused(command=command, reason=reason, rule=rule))
