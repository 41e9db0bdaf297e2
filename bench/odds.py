"""Exact-odds queries per second, as the REPL asks them on every assignment."""

from __future__ import annotations

import time

from wyrd.rules import odds

__all__ = ["run"]


def run(queries: int = 20_000) -> list[str]:
    odds._challenge_odds.cache_clear()
    start = time.perf_counter()
    for i in range(queries):
        odds.challenge_odds(2 + i % 14, i % 9, i % 5)
    cached = queries / (time.perf_counter() - start)
    start = time.perf_counter()
    for i in range(2000):
        odds._challenge_odds.cache_clear()
        odds.challenge_odds(2 + i % 14, i % 9, i % 5)
    cold = 2000 / (time.perf_counter() - start)
    return [f"challenge odds: {cached:,.0f} queries/s as the REPL asks them, {cold:,.0f}/s uncached"]
