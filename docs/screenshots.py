"""The README's pictures of the shared table, taken in headless Chromium from a real table.

Run from the checkout: ``.venv/bin/python docs/screenshots.py`` (needs /usr/bin/chromium and the
playwright package, as the browser tests do). It starts ``wyrd host`` on a free port, seats Bea on a
desktop page and Cal on a phone 360 px wide, plays the first lines of The Hollow Fair up to an open
roll, and writes docs/table-desktop.png and docs/table-phone.png.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from tests.play.table_page.conftest import CHROMIUM, FLAGS  # noqa: E402
from tests.play.table_page.realhost import BrowserSeat, Host  # noqa: E402

LINES = [("Bea", 'pc take "Coral Vell"'), ("Cal", 'pc take "Ivy Marchbank"'), ("Bea", "scene"),
         ("Bea", 'attempt fair-unease by "Coral Vell"')]


def main() -> None:
    from playwright.sync_api import expect, sync_playwright

    with tempfile.TemporaryDirectory() as home, sync_playwright() as p:
        host = Host(Path(home), "--story", "hollow-fair", "--seed", "21")
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            seats = {"Bea": BrowserSeat(browser, host.link, "Bea", width=1280, height=900),
                     "Cal": BrowserSeat(browser, host.link, "Cal", width=360, height=780, phone=True)}
            entries = len(seats["Bea"].log())
            for who, line in LINES:
                seats[who].type(line)
                entries += 1
                for seat in seats.values():
                    seat.wait_for_entries(entries)
            for seat in seats.values():
                expect(seat.page.locator("#hints")).to_contain_text("Odds")
            seats["Bea"].page.locator("#command").fill("roll")
            seats["Bea"].page.screenshot(path=str(HERE / "table-desktop.png"))
            phone = seats["Cal"].page
            phone.locator("#log").evaluate("log => log.scrollTop = log.scrollHeight")
            phone.screenshot(path=str(HERE / "table-phone.png"))
            for seat in seats.values():
                seat.close()
        finally:
            browser.close()
            host.close()


if __name__ == "__main__":
    main()
