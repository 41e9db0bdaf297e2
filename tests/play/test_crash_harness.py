"""The crash harness of bench/crash.py, in a short run: SIGKILL at random moments of a long
session (during commands, commits, narration and undos) loses nothing that was shown, and the
save passes its integrity checks and plays on. ``python -m bench crash`` runs 100 rounds."""

from __future__ import annotations

from bench.crash import run_rounds


def test_random_kills_lose_nothing_shown() -> None:
    report = run_rounds(5, seed=7)
    assert report.failures == []
    assert report.rounds == 5
    assert report.events_checked > 0
