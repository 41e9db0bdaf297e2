"""Bots playing a story of any ruleset through the real play engine: :class:`BotSimulator`.

Each run is a new :class:`~wyrd.play.engine.session.Session` with no save file,
following the story; the ruleset's :class:`~wyrd.sim.bots.Bot` types a line, the
session applies it (or refuses it) exactly as at the console, and so on until the
bot says the story ended or the party fell, or the run reaches its step cap. The
session's dice are seeded from ``(seed, index)`` and the bot's choices from its own
generator seeded the same way, so a run depends on nothing else; runs are shared out
over processes in chunks and their tallies added up, so the report is the same for
any number of jobs.

A ruleset may also give its simulator a faster way to play a run (``fast``: the same
run on plain data, issue 21, point 1); the session remains the checked path
(``Request(safe=True)``), and any run the fast way does not take (it returns None) is
played through a session and counted in the report (``checked_reruns``).
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias, TypeVar

from wyrd.sim.bots import Bots, Outcome, kinds
from wyrd.sim.runner import chunks, run_seed
from wyrd.sim.show import Chart
from wyrd.sim.simulator import Request, SimError, check_request
from wyrd.sim.summary import About, BotReport, RunRecord, Tally, build, chart, text

if TYPE_CHECKING:
    from wyrd.play.engine.session import Session

__all__ = ["STEP_CAP", "BotSimulator", "FastRun", "Game", "Judge", "Unsupported", "cut_off", "ending", "play_run",
           "session_seed"]

STEP_CAP = 600  # lines a run may type before it is cut off (the bundled stories take under 100)


def session_seed(seed: int, index: int) -> int:
    """The play session's seed for run ``index`` of ``seed`` (its dice follow from it)."""
    digest = hashlib.blake2b(run_seed(seed, index, "dice").encode(), digest_size=6).digest()
    return int.from_bytes(digest, "big")


FastRun: TypeAlias = "Callable[[Game, int, int], RunRecord | None]"
"""A run played the fast way, as :func:`play_run` would have played it; None when it can't be."""


@dataclass(frozen=True)
class Game:
    """What every run of a simulation shares: the story, its ruleset, the bots and how they play."""

    ruleset: str
    story: str
    bots: Bots
    policy: str
    players: int | None
    content: tuple[Path, ...]
    step_cap: int = STEP_CAP
    fast: FastRun | None = None  # plays a run without a session (None: every run through one)

    def session(self, seed: int) -> Session:
        """A new session following the story (SimError if it can't)."""
        from wyrd.play.engine.reply import SessionError
        from wyrd.play.engine.session import Session

        try:
            return Session.new(None, seed=seed, story=self.story, ruleset=self.ruleset, content=self.content)
        except SessionError as exc:
            raise SimError(f"{self.story}: {exc}") from None


S = TypeVar("S", contravariant=True)


class Judge(Protocol[S]):
    """What says whether a run is over: a bot, shown what it plays on (a session, or a fast path's table)."""

    def over(self, session: S) -> Outcome | None: ...


def ending(bot: Judge[S], seat: S, lines: int, step_cap: int) -> Outcome | None:
    """How the run has ended after ``lines`` lines: as the bot says, or cut off at the step cap (None: not yet)."""
    return cut_off(bot.over(seat), lines, step_cap)


def cut_off(said: Outcome | None, lines: int, step_cap: int) -> Outcome | None:
    """The end the bot ``said`` after ``lines`` lines, or CAPPED once the step cap is reached (None: not yet)."""
    if said is None and lines >= step_cap:
        return Outcome.CAPPED
    return said


class Unsupported(Exception):
    """A fast path met what it does not play (a refusal, a verb it lacks): the checked path plays the run."""


