"""Seats at a shared table see the same log, and move only what they hold (issue 20, points 4 and 5).

The table has no rule of its own: a scripted game played by two seats commits exactly the events
the same script commits through ``wyrd play --script`` (its golden transcript), and both seats are
sent the same entries in the same order.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.play.table.tablekit import Seat, open_table, table_client

GOLDEN = Path(__file__).resolve().parents[2] / "golden"


def _script(name: str) -> tuple[int, str, list[str]]:
    lines = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8").splitlines()
    seed = int(lines[0].split(":")[1])
    ruleset = lines[1].split(":")[1].strip() if lines[1].startswith("# ruleset:") else "abacus"
    return seed, ruleset, [line for line in lines if line.strip() and not line.startswith("#")]


@pytest.mark.parametrize(("name", "cals"), [("story_hollow_fair", "Ivy Marchbank"), ("lots_harrow_mere", "Tam")])
def test_two_seats_play_a_scripted_story_and_see_identical_logs(tmp_path: Path, name: str, cals: str) -> None:
    """Issue 20, points 4 and 8: two seats of two rulesets play a story to its end, each moving its own
    character, and see identical logs; the events committed are the golden transcript's (no rule of its own)."""
    seed, ruleset, lines = _script(name)
    server, tokens = open_table(tmp_path / "g.wyrd", story=None, ruleset=ruleset, seed=seed)
    with table_client(server) as client, client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        bea, cal = Seat(a), Seat(b)
        bea.hello(invite=tokens["invite"], name="Bea")
        cal.hello(invite=tokens["invite"], name="Cal")
        refused = 0
        for i, line in enumerate(lines):
            if i == 3:  # after `pc take all`, Bea holds everyone: she hands one character to Cal
                assert bea.send(f'release "{cals}"')["type"] == "reply"
                assert cal.send(f'claim "{cals}"')["type"] == "reply"
            seat = cal if cals.casefold() in line.casefold() and i >= 3 else bea
            answer = seat.send(line)
            refused += answer["type"] == "refused"
        last = server.engine.last
        bea.catch_up(last)
        cal.catch_up(last)
    assert bea.log == cal.log
    assert [e["n"] for e in bea.log] == list(range(1, last + 1))
    assert {e["by"] for e in bea.log[1:]} == {"Bea", "Cal"}
    golden = [json.loads(t) for t in (GOLDEN / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()]
    kept = [e for e in golden if e["kind"] != "refused"]
    assert [e for entry in bea.log for e in entry["events"]] == kept
    assert refused == len(golden) - len(kept)


def test_a_seat_moving_another_seats_character_is_refused(tmp_path: Path) -> None:
    """Issue 20, point 4: a command that moves a character is accepted only from the seat that holds it,
    or from anyone once the host opens the table; the refusal says whose it is and changes nothing."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    host_token = tokens["host"]
    with table_client(server) as client, client.websocket_connect("/ws") as a, \
            client.websocket_connect("/ws") as b, client.websocket_connect("/ws") as h:
        bea, cal, host = Seat(a), Seat(b), Seat(h)
        bea.hello(invite=tokens["invite"], name="Bea")
        cal.hello(invite=tokens["invite"], name="Cal")
        assert host.hello(seat=host_token)["host"] is True
        assert bea.send('pc take "Coral Vell"')["type"] == "log"
        assert bea.send("scene")["type"] == "log"
        before = server.engine.last
        answer = cal.send('attempt fair-unease by "Coral Vell"')
        assert answer["type"] == "refused"
        assert "Coral Vell is Bea's to move" in answer["reason"]
        assert server.engine.last == before
        assert cal.send("open")["type"] == "refused"  # the host's setting, not Cal's
        assert host.send("open")["type"] == "reply"
        assert cal.send('attempt fair-unease by "Coral Vell"')["type"] == "log"
        assert host.send("close")["type"] == "reply"
        assert cal.send('draw "Coral Vell" 1')["type"] == "refused"


def test_the_host_may_keep_table_wide_commands_and_revoke_a_seat(tmp_path: Path) -> None:
    """Issue 20, points 4 and 7: table-wide commands follow the host's setting; a revoked seat's
    connection closes and its token lets nobody in again."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as h:
        bea, host = Seat(a), Seat(h)
        token = bea.hello(invite=tokens["invite"], name="Bea")["seat"]
        host.hello(seat=tokens["host"])
        assert host.send("scenes host")["type"] == "reply"
        answer = bea.send("pc take all")
        assert answer["type"] == "refused" and "only the host" in answer["reason"]
        assert host.send("pc take all")["type"] == "log"
        assert host.send("scene")["type"] == "log"
        assert host.send("revoke Bea")["type"] == "reply"
        assert bea.read_until("error")["reason"] == "the host revoked this seat"
        with client.websocket_connect("/ws") as again:
            assert Seat(again).hello(seat=token)["type"] == "error"


def test_looks_answer_the_sender_alone_and_a_new_character_is_its_makers(tmp_path: Path) -> None:
    """Issue 20, point 4: `pc` is shown to the seat that asked; `pc take` gives the seat that took them
    its characters, and every seat is told who holds what."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a, client.websocket_connect("/ws") as b:
        bea, cal = Seat(a), Seat(b)
        bea.hello(invite=tokens["invite"], name="Bea")
        cal.hello(invite=tokens["invite"], name="Cal")
        look = bea.send("pregens")
        assert look["type"] == "reply" and look["lines"]
        taken = bea.send("pc take all")
        cal.catch_up(taken["n"])
        seats = next(m for m in reversed(cal.seen) if m["type"] == "seats")  # sent with the entry, before its prose
        held = {s["name"]: s["characters"] for s in seats["seats"]}
        assert {"Coral Vell", "Ivy Marchbank", "Ned Harrower"} <= set(held["Bea"])
        assert held["Cal"] == []
        assert not any(m["type"] == "reply" for m in cal.seen)


def test_only_the_host_writes_on_the_hosts_machine(tmp_path: Path) -> None:
    """Issue 20, point 7: a seat cannot make the host write a file (`export`) or change its narrator."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a:
        bea = Seat(a)
        bea.hello(invite=tokens["invite"], name="Bea")
        answer = bea.send(f"export {tmp_path / 'out.md'}")
        assert answer["type"] == "refused" and "only the host" in answer["reason"]
        assert bea.send("narrator table")["type"] == "refused"
    assert not (tmp_path / "out.md").exists()


def test_faces_of_real_dice_are_marked_in_the_log(tmp_path: Path) -> None:
    """Issue 20, point 2: dice typed by a seat that rolls physical dice are marked as such in the log."""
    server, tokens = open_table(tmp_path / "g.wyrd")
    with table_client(server) as client, client.websocket_connect("/ws") as a:
        bea = Seat(a)
        bea.hello(invite=tokens["invite"], name="Bea")
        for line in ("pc take all", "scene", 'attempt fair-unease by "Coral Vell"'):
            assert bea.send(line)["typed"] is False
        rolled = bea.send("roll 4")
        assert rolled["type"] == "log" and rolled["typed"] is True
