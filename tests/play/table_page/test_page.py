"""The shared table's page on its own (issue 20, points 2, 5 and 7): what it shows, how it is
used with the keyboard, how it comes back after a drop, and that nothing it is sent runs as code.

The host's side of the WebSocket is played here (conftest.MockTable), so each test says exactly
what the page was sent; the whole game against the real host is in test_table_play.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.play.table_page.pagehost import ORIGIN, MockTable, sent_message
from wyrd.play.frontends.view import clean

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect

HOSTILE = ('<script>window.__ran = 1; alert("story")</script><img src=x onerror="window.__ran=2">'
           "\x1b[31mred\x1b[0m \x1b]0;title\x07 <b>bold</b> &amp;\u202e")
SHOWN = clean(HOSTILE)  # as the host would send it; the page cleans whatever it is sent once more


def _entries(table: MockTable) -> list[str]:
    return table.page.locator("#log > li.entry:not(.local)").evaluate_all(
        "items => items.map(i => i.dataset.n + ':' + i.textContent)")


def test_the_log_is_a_polite_live_region_among_landmarks(table: MockTable) -> None:
    """Issue 20, point 2: for screen readers, the log is an ARIA live region (polite), the page has
    landmarks, and every control has a name."""
    table.open()
    page = table.page
    log = page.locator("#log")
    expect(log).to_have_attribute("aria-live", "polite")
    expect(log).to_have_attribute("role", "log")
    expect(page.get_by_role("main")).to_have_count(1)
    expect(page.get_by_role("complementary", name="The table at a glance")).to_have_count(1)
    expect(page.get_by_role("combobox", name="Your move")).to_be_visible()
    expect(page.get_by_role("button", name="Send")).to_be_visible()


def test_story_text_with_script_and_escapes_is_shown_as_inert_text(table: MockTable) -> None:
    """Issue 20, point 7: whatever a story, a name or a model wrote is shown as text, in the log and
    in every panel; no script runs (no dialog, nothing set on the window), no element is made, and
    no terminal escape or bidi override reaches the page even when the host sends one."""
    dialogs: list[str] = []
    table.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    violations: list[str] = []
    table.page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)
    table.open()
    table.entry(1, HOSTILE, HOSTILE, HOSTILE)
    table.send(type="prose", n=2, chunk=HOSTILE)
    table.send(type="refused", id="x", reason=HOSTILE)
    table.send(type="seats", seats=[{"name": HOSTILE, "characters": [HOSTILE], "host": True, "online": True}])
    table.view(frame=[{"text": HOSTILE, "style": "scene\" onclick=\"alert(1)"}],
               sheets=[HOSTILE], toolbar=[[[HOSTILE, HOSTILE]]], prompt=HOSTILE, **{HOSTILE: [HOSTILE]})
    page = table.page
    expect(page.locator("#frame .line")).to_have_text(SHOWN)
    expect(page.locator("#log li.entry").first).to_contain_text(SHOWN)
    expect(page.locator("#log .stream")).to_contain_text(SHOWN)
    expect(page.locator("#log .refused")).to_contain_text(SHOWN)
    expect(page.locator("#seats")).to_contain_text(SHOWN)
    text = str(page.evaluate("document.body.innerText + document.title"))
    assert not any(c in text for c in "\x1b\x07\u202e")
    for where in ("#log", "#frame", "#sheets", "#toolbar", "#seats", "#more-panels", "#prompt"):
        expect(page.locator(f"{where} script, {where} img, {where} b")).to_have_count(0)
    expect(page.locator("#frame .line")).to_have_class("line s-plain")  # a style name is never markup
    assert page.evaluate("window.__ran") is None
    assert dialogs == [] and violations == [] and table.errors == []


def test_a_seat_that_drops_comes_back_with_the_entries_it_missed_once(table: MockTable) -> None:
    """Issue 20, point 5: after a drop the page reconnects by itself with its seat token and the
    last entry it holds; entries sent again are not shown twice, and none is lost."""
    table.open()
    for n in (1, 2, 3):
        table.entry(n)
        table.send(type="prose_done", n=n, lines=[], events=[])  # as the host ends every entry
    table.view(frame=["A scene"])
    expect(table.page.locator("#log li.entry")).to_have_count(3)
    hello = table.of_type("hello")[0]
    assert hello == {"type": "hello", "invite": "invite-token", "name": "Bea"}

    def back(mock: MockTable, again: dict[str, Any]) -> None:
        mock.welcome()  # a returning seat is not sent its token again; the page keeps the one it has
        for n in (2, 3, 4, 5):  # the host may resend what the page holds: it is shown once
            mock.entry(n)
        mock.view(frame=["A scene"])

    table.on_hello = back
    table.socket.close()
    expect(table.page.locator("#connection")).to_have_attribute("data-state", "open")
    assert table.of_type("hello")[1] == {"type": "hello", "seat": "seat-token-1", "after": 3}
    expect(table.page.locator("#log li.entry")).to_have_count(5)
    assert [e.split(":")[0] for e in _entries(table)] == ["1", "2", "3", "4", "5"]


def test_a_reload_comes_back_as_the_same_seat_and_reads_the_whole_log(table: MockTable) -> None:
    """Issue 20, point 5: a reload keeps the seat (its token in the tab's storage, the invitation gone
    from the address bar) and asks for every entry, as the page then holds none."""
    table.open()
    assert table.page.url == f"{ORIGIN}/"
    table.entry(1)
    expect(table.page.locator("#log li.entry")).to_have_count(1)
    table.page.reload()
    expect(table.page.locator("#command")).to_be_enabled()
    assert table.of_type("hello")[-1] == {"type": "hello", "seat": "seat-token-1", "after": 0}


def test_a_line_sent_while_away_goes_once_the_seat_is_back(table: MockTable) -> None:
    """Issue 20, point 5: a line typed as the connection drops is kept and sent again with the same
    id once the seat is back (the host applies an id once), and no longer once it was answered."""
    table.open()
    table.view()
    table.on_hello = lambda mock, hello: None  # the host does not answer yet
    table.socket.close()
    expect(table.page.locator("#connection")).not_to_have_attribute("data-state", "open")
    table.page.locator("#command").fill("attempt Gate")
    table.page.keyboard.press("Enter")

    def back(mock: MockTable, again: dict[str, Any]) -> None:
        mock.welcome()
        mock.view()

    table.on_hello = back
    table.socket.close()  # this connection never said welcome; the page tries again
    expect(table.page.locator("#connection")).to_have_attribute("data-state", "open")
    lines = [sent_message(table, "line")]
    assert [m["text"] for m in lines] == ["attempt Gate"]
    table.send(type="log", n=1, by="Bea", id=lines[0]["id"], line="attempt Gate", lines=[], events=[])
    expect(table.page.locator("#log li.entry")).to_have_count(1)


def test_narration_streams_then_joins_its_entry(table: MockTable) -> None:
    """Issue 20, points 2 and 5: narration is shown as it is written; finished (or withdrawn for the
    table's own lines), it joins its entry, so the log reads as a seat that reconnects is sent it."""
    table.open()
    table.entry(1, "Bea", "scene", "Scene 1.")
    for chunk in ("The gate ", "creaks ", "open."):
        table.send(type="prose", n=1, chunk=chunk)
    stream = table.page.locator("#log .stream")
    expect(stream).to_have_text("The gate creaks open.")
    expect(stream).to_have_attribute("aria-busy", "true")
    table.send(type="prose_done", n=1, lines=[{"text": "The gate creaks open.", "style": "narration"}])
    expect(stream).to_have_count(0)
    first = table.page.locator('#log li[data-n="1"] .line')
    expect(first).to_have_text(["Scene 1.", "The gate creaks open."])
    table.entry(2, "Bea", "attempt Gate", "Rolled 3.")
    table.send(type="prose", n=2, chunk="Half a thought")
    table.send(type="prose_withdrawn", n=2, lines=[{"text": "The crowd parts.", "style": "narration"}])
    expect(table.page.locator('#log li[data-n="2"] .line')).to_have_text(["Rolled 3.", "The crowd parts."])
    # Narration streamed before its entry is replaced by the entry when it comes.
    table.send(type="prose", n=3, chunk="Before")
    expect(stream).to_have_text("Before")
    table.entry(3, "Bea", "ask", "Yes.", "Before it all.")
    expect(stream).to_have_count(0)
    assert [e.split(":")[0] for e in _entries(table)] == ["1", "2", "3"]


def test_tab_completes_from_the_host_and_arrows_recall_lines(table: MockTable) -> None:
    """Issue 20, point 2: the same commands as in the REPL, with the host's completion (Tab: one choice
    is filled in, several are offered as a list) and the lines sent before (Up, Down)."""
    table.open()
    table.view()
    page = table.page
    line = page.locator("#command")
    line.fill("att")
    line.press("Tab")
    asked = sent_message(table, "complete")
    assert asked["text"] == "att"
    table.send(type="completions", id=asked["id"], items=[{"text": "attempt", "meta": "face a challenge"}])
    expect(line).to_have_value("attempt ")
    line.type("G")
    line.press("Tab")
    asked = sent_message(table, "complete", 2)
    table.send(type="completions", id=asked["id"],
               items=[{"text": "Gate", "meta": "challenge"}, {"text": "Goblin", "meta": "challenge"}])
    options = page.get_by_role("option")
    expect(options).to_have_count(2)
    expect(line).to_have_value("attempt G")
    line.press("ArrowDown")
    line.press("ArrowDown")
    expect(options.nth(1)).to_have_attribute("aria-selected", "true")
    line.press("Enter")
    expect(line).to_have_value("attempt Goblin ")
    line.press("Enter")
    expect(line).to_have_value("")
    assert sent_message(table, "line")["text"] == "attempt Goblin"
    line.fill("scene")
    line.press("Enter")
    line.press("ArrowUp")
    expect(line).to_have_value("scene")
    line.press("ArrowUp")
    expect(line).to_have_value("attempt Goblin")
    line.press("ArrowDown")
    line.press("ArrowDown")
    expect(line).to_have_value("")



def test_a_seat_that_drops_while_an_entry_is_told_gets_its_narration_when_it_comes_back(table: MockTable) -> None:
    """Issue 20, point 5 with issue 19, point 1: the result comes first and its narration after; a page
    that dropped in between asks again from the entry before, and the whole entry the host sends
    (narration and all, from the save) takes the place of the one it held, shown once."""
    table.open()
    for n in (1, 2):
        table.entry(n)
        table.send(type="prose_done", n=n, lines=[], events=[])
    table.entry(3, "Bea", "roll", "Ada rolls 3.")
    table.send(type="prose", n=3, chunk="Fog settles ov")
    table.view(frame=["A scene"])
    expect(table.page.locator("#log")).to_contain_text("Fog settles ov")

    def back(mock: MockTable, again: dict[str, Any]) -> None:
        mock.welcome(last=3)
        mock.send(type="log", n=3, by="Bea", id=None, line="roll", events=[],
                  lines=[{"text": "Ada rolls 3.", "style": "info"},
                         {"text": "Fog settles over the green.", "style": "narration"}])
        mock.view(frame=["A scene"])

    table.on_hello = back
    table.socket.close()
    expect(table.page.locator("#connection")).to_have_attribute("data-state", "open")
    assert table.of_type("hello")[1] == {"type": "hello", "seat": "seat-token-1", "after": 2}
    expect(table.page.locator("#log")).to_contain_text("Fog settles over the green.")
    expect(table.page.locator("#log li.entry")).to_have_count(3)
    assert str(table.page.locator("#log").inner_text()).count("Fog settles") == 1  # the cut-off words gone
    assert [e.split(":")[0] for e in _entries(table)] == ["1", "2", "3"]
    assert table.page.locator("#log .stream").count() == 0