def play_run(game: Game, seed: int, index: int) -> RunRecord:
    """Play run ``index`` of ``seed`` to its end, its fall, or its step cap."""
    session = game.session(session_seed(seed, index))
    bot = game.bots.bot(game.policy, random.Random(run_seed(seed, index, "policy")), game.players)
    figures: Counter[str] = Counter(game.bots.count(kinds(session.opening_events), session))
    refused: list[str] = []
    reply = None
    lines = 0
    try:
        while (outcome := ending(bot, session, lines, game.step_cap)) is None:
            line = bot.next_line(session, reply)
            reply = session.execute(line)
            lines += 1
            if reply.refused is not None:
                refused.append(f"{reply.verb or line.split(' ')[0]}: {reply.reason or ''}")
            events = kinds(reply.events)
            figures.update(game.bots.count(events, session))
        figures.update(game.bots.final(session))
    finally:
        session.close()
    return RunRecord(outcome, lines, tuple(refused), dict(figures))


def _about(game: Game) -> About:
    """The story's title and party, from a session that follows it."""
    session = game.session(0)
    try:
        events = kinds(session.opening_events)
    finally:
        session.close()
    chosen = next((e for e in events if e.get("kind") == "story_chosen"), {})
    return About(game.story, str(chosen.get("title", game.story)), game.ruleset,
                 tuple(str(p) for p in chosen.get("pregens", ()))[:game.players])


class BotSimulator:
    """A ruleset's simulator made of its bots: runs :class:`Request` s through play sessions."""

    def __init__(self, ruleset: str, bots: Bots, step_cap: int = STEP_CAP, fast: FastRun | None = None) -> None:
        self.ruleset = ruleset
        self.bots = bots
        self.step_cap = step_cap
        self.fast = fast

    @property
    def policies(self) -> tuple[str, ...]:
        return self.bots.policies

    def simulate(self, request: Request) -> BotReport:
        check_request(request, self.policies)
        game = Game(self.ruleset, request.story, self.bots, request.policy, request.players,
                    tuple(request.content), self.step_cap, None if request.safe else self.fast)
        about = _about(game)
        self.bots.bot(request.policy, random.Random(0), request.players)  # refuses a party it can't play now
        tally = Tally()
        parts = chunks(request.runs, request.jobs)
        done = 0
        progress = request.progress
        if request.jobs == 1 or len(parts) == 1:
            for start, stop in parts:
                tally.merge(_play_chunk(game, request.seed, start, stop))
                done += stop - start
                if progress:
                    progress(done, request.runs)
        else:
            if game.fast is not None:
                # One run played here first (and dropped): the workers forked from this process start with
                # what the fast way makes once per process (the story made ready, its lines read).
                game.fast(game, request.seed, 0)
            with ProcessPoolExecutor(max_workers=request.jobs, initializer=_start_worker, initargs=(game,)) as pool:
                futures = {pool.submit(_worker_chunk, request.seed, start, stop): stop - start
                           for start, stop in parts}
                for future in as_completed(futures):
                    tally.merge(future.result())
                    done += futures[future]
                    if progress:
                        progress(done, request.runs)
        return build(tally, about, self.bots.figures, seed=request.seed, policy=request.policy,
                     step_cap=self.step_cap)

    def text(self, report: Any) -> str:
        assert isinstance(report, BotReport)
        return text(report)

    def chart(self, report: Any) -> Chart | None:
        assert isinstance(report, BotReport)
        return chart(report)


def _play_chunk(game: Game, seed: int, start: int, stop: int) -> Tally:
    tally = Tally()
    for index in range(start, stop):
        record = game.fast(game, seed, index) if game.fast is not None else None
        if record is None:
            record = play_run(game, seed, index)
            tally.checked_reruns += game.fast is not None
        tally.add(record, game.bots.figures)
    return tally


_WORKER: Game | None = None


def _start_worker(game: Game) -> None:
    global _WORKER
    _WORKER = game


def _worker_chunk(seed: int, start: int, stop: int) -> Tally:
    assert _WORKER is not None, "the worker was not started with a story"
    return _play_chunk(_WORKER, seed, start, stop)
