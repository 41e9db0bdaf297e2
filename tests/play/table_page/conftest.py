"""Headless Chromium for the shared table's page (issue 20, points 2, 7 and 8).

The browser is Debian's Chromium at /usr/bin/chromium, driven with Playwright for Python and never a
browser Playwright downloads; .ci/run installs it, so these tests run in CI. Elsewhere, without it or
without the playwright package, they are skipped with the reason (set WYRD_REQUIRE_BROWSER=1, as CI does,
to make that a failure instead).

Two ways to serve the page: pagehost.MockTable serves the static files from disk and plays the host's
side of the WebSocket itself, for what the page alone must do; the tests of a whole game start the real
host instead (test_table_play.py).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.play.table_page.pagehost import MockTable

CHROMIUM = Path("/usr/bin/chromium")
# As on this project's machines (no GPU, no outside network, no sandbox as root); Playwright adds an
# empty user data dir of its own for every launch.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def _missing() -> str | None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed (pip install -e '.[dev]')"
    if not CHROMIUM.exists() and shutil.which("chromium") is None:
        return "Chromium is not installed at /usr/bin/chromium (.ci/run installs Debian's chromium)"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    here = Path(__file__).parent
    for item in items:
        if Path(str(item.fspath)).parent != here:
            continue
        item.add_marker(pytest.mark.browser)
        # Where the browser is required (CI), a missing one fails the tests instead of skipping them.
        if reason is not None and not os.environ.get("WYRD_REQUIRE_BROWSER"):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module-scoped, so Playwright's event loop is gone before other tests run (the REPL's tests run
    # prompt-toolkit's own loop, which refuses to start inside another).
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS, headless=True)
        yield launched
        launched.close()


@pytest.fixture
def table(browser: Any) -> Iterator[MockTable]:
    context = browser.new_context(viewport={"width": 1100, "height": 800})
    page = context.new_page()
    mock = MockTable(page)
    yield mock
    context.close()
