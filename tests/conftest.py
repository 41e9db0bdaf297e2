"""Every test keeps the player's data folder to itself.

Opening and closing a save writes its mark into the data folder (issue 21, point 3:
``wyrd.play.engine.savemark``), so no test may reach the real one: each gets an empty WYRD_HOME
of its own, which a test that sets WYRD_HOME itself replaces.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path_factory.mktemp("home")))
