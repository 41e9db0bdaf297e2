"""What a live front-end overrides to show a command's moments as they are told.

The console (:class:`~wyrd.play.frontends.console.Console`) hands each moment to a
:class:`Live`; the terminal's prose and the shared table's telling show them. It lives apart
from the console (which re-exports it) so that the REPL's prose can be imported by a seat
of a shared table (``wyrd join``) without the session, the rules and pydantic.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wyrd.play.frontends.view import Line

__all__ = ["Live"]


class Live:
    """A front-end that shows a command's moments as they are told, before :meth:`Console.tell` returns.

    Override what you show; each does nothing here. For each moment, in order: the pieces
    of a model's reply as they come (:meth:`words`), then, once the moment is settled,
    :meth:`withdraw` if those pieces are taken back (the reply was refused or failed part
    way, or what is kept differs from what was shown), and :meth:`told` with the moment's
    line.
    """

    def words(self, text: str) -> None:
        """A piece of a model's reply, cleaned and checked: shown as it comes, set apart as prose."""

    def withdraw(self, text: str) -> None:
        """The pieces shown since the moment began (``text``, joined) are taken back: erase them."""

    def told(self, line: Line, *, streamed: bool) -> None:
        """A moment's line, settled. ``streamed``: its words are on screen already (end the line)."""
