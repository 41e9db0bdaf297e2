"""What the save tests share: a small game of nine commands with a snapshot every four."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.play.saveedit import SMALL_GAME
from wyrd.play.engine.session import Session


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.setattr("wyrd.play.engine.history.SNAPSHOT_EVERY", 4)
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=5, ruleset="abacus")
    for line in SMALL_GAME:
        assert session.execute(line).refused is None, line
    session.close()
    yield path  # the data folder (WYRD_HOME) is the test's own: what the game leaves there is its mark
