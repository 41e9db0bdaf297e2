"""Running many Abacus playthroughs, in one process or several: :func:`simulate`.

Runs are cut into chunks (:func:`wyrd.sim.runner.chunks`) of consecutive run indices; each chunk is played and
folded into a :class:`~wyrd.sim.abacus.tally.Tally` by whichever process takes it, and the
tallies are added up. Every run is seeded by ``(seed, index)`` and a tally adds up
the same in any order, so the report is the same for 1 job or 8.

Worker processes get the prepared story (:class:`~wyrd.sim.abacus.engine.Kit`) once, when
they start, not with every chunk.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

from wyrd.sim.abacus.engine import Kit, prepare
from wyrd.sim.abacus.fast import Fold, Layout, layout, play_chunk
from wyrd.sim.abacus.game import play
from wyrd.sim.abacus.policy import Policy, policy_named
from wyrd.sim.abacus.prepared import prepared
from wyrd.sim.abacus.report import Report, build
from wyrd.sim.abacus.tally import Tally
from wyrd.sim.runner import MAX_RUNS, Progress, chunks
from wyrd.stories.abacus.loader import find_story
from wyrd.stories.abacus.schema import Story
from wyrd.stories.loader import BUNDLED

__all__ = ["load", "simulate"]


def load(ident: str, dirs: Iterable[str | Path] | None = None) -> Story:
    """The story ``ident`` from ``dirs`` (the bundled stories by default); StoryError if not found."""
    return find_story(ident, list(dirs) if dirs is not None else [BUNDLED])


def simulate(
    story: Story | str,
    runs: int,
    *,
    players: int | None = None,
    policy: Policy | str = "cautious",
    seed: int = 0,
    jobs: int = 1,
    safe: bool = False,
    dirs: Sequence[str | Path] | None = None,
    progress: Progress | None = None,
) -> Report:
    """Play ``story`` to its finale ``runs`` times with bot players and report what happened.

    Args:
        story: A story, or the id of one in ``dirs``.
        runs: How many playthroughs (1 or more).
        players: Play the first ``players`` pregens (all of them if None).
        policy: A policy, or the name of one (``cautious``, ``bold``, ``random``).
        seed: Run ``i`` is seeded by ``(seed, i)``: the same seed gives the same report.
        jobs: Worker processes (1 plays in this process).
        safe: Play every run by the rules core, every action through its public,
            state-copying form (slow; the same results). Otherwise runs are played on
            plain data (:mod:`wyrd.sim.abacus.fast`) where it covers the story.
        dirs: Where to look for a story given by id (the bundled stories by default).
        progress: Called as ``progress(done, runs)`` as chunks of runs finish.

    Raises:
        ValueError: A bad number of runs or jobs; :class:`~wyrd.sim.abacus.engine.SimError` if the
            story can't be simulated; :class:`~wyrd.stories.loader.StoryError` if it can't be found.
    """
    if not 1 <= runs <= MAX_RUNS:
        raise ValueError(f"runs must be 1 to {MAX_RUNS:,}, not {runs}")
    if jobs < 1:
        raise ValueError(f"jobs must be 1 or more, not {jobs}")
    chosen = policy_named(policy) if isinstance(policy, str) else policy
    if isinstance(story, str):  # a story file read, validated and prepared once per process
        kept = prepared(story, dirs)
        kit, plan = kept.kit(players), (None if safe else kept.layout(players))
    else:
        kit = prepare(story, players)
        plan = _plain(kit, safe)
    tally = Tally()
    parts = chunks(runs, jobs)
    done = 0
    if jobs == 1 or len(parts) == 1:
        # One process folds all its runs together (see ``Fold``), chunk by chunk for the progress shown.
        fold = None if safe else Fold(plan, kit, chosen, seed)
        for start, stop in parts:
            if fold is not None:
                fold.play(start, stop)
            else:
                tally.merge(_play_chunk(kit, None, chosen, safe, seed, start, stop))
            done += stop - start
            if progress:
                progress(done, runs)
        if fold is not None:
            tally.merge(fold.tally())
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_start_worker, initargs=(kit, chosen, safe)) as pool:
            futures = {pool.submit(_worker_chunk, seed, start, stop): stop - start for start, stop in parts}
            for future in as_completed(futures):
                tally.merge(future.result())
                done += futures[future]
                if progress:
                    progress(done, runs)
    return build(tally, kit, seed=seed, policy=chosen.name)


def _plain(kit: Kit, safe: bool) -> Layout | None:
    return None if safe else layout(kit)


def _play_chunk(kit: Kit, plan: Layout | None, policy: Policy, safe: bool, seed: int, start: int,
                stop: int) -> Tally:
    if not safe:
        return play_chunk(plan, kit, policy, seed, start, stop)
    tally = Tally()
    for index in range(start, stop):
        tally.add(play(kit, policy, seed, index, safe=True))
    return tally


_WORKER: tuple[Kit, Layout | None, Policy, bool] | None = None


def _start_worker(kit: Kit, policy: Policy, safe: bool) -> None:
    global _WORKER
    _WORKER = (kit, _plain(kit, safe), policy, safe)


def _worker_chunk(seed: int, start: int, stop: int) -> Tally:
    assert _WORKER is not None, "the worker was not started with a story"
    kit, plan, policy, safe = _WORKER
    return _play_chunk(kit, plan, policy, safe, seed, start, stop)
