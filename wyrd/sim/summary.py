"""What many bot playthroughs came to: the tally of runs, and the report built from it.

A :class:`Tally` keeps whole-number counts and sums (so tallies from any number of
worker processes add up to the same thing in any order); :func:`build` turns one
into a :class:`BotReport`: how often the story ended, the party fell, or a run hit
the step cap; lines typed and refused per run, with the refusals' reasons; and each
of the ruleset's figures as a mean per run and the share of runs where it happened.
:func:`text` lays the report out like the Abacus report, :func:`chart` draws the curve of
falls through the scenes.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from wyrd.sim.bots import Figure, Outcome
from wyrd.sim.show import Bar, Chart, Series, mean, pct, table
from wyrd.sim.stats import CONFIDENCE, JsonReport, Mean, Proportion, mean_interval, wilson

__all__ = ["About", "BotReport", "CurvePoint", "FigureReport", "RunRecord", "Tally", "build", "chart", "text"]

COUNT = (0.0, math.inf)  # lines and figures are never negative
REASONS_SHOWN = 8
SCENES = "scenes"  # the figure that counts scenes begun, where a ruleset's bots count it
FIGURE = "figure:"  # a figure's sums, apart from the lines and refusals counted for every ruleset


@dataclass(frozen=True)
class RunRecord:
    """One run: how it ended, lines typed and refused (and why), the figures."""

    outcome: Outcome
    lines: int
    refused: tuple[str, ...]
    figures: dict[str, int]
    rerun: bool = False  # a fast path met what it does not play, and the checked path played the run


@dataclass
class Tally:
    """Counts and sums over runs: ``[n, total, sum of squares]`` per quantity."""

    runs: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    sums: dict[str, list[int]] = field(default_factory=dict)
    happened: Counter[str] = field(default_factory=Counter)  # runs where a figure was above 0
    reasons: Counter[str] = field(default_factory=Counter)
    reruns: int = 0  # runs a fast path handed to the checked path

    def observe(self, key: str, x: int) -> None:
        found = self.sums.setdefault(key, [0, 0, 0])
        found[0] += 1
        found[1] += x
        found[2] += x * x

    def sum(self, key: str) -> tuple[int, int, int]:
        found = self.sums.get(key)
        return (found[0], found[1], found[2]) if found else (0, 0, 0)

    def add(self, run: RunRecord, figures: tuple[Figure, ...]) -> None:
        """Fold one run in."""
        self.runs += 1
        self.reruns += run.rerun
        self.outcomes[run.outcome.value] += 1
        self.observe("lines", run.lines)
        self.observe("refused", len(run.refused))
        self.reasons.update(run.refused)
        # where each run ended, by the scenes it began: the curve of a chart
        self.outcomes[f"{run.outcome.value}@{run.figures.get(SCENES, 0)}"] += 1
        for figure in figures:
            value = run.figures.get(figure.key, 0)
            self.observe(FIGURE + figure.key, value)
            if value > 0:
                self.happened[figure.key] += 1

    def merge(self, other: Tally) -> None:
        """Add ``other``'s runs to this tally."""
        self.runs += other.runs
        self.reruns += other.reruns
        self.outcomes.update(other.outcomes)
        for key, (n, total, squares) in other.sums.items():
            mine = self.sums.setdefault(key, [0, 0, 0])
            mine[0] += n
            mine[1] += total
            mine[2] += squares
        self.happened.update(other.happened)
        self.reasons.update(other.reasons)


@dataclass(frozen=True)
class FigureReport:
    key: str
    label: str
    mean: Mean  # per run
    runs_with: Proportion  # runs where it happened at least once


@dataclass(frozen=True)
class CurvePoint:
    """The chance that a run had ended, or the party had fallen, within its first ``step`` scenes."""

    step: int
    ended: Proportion
    fell: Proportion


@dataclass(frozen=True)
class BotReport(JsonReport):
    """What bots playing a story through play sessions found."""

    story: str
    title: str
    ruleset: str
    runs: int
    seed: int
    policy: str
    players: tuple[str, ...]
    confidence: float
    ended: Proportion
    fell: Proportion
    capped: Proportion
    counts: dict[str, int]  # ended, fell, capped: they add up to runs
    step_cap: int
    lines: Mean  # per run
    refused: Mean  # refused lines per run
    refusals: int  # refused lines in all
    refusal_reasons: dict[str, int]
    figures: tuple[FigureReport, ...]
    curve: tuple[CurvePoint, ...]  # by the scenes begun (empty when the bots count no scenes)
    checked_reruns: int = 0  # runs a fast path handed to the checked path (0 on the checked path itself)




