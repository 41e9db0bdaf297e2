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

POLICY_NAMES = ("cautious", "bold", "random")  # wyrd.sim.POLICY_NAMES, without importing the simulator
PROGRESS_FROM = 200  # fewer runs than this finish too soon for a progress bar to help
EXIT_USAGE = 2


def _jobs(text: str) -> int:
    """A number of processes; 0 means one per core."""
    return whole()(text) or os.cpu_count() or 1


def add_simulate(subparsers: Subparsers) -> None:
    p = subparsers.add_parser(
        "simulate", help="bots play a story many times: the odds of every scene, defeat and ending",
        description="Bot players play STORY, of any ruleset, to its end again and again with the real rules (no "
        "narration), following its scenes, and report what came of it, each figure with a 95% confidence "
        "interval: how often the story ended, the party fell or a run was cut off, and the ruleset's own "
        "figures (characters taken out, wounds, deaths, Pain...). For a story with challenges and a Wyrd pool, "
        "the chance each challenge is overcome, points and Wyrd spent per scene, defeats per character and "
        "scene, clocks and counters, and the finale's results.",
    )
    p.add_argument("story", metavar="STORY", help="the story's id (`wyrd stories` lists them)")
    p.add_argument("--runs", "-n", type=whole(1), default=1000, metavar="N", help="playthroughs (default 1000)")
    p.add_argument("--players", "-k", type=whole(1), default=None, metavar="K",
                   help="play the story's first K pregenerated characters (default: all of them)")
    p.add_argument("--policy", choices=POLICY_NAMES, default="cautious",
                   help="how the bots play: cautious plays safe (spends for certainty, rests, defends), bold "
                   "leans on the dice (and the Wyrd pool), random decides at random (default cautious)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same report (default 0)")
    p.add_argument("--jobs", "-j", type=_jobs, default="0", metavar="J",
                   help="worker processes (default 0: one per core); the report does not depend on it")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.add_argument("--plot", type=Path, metavar="FILE.png",
                   help="draw the defeat curve, where the report has one (needs matplotlib; never over a save, "
                        "over an existing file only with --force)")
    p.add_argument("--force", action="store_true", help="replace the --plot file if it exists")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                   help="another folder of stories (may be repeated)")
    p.add_argument("--safe", action="store_true",
                   help="the checked path: play every run by the rules core, each action in its state-copying "
                   "form, or have the bots type their lines into play sessions (much slower; the same report)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show a progress bar on standard error (default: on a terminal, for long runs)")
    p.set_defaults(handler=run_simulate)


def _fail(message: str) -> int:
    from wyrd.play.frontends.view import clean  # a message may quote a story's or a table's text

    print("wyrd: " + "\n".join(clean(line) for line in message.splitlines()), file=sys.stderr)
    return EXIT_USAGE


def run_simulate(args: argparse.Namespace) -> int:
    """Run the simulation ``args`` describe, with the story's ruleset's simulator, and print its report."""
    from wyrd.sim import PlotUnavailable, ProgressBar, Request, SimError, draw, plot_available, simulator_for
    from wyrd.sim import story_ruleset as find_ruleset_of
    from wyrd.sim.show import PLOT_HINT

    if args.plot is not None and not plot_available():
        return _fail(f"--plot: {PLOT_HINT}")
    if args.plot is not None:
        from wyrd.play.engine.overwrite import OverwriteRefused, check_target

        try:  # before the runs, so a refused file costs no waiting
            check_target(args.plot, force=args.force)
        except OverwriteRefused as exc:
            return _fail(f"--plot: {exc}")
    show = args.progress if args.progress is not None else (sys.stderr.isatty() and args.runs >= PROGRESS_FROM)
    bar = ProgressBar(f"simulating {args.story}") if show else None
    try:
        simulator = simulator_for(find_ruleset_of(args.story, args.content))
        if args.policy not in simulator.policies:
            return _fail(f"--policy: the bots of this story play {', '.join(simulator.policies)}")
        start = time.perf_counter()
        report = simulator.simulate(Request(args.story, args.runs, policy=args.policy, seed=args.seed,
                                            jobs=args.jobs, players=args.players, safe=args.safe,
                                            content=tuple(args.content), progress=bar))
        chart = simulator.chart(report) if args.plot is not None else None
    except SimError as exc:
        return _fail(str(exc))
    if args.plot is not None and chart is None:
        return _fail("--plot: this story's report has no chart to draw")
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({**report.to_dict(), "jobs": args.jobs, "seconds": round(seconds, 3)}, indent=2))
    else:
        print(simulator.text(report))
        print(f"\n{report.runs:,} runs in {seconds:.1f} s ({args.jobs} job{'s' if args.jobs != 1 else ''}).")
    if chart is not None:
        try:
            drawn = draw(chart, args.plot)
        except PlotUnavailable as exc:  # found but broken
            return _fail(f"--plot: {exc}")
        print(f"wyrd: the defeat curve is drawn in {drawn}", file=sys.stderr)
    return 0
