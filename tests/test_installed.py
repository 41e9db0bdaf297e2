"""What installed packages declare, kept between starts (issue 21, point 2: the first prompt).

``wyrd.installed`` answers with what ``importlib.metadata`` finds, read once and kept under a
fingerprint of what is installed; a package added, removed or changed on ``sys.path`` is found as
``importlib.metadata`` finds it. With no pydantic plugin declared, ``wyrd`` tells pydantic so by
its own switch, and leaves a switch the player set alone.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from wyrd import installed, kept
from wyrd.installed import GROUPS, Declared, declared, fingerprint
from wyrd.play.cli.main import main


@pytest.fixture
def kept_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Answers kept in a folder of the test's own, none read by this process before."""
    folder = tmp_path / "cache"
    kept.keep_in(lambda: folder)
    monkeypatch.setattr(installed, "_answers", {})
    yield folder
    kept.keep_in(None)


def _as_metadata(group: str) -> list[Declared]:
    return [Declared(p.name, p.value) for p in importlib.metadata.entry_points(group=group)]


def _package(root: Path, name: str, entry_points: str) -> Path:
    """A package's metadata folder on ``root``, as pip leaves one (no code: the entry points name the stdlib's)."""
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    return info


def _forget(monkeypatch: pytest.MonkeyPatch) -> None:
    """As a new process would: nothing read yet (what is kept on disk stays)."""
    monkeypatch.setattr(installed, "_answers", {})


def test_the_answer_is_the_one_importlib_metadata_gives(kept_here: Path) -> None:
    for group in GROUPS:
        assert declared(group) == _as_metadata(group)
    assert {d.name for d in declared("wyrd.rulesets")} >= {"abacus", "wolden", "feat", "lots"}
    assert len(list(kept_here.glob("entry-points-*.json"))) == 1


def test_a_kept_answer_is_the_first_one(kept_here: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = {group: declared(group) for group in GROUPS}
    _forget(monkeypatch)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: pytest.fail("metadata read again"))
    assert {group: declared(group) for group in GROUPS} == first


def test_a_package_installed_later_is_found(kept_here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    before = declared("wyrd.rulesets")
    assert "added" not in {d.name for d in before}
    _forget(monkeypatch)
    _package(site, "added", "[wyrd.rulesets]\nadded = json:dumps\n")
    after = declared("wyrd.rulesets")
    assert after == _as_metadata("wyrd.rulesets")
    assert Declared("added", "json:dumps") in after
    # The answer for the old fingerprint is kept beside the new one (a few environments may share a data folder).
    assert len(list(kept_here.glob("entry-points-*.json"))) == 2


def test_environments_that_share_a_data_folder_each_keep_their_answer(
        kept_here: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    paths = []
    for name in ("one", "two", "three", "four", "five"):
        (tmp_path / name).mkdir()
        paths.append([str(tmp_path / name), *sys.path])
    for path in paths:
        monkeypatch.setattr(sys, "path", path)
        _forget(monkeypatch)
        declared("wyrd.rulesets")
    assert len(list(kept_here.glob("entry-points-*.json"))) == installed._MOST
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: pytest.fail("metadata read again"))
    for path in paths[-installed._MOST:]:  # the newest few: each start of each takes its own
        monkeypatch.setattr(sys, "path", path)
        _forget(monkeypatch)
        assert declared("wyrd.rulesets")


def test_a_package_changed_in_place_is_read_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = tmp_path / "site"
    info = _package(site, "changed", "[pydantic]\none = json:dumps\n")
    monkeypatch.syspath_prepend(str(site))
    before = fingerprint()
    points = info / "entry_points.txt"
    points.write_text("[pydantic]\none = json:dumps\ntwo = json:loads\n", encoding="utf-8")
    stamp = time.time_ns() + 5_000_000_000
    os.utime(points, ns=(stamp, stamp))
    assert fingerprint() != before
    (site / "other-2.0.dist-info").mkdir()
    assert fingerprint() != before


def test_another_path_is_another_fingerprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = fingerprint()
    monkeypatch.syspath_prepend(str(tmp_path))
    assert fingerprint() != before


@pytest.mark.parametrize("body", [b"not json", b"{}", b'{"wyrd.rulesets": [[1, 2]], "pydantic": []}',
                                  b'{"wyrd.rulesets": "abacus", "pydantic": []}'])
def test_a_kept_answer_that_is_not_one_is_read_again(kept_here: Path, monkeypatch: pytest.MonkeyPatch,
                                                     body: bytes) -> None:
    name = f"entry-points-{fingerprint()[:32]}.json"
    kept.keep(name, body)
    assert declared("wyrd.rulesets") == _as_metadata("wyrd.rulesets")
    stored = json.loads(kept.kept(name) or b"null")
    assert stored["wyrd.rulesets"] == [list(d) for d in _as_metadata("wyrd.rulesets")]


def test_without_a_kept_folder_the_metadata_is_read_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    assert kept.kept_in() is None
    calls: list[str] = []
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda group: calls.append(group) or [])
    assert declared("wyrd.rulesets") == [] and declared("wyrd.rulesets") == []
    assert calls == ["wyrd.rulesets", "wyrd.rulesets"]


@pytest.mark.parametrize(("value", "expected"), [
    ("json:dumps", json.dumps), ("json", json), ("os:path.join", os.path.join), ("json:dumps [extra]", json.dumps),
])
def test_an_entry_point_loads_as_importlib_metadata_loads_it(value: str, expected: object) -> None:
    assert Declared("x", value).load() is expected
    assert importlib.metadata.EntryPoint(name="x", value=value, group="g").load() is expected


def test_pydantic_is_told_there_are_no_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    assert main(["--help"]) == 0
    assert os.environ.get("PYDANTIC_DISABLE_PLUGINS") == "__all__"


def test_a_declared_plugin_is_left_to_pydantic(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    site = tmp_path / "site"
    _package(site, "plugged", "[pydantic]\nplugged = json:dumps\n")
    monkeypatch.syspath_prepend(str(site))
    assert main(["--help"]) == 0
    assert "PYDANTIC_DISABLE_PLUGINS" not in os.environ


def test_a_switch_the_player_set_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "logfire")
    assert main(["--help"]) == 0
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "logfire"
