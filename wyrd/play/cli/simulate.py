"""``wyrd simulate``: bot players play a story many times over, and what came of it.

Only argparse is imported at the top; the handler imports the simulator (and the
story loader) when it runs, so ``wyrd --version`` and ``wyrd --help`` stay fast.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from wyrd.play.cli.args import whole

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["POLICY_NAMES", "add_simulate", "run_simulate"]

POLICY_NAMES = ("cautious", "bold", "random")  # wyrd.sim.policy.POLICIES, without importing it
PROGRESS_FROM = 200  # fewer runs than this finish too soon for a progress bar to help
EXIT_USAGE = 2


def _jobs(text: str) -> int:
    """A number of processes; 0 means one per core."""
    return whole()(text) or os.cpu_count() or 1


def add_simulate(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="bots play a story many times: the odds of every scene, defeat and ending",
        description="Bot players play STORY to its finale again and again with the real rules (no narration), "
        "following its scenes by their default exits, and report the chance each challenge is overcome, points "
        "and Wyrd spent per scene, defeats per character and scene, clocks and counters, and the finale's "
        "results, each with a 95% confidence interval.",
    )
    p.add_argument("story", metavar="STORY", help="the story's id (`wyrd stories` lists them)")
    p.add_argument("--runs", "-n", type=whole(1), default=1000, metavar="N", help="playthroughs (default 1000)")
    p.add_argument("--players", "-k", type=whole(1), default=None, metavar="K",
                   help="play the story's first K pregenerated characters (default: all of them)")
    p.add_argument("--policy", choices=POLICY_NAMES, default="cautious",
                   help="how the bots play: cautious spends for certainty, bold leans on the die and the "
                   "Wyrd pool, random decides at random (default cautious)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same report (default 0)")
    p.add_argument("--jobs", "-j", type=_jobs, default="0", metavar="J",
                   help="worker processes (default 0: one per core); the report does not depend on it")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--plot", type=Path, metavar="FILE.png", help="draw the defeat curve (needs matplotlib)")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                   help="another folder of stories (may be repeated)")
    p.add_argument("--safe", action="store_true",
                   help="apply every action through its state-copying form (much slower; the same report)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on standard error (default: on a terminal, for long runs)")
    p.set_defaults(handler=run_simulate)


def _fail(message: str) -> int:
    print(f"wyrd: {message}", file=sys.stderr)
    return EXIT_USAGE


def run_simulate(args: argparse.Namespace) -> int:
    """Run the simulation ``args`` describe and print its report."""
    from wyrd.play.engine.storyplay import content_dirs
    from wyrd.sim import PlotUnavailable, ProgressBar, SimError, load, plot, plot_available, simulate, text
    from wyrd.sim.show import PLOT_HINT
    from wyrd.stories.loader import StoryError

    if args.plot is not None and not plot_available():
        return _fail(f"--plot: {PLOT_HINT}")
    try:
        story = load(args.story, [d for d in content_dirs(args.content) if d.is_dir()])
    except StoryError as exc:
        return _fail(str(exc))
    show = args.progress if args.progress is not None else (sys.stderr.isatty() and args.runs >= PROGRESS_FROM)
    bar = ProgressBar(f"simulating {story.id}") if show else None
    start = time.perf_counter()
    try:
        report = simulate(story, args.runs, players=args.players, policy=args.policy, seed=args.seed,
                          jobs=args.jobs, safe=args.safe, progress=bar)
    except SimError as exc:
        return _fail(str(exc))
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({**report.to_dict(), "jobs": args.jobs, "seconds": round(seconds, 3)}, indent=2))
    else:
        print(text(report))
        print(f"\n{report.runs:,} runs in {seconds:.1f} s ({args.jobs} job{'s' if args.jobs != 1 else ''}).")
    if args.plot is not None:
        try:
            drawn = plot(report, args.plot)
        except PlotUnavailable as exc:  # found but broken
            return _fail(f"--plot: {exc}")
        print(f"wyrd: the defeat curve is drawn in {drawn}", file=sys.stderr)
    return 0
