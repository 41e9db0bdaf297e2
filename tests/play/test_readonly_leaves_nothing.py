"""Reading a closed save leaves nothing beside it (issue 18, point 10).

`wyrd log` and `wyrd export` open a save read-only; SQLite's plain read-only reader of a save
in WAL mode left an empty -wal and -shm beside a game nobody was playing. A closed save (no
-wal, nobody holding its lock) is now read immutably, as `wyrd saves` reads it; a save being
played is still read through SQLite's locks, and sees every command saved so far.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console


def beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name != path.name)


@pytest.fixture
def closed_game(tmp_path: Path) -> Path:
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=3, ruleset="abacus")
    try:
        Console(session, path).handle("pc add Ada body=5 mind=5 soul=5")
    finally:
        session.close()
    assert beside(path) == []
    return path


def test_reading_a_closed_save_leaves_no_wal_or_shm(closed_game: Path) -> None:
    with SaveFile.open(closed_game, readonly=True) as save:
        assert [r.text for r in save.live_commands()][-1] == "pc add Ada body=5 mind=5 soul=5"
    assert beside(closed_game) == []


def test_wyrd_log_and_export_leave_nothing_beside_the_save(closed_game: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["log", str(closed_game)]) == 0
    assert main(["export", str(closed_game)]) == 0
    out = capsys.readouterr().out
    assert "Ada joins" in out
    assert beside(closed_game) == []


def test_a_save_being_played_is_read_as_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=3, ruleset="abacus")
    try:
        Console(session, path).handle("pc add Ada body=5 mind=5 soul=5")
        assert f"{path.name}-wal" in beside(path)  # the session's own write-ahead log
        with SaveFile.open(path, readonly=True) as save:  # through SQLite's locks: the -wal is read
            assert [r.text for r in save.live_commands()][-1] == "pc add Ada body=5 mind=5 soul=5"
    finally:
        session.close()
    assert beside(path) == []
