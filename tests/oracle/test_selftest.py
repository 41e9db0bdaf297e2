"""The selftest: every bundled table, the twist dice and the question oracle roll as their
ranges and weights promise (chi-square against the exact distribution)."""

from __future__ import annotations

from fractions import Fraction
from itertools import cycle

import pytest

from wyrd.oracle.selftest import _compare, chi_square, p_value, selftest
from wyrd.oracle.tables import bundled_tables
from wyrd.play.cli.main import main


def test_every_bundled_table_passes_the_selftest() -> None:
    report = selftest(samples=1500, seed=2)
    names = {c.name for c in report.checks}
    assert set(bundled_tables()) <= names
    assert {"twist/category/six", "twist/category/low"} <= names
    assert {f"ask {w} (tension 8)" for w in ("certain", "likely", "even", "unlikely", "impossible")} <= names
    assert report.ok, report.text()
    assert "all distributions match" in report.text()


def test_p_values_match_known_chi_square_quantiles() -> None:
    assert p_value(3.841458820694124, 1) == pytest.approx(0.05, rel=1e-9)
    assert p_value(18.307038053275146, 10) == pytest.approx(0.05, rel=1e-9)
    assert p_value(2.0, 2) == pytest.approx(0.36787944117144233)  # exp(-1)
    assert p_value(0.0, 3) == 1.0 and p_value(5.0, 0) == 1.0
    assert p_value(124.342, 100) == pytest.approx(0.05, rel=1e-3)


def test_chi_square_pools_small_bins() -> None:
    stat, df = chi_square([10, 10, 1, 0], [10.0, 10.0, 2.0, 1.0])
    assert df == 1 and stat == pytest.approx((11 - 13) ** 2 / 13)  # 2 + 1 expected joins a bin of 10
    stat, df = chi_square([6, 4], [5.0, 5.0])
    assert (df, round(stat, 9)) == (1, 0.4)


def test_a_biased_roll_is_flagged() -> None:
    exact = {"a": Fraction(1, 2), "b": Fraction(1, 2)}
    faces = cycle(["a", "a", "a", "b"])
    check = _compare("biased", "table", exact, lambda: next(faces), 2000, 1e-4)
    assert check.flagged and check.p < 1e-10
    with pytest.raises(AssertionError, match="does not have"):
        _compare("odd", "table", exact, lambda: "c", 10, 1e-4)


def test_the_command_line_runs_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["oracle", "selftest", "--samples", "300", "--seed", "5"]) == 0
    assert "checks, 300 draws each" in capsys.readouterr().out
