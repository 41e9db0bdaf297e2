"""A player's own tables (``tables/`` beside their stories, or under --content) are loaded over
the bundled ones; a broken one stops the game from starting with file, line and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from wyrd.play.engine.reply import SessionError
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

MINE = """id: twist/{category}
title: My own {category} intrusions
dice: d6
rows:
  - {{range: 1-6, text: "The milk float from Ashby rattles past {{character}}."}}
"""


def test_own_tables_speak_over_the_bundled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    tables = tmp_path / "mine" / "tables"
    tables.mkdir(parents=True)
    for category in ("mundane", "friendly"):
        (tables / f"{category}.yaml").write_text(MINE.format(category=category), encoding="utf-8")
    session = Session.new(None, seed=2, content=[tmp_path / "mine"], ruleset="abacus")
    console = Console(session)
    console.handle("pc add Ada body=5 mind=5 soul=5")
    console.handle("scene")
    twists = [e for e in console.handle("wyrd").events if e["kind"] == "twist"]
    assert twists and twists[0]["text"] == "The milk float from Ashby rattles past Ada."


def test_a_broken_own_table_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    tables = tmp_path / "mine" / "tables"
    tables.mkdir(parents=True)
    (tables / "gap.yaml").write_text("id: mine/gap\ntitle: Gap\ndice: d6\nrows:\n  - {range: 1-3, text: a}\n",
                                     encoding="utf-8")
    with pytest.raises(SessionError) as caught:
        Session.new(tmp_path / "s.wyrd", seed=1, content=[tmp_path / "mine"], ruleset="abacus")
    assert "gap.yaml" in str(caught.value)
    assert not (tmp_path / "s.wyrd").exists()
