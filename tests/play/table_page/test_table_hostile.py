"""A story whose every text holds markup and terminal escape sequences, at a real table (issue 20,
points 7 and 8): the page shows it as text, no script runs, and no escape reaches the page."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.play.table_page.realhost import BrowserSeat, Host

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

MARKUP = "<script>window.__ran=1;alert(1)</script><img src=x onerror='window.__ran=2;alert(2)'>"
ESCAPES = "\\x1b[31m\\x1b]0;owned\\x07\\x1b[2J"  # YAML's escapes: the story file holds the real bytes


def _story(folder: Path) -> None:
    """The golden test story The Thin Night with markup and escapes in its title, premise, a pregen,
    a scene's title and its location's narration."""
    source = (Path(__file__).resolve().parents[2] / "golden" / "content" / "the-thin-night.yaml").read_text()
    text = (source.replace("id: the-thin-night", "id: the-open-door")
            .replace("title: The Thin Night", f'title: "The {MARKUP} Night {ESCAPES}"')
            .replace("premise: On the night the veil is thin, something follows the lanterns home.",
                     f'premise: "{MARKUP} follows the lanterns home {ESCAPES}in red."')
            .replace("name: Ada Fenn, concept: A lantern-bearer",
                     f'name: "Ada <b>Fenn</b>", concept: "A {MARKUP} bearer {ESCAPES}"')
            .replace('narration: ["The lanterns sway though there is no wind."]',
                     f'narration: ["The lanterns {MARKUP} sway {ESCAPES}though there is no wind."]')
            .replace("title: The Lane at Dusk", f'title: "The Lane {MARKUP} at Dusk"'))
    assert text.count(MARKUP) == 5
    (folder / "the-open-door.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def host(tmp_path: Path) -> Iterator[Host]:
    content = tmp_path / "stories"
    content.mkdir()
    _story(content)
    table = Host(tmp_path, "--content", str(content), "--story", "the-open-door", "--seed", "5")
    yield table
    table.close()


def test_markup_and_escapes_in_a_story_and_a_name_are_inert_text(host: Host, browser: Any) -> None:
    """Issue 20, point 7: everything the page shows from stories and players is escaped: the story's
    `<script>` and `<img onerror>` read as text in the log and the panels, a player named with markup
    reads as that name, no dialog opens, nothing runs, and the terminal escapes never reach the page."""
    name = '<img src=x onerror="alert(3)">'
    seat = BrowserSeat(browser, host.link, name)
    other = BrowserSeat(browser, host.link, "Cal")
    try:
        held = len(seat.log())  # counted before the line: its entry may come back at once
        seat.type("pc take all")
        seat.wait_for_entries(held + 1)
        seat.type("scene")
        expect(seat.page.locator("#frame")).to_contain_text("<script>")
        other.wait_for_entries(len(seat.log()))
        for page in (seat.page, other.page):
            expect(page.locator("#log")).to_contain_text(MARKUP)
            expect(page.locator("#sheets")).to_contain_text("Ada <b>Fenn</b>")
            expect(page.locator("#seats")).to_contain_text(name)
            expect(page.locator("#log .by").first).to_have_text(name)
            for where in ("#log", "#frame", "#sheets", "#hints", "#exits", "#turn", "#seats", "#status", "#toolbar"):
                expect(page.locator(f"{where} script, {where} img, {where} b")).to_have_count(0)
            text = str(page.evaluate("document.body.innerText + document.title"))
            leaks = [text[max(0, i - 60):i + 20] for i, c in enumerate(text) if c in "\x1b\x07\x9b"]
            assert leaks == [], f"an escape sequence reached the page: {leaks}"
            assert page.evaluate("window.__ran") is None
        assert seat.dialogs == [] and other.dialogs == []
        assert seat.errors == [] and other.errors == []
    finally:
        seat.close()
        other.close()
