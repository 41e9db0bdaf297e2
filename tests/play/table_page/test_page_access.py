"""The shared table's page for every player (issue 20, point 2): with the keyboard alone, on a phone
360 px wide, with buttons for the common moves the host names, and real dice marked in the log."""

from __future__ import annotations

import pytest

from tests.play.table_page.pagehost import MockTable, sent_message

expect = pytest.importorskip("playwright.sync_api", reason="the playwright package is not installed").expect


def _focused(table: MockTable) -> str:
    focused = "document.activeElement.id || document.activeElement.className || document.activeElement.tagName"
    return str(table.page.evaluate(focused))


def test_the_keyboard_alone_joins_reaches_the_line_and_sees_the_focus(table: MockTable) -> None:
    """Issue 20, point 2: the keyboard alone: the name field has the focus on arrival, Enter joins, the
    skip link leads to the command line, every stop shows the focus, and "/" comes back to the line
    from elsewhere without ever taking a "/" the player types."""
    page = table.page
    page.goto("http://table.test/#invite=invite-token")
    expect(page.locator("#join-name")).to_be_focused()
    page.keyboard.type("Bea")
    page.keyboard.press("Enter")
    expect(page.locator("#command")).to_be_enabled()
    table.on_hello = lambda mock, hello: (mock.welcome(), mock.view())
    page.reload()  # the seat comes back; the focus starts from the top of the page
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    stops = []
    for _ in range(4):
        page.keyboard.press("Tab")
        stops.append(_focused(table))
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline not in ("none", ""), f"no visible focus on {stops[-1]}"
    assert stops[:4] == ["skip", "log", "command", "send"]
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#log")).to_be_focused()
    page.keyboard.press("/")
    expect(page.locator("#command")).to_be_focused()
    expect(page.locator("#command")).to_have_value("")
    page.keyboard.type("ask Is it / or not?")
    expect(page.locator("#command")).to_have_value("ask Is it / or not?")
    # Esc, then Tab, leaves the line: completion never traps the keyboard.
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(page.locator("#send")).to_be_focused()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Home")
    expect(page.locator("#command")).to_be_focused()
    table.page.locator(".skip").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#command")).to_be_focused()
    assert page.url == "http://table.test/"


def test_the_page_fits_a_phone_360_px_wide(browser: object) -> None:
    """Issue 20, point 2: on a phone 360 px wide nothing runs off the side, and the log, the command
    line and its button are there to use."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)  # type: ignore[attr-defined]
    try:
        table = MockTable(context.new_page())
        table.open()
        long_word = "Wyrd" * 40
        table.entry(1, "Bea", "scene " + long_word, "A line far longer than any phone is wide: " + long_word)
        table.view(frame=["Scene 1: " + long_word], sheets=["Ada " + long_word],
                   toolbar=[[["pool", "Pool 3"], ["sep", " | "], ["name", "Ada"], ["points", " B5 M4 S3"]]],
                   turn=["Ada's move"])
        page = table.page
        expect(page.locator("#sheets")).to_contain_text("Ada")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for control in ("#log", "#command", "#send"):
            box = page.locator(control).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, control
        expect(page.locator("#turn-inline")).to_have_text("Ada's move")
        expect(page.locator("#turn-inline")).to_be_visible()
        page.locator("#command").tap()
        expect(page.locator("#command")).to_be_focused()
    finally:
        context.close()


def test_the_hosts_common_moves_are_buttons(table: MockTable) -> None:
    """Issue 20, point 2: buttons for the common moves, as the host names them (the page names no rule):
    one fills the command line to finish, one sends its line at once."""
    table.open()
    table.send(type="view", panels={},
               moves=[{"label": "Attempt", "line": "attempt "}, {"label": "Roll", "line": "roll", "send": True}])
    page = table.page
    page.get_by_role("button", name="Attempt").click()
    expect(page.locator("#command")).to_have_value("attempt ")
    expect(page.locator("#command")).to_be_focused()
    page.keyboard.type("Gate")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Roll").click()
    sent_message(table, "line", 2)
    assert [m["text"] for m in table.of_type("line")] == ["attempt Gate", "roll"]


def test_dice_typed_by_a_seat_with_real_dice_are_marked(table: MockTable) -> None:
    """Issue 20, point 2: dice typed by a seat that rolls physical dice are marked as such in the log
    (the host says so: "typed"), in words a screen reader reads too."""
    table.open()
    table.entry(1, "Cal", "attempt Gate roll 4", "Rolled 4.", typed=True)
    table.entry(2, "Bea", "attempt Gate", "Rolled 2.")
    entries = table.page.locator("#log li.entry")
    expect(entries.nth(0).locator(".badge")).to_have_text("physical dice")
    expect(entries.nth(1).locator(".badge")).to_have_count(0)


def test_a_name_refused_by_the_host_is_asked_again(table: MockTable) -> None:
    """Issue 20, points 2 and 7: a refusal before the seat is taken (the name is taken) is shown with
    the host's reason, and the invitation still holds: the player chooses another name and joins."""
    def taken(mock: MockTable, hello: dict[str, object]) -> None:
        if hello.get("name") == "Bea":
            mock.send(type="error", reason="the name Bea is taken at this table: choose another")
            mock.socket.close()
        else:
            mock.welcome(name=str(hello.get("name")))
            mock.view()

    table.on_hello = taken
    page = table.page
    page.goto("http://table.test/#invite=invite-token")
    page.get_by_label("Your name at the table").fill("Bea")
    page.keyboard.press("Enter")
    expect(page.locator("#join-text")).to_contain_text("the name Bea is taken")
    expect(page.get_by_label("Your name at the table")).to_be_focused()
    page.keyboard.type("Bea Two")
    page.keyboard.press("Enter")
    expect(page.locator("#connection")).to_have_attribute("data-state", "open")
    expect(page.locator("#who")).to_have_text("(Bea Two)")
    assert [m.get("name") for m in table.of_type("hello")] == ["Bea", "Bea Two"]


def test_the_invitation_is_cleared_from_the_address_after_joining(table: MockTable) -> None:
    """Issue 20, point 7: once seated, the invitation's token leaves the address bar (history.replaceState),
    so a link copied from it later is not the invitation; the seat's token is kept instead."""
    table.open()
    assert "invite" not in table.page.url
    assert table.page.evaluate("localStorage.getItem('wyrd.table.seat')") == "seat-token-1"


def test_a_revoked_seat_forgets_its_token_and_says_why(table: MockTable) -> None:
    """Issue 20, point 7: a seat the host revoked is refused with the code "revoked": the page says so,
    stops knocking, and forgets the token (a reload asks for the invitation, not the dead seat)."""
    table.open()
    table.send(type="error", code="revoked", reason="the host revoked this seat")
    table.socket.close()
    expect(table.page.locator("#connection")).to_have_attribute("data-state", "refused")
    expect(table.page.locator("#connection")).to_contain_text("revoked")
    assert table.page.evaluate("localStorage.getItem('wyrd.table.seat') || ''") == ""
    hellos = len(table.of_type("hello"))
    table.page.reload()
    expect(table.page.locator("#connection")).to_contain_text("invitation")
    assert len(table.of_type("hello")) == hellos
