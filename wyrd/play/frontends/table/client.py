"""A seat's side of the connection, for ``wyrd join`` and the host's own terminal.

:class:`RemoteTable` says hello, keeps what the host last sent (the view, the seats, the last log
entry's number), hands every message to a callback, and reconnects after a drop with its seat
token and ``after`` = the last entry it saw, so it is sent exactly what it missed. A line is sent
with a client id and resent with the same id after a reconnect if its answer never came: the host
applies it once (issue 20, point 5). The seat token is kept in the player's data folder, one per
table, so ``wyrd join`` again takes the same seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from wyrd.play.frontends.table.protocol import dumps

__all__ = ["Invitation", "RemoteTable", "TableRefused", "invitation_mark", "parse_link", "seats_file"]

#: What ends a wait for one line's answer (the host is a single writer: a line is quick).
ANSWER_TYPES = frozenset({"log", "refused", "reply", "duplicate"})


class TableRefused(Exception):
    """The host refused the seat (a wrong token, a full table ...): the reason, as the host said it."""


class Invitation:
    """A link read: the WebSocket address and the token it carries."""

    def __init__(self, ws_url: str, base: str, invite: str | None, seat: str | None) -> None:
        self.ws_url, self.base, self.invite, self.seat = ws_url, base, invite, seat


def parse_link(link: str) -> Invitation:
    """``http://HOST:PORT/#invite=TOKEN`` (or ``#seat=TOKEN``) read; ValueError if it is not one."""
    parts = urlsplit(link.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise ValueError(f"{link!r} is not a table's link (http://HOST:PORT/#invite=TOKEN)")
    found = parse_qs(parts.fragment)
    invite = found["invite"][0] if found.get("invite") else None
    seat = found["seat"][0] if found.get("seat") else None
    scheme = "wss" if parts.scheme == "https" else "ws"
    path = parts.path.rstrip("/")
    return Invitation(f"{scheme}://{parts.netloc}{path}/ws", f"{parts.scheme}://{parts.netloc}{path}", invite, seat)


def seats_file() -> Path:
    from wyrd.play.engine.paths import data_dir

    return data_dir() / "seats.json"


def _load_seats(path: Path) -> dict[str, Any]:
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return found if isinstance(found, dict) else {}


def invitation_mark(invite: str | None) -> str:
    """What tells one table's invitation from another's, kept beside a seat (not the token itself)."""
    return hashlib.sha256(invite.encode("utf-8")).hexdigest()[:32] if invite else ""


def _keep_seat(path: Path, base: str, token: str, last: int = 0, invited: str = "") -> None:
    """Remember the seat token for ``base``, the last entry seen and the invitation it came by
    (:func:`invitation_mark`); written beside, then moved into place; only its owner reads it."""
    seats = _load_seats(path)
    seats[base] = {"seat": token, "last": last, "invited": invited}
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        part = path.with_name(f".{path.name}.part-{os.getpid()}")
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(seats, out)
        os.replace(part, path)


class Link(Protocol):
    """What a seat uses of its connection: a websockets client connection, or the host's own seat's
    stream (:class:`~wyrd.play.frontends.table.direct.SeatSide`)."""

    async def send(self, message: str) -> None: ...
    def __aiter__(self) -> AsyncIterator[str | bytes]: ...
    async def close(self) -> None: ...


class RemoteTable:
    """One seat at a remote table: connection, reconnection, lines, completions."""

    def __init__(self, invitation: Invitation, *, name: str = "", on_message: Callable[[dict[str, Any]], None],
                 keep: Path | None = None, seat: str | None = None) -> None:
        self.invitation = invitation
        self.name = name
        self.on_message = on_message
        self.keep = keep
        stored = _load_seats(keep).get(invitation.base) if keep is not None else None
        if isinstance(stored, str):
            stored = {"seat": stored}
        kept = stored if isinstance(stored, dict) and isinstance(stored.get("seat"), str) else {}
        if invitation.invite and kept.get("invited") != invitation_mark(invitation.invite):
            kept = {}  # another table at the same address (a new game on the same port): join it anew
        self.invited = invitation_mark(invitation.invite) or str(kept.get("invited", ""))
        self.seat: str | None = seat or invitation.seat or kept.get("seat")
        # A seat taken again in a new process: the host tells what happened since it last saw the table.
        # ``last`` is the last entry seen whole, its narration told (``prose_done``): a seat that drops
        # while an entry is told asks for that entry again, and gets its narration too.
        self.last = int(kept.get("last", 0)) if self.seat == kept.get("seat") else 0
        self.shown = self.last  # the last entry whose result was handed on (its narration perhaps not)
        self._whole = 0  # entries up to this one come whole on joining (their narration in their lines)
        self.view: dict[str, Any] = {}
        self.seats: dict[str, Any] = {}
        self.welcome: dict[str, Any] = {}
        self.ws: Link | None = None
        # The host's own seat: the table's frames over a stream from the host's process, which ends
        # with the table (never reconnected); None: a WebSocket to the invitation's address.
        self.direct: Link | None = None
        self._gone: tuple[type[Exception], ...] = (OSError,)  # what a send to a closed connection raises
        self.connected = asyncio.Event()
        self.closed = False
        self.refused: str | None = None
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._pending: dict[str, str] = {}  # lines sent and not yet answered: id -> text
        self._tasks: set[asyncio.Future[None]] = set()

    # -- the connection ---------------------------------------------------------------------

    def _hello(self) -> dict[str, Any]:
        if self.seat is not None:
            return {"type": "hello", "seat": self.seat, "after": self.last}
        return {"type": "hello", "invite": self.invitation.invite or "", "name": self.name}

    async def run(self) -> None:
        """Stay connected until :meth:`close`, reconnecting after a drop; raises :class:`TableRefused`.

        Over :attr:`direct`, until that stream ends (the table is closing)."""
        if self.direct is not None:
            await self._run_direct(self.direct)
            return
        # Loaded here: the host's own seat, served over a stream, never needs them.
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

        self._gone = (OSError, ConnectionClosed)
        delay = 0.2
        was_connected = False
        while not self.closed:
            try:
                async with connect(self.invitation.ws_url, max_size=None, open_timeout=10,
                                   ping_interval=20, ping_timeout=40) as ws:
                    self.ws = ws
                    await ws.send(dumps(self._hello()))
                    delay = 0.2
                    async for frame in ws:
                        self._take(json.loads(frame))
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                pass
            except InvalidURI as exc:
                self.refused = str(exc)
            finally:
                self.ws = None
                was_connected = was_connected or self.connected.is_set()
                self.connected.clear()
            self._raise_refused()
            if self.closed:
                break
            if was_connected:  # said once a drop, not at every try
                self.on_message({"type": "notice", "text": "The connection to the table dropped; reconnecting..."})
                was_connected = False
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)

    async def _run_direct(self, link: Link) -> None:
        self.ws = link
        try:
            await link.send(dumps(self._hello()))
            async for frame in link:
                self._take(json.loads(frame))
        except OSError:
            pass
        finally:
            self.ws = None
            self.connected.clear()
        self._raise_refused()  # otherwise the table is closing: its host's word to the seat says so

    def _raise_refused(self) -> None:
        if self.refused is not None:
            self._fail_waiting()
            raise TableRefused(self.refused)

    def _fail_waiting(self) -> None:
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(TableRefused(self.refused or "the table closed"))

    async def close(self) -> None:
        self.closed = True
        if self.keep is not None and self.seat is not None:
            _keep_seat(self.keep, self.invitation.base, self.seat, self.last, self.invited)
        if self.ws is not None:
            await self.ws.close()

    def _take(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.welcome = message
            self._whole = int(message.get("last", 0))
            if message.get("seat"):
                self.seat = str(message["seat"])
                if self.keep is not None:
                    _keep_seat(self.keep, self.invitation.base, self.seat, invited=self.invited)
            self.connected.set()
            # Lines sent whose answer never came: resent with their ids, applied at most once.
            for line_id, text in list(self._pending.items()):
                resend = asyncio.ensure_future(self._send({"type": "line", "id": line_id, "text": text}))
                self._tasks.add(resend)
                resend.add_done_callback(self._tasks.discard)
        elif kind == "error":
            if self.ws is None or not self.connected.is_set():
                self.refused = str(message.get("reason", "refused"))
        elif kind == "log":
            n = int(message.get("n", 0))
            # an entry handed on before, sent again because its narration never came: only that is new
            message["again"] = n <= self.shown
            self.shown = max(self.shown, n)
            if n <= self._whole:  # sent on joining, narration and all
                self.last = max(self.last, n)
        elif kind == "prose_done":
            self.last = max(self.last, int(message.get("n", 0)))
        elif kind == "view":
            self.view = message.get("panels", {})
        elif kind == "seats":
            self.seats = message
        answer_id = message.get("id")
        if isinstance(answer_id, str) and (kind in ANSWER_TYPES or kind == "completions"):
            self._pending.pop(answer_id, None)
            future = self._waiting.pop(answer_id, None)
            if future is not None and not future.done():
                future.set_result(message)
        self.on_message(message)

    async def _send(self, message: dict[str, Any]) -> None:
        ws = self.ws
        if ws is None:
            return
        with contextlib.suppress(*self._gone):  # closed meanwhile: its answer comes after the reconnection
            await ws.send(dumps(message))

    # -- what a seat does ---------------------------------------------------------------------

    async def line(self, text: str) -> dict[str, Any]:
        """Send a line and wait for its answer (its log entry, a refusal, a reply), across reconnects."""
        line_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[line_id] = future
        self._pending[line_id] = text
        if self.connected.is_set():
            await self._send({"type": "line", "id": line_id, "text": text})
        return await future

    async def complete(self, text: str, timeout: float = 2.0) -> list[dict[str, Any]]:
        """What the host offers for ``text`` (nothing if it does not answer in time)."""
        if not self.connected.is_set():
            return []
        ask_id = uuid.uuid4().hex
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[ask_id] = future
        await self._send({"type": "complete", "id": ask_id, "text": text})
        try:
            answer = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self._waiting.pop(ask_id, None)
            return []
        items = answer.get("items")
        return items if isinstance(items, list) else []

