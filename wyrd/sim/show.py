"""Pictures of a simulation: a curve through the steps of a story beside a bar per place.

A simulator turns its report into a :class:`Chart` (what to draw, in its own
words); :func:`draw` draws it with matplotlib, an optional extra (``pip install
'wyrd[plot]'``), imported only when a picture is asked for. :func:`pct` and
:func:`mean` are the text forms every report shares.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

from wyrd.sim.stats import Mean, Proportion

__all__ = ["PLOT_HINT", "Bar", "Chart", "PlotUnavailable", "Series", "draw", "mean", "pct", "plot_available",
           "table"]

PLOT_HINT = "drawing a plot needs matplotlib: pip install 'wyrd[plot]' (or pip install matplotlib)"


class PlotUnavailable(RuntimeError):
    """matplotlib is not installed."""


def pct(p: Proportion) -> str:
    """A chance as a percentage with its interval in brackets ("-" with no runs)."""
    if p.n == 0:
        return "-"
    return f"{p.p * 100:5.1f}% [{p.low * 100:.1f}, {p.high * 100:.1f}]"


def mean(m: Mean) -> str:
    """An average with its interval in brackets ("-" with no runs)."""
    if m.n == 0:
        return "-"
    return f"{m.mean + 0.0:.2f} [{m.low + 0.0:.2f}, {m.high + 0.0:.2f}]"


def table(rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows of cells as aligned lines."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return [(indent + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True))).rstrip() for r in rows]


@dataclass(frozen=True)
class Series:
    """One line of the curve: a chance at each step, drawn thicker when ``main``."""

    label: str
    points: tuple[Proportion, ...]
    main: bool = False


@dataclass(frozen=True)
class Bar:
    label: str
    chance: Proportion


@dataclass(frozen=True)
class Chart:
    """A curve through the steps (left) and a bar per place (right), each with its interval."""

    steps: tuple[int, ...]
    series: tuple[Series, ...]
    bars: tuple[Bar, ...]
    title: str
    xlabel: str
    ylabel: str
    bar_title: str
    bar_ylabel: str


def plot_available() -> bool:
    """Whether matplotlib can be imported (without importing it)."""
    return importlib.util.find_spec("matplotlib") is not None


def draw(chart: Chart, path: str | Path) -> Path:
    """Draw ``chart`` into ``path`` (PNG).

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
    fig, (curve, places) = plt.subplots(1, 2, figsize=(12, 4.8), constrained_layout=True)
    steps = list(chart.steps)
    for line in chart.series:
        width = 2.5 if line.main else 1.2
        curve.plot(steps, [p.p for p in line.points], marker="o", linewidth=width, label=line.label)
        curve.fill_between(steps, [p.low for p in line.points], [p.high for p in line.points], alpha=0.15)
    curve.set(xlabel=chart.xlabel, ylabel=chart.ylabel, title=chart.title)
    curve.set_xticks(steps)
    curve.legend(loc="upper left", fontsize="small")
    bars = chart.bars
    heights = [b.chance.p for b in bars]
    errors = [[b.chance.p - b.chance.low for b in bars], [b.chance.high - b.chance.p for b in bars]]
    places.bar(range(len(bars)), heights, yerr=errors, capsize=3, color="tab:red", alpha=0.7)
    places.set_xticks(range(len(bars)), [b.label for b in bars], rotation=35, ha="right", fontsize="small")
    mains = [p.high for line in chart.series if line.main for p in line.points]
    top = max([0.05, *(b.chance.high for b in bars), *mains])
    curve.set_ylim(0, min(1.0, top * 1.15))
    places.set(ylabel=chart.bar_ylabel, ylim=(0, min(1.0, top * 1.15)), title=chart.bar_title)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
