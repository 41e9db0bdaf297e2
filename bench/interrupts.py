"""Ctrl-C at chosen moments of real games: does the save still hold exactly the game shown?

Issue 16, point 2. Each ruleset plays a story (the golden scripts of the four stories),
with an ``undo`` and the line again after some commands. A tracer counts the line events
of Wyrd's own code while one line is handled and, at a chosen count, raises SIGINT with
``signal.raise_signal``: the real handler runs, exactly as if the player had pressed
Ctrl-C there. No timer is involved, so a count always lands at the same place.

A first game, not interrupted, notes how many line events each line takes and which of
them fall inside the save's writes and the rebuild; the interrupted games then choose
their counts from there. After each interrupt the harness

- checks that the game in memory is the save's (a rebuild from the save changes nothing),
- sends the line again if it was not saved, plays two more lines, then closes the game
  and resumes it from the file: the resumed game must be the one shown (state, numbers,
  story follower, deck), and every event shown must be in the save as shown.

``python -m bench interrupts`` runs a big campaign; the tests run a small fixed one.
"""

from __future__ import annotations

import copy
import random
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import wyrd
import wyrd.play.engine.history as history_module
from wyrd.play.engine.reply import SessionError
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console, Output

__all__ = ["GAMES", "Figures", "Game", "LineCounter", "campaign", "run", "view"]

WYRD = str(Path(wyrd.__file__).resolve().parent)
GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
# Where an interrupt is worth aiming: the save's writes, the commit, the snapshot, the rebuild, an undo's taking back.
TARGETS = frozenset({"SaveFile.append", "SaveFile.append_told", "SaveFile.undo", "SaveFile._writing",
                     "SaveFile.save_snapshot", "SaveFile._records", "Session._commit", "History._snapshot",
                     "History.rebuild", "History._rebuild", "History._replay", "History.undo",
                     "History._take_back", "History._note", "Recent.take", "Recent.note", "Rolled.keep",
                     "SaveFile.last_live", "_latest_live", "_indexed", "Session._follow", "Storyteller.reset"})
UNDO_EVERY = 4  # after every fourth command that changed the game: undo, and the line again
AFTER = 2  # lines played between an interrupt and the resume that checks it
SNAPSHOTS = 5  # a snapshot every 5 commands: the stories are shorter than the usual 200


@contextmanager
def _snapshots(every: int) -> Iterator[None]:
    """Snapshots every ``every`` commands for a while (the stories are shorter than the usual 200)."""
    usual = history_module.SNAPSHOT_EVERY
    history_module.SNAPSHOT_EVERY = every
    try:
        yield
    finally:
        history_module.SNAPSHOT_EVERY = usual


@dataclass(frozen=True)
class Game:
    """A ruleset, a seed and the lines of a story played to its end."""

    name: str
    ruleset: str
    seed: int
    script: str  # a golden script's file name

    def lines(self) -> list[str]:
        text = (GOLDEN / self.script).read_text(encoding="utf-8")
        return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


GAMES = (
    Game("abacus hollow-fair", "abacus", 21, "story_hollow_fair.txt"),
    Game("wolden the-drowned-bell", "wolden", 1, "wolden_drowned_bell.txt"),
    Game("feat lantern-at-gull-reach", "feat", 5, "feat_story.txt"),
    Game("lots harrow-mere", "lots", 7, "lots_harrow_mere.txt"),
)


