"""``wyrd saves`` shows each game's story title, ruleset, when it was last played and how far it
went, newest first, and hides games with no command yet (issue 18, point 10)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console


def game(folder: Path, name: str, ruleset: str, story: str | None, lines: list[str], when: float) -> Path:
    path = folder / name
    session = Session.new(path, seed=1, ruleset=ruleset, story=story)
    console = Console(session, path)
    for line in lines:
        console.handle(line)
    session.close()
    os.utime(path, (when, when))
    return path


def test_saves_lists_titles_rulesets_and_progress_newest_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    folder = tmp_path / "saves"
    folder.mkdir()
    older = game(folder, "a.wyrd", "abacus", "hollow-fair", ["pc take all", "scene"], 1_000)
    newer = game(folder, "b.wyrd", "lots", "harrow-mere", ["pc take all"], 2_000)
    game(folder, "c.wyrd", "abacus", None, [], 3_000)  # nothing played yet
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    assert "The Hollow Fair (Wyrd Abacus)" in out and "(Thaeborn)" in out
    assert "3 commands" in out  # the story chosen, pc take all, scene
    assert out.index(str(newer)) < out.index(str(older))  # the newest first (its last command)
    assert "c.wyrd" not in out and "1 game with no command yet not shown" in out
    # A listing only reads: it leaves no write-ahead log or index beside a closed save.
    assert sorted(p.name for p in folder.iterdir()) == ["a.wyrd", "b.wyrd", "c.wyrd"]


def test_a_save_that_cannot_be_read_is_listed_as_such(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    folder = tmp_path / "saves"
    folder.mkdir()
    path = game(folder, "a.wyrd", "abacus", None, ["pc add Ada body=5 mind=5 soul=5"], 1_000)
    data = bytearray(path.read_bytes())
    data[4096:8192] = b"\xff" * 4096  # the header stays a save's; its pages do not
    path.write_bytes(bytes(data))
    assert main(["saves"]) == 0
    out = capsys.readouterr().out
    assert "cannot be read" in out and str(path) in out
