"""A save that cannot be written (a full disk, a locked file) is reported, and nothing changes:
the state shown stays the state saved (issue: bad input never crashes and never loses anything)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console


def test_a_full_disk_refuses_the_command_and_changes_nothing(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    path = tmp_path / "full.wyrd"
    session = Session.new(path, seed=1, story=None, ruleset="abacus")
    console = Console(session, path)
    console.handle("pc add Ada body=5 mind=5 soul=5")
    assert session.save is not None
    conn = session.save._conn  # the test's way to fill the disk: cap the file where it stands
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    before = session.state.model_dump_json()
    # A line under the console's 4,096-character limit that still needs more pages than are left.
    out = console.handle('pc add Bo body=5 mind=5 soul=5 concept="' + "x" * 4000 + '"')
    assert out.events[0]["kind"] == "refused" and out.events[0]["rule"] == "save"
    assert "nothing was saved" in out.events[0]["reason"]
    assert session.state.model_dump_json() == before
    session.close()
    resumed = Session.resume(path)
    assert resumed.state.model_dump_json() == before
    resumed.close()


def test_a_locked_save_refuses_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    path = tmp_path / "locked.wyrd"
    session = Session.new(path, seed=1, story=None, ruleset="abacus")
    assert session.save is not None
    session.save._conn.execute("PRAGMA busy_timeout = 50")
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")
    try:
        out = Console(session, path).handle("pc add Ada body=5 mind=5 soul=5")
        assert out.events[0]["kind"] == "refused" and "writing to it" in out.events[0]["reason"]
        assert not session.state.characters
    finally:
        other.rollback()
        other.close()
    out = Console(session, path).handle("pc add Ada body=5 mind=5 soul=5")
    assert out.events[0]["kind"] == "character_created"
    session.close()
