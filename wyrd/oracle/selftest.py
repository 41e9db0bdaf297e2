"""Check that rolling matches the odds the tables promise: exact distribution vs. a large sample.

For every table, the exact chance of each row follows from its ranges (counted
over every outcome of its dice) or its weights. :func:`selftest` draws a large
seeded sample through the real :func:`wyrd.oracle.tables.roll` and compares the counts
with Pearson's chi-square test; the question oracle is checked the same way for
each odds word (answer x twist), and so are the twist-category dice. A check whose
p-value falls below the threshold is flagged.

Bins expected to hold fewer than 5 draws are pooled (the usual condition for the
chi-square approximation). The p-value is the upper regularised incomplete gamma
function Q(df/2, chi2/2), computed here with :mod:`math` (series and continued
fraction, as in Numerical Recipes), so no statistics package is needed.

``main()`` is the hook for the command line (``wyrd oracle selftest``).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction

from pydantic import BaseModel

from wyrd.oracle.question import ODDS, answer_for, ask, is_twist, question_odds
from wyrd.oracle.tables import Table, bundled_tables, roll
from wyrd.oracle.twists import category_table
from wyrd.rules.dice import Dice

__all__ = ["DEFAULT_SAMPLES", "DEFAULT_THRESHOLD", "Check", "Report", "chi_square", "p_value", "selftest"]

DEFAULT_SAMPLES = 4000
DEFAULT_THRESHOLD = 1e-4
MIN_EXPECTED = 5.0
_ITERATIONS = 500
_EPSILON = 1e-14


def _lower_series(a: float, x: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(_ITERATIONS):
        ap += 1
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPSILON:
            break
    return total * math.exp(-x + a * math.log(x) - math.lgamma(a))


def _upper_fraction(a: float, x: float) -> float:
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, _ITERATIONS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPSILON:
            break
    return math.exp(-x + a * math.log(x) - math.lgamma(a)) * h


def p_value(chi2: float, df: int) -> float:
    """P(X >= chi2) for X chi-square with ``df`` degrees of freedom: Q(df/2, chi2/2)."""
    if df <= 0:
        return 1.0
    a, x = df / 2, chi2 / 2
    if x <= 0:
        return 1.0
    if x < a + 1:
        return max(0.0, min(1.0, 1 - _lower_series(a, x)))
    return max(0.0, min(1.0, _upper_fraction(a, x)))


def chi_square(observed: Sequence[int], expected: Sequence[float]) -> tuple[float, int]:
    """Pearson's statistic and degrees of freedom, pooling bins expected below 5."""
    pairs = sorted(zip(expected, observed, strict=True))
    bins: list[tuple[float, int]] = []
    pool_e, pool_o = 0.0, 0
    for e, o in pairs:
        if e < MIN_EXPECTED:
            pool_e += e
            pool_o += o
        else:
            bins.append((e, o))
    if pool_e > 0:
        if pool_e >= MIN_EXPECTED or not bins:
            bins.append((pool_e, pool_o))
        else:
            e, o = bins.pop(0)
            bins.append((e + pool_e, o + pool_o))
    stat = sum((o - e) ** 2 / e for e, o in bins if e > 0)
    return stat, len(bins) - 1


class Check(BaseModel):
    """One distribution compared with its sample."""

    name: str
    kind: str  # "table", "question" or "twist-category"
    samples: int
    bins: int
    chi2: float
    df: int
    p: float
    flagged: bool


class Report(BaseModel):
    """Every check made, and which failed."""

    samples: int
    seed: int
    threshold: float
    checks: list[Check]

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if c.flagged]

    @property
    def ok(self) -> bool:
        return not self.failures

    def text(self) -> str:
        lines = [f"{len(self.checks)} checks, {self.samples} draws each, seed {self.seed}, "
                 f"flagged below p = {self.threshold:g}"]
        for c in sorted(self.checks, key=lambda c: c.p)[:5] if self.ok else self.failures:
            mark = "FLAGGED" if c.flagged else "lowest"
            lines.append(f"  {mark:7} {c.kind:14} {c.name}: chi2 {c.chi2:.1f}, df {c.df}, p {c.p:.3g}")
        lines.append("all distributions match" if self.ok else f"{len(self.failures)} flagged")
        return "\n".join(lines)


def _compare(name: str, kind: str, exact: Mapping[str, Fraction], draw: Callable[[], str], samples: int,
             threshold: float) -> Check:
    counts = Counter(draw() for _ in range(samples))
    unknown = set(counts) - set(exact)
    if unknown:
        raise AssertionError(f"{name}: drew {sorted(unknown)}, which the exact distribution does not have")
    keys = list(exact)
    stat, df = chi_square([counts.get(k, 0) for k in keys], [float(exact[k]) * samples for k in keys])
    p = p_value(stat, df)
    return Check(name=name, kind=kind, samples=samples, bins=len(keys), chi2=stat, df=df, p=p, flagged=p < threshold)


def _question_exact(word: str, tension: int) -> dict[str, Fraction]:
    odds = question_odds(word, tension)
    out: dict[str, Fraction] = {}
    for face in range(1, 101):
        key = _question_key(face, odds.odds, tension)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 100)
    return out


def _question_key(face: int, odds: int, tension: int) -> str:
    return f"{answer_for(face, odds).value}{'+twist' if is_twist(face, tension) else ''}"


def _drawer(table: Table, dice: Dice, tables: Mapping[str, Table]) -> Callable[[], str]:
    return lambda: roll(table, dice, tables=tables).row


def selftest(tables: Mapping[str, Table] | None = None, *, samples: int = DEFAULT_SAMPLES, seed: int = 1,
             threshold: float = DEFAULT_THRESHOLD, question: bool = True, tension: int = 8) -> Report:
    """Compare every table (and the question oracle, per odds word) with a seeded sample.

    ``tension`` is the question oracle's tension for the check (8 makes all nine doubles twists,
    so the twist bins are large enough to test).
    """
    tables = tables if tables is not None else bundled_tables()
    checks: list[Check] = []
    extra = {t.id: t for t in (category_table(True), category_table(False))}
    for name, table in [*sorted(tables.items()), *extra.items()]:
        dice = Dice.seeded(f"{seed}:{name}")
        kind = "twist-category" if name in extra else "table"
        checks.append(_compare(name, kind, table.exact(), _drawer(table, dice, tables), samples, threshold))
    if question:
        for word in ODDS:
            dice = Dice.seeded(f"{seed}:ask:{word}")

            def draw(w: str = word, d: Dice = dice) -> str:
                answer = ask("?", w, tension, d)
                return f"{answer.answer.value}{'+twist' if answer.twist else ''}"

            checks.append(_compare(f"ask {word} (tension {tension})", "question", _question_exact(word, tension),
                                   draw, samples, threshold))
    return Report(samples=samples, seed=seed, threshold=threshold, checks=checks)
