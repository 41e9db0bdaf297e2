"""Wyrd's benchmarks: run ``python -m bench`` (not part of the test run)."""
