"""Nothing lost, by anyone (issue 20, points 5 and 6): reconnecting, resent lines, a restarted host."""

from __future__ import annotations

from pathlib import Path

from tests.play.table.tablekit import Seat, open_table, table_client

LINES = ["pc take all", "scene", 'attempt fair-unease by "Coral Vell"', "roll", 'draw "Coral Vell" 2',
         'attempt huckster-cheat by "Ivy Marchbank"', "roll", "wyrd", "end scene"]


def test_a_seat_that_comes_back_gets_exactly_what_it_missed(tmp_path: Path) -> None:
    """Issue 20, points 5 and 6: a seat that reconnects with the number of the last entry it saw is sent
    a digest of what happened meanwhile and exactly the entries after it: its log then equals that of a
    seat that never left."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a:
        bea = Seat(a)
        bea.hello(invite=tokens["invite"], name="Bea")
        with client.websocket_connect("/ws") as b:
            cal = Seat(b)
            token = cal.hello(invite=tokens["invite"], name="Cal")["seat"]
            for line in LINES[:2]:
                n = bea.send(line)["n"]
            cal.catch_up(n)
        seen = cal.log[-1]["n"]
        for line in LINES[2:]:
            bea.send(line)
        with client.websocket_connect("/ws") as b:
            back = Seat(b)
            welcome = back.hello(seat=token, after=seen)
            assert welcome["type"] == "welcome" and "seat" not in welcome
            digest = next(m for m in back.seen if m["type"] == "digest")
            assert digest["lines"][0].startswith("While you were away")
            assert "Bea 7" in digest["lines"][0]
        assert [e["n"] for e in back.log] == list(range(seen + 1, server.engine.last + 1))
        assert cal.log + back.log == bea.log


def test_a_line_resent_with_the_same_id_applies_once(tmp_path: Path) -> None:
    """Issue 20, point 5: a line sent as the connection drops is applied once; sent again with its id
    after reconnecting, it is answered as a duplicate and changes nothing."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client:
        with client.websocket_connect("/ws") as a:
            bea = Seat(a)
            token = bea.hello(invite=tokens["invite"], name="Bea")["seat"]
            bea.send("pc take all")
            seen = bea.log[-1]["n"]
            a.send_json({"type": "line", "id": "dropped-1", "text": "scene"})
        # The connection dropped before the answer came. Back, the seat looks for its line's id among
        # the entries it missed, and sends it again with the same id: either way it applies once.
        with client.websocket_connect("/ws") as a:
            back = Seat(a)
            back.hello(seat=token, after=seen)
            applied = [e["n"] for e in back.log if e["id"] == "dropped-1"]
            again = back.send("scene", line_id="dropped-1")
            if applied:
                assert again == {"type": "duplicate", "id": "dropped-1", "n": applied[0]}
            else:
                assert again["type"] == "log"
            last = server.engine.last
            assert back.send("scene", line_id="dropped-1")["type"] == "duplicate"
            assert server.engine.last == last
        with client.websocket_connect("/ws") as a:
            whole = Seat(a)
            whole.hello(seat=token, after=0)
            assert [e["id"] for e in whole.log].count("dropped-1") == 1


def test_a_restarted_host_keeps_its_seats_numbers_and_resent_lines(tmp_path: Path) -> None:
    """Issue 20, point 5: a host closed and resumed numbers its entries as before, knows its seats'
    tokens and claims, answers a line resent after the restart as applied, and forgets a line that was
    about to run when it stopped (it never reached the save)."""
    save = tmp_path / "g.wyrd"
    server, tokens = open_table(save)
    with table_client(server) as client, client.websocket_connect("/ws") as a:
        bea = Seat(a)
        token = bea.hello(invite=tokens["invite"], name="Bea")["seat"]
        for line in LINES[:3]:
            bea.send(line, line_id=f"l-{line}")
        before = list(bea.log)
        # A line about to run when the host stopped: recorded as intended, never committed.
        server.run(lambda: server.engine.book.intend(server.engine.last + 1, 1, "lost", "roll"))
    again, tokens2 = open_table(save, resume=True)
    assert tokens2["invite"] == tokens["invite"]
    assert tokens2["host"] != tokens["host"]  # the host's own seat token is new at every start
    with table_client(again) as client, client.websocket_connect("/ws") as a:
        back = Seat(a)
        welcome = back.hello(seat=token, after=0)
        assert {"Coral Vell", "Ivy Marchbank", "Ned Harrower"} <= set(welcome["characters"])
        assert back.log == before
        assert back.send("scene", line_id="l-scene")["type"] == "duplicate"
        assert back.send("roll", line_id="lost")["type"] == "log"  # never applied before: applied now, once
