"""The table's own commands: claims and the host's settings. They change the table, never the game.

``claim NAME`` and ``release NAME`` (a seat holds the characters it moves), ``seats`` (who sits
where); the host alone: ``open`` / ``close`` (anyone may move any character, or only its holder),
``scenes anyone|host`` (who may use table-wide commands), ``revoke SEAT`` (that seat's token stops
working and its connections close), ``webhook URL|off`` (called when it becomes someone's move).
Nothing here is saved in the game's save file: it is kept beside it (:mod:`.seats`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from wyrd.play.engine.words import UsageError, resolve
from wyrd.play.frontends.table.authority import characters
from wyrd.play.frontends.table.outcome import Outcome, refused, reply
from wyrd.play.frontends.table.seats import Seat, SeatBook
from wyrd.play.frontends.view import clean

if TYPE_CHECKING:
    from wyrd.play.engine.session import Session

__all__ = ["COMMANDS", "HOST_ONLY", "complete", "run", "settings"]

COMMANDS = frozenset({"claim", "release", "seats", "open", "close", "scenes", "revoke", "webhook"})
HOST_ONLY = frozenset({"open", "close", "scenes", "revoke", "webhook"})


_reply = reply


def settings(book: SeatBook) -> dict[str, str]:
    """The host's settings: who may move characters, who may use table-wide commands."""
    return {"characters": book.setting("characters", "closed"), "scenes": book.setting("scenes", "anyone")}


def _notice(client_id: str, text: str) -> Outcome:
    return Outcome(private=[{"type": "reply", "id": client_id, "lines": []}],
                   broadcast=[{"type": "notice", "text": clean(text)}], seats_changed=True)


class _Table:
    """What a command works on: the game (to read its characters) and the seats' record."""

    def __init__(self, session: Session, book: SeatBook) -> None:
        self.session, self.book = session, book


def run(session: Session, book: SeatBook, seat: Seat, client_id: str, words: list[str]) -> Outcome:
    """Carry out one of :data:`COMMANDS` (``words[0]``) for ``seat``."""
    verb, rest = words[0].casefold(), words[1:]
    if verb in HOST_ONLY and not seat.host:
        return refused(client_id, f"only the host may use {verb}")
    try:
        return _HANDLERS[verb](_Table(session, book), seat, client_id, rest)
    except UsageError as exc:
        return refused(client_id, str(exc))


def _character(engine: _Table, rest: list[str]) -> str:
    if len(rest) != 1:
        raise UsageError("name one character (put a name of several words in quotes)")
    names = characters(engine.session)
    if not names:
        raise UsageError("there are no characters yet: `pc take NAME` or `pc add ...` makes one")
    return resolve(rest[0], names, "character")


def _claim(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    name = _character(engine, rest)
    holder = engine.book.claims().get(name)
    if holder == seat.id:
        return _reply(client_id, f"You hold {name} already.")
    if holder is not None:
        other = engine.book.get(holder)
        raise UsageError(f"{name} is held by {other.name if other else 'another seat'}: "
                         "they `release` it first")
    engine.book.claim(name, seat.id)
    return _notice(client_id, f"{seat.name} holds {name}.")


def _release(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    name = _character(engine, rest)
    holder = engine.book.claims().get(name)
    if holder is None:
        raise UsageError(f"nobody holds {name}")
    if holder != seat.id and not seat.host:
        raise UsageError(f"{name} is not yours to release")
    engine.book.release(name)
    return _notice(client_id, f"{seat.name} releases {name}.")


def _seats(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    claims = engine.book.claims()
    rows = []
    for other in engine.book.seats():
        if other.revoked:
            continue
        held = ", ".join(sorted(c for c, s in claims.items() if s == other.id)) or "no character"
        rows.append(f"  {other.name}{' (host)' if other.host else ''}: {held}")
    settings_now = settings(engine.book)
    who = "anyone may move any character" if settings_now["characters"] == "open" else "each seat moves its own"
    return _reply(client_id, "Seats:", *rows, f"Characters: {who}; table-wide commands: {settings_now['scenes']}.")


def _open(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    engine.book.set("characters", "open")
    return _notice(client_id, "The host opens the table: anyone may move any character.")


def _close(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    engine.book.set("characters", "closed")
    return _notice(client_id, "The host closes the table: each seat moves the characters it holds.")


def _scenes(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    if len(rest) != 1 or rest[0].casefold() not in ("anyone", "host"):
        raise UsageError("scenes anyone, or scenes host: who may use table-wide commands (scene, ask, end scene)")
    who = rest[0].casefold()
    engine.book.set("scenes", who)
    return _notice(client_id, "Table-wide commands: " + ("anyone may use them." if who == "anyone"
                                                          else "the host alone uses them."))


def _revoke(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    if len(rest) != 1:
        raise UsageError("revoke SEAT: the name of the seat to turn away")
    names = [s.name for s in engine.book.seats() if not s.revoked and not s.host]
    target = engine.book.by_name(resolve(rest[0], names, "seat"))
    if target is None:
        raise UsageError(f"no seat called {rest[0]!r}")
    engine.book.revoke(target.id)
    out = _notice(client_id, f"The host revokes {target.name}'s seat.")
    out.drop.append(target.id)
    return out


def _webhook(engine: _Table, seat: Seat, client_id: str, rest: list[str]) -> Outcome:
    if len(rest) != 1:
        raise UsageError("webhook URL (a Discord-compatible webhook), or webhook off")
    if rest[0].casefold() == "off":
        engine.book.set("webhook", "")
        return _reply(client_id, "No webhook: nobody is called when it is their move.")
    parts = urlsplit(rest[0])
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise UsageError("a webhook is an http:// or https:// address")
    engine.book.set("webhook", rest[0])
    return _reply(client_id, f"The webhook at {parts.netloc} is called when it becomes someone's move.")


_Handler = Callable[[_Table, Seat, str, list[str]], Outcome]
_HANDLERS: dict[str, _Handler] = {"claim": _claim, "release": _release, "seats": _seats, "open": _open,
                                  "close": _close, "scenes": _scenes, "revoke": _revoke, "webhook": _webhook}


def complete(session: Session, text: str) -> list[dict[str, Any]]:
    """Completions of the table's own commands (the first word, and the character after claim/release)."""
    words = text.split()
    ending = not text or text[-1].isspace()
    if not words or (len(words) == 1 and not ending):
        typed = words[0].casefold() if words else ""
        return [{"text": c, "start": -len(typed), "display": c, "meta": "the table"}
                for c in sorted(COMMANDS) if c.startswith(typed)]
    if words[0].casefold() in ("claim", "release") and len(words) <= 2:
        typed = "" if ending else words[-1].casefold()
        return [{"text": n if " " not in n else f"'{n}'", "start": -len(typed), "display": n, "meta": ""}
                for n in characters(session) if n.casefold().startswith(typed)]
    return []
