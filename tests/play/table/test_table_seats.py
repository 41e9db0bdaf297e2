"""Seats at a shared table see the same log, and move only what they hold (issue 20, points 4 and 5)."""

from __future__ import annotations

from pathlib import Path

from tests.play.table.tablekit import Seat, open_table, table_client


def test_two_seats_see_the_same_entries_in_the_same_order(tmp_path: Path) -> None:
    """Issue 20, point 4: every seat sees the same events in the same order."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        bea, cal = Seat(a), Seat(b)
        assert bea.hello(invite=tokens["invite"], name="Bea")["type"] == "welcome"
        assert cal.hello(invite=tokens["invite"], name="Cal")["type"] == "welcome"
        taken = bea.send("pc take all")
        assert taken["type"] == "log" and taken["by"] == "Bea"
        cal.catch_up(taken["n"])
        assert [e["n"] for e in bea.log] == [e["n"] for e in cal.log]
        assert bea.log == cal.log
