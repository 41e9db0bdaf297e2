"""An Abacus report for people: aligned text, and the defeat curve as a picture.

:func:`text` lays a :class:`~wyrd.sim.abacus.report.Report` out as plain text (chances as
percentages with their interval in brackets). :func:`plot` draws the defeat curve
through the scenes (:func:`wyrd.sim.show.draw`, with matplotlib, an optional extra).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from wyrd.sim.abacus.report import ChallengeReport, Report, SceneReport
from wyrd.sim.show import Bar, Chart, Series, draw, table
from wyrd.sim.show import mean as _mean
from wyrd.sim.show import pct as _pct

__all__ = ["MAX_LISTED", "chart", "plot", "text"]

MAX_LISTED = 12  # final values listed one by one; past this, quantiles


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
    lines += table(rows)
    for scene in r.scenes:
        lines += _challenge_lines(scene)
    lines += ["", "Characters"]
    rows = [["character", "defeated", "held by the Vale", "freed", "points spent", "personal Wyrd at the end"]]
    rows += [[c.name, _pct(c.defeated), _pct(c.held), _pct(c.freed), _mean(c.points), _mean(c.wyrd)]
             for c in r.characters]
    lines += table(rows)
    lines += _tracks(r)
    f = r.finale
    lines += ["", f"Finale (of the {f.finished.k:,} runs that reached it)"]
    rows = [["all freed", _pct(f.all_freed)], ["anyone held by the Vale", _pct(f.any_held)],
            ["anyone defeated", _pct(f.any_defeated)], ["everyone defeated", _pct(f.all_defeated)]]
    rows += [[f"ended in {scene}", _pct(p)] for scene, p in f.endings.items()]
    lines += table(rows)
    lines += ["", "Defeat curve (defeated by the end of the Nth scene played)"]
    rows = [["scene", "anyone", *r.players]]
    rows += [[str(p.step), _pct(p.anyone), *(_pct(p.characters[n]) for n in r.players)] for p in r.curve]
    lines += table(rows)
    if r.stuck.k:
        lines += ["", f"Stuck: {r.stuck.k:,} runs ended early, the rules refusing a step the game needs:"]
        lines += [f"  {n:,} x {why}" for why, n in r.stuck_reasons.items()]
    if r.safe_reruns:
        lines += ["", f"{r.safe_reruns:,} runs were replayed in safe mode after a refused action."]
    if r.rules_core_runs:
        lines += ["", f"{r.rules_core_runs:,} runs were played by the rules core, the fast path not covering them."]
    return "\n".join(lines)


def _challenge_lines(scene: SceneReport) -> list[str]:
    if scene.reached.k == 0 or not scene.challenges:
        return []
    lines = ["", f"  {scene.title} [{scene.id}]"]
    rows = [["challenge", "placed", "overcome", "failed", "bypassed", "untackled", "chance of a roll"]]
    for ch in scene.challenges:
        rows.append([f"{ch.id} ({ch.type} {ch.value})", f"{ch.placed:,}", _pct(ch.overcome), _pct(ch.failed),
                     _pct(ch.bypassed), _pct(ch.untackled), _roll(ch)])
    return lines + table(rows, indent="    ")


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


def chart(report: Report) -> Chart:
    """The defeat curve through the scenes, and each scene's defeat chance."""
    series = [Series("anyone", tuple(p.anyone for p in report.curve), main=True)]
    series += [Series(name, tuple(p.characters[name] for p in report.curve)) for name in report.players]
    reached = [s for s in report.scenes if s.reached.k]
    return Chart(
        steps=tuple(p.step for p in report.curve), series=tuple(series),
        bars=tuple(Bar(s.id, s.defeat) for s in reached),
        title=f"{report.title}: the defeat curve ({report.policy}, {report.runs:,} runs)",
        xlabel="scenes played", ylabel="chance of having been defeated",
        bar_title="defeats by scene (when reached)", bar_ylabel="chance someone is defeated there",
    )


def plot(report: Report, path: str | Path) -> Path:
    """Draw the defeat curve through the scenes, and each scene's defeat chance, into ``path`` (PNG).

    Raises:
        PlotUnavailable: If matplotlib is not installed.
    """
    return draw(chart(report), path)
