"""Every test keeps the player's data folder to itself, and starts with nothing kept.

Opening and closing a save writes its mark into the data folder (issue 21, point 3:
``wyrd.play.engine.savemark``), so no test may reach the real one: each gets an empty WYRD_HOME
of its own, which a test that sets WYRD_HOME itself replaces. The ``wyrd`` command names a folder
to keep readings in (:mod:`wyrd.kept`) for the rest of its process; a test that runs it
leaves no such folder named for the tests after it, which read every file as they always did
unless they name one themselves.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from wyrd import kept


@pytest.fixture(autouse=True)
def _own_data_folder(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path_factory.mktemp("home")))
    switch = os.environ.get("PYDANTIC_DISABLE_PLUGINS")
    yield
    kept.keep_in(None)
    # `wyrd` run in the test's process may tell pydantic there are no plugins (wyrd.play.cli.main).
    if switch is None:
        os.environ.pop("PYDANTIC_DISABLE_PLUGINS", None)
    else:
        os.environ["PYDANTIC_DISABLE_PLUGINS"] = switch
