"""The table's protocol: what a seat and the host say to each other over ``WS /ws``.

Every message is one JSON object (a text frame) with a ``"type"``. Log entries are numbered by the
save file's command numbers (``n``), so a host restarted with ``--resume`` numbers as before and a
seat that comes back after entry N is sent exactly the entries after N, read back from the save.
(Command numbers, not event numbers: an ``undo`` is an entry of the log but records no event.)

The first message a seat sends::

    {"type": "hello", "invite": TOKEN, "name": "Bea"}       a new seat, with the invitation's token
    {"type": "hello", "seat": SEAT_TOKEN, "after": N}        a returning seat; N: the last entry it saw

The host answers ``{"type": "welcome", "seat": SEAT_TOKEN, "name": ..., "host": bool,
"characters": [...], "table": {"story": ..., "title": ..., "ruleset": ..., "characters": "closed"|"open",
"scenes": "anyone"|"host"}, "last": N}`` (``seat`` only to a new seat: keep it to come back), then
``{"type": "digest", "lines": [...]}`` if it missed entries since it last left, then every ``log``
entry after N, then a ``view`` and a ``seats``.

A seat then sends::

    {"type": "line", "id": "<client id>", "text": "attempt ..."}   a command; the id makes a resent
                                                                   line apply once
    {"type": "complete", "id": "<client id>", "text": "att"}       -> {"type": "completions", "id",
                                                                      "items": [{"text", "meta"}]}

To every seat, in one order, after the command is committed to the save::

    {"type": "log", "n": N, "by": "Bea", "id": "<the sender's line id>", "line": "attempt ...",
     "typed": bool (faces of real dice typed in the line), "undoes": M | null,
     "lines": [{"text": ..., "style": ...}], "events": [...]}
    {"type": "view", "panels": {"frame": [...], "sheets": [...], "hints": [...], "exits": [...],
     "turn": [...], "status": [...], "toolbar": [[[style, text], ...], ...], "prompt": "scene 1> "}}
    {"type": "seats", "seats": [{"name", "characters", "host", "online"}], "table": {...}}

``view`` (and ``welcome``) also carry ``"moves": [{"label", "line", "send": bool}]``: the ruleset's
common moves now, from its kit (``send`` false: the line is put in the command line to finish).

The entry is the truth (what happened, committed); its narration follows, told to every seat as
it is written (:mod:`.telling`)::

    {"type": "prose", "n": N, "chunk": "..."}            a model's words as they come
    {"type": "prose_withdrawn", "n": N, "lines": [...]}  the words streamed so far are taken back
                                                         (a reply refused part-way): these instead
    {"type": "prose_done", "n": N, "lines": [...]}       once, the end: the rest of the lines, which
                                                         replace whatever was streamed

The ``lines`` of entry N's ``prose_withdrawn`` and ``prose_done``, in order, are its narration: a
seat that catches up is sent the entry with them in its own ``lines``, read back from the save.
With the tables alone nothing streams: ``prose_done`` brings the lines right after the entry.

To the sender only::

    {"type": "reply", "id": ..., "lines": [...]}       what a look (`pc`, `look`, `help`) shows
    {"type": "refused", "id": ..., "reason": ...}      a line refused (by the rules or the table)
    {"type": "duplicate", "id": ..., "n": N}           a line already applied, as entry N
    {"type": "error", "reason": ..., "code": ...}      the connection is refused or dropped, then closed

An error's ``code`` says what a seat may do: ``rate`` (too many messages) and ``full`` (too many
connections): wait and come back by itself; ``unknown_seat`` and ``revoked``: forget the seat token
(ask for the invitation); ``invite``, ``name``, ``locked``, ``origin``, ``too_big``, ``malformed``,
``hello``: say why and stop.

The table's own commands, carried out by the table layer (never saved): ``claim NAME``,
``release NAME``, ``seats``; the host only: ``open`` / ``close`` (anyone may move any character,
or only its holder), ``scenes anyone|host`` (who may use table-wide commands), ``revoke SEAT``,
``webhook URL|off``, ``invite``.

Limits (each refusal says which): a frame of at most :data:`MAX_MESSAGE` bytes; at most
:data:`RATE` messages a second per connection (bursts of :data:`BURST`); at most
:data:`MAX_CONNECTIONS` connections; :data:`MAX_WRONG_TOKENS` wrong tokens from one address in
:data:`WRONG_TOKEN_WINDOW` seconds; a seat more than :data:`QUEUE_LIMIT` messages behind is dropped
(it reconnects and catches up). A browser's ``Origin`` must be the host's own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

__all__ = [
    "BURST", "MAX_CONNECTIONS", "MAX_ID", "MAX_MESSAGE", "MAX_NAME", "MAX_WRONG_TOKENS", "QUEUE_LIMIT", "RATE",
    "WRONG_TOKEN_WINDOW", "Complete", "Hello", "LineMessage", "ProtocolError", "dumps", "parse",
]

#: The largest frame a seat may send, in bytes (a line is at most 4,096 characters).
MAX_MESSAGE = 32 * 1024
#: Messages a second per connection, and the burst allowed above that rate.
RATE = 20.0
BURST = 40
#: Connections at once (browsers, terminals, and those still saying hello).
MAX_CONNECTIONS = 64
#: Wrong tokens one address may send in a window of so many seconds before it is refused.
MAX_WRONG_TOKENS = 5
WRONG_TOKEN_WINDOW = 60.0
#: Messages waiting for one seat before it is dropped as too slow.
QUEUE_LIMIT = 1024
#: The longest client id and seat name.
MAX_ID = 64
MAX_NAME = 40


class ProtocolError(ValueError):
    """A message that does not follow the protocol (its text is the reason sent back)."""


@dataclass(frozen=True)
class Hello:
    invite: str | None
    seat: str | None
    name: str
    after: int


@dataclass(frozen=True)
class LineMessage:
    id: str
    text: str


@dataclass(frozen=True)
class Complete:
    id: str
    text: str


def _text(message: dict[str, Any], key: str, longest: int, *, default: str | None = None) -> str:
    value = message.get(key, default)
    if not isinstance(value, str):
        raise ProtocolError(f"{key!r} must be text")
    if len(value) > longest:
        raise ProtocolError(f"{key!r} may be at most {longest} characters")
    return value


def parse(frame: str | bytes) -> Hello | LineMessage | Complete:
    """A seat's frame read into its message; :class:`ProtocolError` says what is wrong with it."""
    if len(frame) > MAX_MESSAGE:
        raise ProtocolError(f"a message may be at most {MAX_MESSAGE:,} bytes")
    try:
        message = json.loads(frame)
    except (ValueError, UnicodeDecodeError):
        raise ProtocolError("a message must be one JSON object") from None
    if not isinstance(message, dict):
        raise ProtocolError("a message must be one JSON object")
    kind = message.get("type")
    if kind == "hello":
        after = message.get("after", 0)
        if not isinstance(after, int) or isinstance(after, bool) or after < 0:
            raise ProtocolError("'after' must be a whole number, 0 or more")
        invite = message.get("invite")
        seat = message.get("seat")
        if (invite is None) == (seat is None):
            raise ProtocolError("hello needs either 'invite' (a new seat) or 'seat' (a returning one)")
        return Hello(invite=_text(message, "invite", 200) if invite is not None else None,
                     seat=_text(message, "seat", 200) if seat is not None else None,
                     name=_text(message, "name", MAX_NAME, default="").strip(), after=after)
    if kind == "line":
        from wyrd.play.frontends.console import MAX_LINE

        return LineMessage(id=_text(message, "id", MAX_ID), text=_text(message, "text", MAX_LINE))
    if kind == "complete":
        return Complete(id=_text(message, "id", MAX_ID, default=""), text=_text(message, "text", 4096))
    raise ProtocolError(f"unknown message type {str(kind)[:40]!r}: hello, line or complete")


def dumps(message: dict[str, Any]) -> str:
    """A message as its frame (compact JSON)."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)
