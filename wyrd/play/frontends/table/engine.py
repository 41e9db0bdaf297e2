"""The table's single writer: one console, one save, lines carried out one at a time.

:class:`TableEngine` is called from one worker thread only (the server sees to it). Each line
goes through the table's authority first (:mod:`.authority`), then to the same
:class:`~wyrd.play.frontends.console.Console` the REPL uses; the session commits a change before it
returns, and only then is the log entry built, *read back from the save*, so a seat that was there
and a seat that catches up later are sent the very same entries (issue 20, points 4 and 5).
Looks (`pc`, `look`, `help`) answer the sender alone. The table's own commands (claims, the host's
settings) are :mod:`.commands`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any

from wyrd.play.engine.kits import moves_now
from wyrd.play.engine.savefile import Record, SaveFile
from wyrd.play.engine.words import UsageError, split_line
from wyrd.play.frontends.console import Console, overlong
from wyrd.play.frontends.table import commands
from wyrd.play.frontends.table.authority import characters, check
from wyrd.play.frontends.table.outcome import Outcome, refused
from wyrd.play.frontends.table.protocol import MAX_NAME, Hello
from wyrd.play.frontends.table.seats import Seat, SeatBook
from wyrd.play.frontends.table.telling import tell
from wyrd.play.frontends.view import Line, clean, describe

__all__ = ["MAKERS", "RECENT_IDS", "TableEngine"]

#: The verbs (and their names) by which a seat takes or makes its own characters, in every kit.
MAKERS = frozenset({"pc", "character"})

#: The client ids remembered per seat (with what each got), for a line resent on a live host.
RECENT_IDS = 256


def _lines(lines: list[Line]) -> list[dict[str, str]]:
    return [{"text": line.text, "style": line.style} for line in lines]


def _plain(texts: list[str]) -> list[str]:
    return [clean(t) for t in texts]


class TableEngine:
    """Carries out the seats' lines against one console, and tells what each did."""

    def __init__(self, console: Console, book: SeatBook) -> None:
        if console.session.save is None:
            raise ValueError("a table needs a save file")
        self.console = console
        self.session = console.session
        self.save: SaveFile = console.session.save
        self.book = book
        # Intentions past the save's end never became commands: forget them.
        self.book.forget_after(self.save.last_seq())
        self.recent: dict[int, OrderedDict[str, dict[str, Any]]] = {}
        self.last = self.save.last_seq()
        self._turn = self._panels([])["turn"]
        meta = self.save.meta
        self.story = str(meta.get("story") or "")
        self.ruleset = str(meta.get("ruleset") or "")
        self.title = self._title()

    def _title(self) -> str:
        """The story's title, as its players read it (the save's ``story_chosen``), or ""."""
        chosen = self.save.last_command_with({"story_chosen"})
        if chosen is None:
            return ""
        record = self.save.commands_since(chosen - 1)[0]
        return next((clean(e.get("title", "")) for e in record.events if e.get("kind") == "story_chosen"), "")

    # -- who holds what ---------------------------------------------------------------

    def table_settings(self) -> dict[str, str]:
        return {"story": self.story, "title": self.title, "ruleset": self.ruleset, **commands.settings(self.book)}

    def seats_message(self, online: set[int]) -> dict[str, Any]:
        claims = self.book.claims()
        seats = [{"name": s.name, "host": s.host, "online": s.id in online,
                  "characters": sorted(c for c, holder in claims.items() if holder == s.id)}
                 for s in self.book.seats() if not s.revoked]
        return {"type": "seats", "seats": seats, "table": self.table_settings()}

    # -- joining ------------------------------------------------------------------------

    def join(self, hello: Hello) -> Outcome:
        """A seat says hello: a new one with the invitation, or a returning one with its token."""
        if hello.invite is not None:
            if not self.book.invite_matches(hello.invite):
                return Outcome(error="wrong invitation token: ask the host for the link again", code="invite")
            name = clean(hello.name).strip()[:MAX_NAME]
            if not name:
                return Outcome(error="say your name to take a seat", code="name")
            if self.book.by_name(name) is not None:
                return Outcome(error=f"the name {name} is taken at this table: choose another", code="name")
            seat, token = self.book.add(name)
            welcome: dict[str, Any] = {"seat": token}
        else:
            found = self.book.find(hello.seat or "")
            if found is None or found.revoked:
                if found is not None:
                    return Outcome(error="the host revoked this seat: ask for the invitation", code="revoked")
                return Outcome(error="this seat is not known here: ask for the invitation", code="unknown_seat")
            seat, welcome = found, {}
        return Outcome(seat=seat, private=self.welcome(seat, hello.after, welcome))

    def welcome(self, seat: Seat, after: int, extra: dict[str, Any] | None = None) -> list[dict[str, Any]]:
        """Everything a seat is sent when it (re)joins: welcome, digest, missed entries, view."""
        after = min(after, self.last)
        claims = self.book.claims()
        out: list[dict[str, Any]] = [{
            "type": "welcome", **(extra or {}), "name": seat.name, "host": seat.host, "last": self.last,
            "characters": sorted(c for c, holder in claims.items() if holder == seat.id),
            "table": self.table_settings(), "moves": self.moves()}]
        entries = self.entries_after(after)
        if entries and after > 0:
            out.append({"type": "digest", "lines": self._digest(seat, entries)})
        out += entries
        out.append(self.view())
        return out

    def left(self, seat_id: int, seen: int) -> None:
        """A seat's connection closed, having been sent entries up to ``seen``."""
        self.book.seen(seat_id, seen, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))

    def _digest(self, seat: Seat, entries: list[dict[str, Any]]) -> list[str]:
        """What happened while ``seat`` was away, in a few lines (issue 20, point 6)."""
        by: dict[str, int] = {}
        for entry in entries:
            who = str(entry.get("by") or "the table")
            by[who] = by.get(who, 0) + 1
        who = ", ".join(f"{name} {count}" for name, count in by.items())
        since = f" (since {seat.left_at})" if seat.left_at else ""
        count = len(entries)
        lines = [f"While you were away{since}: {count} command{'s' if count != 1 else ''} ({who})."]
        scenes = [line["text"] for e in entries for line in e["lines"] if line["style"] == "scene"]
        lines += [f"  {text}" for text in scenes[-3:]]
        turn = self._turn
        if turn:
            lines.append("Now: " + " ".join(turn))
        return lines

    # -- the log, read back from the save ---------------------------------------------------

    def entries_after(self, after: int) -> list[dict[str, Any]]:
        """The log entries after command ``after``, as every seat was sent them."""
        records = self.save.commands_since(after)
        senders = self.book.senders(after)
        names = {s.id: s.name for s in self.book.seats()}
        texts = {r.seq: r.text for r in records}
        return [self._entry(r, senders, names, texts) for r in records]

    def _entry(self, record: Record, senders: dict[int, tuple[int, str, str]], names: dict[int, str],
               texts: dict[int, str]) -> dict[str, Any]:
        sender = senders.get(record.seq)
        if sender is not None and sender[2] != record.text:
            sender = None  # an intention for another line that never ran
        ruleset = self.session.ruleset
        if record.undoes is not None:
            target = texts.get(record.undoes)
            if target is None:
                earlier = self.save.commands_since(record.undoes - 1)
                target = earlier[0].text if earlier else "?"
            shown = [describe({"kind": "undone", "command": target, "command_seq": record.undoes}, ruleset)]
        else:
            shown = [describe(e, ruleset) for e in record.events]
        return {"type": "log", "n": record.seq, "by": names.get(sender[0]) if sender else None,
                "id": sender[1] if sender else None, "line": clean(record.text), "typed": self._typed(record),
                "undoes": record.undoes, "lines": _lines(shown), "events": list(record.events)}

    def _typed(self, record: Record) -> bool:
        """Whether the line carried faces of real dice (issue 20, point 2: marked in the log)."""
        verb = self.session.kit.verbs.verbs().get(str(record.parsed.get("verb")))
        if verb is None:
            return False
        try:
            return bool(verb.typed_faces(record.parsed.get("args") or {}))
        except Exception:  # an old save's arguments of another shape: no typed faces to show
            return False

    # -- the view -----------------------------------------------------------------------------

    def _panels(self, events: list[Any]) -> dict[str, Any]:
        from wyrd.play.frontends.terminal.toolbar import toolbar_lines

        session, kit = self.session, self.session.kit
        state, follower = session.state, session.follower
        scene = getattr(state, "scene", None)
        prompt = f"scene {scene.number}> " if scene is not None and hasattr(scene, "number") else "wyrd> "
        return {
            "frame": _plain(kit.frame(state, follower)),
            "sheets": _plain(kit.sheet(state, None)),
            "hints": _plain(session.hints(events)),
            "exits": _plain(kit.exits(state, follower)),
            "turn": _plain(kit.spotlight(state, follower)),
            "status": _plain(kit.status(state)),
            "toolbar": [[[cls, clean(text)] for cls, text in line] for line in toolbar_lines(kit, state, 120)],
            "prompt": prompt,
        }

    def view(self, events: list[Any] | None = None) -> dict[str, Any]:
        return {"type": "view", "panels": self._panels(events or []), "moves": self.moves()}

    def moves(self) -> list[dict[str, Any]]:
        """The ruleset's common moves now, from its kit (issue 20, point 2: buttons for them)."""
        session = self.session
        return [{"label": m.label, "line": m.line, "send": m.send}
                for m in moves_now(session.kit, session.state, session.follower)]

    # -- lines ----------------------------------------------------------------------------------

    def _remember(self, seat_id: int, client_id: str, answer: dict[str, Any]) -> None:
        ids = self.recent.setdefault(seat_id, OrderedDict())
        ids[client_id] = answer
        while len(ids) > RECENT_IDS:
            ids.popitem(last=False)

    def _already(self, seat: Seat, client_id: str) -> dict[str, Any] | None:
        """The answer to a line this seat already sent with ``client_id`` (None: a new line)."""
        answer = self.recent[seat.id].get(client_id) if seat.id in self.recent else None
        if answer is not None:
            return answer
        for command, text in self.book.applied(seat.id, client_id):
            if command <= self.last and any(r.seq == command and r.text == text
                                            for r in self.save.commands_since(command - 1)[:1]):
                return {"type": "duplicate", "id": client_id, "n": command}
        return None

    def line(self, seat: Seat, client_id: str, text: str) -> Outcome:
        """Carry out one line from ``seat``: refused, answered to it alone, or committed for all."""
        if client_id:
            again = self._already(seat, client_id)
            if again is not None:
                return Outcome(private=[again])
        out = self._line(seat, client_id, text)
        if client_id:
            for message in out.private:
                if message.get("id") == client_id:
                    self._remember(seat.id, client_id, message)
            for message in out.broadcast:
                if message.get("type") == "log" and message.get("id") == client_id:
                    self._remember(seat.id, client_id, {"type": "duplicate", "id": client_id, "n": message["n"]})
        return out

    def _line(self, seat: Seat, client_id: str, text: str) -> Outcome:
        too_long = overlong(text)
        if too_long is not None:
            return refused(client_id, too_long.lines[0].text.removeprefix("Refused: "))
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            return Outcome(private=[{"type": "reply", "id": client_id, "lines": []}])
        try:
            words = split_line(stripped)
        except UsageError as exc:
            return refused(client_id, str(exc))
        if words and words[0].casefold() in commands.COMMANDS:
            return commands.run(self.session, self.book, seat, client_id, words)
        if words and words[0].casefold() in ("quit", "exit"):
            return Outcome(private=[{"type": "reply", "id": client_id, "lines": _lines([Line(
                text="The table goes on: close the page, or press Ctrl-D at a terminal, to leave your seat.",
                style="info")])}])
        refusal = check(self.session, self.book, seat, stripped)
        if refusal is not None:
            return refused(client_id, refusal)
        before = characters(self.session)
        self.book.intend(self.last + 1, seat.id, client_id, stripped)
        output = self.console.act(stripped)
        last = self.save.last_seq()
        if last == self.last:  # nothing committed: a look, or a refusal, for the sender alone
            said_no = next((e.event for e in output.events if e.seq is None and e.event.kind == "refused"), None)
            if said_no is not None:
                return refused(client_id, str(getattr(said_no, "reason", "")))
            return Outcome(private=[{"type": "reply", "id": client_id, "lines": _lines(output.lines)}])
        # The truth first (issue 19, point 1): the entry as committed, read back from the save, and
        # the view; its narration is told after, to every seat as it is written (:mod:`.telling`).
        entries = self.entries_after(self.last)
        self.last = last
        untold = output.untold
        out = Outcome(broadcast=[*entries, self.view([e.event for e in output.events])],
                      telling=lambda emit: tell(self.console, entries[-1], untold, emit,
                                                lambda: self.entries_after(last - 1)[0]))
        # A character a seat takes or makes (`pc take`, `pc add`) is that seat's; those the story
        # brings in (an enemy, a stranger met) are nobody's, so the whole table's.
        claims = self.book.claims()
        made = stripped.split(None, 1)[0].casefold() in MAKERS
        for name in sorted(set(characters(self.session)) - set(before)) if made else ():
            if name not in claims:
                self.book.claim(name, seat.id)
                out.broadcast.append({"type": "notice", "text": f"{seat.name} holds {clean(name)}."})
                out.seats_changed = True
        turn = out.broadcast[len(entries)]["panels"]["turn"]
        if turn != self._turn:
            self._turn = turn
            url = self.book.setting("webhook")
            if turn and url:
                title = self.title or "Wyrd"
                out.webhook = (url, f"{title}: " + " ".join(turn))
        return out

    # -- completion -------------------------------------------------------------------------------

    def complete(self, text: str) -> list[dict[str, Any]]:
        """What Tab offers for ``text`` (the words before the cursor), as the REPL's completer would."""
        from wyrd.play.frontends.terminal.completion import complete_line

        try:
            found = complete_line(text, self.session)
        except Exception:  # a completion bug costs nobody their game
            found = []
        items = [{"text": c.text, "start": c.start_position, "display": c.display_text,
                  "meta": c.display_meta_text} for c in found]
        return items + commands.complete(self.session, text)
