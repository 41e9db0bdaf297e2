"""A host killed and opened again, with pages at the table (issue 20, points 5 and 8): the pages
reconnect by themselves as the same seats and show the same log as before, then play on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.play.table_page.realhost import BrowserSeat, Host

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# The page waits longer and longer between tries while the host is away (at most 10 s).
BACK = 30_000


@pytest.fixture
def host(tmp_path: Path) -> Iterator[list[Host]]:
    hosts = [Host(tmp_path, "--story", "hollow-fair", "--seed", "21")]
    yield hosts
    for table in hosts:
        table.close()


def test_pages_take_their_seats_back_from_a_host_killed_and_resumed(host: list[Host], browser: Any) -> None:
    """Issue 20, point 5: a host killed with SIGKILL and restarted with --resume takes its seats back
    when they reconnect (the pages do by themselves), and no entry any page saw is missing."""
    first = host[0]
    bea, cal = BrowserSeat(browser, first.link, "Bea"), BrowserSeat(browser, first.link, "Cal")
    try:
        for who, line in ((bea, 'pc take "Coral Vell"'), (cal, 'pc take "Ivy Marchbank"'), (bea, "scene")):
            count = len(who.log())
            who.type(line)
            bea.wait_for_entries(count + 1)
            cal.wait_for_entries(count + 1)
        before = bea.log()
        assert cal.log() == before
        first.kill()
        for seat in (bea, cal):
            expect(seat.page.locator("#connection")).not_to_have_attribute("data-state", "open")
        host.append(first.again())
        for seat in (bea, cal):
            expect(seat.page.locator("#connection")).to_have_attribute("data-state", "open", timeout=BACK)
            expect(seat.page.locator("#who")).to_have_text(f"({'Bea' if seat is bea else 'Cal'})")
        assert bea.log() == before and cal.log() == before
        cal.type('attempt huckster-cheat by "Ivy Marchbank"')
        bea.wait_for_entries(len(before) + 1)
        cal.wait_for_entries(len(before) + 1)
        assert bea.log() == cal.log()
        assert bea.log()[:-1] == before
        assert bea.dialogs == [] and cal.dialogs == []
    finally:
        bea.close()
        cal.close()
