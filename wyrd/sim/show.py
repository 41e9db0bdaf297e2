"""A report for people: aligned text, and the defeat curve as a picture.

:func:`text` lays a :class:`~wyrd.sim.report.Report` out as plain text (chances as
percentages with their interval in brackets). :func:`plot` draws the defeat curve
through the scenes with matplotlib, an optional extra (``pip install
'wyrd[plot]'``), imported only when a plot is asked for.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterable
from pathlib import Path

from wyrd.sim.report import ChallengeReport, Report, SceneReport
from wyrd.sim.stats import Mean, Proportion

__all__ = ["MAX_LISTED", "PLOT_HINT", "PlotUnavailable", "plot", "plot_available", "text"]

MAX_LISTED = 12  # final values listed one by one; past this, quantiles
PLOT_HINT = "drawing a plot needs matplotlib: pip install 'wyrd[plot]' (or pip install matplotlib)"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def _pct(p: Proportion) -> str:
    if p.n == 0:
        return "-"
    return f"{p.p * 100:5.1f}% [{p.low * 100:.1f}, {p.high * 100:.1f}]"


def _mean(m: Mean) -> str:
    if m.n == 0:
        return "-"
    return f"{m.mean + 0.0:.2f} [{m.low + 0.0:.2f}, {m.high + 0.0:.2f}]"


def _table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))).rstrip() for r in rows]


def text(report: Report) -> str:
    """The whole report as aligned plain text."""
    r = report
    lines = [
        f"{r.title} ({r.story}): {r.runs:,} runs, policy {r.policy}, seed {r.seed}",
        f"Players: {', '.join(r.players)}. Intervals: {r.confidence:.0%}.",
        f"Per run: {_mean(r.scenes_played)} scenes, {_mean(r.points)} ability points spent, "
        f"{_mean(r.wyrd)} Wyrd drawn.",
        "",
        "Scenes (of the runs that reached them; challenges: of the times placed)",
    ]
    rows = [["scene", "reached", "cleared", "points spent", "Wyrd drawn", "someone defeated"]]
    for scene in r.scenes:
        if scene.reached.k == 0:
            continue
        rows.append([scene.id + (" (finale)" if scene.finale else ""), _pct(scene.reached), _pct(scene.cleared),
                     _mean(scene.points), _mean(scene.wyrd), _pct(scene.defeat)])
    lines += _table(rows)
    for scene in r.scenes:
        lines += _challenge_lines(scene)
    lines += ["", "Characters"]
    rows = [["character", "defeated", "held by the Vale", "freed", "points spent", "personal Wyrd at the end"]]
    rows += [[c.name, _pct(c.defeated), _pct(c.held), _pct(c.freed), _mean(c.points), _mean(c.wyrd)]
             for c in r.characters]
    lines += _table(rows)
    lines += _tracks(r)
    f = r.finale
    lines += ["", f"Finale (of the {f.finished.k:,} runs that reached it)"]
    rows = [["all freed", _pct(f.all_freed)], ["anyone held by the Vale", _pct(f.any_held)],
            ["anyone defeated", _pct(f.any_defeated)], ["everyone defeated", _pct(f.all_defeated)]]
    rows += [[f"ended in {scene}", _pct(p)] for scene, p in f.endings.items()]
    lines += _table(rows)
    lines += ["", "Defeat curve (defeated by the end of the Nth scene played)"]
    rows = [["scene", "anyone", *r.players]]
    rows += [[str(p.step), _pct(p.anyone), *(_pct(p.characters[n]) for n in r.players)] for p in r.curve]
    lines += _table(rows)
    if r.stuck.k:
        lines += ["", f"Stuck: {r.stuck.k:,} runs ended early, the rules refusing a step the game needs:"]
        lines += [f"  {n:,} x {why}" for why, n in r.stuck_reasons.items()]
    if r.safe_reruns:
        lines += ["", f"{r.safe_reruns:,} runs were replayed in safe mode after a refused action."]
    return "\n".join(lines)


def _challenge_lines(scene: SceneReport) -> list[str]:
    if scene.reached.k == 0 or not scene.challenges:
        return []
    lines = ["", f"  {scene.title} [{scene.id}]"]
    rows = [["challenge", "placed", "overcome", "failed", "bypassed", "untackled", "chance of a roll"]]
    for ch in scene.challenges:
        rows.append([f"{ch.id} ({ch.type} {ch.value})", f"{ch.placed:,}", _pct(ch.overcome), _pct(ch.failed),
                     _pct(ch.bypassed), _pct(ch.untackled), _roll(ch)])
    return lines + _table(rows, indent="    ")


def _roll(ch: ChallengeReport) -> str:
    if ch.exact is not None:
        return f"{ch.exact} exactly ({float(ch.exact) * 100:.1f}%)"
    if ch.roll.n == 0:
        return "-"
    return f"{ch.roll.mean * 100:.1f}% [{ch.roll.low * 100:.1f}, {ch.roll.high * 100:.1f}] (mean exact)"


def _tracks(r: Report) -> list[str]:
    lines: list[str] = []
    for clock in r.clocks:
        lines += ["", f"Clock {clock.name} [{clock.id}]: final value {_mean(clock.final)}"]
        lines += [f"  reached {at:>3}: {_pct(p)}" for at, p in clock.thresholds.items()]
        lines.append(f"  final values: {_spread(clock.distribution.items(), r.runs)}")
    for counter in r.counters:
        lines += ["", f"Counter {counter.name} [{counter.id}]: final value {_mean(counter.final)}"]
        lines.append(f"  final values: {_spread(counter.distribution.items(), r.runs)}")
    return lines


def _spread(items: Iterable[tuple[int, int]], runs: int) -> str:
    """Each final value's share, or, when there are many, the quantiles (the JSON has every value)."""
    pairs = sorted(items)
    if len(pairs) <= MAX_LISTED:
        return ", ".join(f"{value}: {n / runs:.1%}" for value, n in pairs)
    total = sum(n for _, n in pairs)
    cuts = []
    for q in (0.05, 0.25, 0.5, 0.75, 0.95):
        seen = 0
        for value, n in pairs:
            seen += n
            if seen >= q * total:
                cuts.append(f"{q:.0%} {value}")
                break
    return f"{pairs[0][0]} to {pairs[-1][0]}; quantiles " + ", ".join(cuts)


