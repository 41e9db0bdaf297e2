"""A seat that drops while an entry is being told gets that entry's narration when it comes back.

Issue 20, point 5: "A seat that drops and reconnects (or reloads the page) gets exactly the events it
missed, from its last seen event number; its view equals a seat that never left." The entry's result
comes first and its narration after (issue 19, point 1); a seat that saw the result but not the
narration asks again from the entry before, so the host sends the whole entry again, narration and
all, and the seat shows only what it had not shown.
"""

from __future__ import annotations

from typing import Any

from wyrd.play.frontends.table.client import RemoteTable, parse_link


def _seat() -> tuple[RemoteTable, list[dict[str, Any]]]:
    got: list[dict[str, Any]] = []
    table = RemoteTable(parse_link("http://127.0.0.1:8420/#seat=abc"), on_message=got.append, seat="abc")
    return table, got


def test_a_seat_asks_again_for_an_entry_whose_narration_never_came() -> None:
    table, _ = _seat()
    table._take({"type": "log", "n": 4, "lines": [{"text": "Scene 1 begins.", "style": "info"}]})
    table._take({"type": "prose_done", "n": 4, "lines": [], "events": []})
    table._take({"type": "log", "n": 5, "lines": [{"text": "Ada rolls 3.", "style": "info"}]})
    table._take({"type": "prose", "n": 5, "chunk": "Fog settles"})
    # the connection drops here: entry 5's narration never came
    assert table._hello() == {"type": "hello", "seat": "abc", "after": 4}


def test_the_entry_sent_again_is_marked_so_only_its_narration_is_new() -> None:
    table, got = _seat()
    first = {"type": "log", "n": 5, "lines": [{"text": "Ada rolls 3.", "style": "info"}]}
    table._take(dict(first))
    table._take(dict(first))  # sent again after the reconnect
    assert [m.get("again") for m in got] == [False, True]
    table._take({"type": "prose_done", "n": 5, "lines": [{"text": "Fog settles.", "style": "narration"}]})
    assert table._hello()["after"] == 5


def test_entries_sent_whole_on_joining_count_as_seen_whole() -> None:
    """On joining, the host sends the missed entries from the save with their narration in their lines
    (no prose_done): they are seen whole once they arrive, and not before."""
    table, _ = _seat()
    table._take({"type": "welcome", "name": "Cal", "last": 7})
    table._take({"type": "log", "n": 6, "lines": [{"text": "Ada rolls 3.", "style": "info"}]})
    assert table._hello()["after"] == 6  # entry 7 never arrived: it is asked for again
    table._take({"type": "log", "n": 7, "lines": [{"text": "Fog settles.", "style": "narration"}]})
    assert table._hello()["after"] == 7
