"""Buttons for the common moves (issue 20, point 2): each ruleset's kit names its moves, and the table
sends those that are moves now, with the shared ones, in ``welcome`` and every ``view``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.play.table.tablekit import Seat, open_table, table_client
from wyrd.play.engine.kits import COMMON_MOVES, hooks_for

STORIES = [("abacus", "hollow-fair"), ("wolden", "the-drowned-bell"), ("feat", "lantern-at-gull-reach"),
           ("lots", "harrow-mere")]


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))


@pytest.mark.parametrize(("ruleset", "story"), STORIES)
def test_every_ruleset_offers_its_own_moves_and_the_shared_ones(tmp_path: Path, ruleset: str, story: str) -> None:
    """Issue 20, point 2: the four rulesets are equals: each kit names its common moves (a scene to go
    to at least), and the page is sent them, with look, turn and ask, once there are characters."""
    kit = hooks_for(ruleset)
    assert kit.moves, f"{ruleset}'s kit names no moves"
    server, tokens = open_table(tmp_path / "g.wyrd", story=story, ruleset=ruleset)
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        bea = Seat(ws)
        welcome = bea.hello(invite=tokens["invite"], name="Bea")
        lines = [m["line"] for m in welcome["moves"]]
        assert [m.line for m in COMMON_MOVES] == lines[-len(COMMON_MOVES):]
        bea.send("pc take all")
        moves = bea.view_moves()
        assert "scene" in [m["line"] for m in moves]
        assert all(set(m) == {"label", "line", "send"} and m["label"] for m in moves)
        typed = [m for m in moves if not m["send"]]
        assert typed and all(m["line"].endswith(" ") for m in typed)  # to finish on the command line


def test_the_abacus_offers_a_roll_only_while_one_is_open(tmp_path: Path) -> None:
    """Issue 20, point 2 (context-aware moves): `roll` while an attempt waits for its roll, `end scene`
    while a scene is on and no roll is open (the Wyrd Abacus: an attempt is rolled, then settled)."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as ws:
        bea = Seat(ws)
        bea.hello(invite=tokens["invite"], name="Bea")
        bea.send("pc take all")
        bea.send("scene")
        lines = [m["line"] for m in bea.view_moves()]
        assert "end scene" in lines and "roll" not in lines and "scene" not in lines
        bea.send('attempt fair-unease by "Coral Vell"')
        lines = [m["line"] for m in bea.view_moves()]
        assert "roll" in lines and "end scene" not in lines