@dataclass(frozen=True)
class About:
    """What the report says of the story it simulated."""

    story: str
    title: str
    ruleset: str
    players: tuple[str, ...]


def build(tally: Tally, about: About, figures: tuple[Figure, ...], *, seed: int, policy: str,
          step_cap: int) -> BotReport:
    """The report of the runs in ``tally``."""
    runs = tally.runs

    def per_run(key: str) -> Mean:
        return mean_interval(*tally.sum(key), bounds=COUNT)

    counts = {o.value: tally.outcomes[o.value] for o in Outcome}
    reasons = sorted(tally.reasons.items(), key=lambda kv: (-kv[1], kv[0]))
    return BotReport(
        story=about.story, title=about.title, ruleset=about.ruleset, runs=runs, seed=seed, policy=policy,
        players=about.players, confidence=CONFIDENCE,
        ended=wilson(counts[Outcome.ENDED], runs), fell=wilson(counts[Outcome.FELL], runs),
        capped=wilson(counts[Outcome.CAPPED], runs), counts=counts, step_cap=step_cap,
        lines=per_run("lines"), refused=per_run("refused"),
        refusals=sum(tally.reasons.values()), refusal_reasons=dict(reasons),
        figures=tuple(FigureReport(f.key, f.label, per_run(FIGURE + f.key), wilson(tally.happened[f.key], runs))
                      for f in figures),
        curve=_curve(tally) if any(f.key == SCENES for f in figures) else (),
        checked_reruns=tally.reruns,
    )


def _curve(tally: Tally) -> tuple[CurvePoint, ...]:
    at: dict[tuple[str, int], int] = {}
    for key, n in tally.outcomes.items():
        outcome, sep, where = key.partition("@")
        if sep:
            at[outcome, int(where)] = n
    most = max((step for _, step in at), default=0)
    points, ended, fell = [], 0, 0
    for step in range(1, most + 1):
        ended += at.get((Outcome.ENDED.value, step), 0)
        fell += at.get((Outcome.FELL.value, step), 0)
        points.append(CurvePoint(step, wilson(ended, tally.runs), wilson(fell, tally.runs)))
    return tuple(points)


def chart(report: BotReport) -> Chart | None:
    """The fall curve through the scenes begun, beside the share of runs where each figure happened."""
    if not report.curve:
        return None
    return Chart(
        steps=tuple(p.step for p in report.curve),
        series=(Series("the party fell", tuple(p.fell for p in report.curve), main=True),
                Series("the story ended", tuple(p.ended for p in report.curve))),
        bars=tuple(Bar(f.label, f.runs_with) for f in report.figures if f.key != SCENES),
        title=f"{report.title}: the defeat curve ({report.policy}, {report.runs:,} runs)",
        xlabel="scenes begun", ylabel="chance, by then", bar_title="what happened (share of runs)",
        bar_ylabel="chance it happened in a run",
    )


def text(report: BotReport) -> str:
    """The whole report as aligned plain text."""
    r = report
    lines = [
        f"{r.title} ({r.story}, {r.ruleset}): {r.runs:,} runs, policy {r.policy}, seed {r.seed}",
        f"Players: {', '.join(r.players) or '-'}. Intervals: {r.confidence:.0%}.",
        f"Per run: {mean(r.lines)} lines typed, {mean(r.refused)} lines refused.",
        "",
        "How the runs ended",
    ]
    lines += table([
        ["outcome", "runs", "chance"],
        ["the story ended", f"{r.counts[Outcome.ENDED]:,}", pct(r.ended)],
        ["the party fell", f"{r.counts[Outcome.FELL]:,}", pct(r.fell)],
        [f"cut off at {r.step_cap:,} lines", f"{r.counts[Outcome.CAPPED]:,}", pct(r.capped)],
    ])
    if r.figures:
        lines += ["", "Per run"]
        rows = [["figure", "mean per run", "runs where it happened"]]
        rows += [[f.label, mean(f.mean), pct(f.runs_with)] for f in r.figures]
        lines += table(rows)
    if r.refusals:
        lines += ["", f"Refused: {r.refusals:,} lines the rules or the story refused the bots:"]
        shown = list(r.refusal_reasons.items())[:REASONS_SHOWN]
        lines += [f"  {n:,} x {why}" for why, n in shown]
        if len(r.refusal_reasons) > REASONS_SHOWN:
            lines.append(f"  ... and {len(r.refusal_reasons) - REASONS_SHOWN} more reasons (the JSON has them all)")
    if r.checked_reruns:
        lines += ["", f"{r.checked_reruns:,} runs were played through play sessions after the fast path met "
                      "what it does not play."]
    return "\n".join(lines)