class LineCounter:
    """Counts line events in Wyrd's own code; at count ``at`` it raises SIGINT (a real signal)."""

    def __init__(self, at: int | None = None, *, names: list[str] | None = None) -> None:
        self.at = at
        self.count = 0
        self.names = names  # when given, the function of every counted line, in order
        self.fired_in: str | None = None

    def _call(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return self._line if frame.f_code.co_filename.startswith(WYRD) else None

    def _line(self, frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        if self.fired_in is not None:
            return None  # one interrupt a line: the rest runs untraced, at full speed
        if event == "line":
            self.count += 1
            if self.names is not None:
                self.names.append(frame.f_code.co_qualname)
            if self.count == self.at:
                self.fired_in = frame.f_code.co_qualname
                sys.settrace(None)
                signal.raise_signal(signal.SIGINT)  # Python's handler raises KeyboardInterrupt here
        return self._line

    @contextmanager
    def tracing(self) -> Iterator[None]:
        previous = sys.gettrace()
        sys.settrace(self._call)
        try:
            yield
        finally:
            sys.settrace(previous)


def view(session: Session) -> dict[str, Any]:
    """The game a session shows: its state, numbers, story follower and deck."""
    return {"state": session.state.model_dump(mode="json"), "next_event": session.next_event,
            "next_command": session.next_command,
            "follower": session.follower.snapshot() if session.follower is not None else None,
            "deck": copy.deepcopy(session.teller.deck)}


@dataclass
class Figures:
    """What a campaign did and found."""

    games: int = 0
    delivered: int = 0  # interrupts raised
    raised: int = 0  # ... that reached the caller as KeyboardInterrupt
    as_errors: int = 0  # ... that reached it as another error (raised inside a pydantic callback)
    gave_way: int = 0  # ... that stopped a command's telling: the command stood, the narration gave way
    saved_anyway: int = 0  # ... of lines whose command was saved all the same (it was in its last step)
    in_targets: int = 0  # ... that landed in the save's writes, the commit, the snapshot or a rebuild
    in_undo: int = 0  # ... that landed while an undo was handled
    resumed: int = 0  # resumes checked
    resumed_exactly: int = 0  # ... that gave exactly the game shown
    unlike_in_memory: list[str] = field(default_factory=list)  # the game in memory was not the save's
    problems: list[str] = field(default_factory=list)  # resumes unlike the game shown, lost events

    def lines(self) -> list[str]:
        return [
            f"{self.games} games, {self.delivered} interrupts delivered ({self.in_targets} inside the save's"
            f" writes, the commit, the snapshot or a rebuild; {self.in_undo} during an undo);"
            f" {self.raised} reached the caller as KeyboardInterrupt, {self.as_errors} as another error,"
            f" {self.gave_way} stopped a telling (the command stood);"
            f" {self.saved_anyway} came after their command was saved",
            f"game in memory unlike the save's right after the interrupt: {len(self.unlike_in_memory)}",
            f"saves resumed exactly as shown: {self.resumed_exactly} of {self.resumed}",
            *[f"  {p}" for p in (self.unlike_in_memory + self.problems)[:10]],
        ]


def _shown(out: Output, shown: dict[int, dict[str, Any]]) -> None:
    for event in out.events:
        if event.seq is not None:
            shown[event.seq] = event.plain()


def _steps(game: Game, folder: Path) -> tuple[list[str], list[list[str]]]:
    """The lines to play (the script with undos added) and, per line, the functions of its line events."""
    path = folder / f"plan-{game.ruleset}.wyrd"
    session = Session.new(path, seed=game.seed, ruleset=game.ruleset)
    console = Console(session, path)
    steps: list[str] = []
    names: list[list[str]] = []
    changed = 0
    try:
        for line in game.lines():
            extra = [line]
            for step in extra:
                counter = LineCounter(names=[])
                with counter.tracing():
                    out = console.handle(step)
                steps.append(step)
                names.append(counter.names or [])
                if step == line and out.events and out.events[0].seq is not None:
                    changed += 1
                    if changed % UNDO_EVERY == 0:
                        extra += ["undo", line]
    finally:
        session.close()
    return steps, names


def _choose(names: list[str], rng: random.Random) -> int:
    """A count within the line: half the time one inside the save's writes or a rebuild."""
    aimed = [i + 1 for i, name in enumerate(names) if name in TARGETS]
    if aimed and rng.random() < 0.5:
        return rng.choice(aimed)
    return rng.randint(1, max(1, len(names)))


def _as_saved(session: Session) -> Session:
    """The game as the save has it, read on the session's own connection (the live game untouched)."""
    scratch = Session(session.save, seed=session.seed, ruleset=session.ruleset, dice_mode=session.dice_mode)
    scratch.rebuild()
    return scratch


def _check_resume(session: Session, path: Path, shown: dict[int, dict[str, Any]], figures: Figures,
                  where: str) -> Session | None:
    """Close the game, resume it from the file and compare; the resumed game plays on (None: it cannot)."""
    live = view(session)
    session.close()
    figures.resumed += 1
    try:
        resumed = Session.resume(path)
    except SessionError as exc:
        figures.problems.append(f"{where}: {exc}")
        return None
    assert resumed.save is not None
    saved = {e["seq"]: e for record in resumed.save.all_commands() for e in record.events}
    lost = [seq for seq, event in shown.items() if saved.get(seq) != event]
    if view(resumed) != live:
        figures.problems.append(f"{where}: the resumed game is not the one shown")
    elif lost:
        figures.problems.append(f"{where}: events {lost[:5]} were shown but are not in the save as shown")
    else:
        figures.resumed_exactly += 1
    return resumed


def play_interrupted(game: Game, steps: Sequence[str], counts: dict[int, int], folder: Path,
                     figures: Figures, label: str, *, after: int = AFTER) -> None:
    """Play ``steps``, interrupting step ``i`` at line event ``counts[i]``, checking after each."""
    path = folder / f"{label}.wyrd"
    session: Session | None = Session.new(path, seed=game.seed, ruleset=game.ruleset)
    assert session is not None
    shown: dict[int, dict[str, Any]] = {}
    _shown(Output(events=session.opening_events), shown)
    pending: int | None = None  # lines left before the resume that checks the last interrupt
    figures.games += 1
    try:
        for i, step in enumerate(steps):
            if session is None:
                return
            console = Console(session, path)
            at = counts.get(i)
            if at is None:
                _shown(console.handle(step), shown)
            else:
                where = f"{game.name}, line {i + 1} ({step!r}), interrupt at line event {at}"
                before = session.next_command
                counter = LineCounter(at)
                try:
                    with counter.tracing():
                        out = console.handle(step)
                    _shown(out, shown)
                    # Ctrl-C while a command is told (issue 19, point 1): the command stands, untold. Inside a
                    # pydantic callback the interrupt comes out as that library's error, and the telling
                    # records that error as its reason.
                    figures.gave_way += counter.fired_in is not None and any(
                        e.kind == "narration_failed" for e in out.events)
                except KeyboardInterrupt:
                    figures.raised += 1
                except Exception:  # Ctrl-C inside a pydantic callback comes out as its error
                    figures.as_errors += 1
                if counter.fired_in is not None:
                    figures.delivered += 1
                    figures.in_targets += counter.fired_in in TARGETS
                    figures.in_undo += step == "undo"
                    # The first defence alone: the game in memory is already the save's.
                    if view(session) != view(_as_saved(session)):
                        figures.unlike_in_memory.append(f"{where} (in {counter.fired_in})")
                    if session.next_command != before:
                        figures.saved_anyway += 1
                    else:
                        _shown(console.handle(step), shown)  # not saved: the player types it again
                    pending = after
                    continue
            if pending is not None:
                pending -= 1
                if pending == 0:
                    pending = None
                    session = _check_resume(session, path, shown, figures, f"{game.name}, line {i + 1}")
        if session is not None:
            session = _check_resume(session, path, shown, figures, f"{game.name}, the end")
    finally:
        if session is not None:
            session.close()


def campaign(games: Sequence[Game] = GAMES, *, rounds: int = 3, every: int = 3, after: int = AFTER,
             seed: int = 16, snapshot_every: int = SNAPSHOTS) -> Figures:
    """Play each game ``rounds`` times, interrupting one line in ``every`` (a different one each round).

    ``after`` (at least 1) lines are played after each interrupt before the game is closed and
    resumed. Snapshots are taken every ``snapshot_every`` commands, so that interrupts land in
    them and resumes start from them.
    """
    # A run started in the background inherits SIGINT ignored: give it a terminal's handler.
    started_with = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return _campaign(games, rounds=rounds, every=every, after=after, seed=seed,
                         snapshot_every=snapshot_every)
    finally:
        signal.signal(signal.SIGINT, started_with)


def _campaign(games: Sequence[Game], *, rounds: int, every: int, after: int, seed: int,
              snapshot_every: int) -> Figures:
    rng = random.Random(seed)
    figures = Figures()
    with tempfile.TemporaryDirectory() as name, _snapshots(snapshot_every):
        folder = Path(name)
        for game in games:
            steps, names = _steps(game, folder)
            for r in range(rounds):
                # Interrupted lines are AFTER + 1 apart at least, so each is checked before the next.
                gap = max(every, after + 1)
                counts = {i: _choose(names[i], rng) for i in range(r % gap, len(steps), gap)}
                play_interrupted(game, steps, counts, folder, figures, f"{game.ruleset}-{r}", after=after)
    return figures


def run() -> list[str]:
    return campaign(rounds=12, seed=2016).lines()
