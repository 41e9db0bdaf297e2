"""A play session: lines in, rules applied, everything saved before it is shown.

The session reads a line once, with its ruleset's kit, into a
:class:`~wyrd.play.engine.verbs.Command` (the verb found and its canonical
arguments), and plays it in two steps, alike for every ruleset (issue 19, point 1:
the truth comes first):

1. :meth:`Session.act` applies it to the rules core with dice of its own, lets the
   kit's follower see it, asks the narration for what the kit adds (twists, scene
   tests: part of what happened; ``teller.additions(...)``) and commits the command,
   every die it consumed and those events to the save file in one transaction. Its
   :class:`Reply` carries the moments left to tell (:class:`Untold`, never saved).
2. :meth:`Session.tell` tells those moments (the tables, or a model with the tables
   behind it) and commits the narration to the same command in a transaction of its
   own (:meth:`~wyrd.play.engine.savefile.SaveFile.append_told`), event numbers going
   on. A game stopped between the two keeps the command, untold; Ctrl-C while it is
   told keeps the command too, and the narration gives way.

:meth:`Session.apply` (and :meth:`Session.execute`) does both. Only then are the
events handed back to be shown. A refused line changes nothing and saves nothing.

Events stay typed (each a model of the ruleset's union, ``PlayHooks.events``) from
the rules through the verbs' ``after``, the follower and the narration to the
:class:`Reply`, where each is a :class:`~wyrd.play.engine.events.Recorded` (its
number and the event). They become JSON only in the save file and at a
front-end's edge; replay reads the saved ones back through the union and compares
typed values. The session names no
ruleset: the caller says which, and the registry gives its empty game and its kit.

Dice are reproducible without storing a generator: in seeded mode the dice for
command ``seq`` come from ``Random(f"{seed}:{seq}")``, so the same seed and the
same commands always give the same events. Replay (resume, undo) never rolls: it
hands each command the faces the save recorded for it. Snapshots of the state
every :data:`SNAPSHOT_EVERY` commands keep resuming a long session fast; one is taken
once its command is told (or will never be), since the telling adds to the command.

Ctrl-C never separates the game shown from the game saved (issue 16, point 2): the
commit and the update of the state in memory are one step that an interrupt waits
for (:func:`~wyrd.play.engine.interrupts.deferred_interrupts`), and so are undo and
the rebuild it runs. An interrupt before the commit takes back what the command had
changed in memory. Should anything still stop a change half-way, the session knows
(:attr:`Session.unsettled`) and reads the game again from the save before the next
line (:meth:`Session.settle`).
"""

from __future__ import annotations

import contextlib
import copy
import zlib
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

import wyrd.play.engine.meta_verbs
import wyrd.play.engine.oracle_verbs  # noqa: F401  (the oracle's verbs, shared too)
from wyrd.play.engine.events import NarrationFailed, Recorded, Refused, SessionStarted, Undone, plain
from wyrd.play.engine.interrupts import deferred_interrupts
from wyrd.play.engine.kits import PlayHooks, hooks_for
from wyrd.play.engine.recent import Before, Recent
from wyrd.play.engine.rolled import Rolled
from wyrd.play.engine.savefile import Record, SaveFile, SaveWriteError
from wyrd.play.engine.storyplay import Follower, PlayContext, content_dirs
from wyrd.play.engine.verbs import Command, Parsed
from wyrd.play.engine.words import UsageError
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.dice import Dice, DiceExhausted, FaceOutOfRange, Roll, ScriptedSource, SeededSource, TypedSource
from wyrd.rules.errors import RuleError
from wyrd.stories.modelkept import keep_validated, known_text, validated

if TYPE_CHECKING:
    from wyrd.play.engine.narration import Moments, Storyteller

__all__ = ["ADDED_KINDS", "SNAPSHOT_EVERY", "DiceMode", "Reply", "Session", "SessionError", "Untold", "new_state",
           "refusal"]

SNAPSHOT_EVERY = 200
DiceMode = str  # "seeded" or "typed"
FORMAT = "wyrd-session"

TypedAsk = Callable[[int, int, str], Sequence[int]]


# What reading a hand-edited or damaged save can raise (bad JSON, wrong shapes, bad snapshot).
DAMAGED = (ValueError, TypeError, AttributeError, KeyError, IndexError, zlib.error)

# Events the session itself adds after the rules (narration, or word that it failed): not
# replayed, kept as saved. Each kit adds its own (PlayHooks.added_kinds).
ADDED_KINDS = frozenset({"narration", "narration_failed"})


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
    """A committed command's moments still to be told (:meth:`Session.tell`); never saved.

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

    After :meth:`Session.act`, ``untold`` holds the moments the committed command leaves to tell.
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


class Session:
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

    def _refuse(self, text: str, verb: str | None, exc: Exception, rule: str) -> Reply:
        return Reply(line=text, verb=verb, refused=refusal(text, str(exc), rule))

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
