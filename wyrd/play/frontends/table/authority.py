"""Who may carry out a line at the table (issue 20, point 4); the rules are not asked.

A command that moves a character (the words typed name one: ``attempt gate by Ada``, ``harm Ada body 2``)
is accepted only from the seat that holds it, or from anyone once the host has ``open``-ed the
table; a command naming several held characters needs the seat to hold them all. A character that
no seat holds (the story's own, one nobody took) is the whole table's. Table-wide commands (those
of :data:`TABLE_WIDE`, and any change that names no character: ``scene``, ``ask``, ``end scene``,
``pc take Ada``) follow the host's setting ``scenes``: anyone (the default) or the host alone.
Looks change nothing and are always allowed, but for :data:`HOST_ONLY`. Nothing here changes the
game: a refused line is never seen by the console.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from wyrd.play.engine.session import Session
from wyrd.play.engine.words import UsageError, split_line

if TYPE_CHECKING:
    from wyrd.play.frontends.table.seats import Seat, SeatBook

__all__ = ["HOST_ONLY", "TABLE_WIDE", "characters", "check", "named", "typed"]

#: Verbs that concern the whole table even when they name characters (``scene with A, B``,
#: ``ask ... by A``, a montage or a fight the company takes on together).
TABLE_WIDE = frozenset({"scene", "end", "ask", "story", "undo", "inspire", "finale", "session", "montage",
                        "extended", "initiative", "fight", "cancel", "abandon", "option"})


#: Verbs that act on the host's machine or its narrator rather than the game: a file written where
#: the host's Wyrd runs (`export`), the model that tells the story (`narrator`).
HOST_ONLY = frozenset({"export", "narrator"})


def characters(session: Session) -> list[str]:
    """The names of the game's characters, as the ruleset's completion knows them."""
    try:
        found = session.kit.words("character", session.state, session.follower)
    except Exception:
        return []
    return list(found or {})


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def named(args: Any, names: list[str]) -> set[str]:
    """The characters of ``names`` that a command's canonical arguments name."""
    folded = {n.casefold(): n for n in names}
    return {folded[s.casefold()] for s in _strings(args) if s.casefold() in folded}


def typed(line: str, names: set[str]) -> set[str]:
    """Those of ``names`` the line itself names (a name or the start of one), not those a verb filled
    in by default (a bare ``wyrd`` calls on everyone present: that is the table's, not a move of each)."""
    try:
        words = [w.casefold() for w in split_line(line)[1:] if w]
    except UsageError:
        return set()
    return {n for n in names if any(n.casefold().startswith(w) for w in words)}


def check(session: Session, book: SeatBook, seat: Seat, line: str) -> str | None:
    """Why ``seat`` may not carry out ``line`` (None: it may, or the console will say what is wrong)."""
    try:
        command = session.parse(line)
    except UsageError:
        return None  # the console refuses it with the reader's own words
    if command.key in HOST_ONLY and not seat.host:
        return f"only the host may use {command.key} at a shared table (it acts on the host's machine)"
    if not command.verb.is_change(command.args):
        return None
    moved = set() if command.key in TABLE_WIDE else typed(line, named(command.args, characters(session)))
    if not moved:
        if book.setting("scenes", "anyone") == "host" and not seat.host:
            return f"only the host may use {command.key} at this table (the host's setting: scenes host)"
        return None
    if book.setting("characters", "closed") == "open":
        return None
    claims = book.claims()
    names = {s.id: s.name for s in book.seats()}
    for character in sorted(moved):
        holder = claims.get(character)
        if holder is None or holder == seat.id:
            continue  # a character nobody holds (the story's, one nobody took) is the table's
        return (f"{character} is {names.get(holder, 'another seat')}'s to move "
                "(the host may `open` the table to let anyone move anyone)")
    return None
