"""The session's history: its snapshots, and the game read again from the save.

:class:`History` is the part of :class:`~wyrd.play.engine.session.Session` that looks back:
undo, the rebuild that resuming and undo run, the replay of each saved command, and the
snapshots that keep the replay short. The session inherits it and gives it what it reads
and changes (the save, the state, the kit, the teller, the numbers), declared here so that
they are checked.

Replay (resume, undo) never rolls: it hands each command the faces the save recorded for
it, reads the saved events back through the ruleset's union and compares typed values.
Snapshots of the state every :data:`SNAPSHOT_EVERY` commands keep resuming a long session
fast; one is taken once its command is told (or will never be), since the telling adds to
the command. The game before each of the latest live commands is noted
(:attr:`History.recent`), so undos in a row replay about one command each.

Undo and the rebuild it runs are one step that Ctrl-C waits for
(:func:`~wyrd.play.engine.interrupts.deferred_interrupts`).
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from wyrd.play.engine.events import Recorded, Undone
from wyrd.play.engine.interrupts import deferred_interrupts
from wyrd.play.engine.kits import PlayHooks
from wyrd.play.engine.recent import Before, Recent
from wyrd.play.engine.reply import Reply, SessionError, Untold, new_state, refusal
from wyrd.play.engine.rolled import Rolled
from wyrd.play.engine.savefile import Record, SaveFile, SaveWriteError
from wyrd.play.engine.storyplay import Follower
from wyrd.play.engine.verbs import Parsed
from wyrd.play.engine.words import UsageError
from wyrd.rules.dice import Dice, DiceExhausted, ScriptedSource
from wyrd.rules.errors import RuleError
from wyrd.stories.modelkept import keep_validated, known_text, validated

if TYPE_CHECKING:
    from wyrd.play.engine.narration import Storyteller

__all__ = ["ADDED_KINDS", "SNAPSHOT_EVERY", "History"]

SNAPSHOT_EVERY = 200

# Events the session itself adds after the rules (narration, or word that it failed): not
# replayed, kept as saved. Each kit adds its own (PlayHooks.added_kinds).
ADDED_KINDS = frozenset({"narration", "narration_failed"})


class History:
    """Undo, rebuild, replay and snapshots of a session's game (:class:`~wyrd.play.engine.session.Session`)."""

    # What the session gives the history (set by Session.__init__).
    save: SaveFile | None
    ruleset: str
    kit: PlayHooks
    state: Any
    follower: Follower | None
    rolled: Rolled
    recent: Recent
    next_command: int
    next_event: int
    unsettled: bool
    _unsnapped: int
    _untold: Untold | None

    if TYPE_CHECKING:
        # What the session does for the history (defined by Session).
        @property
        def teller(self) -> Storyteller: ...

        def settle(self) -> None: ...

        def _follow(self, snapshot: Mapping[str, Any] | None) -> Follower | None: ...

        def _refuse(self, text: str, verb: str | None, exc: Exception, rule: str) -> Reply: ...

    # -- snapshots ----------------------------------------------------------------

    def _snapshot(self, seq: int) -> None:
        """Every :data:`SNAPSHOT_EVERY` commands, the state and the story as they stand now.

        Due at a command whose number is a multiple of it, or once as many live commands have
        come since the latest snapshot: undos take numbers too, and a game whose undos always
        fell on the multiples would otherwise never be snapshot again (issue 21, point 3).
        Only ever from a game that is the save's: never while a change is stopped half-way.
        """
        if seq % SNAPSHOT_EVERY == 0 or self._unsnapped >= SNAPSHOT_EVERY:
            self._take_snapshot(seq)

    def _snapshot_left(self) -> None:
        """On closing, the game as it is left, when commands came since the latest snapshot.

        A game quit and resumed then starts from it and replays nothing: 20 ms sooner to the
        prompt for a game 40 commands in (bench/RESULTS.md, issue 21, point 2). A game whose
        process was killed has no such snapshot and is replayed from the one before, as always.
        Taken after the last command's telling is settled: a command with a snapshot can no
        longer be told.
        """
        if self.save is None or self.save.closed or self.save.readonly or self._unsnapped == 0:
            return
        last = self.save.last_live()
        if last is not None:
            self._take_snapshot(last.seq, keep=True)

    def _take_snapshot(self, seq: int, *, keep: bool = False) -> None:
        if self.save is None or self.unsettled:
            return  # only ever from a game that is the save's
        extra: dict[str, Any] = {"next_event": self.next_event, "deck": self.teller.deck}
        if self.follower is not None:
            extra["follower"] = self.follower.snapshot()
        state = self.state.model_dump(mode="json")
        # A snapshot only speeds up resuming; the command itself is already safe.
        with contextlib.suppress(SaveWriteError):
            self.save.save_snapshot(seq, state, extra)
            self._unsnapped = 0
            if keep:
                # The state as the resume will read it, validated now and kept: that resume takes
                # it instead of building the state's validators before its first prompt.
                keep_validated(type(self.state), state)

    # -- undo and replay ------------------------------------------------------------

    def undo(self) -> Reply:
        """Take back the last command; it stays in the save's audit trail.

        The save's undo and the rebuild that follows are one step: Ctrl-C waits for both. The
        game before the command comes from :attr:`recent` when it is noted there (nothing is
        replayed), else from a rebuild that notes what it replays, so undos in a row cost about
        one replayed command each however long the game (issue 21, point 3).
        """
        if self.save is None:
            raise SessionError("undo needs a save file")
        self.settle()
        self._untold = None  # an undo comes before any telling of the command it may take back
        with deferred_interrupts():
            last = self.save.last_live()
            if last is None or last.parsed.get("verb") == "start":
                return Reply(line="undo", verb="undo", refused=refusal("undo", "there is nothing to undo", "undo"))
            self.unsettled = True
            try:
                self.save.undo()
            except SaveWriteError as exc:
                self.unsettled = False  # rolled back: the save, and so the game, is as it was
                return self._refuse("undo", "undo", exc, "save")
            self._take_back(last)
            self.unsettled = False
        event = Recorded(seq=None, event=Undone(command=last.text, command_seq=last.seq))
        return Reply(line="undo", verb="undo", events=[event], changed=True)

    def _take_back(self, last: Record) -> None:
        """The game after ``last`` was undone in the save (the session :attr:`unsettled` meanwhile)."""
        assert self.save is not None
        # Its faces are kept for the same command typed again; event numbers go on as they were.
        self.rolled.keep(last)
        self.next_command = self.save.last_seq() + 1
        before = self.recent.take(last.seq)
        if before is None:
            self._rebuild(use_snapshots=True, kept=(self.rolled, self.next_event))
            return
        self.state = before.state
        self.follower = self._follow(before.follower)
        self.teller.reset(before.deck)
        self._unsnapped = before.unsnapped
        # The same game is the one before whatever command comes next.
        self.recent.note(before._replace(seq=self.next_command))

    def rebuild(self, *, use_snapshots: bool = True) -> None:
        """Rebuild the state from the save: the latest snapshot, then recorded dice.

        One step that Ctrl-C waits for; if it stops half-way otherwise (a save that does not
        replay), the session stays :attr:`unsettled`.
        """
        if self.save is None:
            raise SessionError("nothing to rebuild from")
        with deferred_interrupts():
            self.unsettled = True
            self._rebuild(use_snapshots=use_snapshots)
            self.unsettled = False

    def _rebuild(self, *, use_snapshots: bool, kept: tuple[Rolled, int] | None = None) -> None:
        """Read the game from the save. After an undo, ``kept`` is what the session still knows
        (the faces kept, the next event number) and the rebuild may start from a note of
        :attr:`recent`; it then notes each command it replays."""
        if self.save is None:
            raise SessionError("nothing to rebuild from")
        self._untold = None
        self.rolled = Rolled.from_save(self.save) if kept is None else kept[0]
        last = self.save.last_seq()
        # A note is worth starting from while it is nearer than a snapshot can be.
        note = self.recent.latest_before(last) if kept is not None and use_snapshots else None
        if note is not None and last - note.seq > 2 * SNAPSHOT_EVERY:
            note = None
        if note is None:
            self.recent.clear()
        self.state = new_state(self.ruleset)
        self.follower = self._follow(None)
        self.teller.reset()
        self.next_event = 1
        self._unsnapped = 0
        start = 0
        snap = self.save.latest_snapshot() if use_snapshots and note is None else None
        if note is not None:
            self.recent.take(note.seq)
            self.state = note.state
            self.follower = self._follow(note.follower)
            self.teller.reset(note.deck)
            self._unsnapped = note.unsnapped
            start = note.seq - 1
        elif snap is not None:
            if snap.state_text is not None:
                known_text(snap.state, snap.state_text)  # the state's kept result is named by it
            self.state = validated(type(self.state), snap.state)
            self.next_event = int(snap.extra["next_event"])
            # Saves before kits had followers alike kept the Abacus's under "story".
            self.follower = self._follow(snap.extra.get("follower", snap.extra.get("story")))
            self.teller.reset(snap.extra.get("deck"))
            start = snap.seq
        for record in self.save.live_commands(after=start):
            if kept is not None:
                self._note(record.seq)
            self._replay(record)
            self._unsnapped += 1
        self.next_command = last + 1
        # Numbers are never reused: after an undo, new events follow the last ever shown.
        known = kept[1] if kept is not None else self.save.last_event_seq() + 1
        self.next_event = max(self.next_event, known)
        self._note(self.next_command)

    def _note(self, seq: int) -> None:
        """Note the game as it stands as the game before command ``seq`` (see :attr:`recent`)."""
        follower = self.follower.snapshot() if self.follower is not None else None
        self.recent.note(Before(seq, self.state, follower, copy.deepcopy(self.teller.deck), self._unsnapped))

    def _replay(self, record: Record) -> None:
        """Apply a saved command with its saved faces, and check it tells the same story."""
        self.next_event += len(record.events)
        if record.parsed.get("verb") == "start":
            return
        dice = Dice(ScriptedSource(record.faces))
        try:
            command = Parsed.model_validate(record.parsed)
            # the key as saved: exactly a verb of this kit, never a prefix
            verb = self.kit.verbs.verbs().get(command.verb)
            if verb is None:
                raise UsageError(f"no verb {command.verb!r} in this ruleset")
            outcome = verb.apply(self.state, dice, command.args)
        except (RuleError, UsageError, ValidationError, DiceExhausted) as exc:
            raise SessionError(f"command {record.seq} ({record.text!r}) does not replay: {exc}") from exc
        # The saved events read back through the ruleset's union, compared with the replay's as typed values.
        saved = [self.kit.events.parse(e) for e in record.events]
        added = ADDED_KINDS | self.kit.added_kinds
        if list(outcome.events) != [e for e in saved if e.kind not in added]:
            raise SessionError(f"command {record.seq} ({record.text!r}) replays differently from what was saved")
        self.state = outcome.state
        self.teller.deck.update(copy.deepcopy(command.deck))
        if self.follower is not None:
            self.follower.observe(command.verb, command.args, saved)