def plot_available() -> bool:
    """Whether matplotlib can be imported (without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


def plot(report: Report, path: str | Path) -> Path:
    """Draw the defeat curve through the scenes, and each scene's defeat chance, into ``path`` (PNG).

    Raises:
        PlotUnavailable: If matplotlib is not installed.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as missing:
        raise PlotUnavailable(PLOT_HINT) from missing
    out = Path(path)
    fig, (curve, scenes) = plt.subplots(1, 2, figsize=(12, 4.8), constrained_layout=True)
    steps = [p.step for p in report.curve]
    series = [("anyone", [p.anyone for p in report.curve])]
    series += [(name, [p.characters[name] for p in report.curve]) for name in report.players]
    for label, points in series:
        width = 2.5 if label == "anyone" else 1.2
        curve.plot(steps, [p.p for p in points], marker="o", linewidth=width, label=label)
        curve.fill_between(steps, [p.low for p in points], [p.high for p in points], alpha=0.15)
    curve.set(xlabel="scenes played", ylabel="chance of having been defeated",
              title=f"{report.title}: the defeat curve ({report.policy}, {report.runs:,} runs)")
    curve.set_xticks(steps)
    curve.legend(loc="upper left", fontsize="small")
    reached = [s for s in report.scenes if s.reached.k]
    heights = [s.defeat.p for s in reached]
    errors = [[s.defeat.p - s.defeat.low for s in reached], [s.defeat.high - s.defeat.p for s in reached]]
    scenes.bar(range(len(reached)), heights, yerr=errors, capsize=3, color="tab:red", alpha=0.7)
    scenes.set_xticks(range(len(reached)), [s.id for s in reached], rotation=35, ha="right", fontsize="small")
    top = max([0.05, *(s.defeat.high for s in reached), *(p.anyone.high for p in report.curve)])
    curve.set_ylim(0, min(1.0, top * 1.15))
    scenes.set(ylabel="chance someone is defeated there", ylim=(0, min(1.0, top * 1.15)),
               title="defeats by scene (when reached)")
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
