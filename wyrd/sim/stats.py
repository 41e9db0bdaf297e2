"""Confidence intervals for the simulator's estimates, in plain Python.

Proportions get the Wilson score interval (sound near 0 and 1, where most balance
questions live: a defeat rate of 2% must not get an interval reaching below 0).
Means get Student's t interval, its quantile found on the exact t distribution
(finite sums for whole degrees of freedom), so no scipy is needed.

Every estimate is built from whole-number sums (successes, totals, sums of
squares), which add up the same in any order: that is what makes a report the
same whatever the number of processes that produced it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist
from typing import Any

__all__ = ["CONFIDENCE", "JsonReport", "Mean", "Proportion", "mean_interval", "plain", "t_quantile", "wilson",
           "z_quantile"]

CONFIDENCE = 0.95
"""The confidence level of every interval in a report."""

LONG_DF = 200  # past this many degrees of freedom the t quantile comes from its expansion


def z_quantile(confidence: float = CONFIDENCE) -> float:
    """The two-sided standard normal critical value (1.96 for 95%)."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


@lru_cache(maxsize=64)
def t_quantile(df: int, confidence: float = CONFIDENCE) -> float:
    """The two-sided critical value of Student's t with ``df`` degrees of freedom.

    Found by bisection on the exact t distribution (Abramowitz and Stegun 26.7.3-4,
    finite sums for whole ``df``); past 200 degrees of freedom, where those sums grow
    long, the Cornish-Fisher expansion is already good to 1e-6.

    Args:
        df: Degrees of freedom (1 or more).
        confidence: The interval's confidence level, between 0 and 1.
    """
    if df < 1:
        raise ValueError(f"t needs at least 1 degree of freedom, not {df}")
    if not 0 < confidence < 1:
        raise ValueError(f"a confidence level lies between 0 and 1, not {confidence}")
    if df > LONG_DF:
        return _cornish_fisher(df, z_quantile(confidence))
    low, high = 0.0, z_quantile(confidence)
    while _t_within(high, df) < confidence:
        high *= 2
    for _ in range(200):
        middle = (low + high) / 2
        if middle in (low, high):
            break
        low, high = (middle, high) if _t_within(middle, df) < confidence else (low, middle)
    return high


def _t_within(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (A&S 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    total = 0.0
    if df % 2:
        term = math.cos(theta)
        for j in range(1, (df - 1) // 2 + 1):
            total += term
            term *= 2 * j / (2 * j + 1) * cos2
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = 1.0
    for j in range(1, df // 2 + 1):
        total += term
        term *= (2 * j - 1) / (2 * j) * cos2
    return math.sin(theta) * total


def _cornish_fisher(df: int, z: float) -> float:
    v = float(df)
    return (
        z
        + (z**3 + z) / (4 * v)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
        + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
    )


@dataclass(frozen=True)
class Proportion:
    """``k`` successes in ``n`` trials, with the Wilson score interval of the chance."""

    k: int
    n: int
    p: float
    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def to_dict(self) -> dict[str, Any]:
        return {"k": self.k, "n": self.n, "p": _r(self.p), "low": _r(self.low), "high": _r(self.high)}


def wilson(k: int, n: int, confidence: float = CONFIDENCE) -> Proportion:
    """The Wilson score interval for ``k`` successes in ``n`` trials (all 0 when ``n`` is 0)."""
    if not 0 <= k <= n:
        raise ValueError(f"{k} successes in {n} trials")
    if n == 0:
        return Proportion(0, 0, 0.0, 0.0, 0.0)
    z = z_quantile(confidence)
    p = k / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    # At k = 0 or k = n the interval touches 0 or 1 exactly; keep float dust out.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return Proportion(k, n, p, low, high)


@dataclass(frozen=True)
class Mean:
    """The mean of ``n`` observations with its t interval (``sd`` is the sample's)."""

    n: int
    mean: float
    sd: float
    low: float
    high: float

    def contains(self, value: float) -> bool:
        return self.low <= value <= self.high

    def to_dict(self) -> dict[str, Any]:
        return {"n": self.n, "mean": _r(self.mean), "sd": _r(self.sd), "low": _r(self.low), "high": _r(self.high)}


def mean_interval(
    n: int, total: int, squares: int, scale: int = 1, confidence: float = CONFIDENCE,
    bounds: tuple[float, float] = (-math.inf, math.inf),
) -> Mean:
    """The mean and t interval of ``n`` observations ``x / scale`` from whole-number sums.

    Args:
        n: How many observations.
        total: The sum of the observations, times ``scale``.
        squares: The sum of their squares, times ``scale`` squared.
        scale: The common denominator (6 for chances in sixths); 1 for counts.
        confidence: The interval's confidence level.
        bounds: Where the quantity must lie (``(0, 1)`` for a chance): the interval
            is cut to them, since no mean can lie outside.
    """
    if n == 0:
        return Mean(0, 0.0, 0.0, 0.0, 0.0)
    mean = total / (n * scale)
    if n == 1:
        return Mean(1, mean, 0.0, mean, mean)
    # n * sum(x^2) - (sum x)^2 is exact in integers: no cancellation error.
    variance = (n * squares - total * total) / (n * (n - 1) * scale * scale)
    sd = math.sqrt(max(0.0, variance))
    half = t_quantile(n - 1, confidence) * sd / math.sqrt(n)
    low, high = bounds
    return Mean(n, mean, sd, max(low, mean - half), min(high, mean + half))


def _r(x: float) -> float:
    """Round for reports: six decimals are more than any interval supports (and no -0.0)."""
    return round(x, 6) + 0.0


def plain(value: Any) -> Any:
    """``value`` as plain JSON data: intervals as their dicts, fractions as ``"n/d"`` text,
    dataclasses as objects, tuples as lists."""
    if isinstance(value, Proportion | Mean):
        return value.to_dict()
    if isinstance(value, Fraction):
        return str(value)
    if hasattr(value, "__dataclass_fields__"):
        return {name: plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


class JsonReport:
    """What every simulation report (a dataclass) shares: its JSON form."""

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON data (fractions as ``"n/d"`` text)."""
        out = plain(self)
        assert isinstance(out, dict)
        return {"kind": "simulation", **out}

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)
