"""Confidence intervals against published values."""

from __future__ import annotations

import pytest

from wyrd.sim.stats import mean_interval, t_quantile, wilson


@pytest.mark.parametrize(("df", "t"), [(1, 12.7062), (2, 4.3027), (3, 3.1824), (5, 2.5706), (10, 2.2281),
                                       (30, 2.0423), (120, 1.9799), (10_000, 1.9602)])
def test_t_quantiles_match_the_table(df: int, t: float) -> None:
    assert t_quantile(df) == pytest.approx(t, abs=1e-4)


def test_wilson_score_interval() -> None:
    # Wilson (1927) as tabulated by Newcombe (1998): 81/263 -> 0.2553 to 0.3662.
    p = wilson(81, 263)
    assert (p.low, p.high) == (pytest.approx(0.2553, abs=1e-4), pytest.approx(0.3662, abs=1e-4))
    zero = wilson(0, 10)
    assert zero.low == 0 and zero.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson(10, 10).high == 1 and wilson(0, 0).n == 0
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_mean_interval_from_whole_number_sums() -> None:
    xs = [2, 4, 4, 4, 5, 5, 7, 9]
    m = mean_interval(len(xs), sum(xs), sum(x * x for x in xs))
    assert m.mean == 5 and m.sd == pytest.approx(2.138, abs=1e-3)
    assert m.high - m.mean == pytest.approx(t_quantile(7) * m.sd / len(xs) ** 0.5)
    sixths = mean_interval(3, 2 + 4 + 6, 4 + 16 + 36, scale=6, bounds=(0.0, 1.0))
    assert sixths.mean == pytest.approx(2 / 3) and sixths.low >= 0 and sixths.high <= 1
    assert mean_interval(1, 4, 16).low == 4 and mean_interval(0, 0, 0).n == 0
