"""Two browser seats and one ``wyrd join`` seat at a real table (issue 20, point 8): ``wyrd host``
and ``wyrd join`` run as people start them, the pages in headless Chromium.

Each ruleset's scene is played to its end by the three seats in turn; one page is reloaded half-way;
one seat tries to move another's character and is refused, in its own page only. At the end every
page shows the same log, entry for entry, and the terminal seat showed each entry's lines too.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.play.table_page.realhost import BrowserSeat, Host, JoinSeat

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

# (who, line, accepted): Bea and Cal are browser seats, Dee the terminal; "reload" reloads Cal's page.
ABACUS = ("hollow-fair", 21, [
    ("Bea", 'pc take "Coral Vell"', True),
    ("Cal", 'pc take "Ivy Marchbank"', True),
    ("Dee", "scene", True),
    ("Bea", 'attempt fair-unease by "Coral Vell"', True),
    ("Bea", "roll", True),
    ("Cal", "reload", True),
    ("Cal", 'attempt huckster-cheat by "Coral Vell"', False),
    ("Cal", 'attempt huckster-cheat by "Ivy Marchbank"', True),
    ("Cal", "roll", True),
    ("Dee", "end scene", True),
])
THAEBORN = ("harrow-mere", 7, [
    ("Bea", "pc take ysolde", True),
    ("Cal", "pc take tam", True),
    ("Dee", "scene", True),
    ("Bea", 'check ysolde survival vs 5 "find the firm stones before the light goes"', True),
    ("Cal", "reload", True),
    ("Cal", 'check ysolde survival vs 5 "steal a march"', False),
    ("Dee", 'lots "does anything beneath the water take notice"', True),
    ("Dee", "scene", True),
])


@pytest.fixture
def host(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Host]:
    story, seed, _ = request.param
    table = Host(tmp_path, "--story", story, "--seed", str(seed))
    yield table
    table.close()


@pytest.mark.parametrize("host", [ABACUS, THAEBORN], ids=["abacus", "thaeborn"], indirect=True)
def test_three_seats_play_a_scene_to_its_end_and_see_one_log(host: Host, browser: Any, tmp_path: Path,
                                                            request: pytest.FixtureRequest) -> None:
    """Issue 20, point 8 (and points 2, 4, 5): two browser seats and a `wyrd join` seat play a scene to
    its end; a reload half-way keeps the log; moving another seat's character is refused, shown to
    that seat alone; every seat sees the same entries in the same order; the pages asked nothing of
    anyone but the host."""
    _, _, script = request.node.callspec.params["host"]
    pages = {"Bea": BrowserSeat(browser, host.link, "Bea"), "Cal": BrowserSeat(browser, host.link, "Cal")}
    dee = JoinSeat(tmp_path, host.link, "Dee")
    try:
        bea, cal = pages["Bea"], pages["Cal"]
        # Dee is seated once both pages see the table's seats list name it.
        for page in pages.values():
            expect(page.page.locator("#seats")).to_contain_text("Dee")
        entries = len(bea.log())
        for who, line, accepted in script:
            if line == "reload":
                before = cal.log()
                cal.page.reload()
                expect(cal.page.locator("#connection")).to_have_attribute("data-state", "open")
                cal.wait_for_entries(len(before))
                assert cal.log() == before
                continue
            if who == "Dee":
                dee.type(line)
            else:
                pages[who].type(line)
            if accepted:
                entries += 1
                for page in pages.values():
                    page.wait_for_entries(entries)
                expect(bea.page.locator("#log > li.entry[data-n]").last).to_contain_text(line)
            else:
                refusal = pages[who].page.locator("#log li.local.refused")
                expect(refusal).to_contain_text("Refused")
                expect(refusal).to_contain_text("Bea's to move")
                for other in pages.values():
                    if other is not pages[who]:
                        expect(other.page.locator("#log li.local.refused")).to_have_count(0)
        # The scene ended: the same entries, in the same order, on both pages.
        assert bea.log() == cal.log()
        assert len(bea.log()) == entries
        said = dee.leave()
        shown = [t for t in bea.page.locator("#log > li.entry[data-n] .line").all_inner_texts() if t.strip()]
        missing = _first_missing(shown, said)
        assert missing is None, f"the terminal seat did not show {missing!r}:\n" + "\n".join(said)
        for page in pages.values():
            assert page.dialogs == [] and page.errors == []
            # Works offline: every file and the socket come from the host, nothing from elsewhere.
            ws_origin = host.origin.replace("http://", "ws://")
            assert page.requests and all(u.startswith((host.origin + "/", ws_origin + "/")) for u in page.requests)
    finally:
        for page in pages.values():
            page.close()
        if dee.process.poll() is None:
            dee.process.kill()
            dee.process.wait()


def _first_missing(wanted: list[str], said: list[str]) -> str | None:
    """The first line of ``wanted`` not found among ``said`` (the terminal's output, with prompts and
    echoes between) in the same order; None when all are. The page shows a `command` named in a line
    as code, without its backticks."""
    said = [line.replace("`", "") for line in said]
    at = 0
    for text in wanted:
        text = text.strip()
        while at < len(said) and text not in said[at]:
            at += 1
        if at == len(said):
            return text
        at += 1
    return None


@pytest.mark.parametrize("host", [ABACUS], ids=["abacus"], indirect=True)
def test_tab_completes_with_the_hosts_words(host: Host, browser: Any) -> None:
    """Issue 20, point 2: Tab on the page completes as the REPL would, from the host: a verb, then a
    challenge of the scene; Up brings back the line sent."""
    seat = BrowserSeat(browser, host.link, "Bea")
    try:
        line = seat.page.locator("#command")
        held = len(seat.log())  # counted before the line: its entry may come back at once
        seat.type('pc take "Coral Vell"')
        seat.wait_for_entries(held + 1)
        count = len(seat.log())
        line.fill("sce")
        line.press("Tab")  # the REPL's `scene` and the table's `scenes`: what they share, and the list
        expect(line).to_have_value("scene")
        expect(seat.page.get_by_role("option").first).to_contain_text("scene")
        line.press("Tab")  # the first choice
        expect(line).to_have_value("scene ")
        line.press("Enter")
        seat.wait_for_entries(count + 1)
        line.fill("attempt fair")
        line.press("Tab")
        expect(line).to_have_value("attempt fair-unease ")
        line.fill("")
        line.press("ArrowUp")
        expect(line).to_have_value("scene")
        assert seat.errors == []
    finally:
        seat.close()
