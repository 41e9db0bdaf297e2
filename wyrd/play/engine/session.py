"""A play session: lines in, rules applied, everything saved before it is shown.

The session reads a line once, with its ruleset's kit, into a
:class:`~wyrd.play.engine.verbs.Command` (the verb found and its canonical
arguments), and plays it in two steps, alike for every ruleset (issue 19, point 1:
the truth comes first):

1. :meth:`Session.act` applies it to the rules core with dice of its own, lets the
   kit's follower see it, asks the narration for what the kit adds (twists, scene
   tests: part of what happened; ``teller.additions(...)``) and commits the command,
   every die it consumed and those events to the save file in one transaction. Its
   :class:`~wyrd.play.engine.reply.Reply` carries the moments left to tell
   (:class:`~wyrd.play.engine.reply.Untold`, never saved).
2. :meth:`Session.tell` tells those moments (the tables, or a model with the tables
   behind it) and commits the narration to the same command in a transaction of its
   own (:meth:`~wyrd.play.engine.savefile.SaveFile.append_told`), event numbers going
   on. A game stopped between the two keeps the command, untold; Ctrl-C while it is
   told keeps the command too, and the narration gives way.

:meth:`Session.apply` (and :meth:`Session.execute`) does both. Only then are the
events handed back to be shown. A refused line changes nothing and saves nothing.

Events stay typed (each a model of the ruleset's union, ``PlayHooks.events``) from
the rules through the verbs' ``after``, the follower and the narration to the
:class:`~wyrd.play.engine.reply.Reply`, where each is a
:class:`~wyrd.play.engine.events.Recorded` (its number and the event). They become
JSON only in the save file and at a front-end's edge. The session names no
ruleset: the caller says which, and the registry gives its empty game and its kit.

Dice are reproducible without storing a generator: in seeded mode the dice for
command ``seq`` come from ``Random(f"{seed}:{seq}")``, so the same seed and the
same commands always give the same events. Undo, the rebuild, replay and snapshots
are the session's history (:class:`~wyrd.play.engine.history.History`, which it inherits).

Ctrl-C never separates the game shown from the game saved (issue 16, point 2): the
commit and the update of the state in memory are one step that an interrupt waits
for (:func:`~wyrd.play.engine.interrupts.deferred_interrupts`), and so are undo and
the rebuild it runs. An interrupt before the commit takes back what the command had
changed in memory. Should anything still stop a change half-way, the session knows
(:attr:`Session.unsettled`) and reads the game again from the save before the next
line (:meth:`Session.settle`).
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import wyrd.play.engine.meta_verbs
import wyrd.play.engine.oracle_verbs  # noqa: F401  (the oracle's verbs, shared too)
from wyrd.play.engine.events import NarrationFailed, Recorded, SessionStarted, plain
from wyrd.play.engine.history import History
from wyrd.play.engine.interrupts import deferred_interrupts
from wyrd.play.engine.kits import PlayHooks, hooks_for
from wyrd.play.engine.recent import Recent
from wyrd.play.engine.reply import Reply, SessionError, Untold, new_state, refusal
from wyrd.play.engine.rolled import Rolled
from wyrd.play.engine.savefile import SaveFile, SaveWriteError
from wyrd.play.engine.storyplay import Follower, PlayContext, content_dirs
from wyrd.play.engine.verbs import Command, Parsed
from wyrd.play.engine.words import UsageError
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice, FaceOutOfRange, Roll, SeededSource, TypedSource
from wyrd.rules.errors import RuleError

if TYPE_CHECKING:
    from wyrd.play.engine.narration import Moments, Storyteller

__all__ = ["DiceMode", "Session"]

DiceMode = str  # "seeded" or "typed"
FORMAT = "wyrd-session"

TypedAsk = Callable[[int, int, str], Sequence[int]]


# What reading a hand-edited or damaged save can raise (bad JSON, wrong shapes, bad snapshot).
DAMAGED = (ValueError, TypeError, AttributeError, KeyError, IndexError, zlib.error)


class Session(History):
    """The live game: a rules state, its save file, the dice, and the kit that plays it."""

    def __init__(
        self, save: SaveFile | None, *, seed: int, ruleset: str, dice_mode: DiceMode = "seeded",
        ask: TypedAsk | None = None, content: Sequence[Path] = (),
    ) -> None:
        self.save = save
        self.dirs = content_dirs(content)
        from wyrd.play.engine.paths import data_dir

        self._teller: Storyteller | None = None
        self._table_dirs = [*content, data_dir()]
        if any((d / "tables").is_dir() for d in self._table_dirs):
            self.teller  # noqa: B018  (the player's own tables: a broken one is reported now)
        self.seed = seed
        self.ruleset = ruleset
        try:
            self.kit: PlayHooks = hooks_for(ruleset)
        except LookupError as exc:
            raise SessionError(str(exc)) from None
        self.dice_mode = dice_mode
        self.ask = ask
        self.state: Any = new_state(ruleset)
        # where play stands in the story, followed by the kit (None: the kit follows none)
        self.follower = self._follow(None)
        # the faces of undone commands, for the same command typed again
        self.rolled = Rolled()
        # the game before each of the latest live commands, for undo (issue 21, point 3)
        self.recent = Recent()
        # live commands in memory since the latest snapshot (a snapshot is due at SNAPSHOT_EVERY)
        self._unsnapped = 0
        self.next_command = 1
        self.next_event = 1
        # The events of starting a new session (shown first by --json); none on resume.
        self.opening_events: list[Recorded] = []
        # True while a change is under way; still True after one that was stopped half-way,
        # so the game in memory may differ from the save's: settle() reads it again.
        self.unsettled = False
        # The latest command while its moments are still to be told (its snapshot waits for them).
        self._untold: Untold | None = None

    @property
    def hooks(self) -> PlayHooks:
        """The kit (the name front-ends knew it by)."""
        return self.kit

    @property
    def teller(self) -> Storyteller:
        """The oracle's twists and narration, loaded when first needed (the prompt comes sooner)."""
        if self._teller is None:
            from wyrd.play.engine.narration import Storyteller, user_tables

            try:
                tables = user_tables(self._table_dirs)
            except Exception as exc:
                # The tables module is loaded only when the player has tables of their own.
                from wyrd.oracle.tables import ContentError

                if isinstance(exc, ContentError):
                    raise SessionError(f"your own tables do not load:\n{exc}") from None
                raise
            self._teller = Storyteller(tables=tables)
        return self._teller

    # -- creating and resuming ------------------------------------------------

    @classmethod
    def new(
        cls, path: Path | None, *, seed: int, ruleset: str, story: str | None = None,
        dice_mode: DiceMode = "seeded", ask: TypedAsk | None = None, content: Sequence[Path] = (),
    ) -> Session:
        session = cls(None, seed=seed, dice_mode=dice_mode, ask=ask, content=content, ruleset=ruleset)
        if path is not None:
            meta = {"game": FORMAT, "ruleset": session.ruleset, "seed": seed, "story": story, "dice": dice_mode}
            session.save = SaveFile.create(path, meta=meta)
        session.opening_events = session._emit_start(story)
        if story is not None:
            # Every kit reads its own stories with its own `story` verb (the key exactly, never a prefix).
            verb = session.kit.verbs.verbs().get("story")
            reply = (session.apply(f"story {story}", Command(verb=verb, args={"id": story})) if verb is not None
                     else session._refuse(f"story {story}", None, UsageError(f"{ruleset} plays no stories"), "usage"))
            if reply.refused is not None:
                session.close()
                if path is not None:
                    # A story that cannot be played leaves no save behind.
                    for leftover in (path, *(Path(f"{path}{end}") for end in ("-wal", "-shm", "-journal"))):
                        leftover.unlink(missing_ok=True)
                raise SessionError(str(reply.reason))
            session.opening_events += reply.events
        return session

    @classmethod
    def resume(cls, path: Path, *, ask: TypedAsk | None = None, content: Sequence[Path] = ()) -> Session:
        # The save names its holder only once it is found sound: a refused resume writes nothing.
        save = SaveFile.open(path, claim=False)
        try:
            meta = save.meta
            if meta.get("game") != FORMAT:
                raise SessionError("it is not a Wyrd session")
            if "ruleset" not in meta:
                raise SessionError("it does not say which ruleset it plays")
            session = cls(save, seed=int(meta["seed"]), dice_mode=str(meta.get("dice", "seeded")), ask=ask,
                          content=content, ruleset=str(meta["ruleset"]))
            session.rebuild()
            save.claim()
        except SessionError as exc:
            save.close()
            raise SessionError(f"{path} cannot be resumed: {exc}") from exc
        except DAMAGED as exc:  # a save edited or damaged past what replay can read
            save.close()
            raise SessionError(f"{path} cannot be resumed: it is damaged ({exc})") from exc
        return session

    def _emit_start(self, story: str | None) -> list[Recorded]:
        event = SessionStarted(story=story, ruleset=self.ruleset, seed=self.seed)
        return self._commit("start", Parsed(verb="start", args={}), [], [event], None)

    # -- the dice ---------------------------------------------------------------

    def _dice(self, seq: int) -> Dice:
        if self.dice_mode == "typed":
            if self.ask is None:
                raise SessionError("typed dice need someone to type them")
            return Dice(TypedSource(self.ask))
        return Dice(SeededSource(f"{self.seed}:{seq}"))

    # -- lines ------------------------------------------------------------------

    def parse(self, line: str) -> Command:
        """Read a line once: the kit's verb it names, and its canonical arguments."""
        return self.kit.verbs.parse(line, self.state)

    def settle(self) -> None:
        """After a change stopped half-way (an interrupt, an error), read the game again from the save."""
        if self.unsettled and self.save is not None:
            self.rebuild()

    def execute(self, line: str) -> Reply:
        """Read, apply, save and report one line. Never raises for a bad line."""
        self.settle()
        text = line.strip()
        try:
            command = self.parse(text)
        except UsageError as exc:
            return self._refuse(text, None, exc, "usage")
        if not command.verb.is_change(command.args):
            return Reply(line=text, verb=command.key)
        return self.apply(text, command)

    def hints(self, events: Sequence[Recorded | Event] = ()) -> list[str]:
        """The kit's lines for the table as it stands, after a command's ``events`` (none: the opening)."""
        typed = [e.event if isinstance(e, Recorded) else e for e in events]
        return self.kit.hints(self.state, typed) + self.kit.follower_hints(self.state, self.follower)

    def context(self, seq: int) -> PlayContext:
        """What verbs may consult; its dice are the story's own, seeded apart from the rules'."""
        return PlayContext(state=self.state, dirs=self.dirs, dice=Dice(SeededSource(f"{self.seed}:{seq}:story")),
                           follower=self.follower)

    def _follow(self, snapshot: Mapping[str, Any] | None) -> Follower | None:
        follow = self.kit.follow
        return follow(snapshot) if follow is not None else None

    def apply(self, text: str, command: Command) -> Reply:
        """Apply a command read by :meth:`parse` and tell it: :meth:`act`, then :meth:`tell`, in one reply."""
        reply = self.act(text, command)
        if reply.untold is None:
            return reply
        told = self.tell(reply.untold)
        return reply.model_copy(update={"events": [*reply.events, *told], "untold": None})

    def act(self, text: str, command: Command) -> Reply:
        """Apply a command read by :meth:`parse` and commit it, untold: the truth first.

        The rules, the verb's additions, the follower and the kit's additions (twists, scene
        tests: part of what happened) are committed in one transaction; the reply's ``untold``
        holds the moments still to be told (not saved: should the game stop before
        :meth:`tell`, the command stands, untold).
        """
        self.settle()
        self._leave_untold()
        verb = command.verb
        seq = self.next_command
        dice = self._dice(seq)
        ctx = self.context(seq)
        try:
            args = verb.prepare(dict(command.args), ctx)
            # A die once rolled stays rolled: the same command after an undo gets its faces again.
            again = self.rolled.find(verb.key, args)
            if again is not None:
                try:
                    dice.supply(again.faces, sides=None)
                    outcome = verb.apply(self.state, dice, args)
                except FaceOutOfRange:  # the faces fit the dice no more: this roll is a new one
                    again, dice = None, self._dice(seq)
            if again is None:
                # Any kind of die may be typed; each face is checked by the roll that uses it.
                dice.supply(verb.typed_faces(args), sides=None)
                outcome = verb.apply(self.state, dice, args)
        except UsageError as exc:
            return self._refuse(text, verb.key, exc, "usage")
        except RuleError as exc:
            return self._refuse(text, verb.key, exc, exc.rule)
        # Nothing in memory has changed yet (the rules return a new state); from here on the
        # follower and the deck change before the commit, so a stop before it must undo them.
        self.unsettled = True
        deck = copy.deepcopy(self.teller.deck)
        try:
            # Typed from the rules to the save file: the verb's additions, the follower, the kit's additions.
            events: list[Event] = list(outcome.events)
            events += verb.after(args, events, ctx, outcome.state)
            # The follower sees the command before the narration, which may lean on the story just chosen.
            if self.follower is not None:
                self.follower.observe(verb.key, args, events)
            added, moments = self._additions(seq, outcome.state, events)
            events += added
            changed = {k: v for k, v in self.teller.deck.items() if deck.get(k) != v}
            parsed = Parsed(verb=verb.key, args=args, deck=copy.deepcopy(changed),
                            again=again.seq if again is not None else None)
            # The commit and the state it saved: one step.
            with deferred_interrupts():
                stamped = self._commit(text, parsed, dice.history, events, outcome.state)
                if again is not None:
                    self.rolled.taken(again)
                self.unsettled = False  # the game in memory is the save's again
                untold = Untold(command=self.next_command - 1, line=text, events=tuple(stamped), moments=moments)
                self._untold = untold  # its snapshot, if one is due, waits for its telling
        except SaveWriteError as exc:
            # Not saved, so it did not happen: the state shown stays the state saved, and the
            # follower and the deck go back to where the save has them.
            self.teller.reset(deck)
            self.rebuild()
            return self._refuse(text, verb.key, exc, "save")
        except BaseException:
            # Stopped before the commit (the commit itself cannot be split), by Ctrl-C or by an
            # error (Ctrl-C inside a pydantic callback comes out as one): nothing was saved, so
            # the follower and the deck go back to where the save has them.
            if self.unsettled and self.save is not None:
                self.teller.reset(deck)
                self.rebuild()
            raise
        return Reply(line=text, verb=verb.key, events=stamped, changed=True, untold=untold)

    def tell(self, untold: Untold, *, on_text: Callable[[str], object] | None = None,
             on_told: Callable[[Event], object] | None = None) -> list[Recorded]:
        """Tell the moments :meth:`act` left, and commit their narration with the command, in a
        transaction of its own; the narration's events, numbered on from the command's.

        The narrator in charge tells them (the tables, or a model with the tables behind it).
        Narration only adds prose: if the telling fails, or Ctrl-C stops it, the command stands
        and a ``narration_failed`` event says why; the game goes on. Only the latest command can
        be told: ``untold`` is left untold (nothing is returned) once another command or an
        undo has come since.

        Args:
            untold: the reply's ``untold``, from :meth:`act`.
            on_text: given each piece of a model's reply as it comes (cleaned and checked).
            on_told: given each moment's narration event as soon as it is settled (before it is saved).
        """
        if untold is not self._untold or self.unsettled:
            return []
        if not untold.moments.requests:
            self._leave_untold()
            return []
        # From here the deck changes before the commit: a stop before it takes the change back.
        self.unsettled = True
        deck = copy.deepcopy(self.teller.deck)
        events: list[Event] = []  # each moment as it is settled: what was shown is what is saved

        def settled(event: Event) -> None:
            events.append(event)
            if on_told is not None:
                on_told(event)

        committed = False
        try:
            try:
                self.teller.tell_moments(untold.moments, on_text=on_text, on_told=settled)
            except KeyboardInterrupt:  # the player would rather go on: the command stands, the rest untold
                events.append(NarrationFailed(reason="interrupted: by the player"))
            except Exception as exc:  # narration only adds prose: it must never cost a command
                events.append(NarrationFailed(reason=f"{type(exc).__name__}: {exc}"))
            stamped = [Recorded(seq=self.next_event + i, event=e) for i, e in enumerate(events)]
            # The deck is saved as the telling left it, however far it got: the game shown is the game saved.
            changed = {k: v for k, v in self.teller.deck.items() if deck.get(k) != v}
            with deferred_interrupts():
                if self.save is not None:
                    self.save.append_told(untold.command, plain(stamped), copy.deepcopy(changed))
                committed = True
                self.next_event += len(stamped)
                self.unsettled = False
                self._leave_untold()
        except (SaveWriteError, ValueError) as exc:
            # Not saved: as if never told. The command itself is safe.
            self.teller.reset(deck)
            self.unsettled = False
            self._leave_untold()
            return [Recorded(seq=None, event=NarrationFailed(reason=f"not saved: {exc}"))]
        except BaseException:
            if not committed:  # stopped before the commit: the deck goes back to the save's
                self.teller.reset(deck)
                self.unsettled = False
                self._untold = None
            raise
        return stamped

    def _leave_untold(self) -> None:
        """Be done with the latest command's telling (told or never to be): its snapshot, if one is due."""
        untold, self._untold = self._untold, None
        if untold is not None:
            with deferred_interrupts():
                self._snapshot(untold.command)

    def _additions(self, seq: int, after: Any, events: list[Event]) -> tuple[list[Event], Moments]:
        """What the kit adds to a command and the moments it leaves to tell; if that fails, the game goes on."""
        from wyrd.play.engine.narration import Moments

        deck = copy.deepcopy(self.teller.deck)
        dice = Dice(SeededSource(f"{self.seed}:{seq}:oracle"))
        try:
            return self.teller.additions(self.kit, self.state, after, events, dice, self.follower)
        except Exception as exc:  # narration only adds prose: it must never cost a command
            self.teller.reset(deck)
            return [NarrationFailed(reason=f"{type(exc).__name__}: {exc}")], Moments((), dice, False)

    def _commit(
        self, text: str, parsed: Parsed, rolls: Sequence[Roll], events: Sequence[Event], state: Any,
    ) -> list[Recorded]:
        stamped = [Recorded(seq=self.next_event + i, event=e) for i, e in enumerate(events)]
        dice = [{"sides": r.sides, "faces": list(r.faces), "purpose": r.purpose} for r in rolls]
        # Saved and taken up in memory as one step: Ctrl-C waits for both or lands before either.
        with deferred_interrupts():
            if self.save is not None:
                # Committed before anyone sees it: a crash after this loses nothing shown. JSON only here.
                saved = parsed.model_dump(mode="json")
                if saved.get("again") is None:
                    saved.pop("again", None)  # only a command that rolled faces again says so
                seq = self.save.append(text, saved, dice, plain(stamped))
            else:
                seq = self.next_command
            self.next_command = seq + 1
            self.next_event += len(stamped)
            if state is not None:
                self.state = state
                self._unsnapped += 1
        return stamped

    def _refuse(self, text: str, verb: str | None, exc: Exception, rule: str) -> Reply:
        return Reply(line=text, verb=verb, refused=refusal(text, str(exc), rule))

    def close(self) -> None:
        """Close the save (a snapshot of the game as left is taken first) and stop a model's streams."""
        try:
            if not self.unsettled:
                self._leave_untold()
                with deferred_interrupts():
                    self._snapshot_left()
            if self._teller is not None:
                self._teller.close()
        finally:
            if self.save is not None:
                self.save.close()
