"""The bundled tables' check kept between starts (issue 21, point 2: a start that narrates from the
bundled tables reads the check an earlier start kept, instead of parsing and checking them again).

What a kept check gives is exactly what loading gives; a kept check changed by hand is never taken; a
changed file is checked again (tests/test_ruleset_content.py: a broken file is still named with its
line and field while a check is kept); nothing is kept unless the program names a folder.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from wyrd.oracle import tablecache, tables
from wyrd.oracle.tables import TableSet, bundled_tables


def _fresh() -> TableSet:
    bundled_tables.cache_clear()
    return bundled_tables()


@pytest.fixture
def kept(tmp_path: Path) -> Iterator[Path]:
    """The check kept in ``tmp_path / "cache"`` for the test; nowhere, and the tables loaded anew, after it."""
    folder = tmp_path / "cache"
    tablecache.keep_in(lambda: folder)
    bundled_tables.cache_clear()
    yield folder
    tablecache.keep_in(None)
    bundled_tables.cache_clear()


def _same(a: TableSet, b: TableSet) -> None:
    assert list(a) == list(b)
    assert all(a[k] == b[k] for k in a)


def _never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(text: str, file: str) -> list[tables.Table]:
        raise AssertionError(f"{file} parsed again")

    monkeypatch.setattr(tables, "parse_tables", refuse)


def test_a_second_start_takes_the_kept_check_and_gets_the_same_tables(
        kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tablecache.keep_in(None)
    loaded = _fresh()
    tablecache.keep_in(lambda: kept)
    first = _fresh()  # loaded, checked and kept
    assert len(list(kept.glob("tables-*.json"))) == 1
    _never_parsed(monkeypatch)
    second = _fresh()
    _same(loaded, first)
    _same(loaded, second)


def test_a_kept_check_changed_by_hand_is_not_taken(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = _fresh()
    [file] = kept.glob("tables-*.json")
    check, _, body = file.read_bytes().partition(b"\n")
    first = loaded[next(iter(loaded))]
    written = first.rows[0].text.encode("utf-8")
    file.write_bytes(check + b"\n" + body.replace(json.dumps(first.rows[0].text).encode(), b'"changed"', 1))
    assert file.read_bytes() != check + b"\n" + body and written
    _same(loaded, _fresh())  # checked again from the files
    # A digest made again over something that is not the tables is refused by the tables' models.
    other = json.dumps({"tables": [{"id": "x"}]}).encode()
    file.write_bytes(hashlib.sha256(other).hexdigest().encode() + b"\n" + other)
    _same(loaded, _fresh())
    _never_parsed(monkeypatch)
    _same(loaded, _fresh())  # and kept again, whole


def test_nothing_is_kept_without_a_folder(tmp_path: Path) -> None:
    tablecache.keep_in(None)
    _fresh()
    assert tablecache.kept_in() is None
    assert not list(tmp_path.rglob("tables-*.json"))


def test_the_key_follows_each_files_label_and_bytes() -> None:
    files = [("wyrd/oracle/tables/a.yaml", b"id: a\n"), ("wyrd/oracle/tables/b.yaml", b"id: b\n")]
    key = tablecache.key_of(files)
    assert key == tablecache.key_of(list(files))
    assert key != tablecache.key_of([files[0], ("wyrd/oracle/tables/b.yaml", b"id: c\n")])
    assert key != tablecache.key_of([files[0], ("wyrd/oracle/tables/c.yaml", b"id: b\n")])
    assert key != tablecache.key_of(list(reversed(files)))
    assert key != tablecache.key_of([("wyrd/oracle/tables/a.yaml", b"id: a\nwyrd/oracle/tables/b.yaml"),
                                     ("", b"id: b\n")])


def test_the_wyrd_command_keeps_the_check_in_the_data_folder(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from wyrd.play.cli.main import main

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    try:
        assert main(["--version"]) == 0
        assert tablecache.kept_in() == tmp_path / "cache"
    finally:
        tablecache.keep_in(None)


def test_naming_the_folder_loads_no_pydantic_and_no_hashing() -> None:
    """Issue 21, point 2: every command names the folder, ``wyrd --version`` too, which loads neither
    pydantic nor what reading and writing the kept check needs."""
    probe = ("import sys, wyrd.play.cli.main as m; m.main(['--version']); "
             "print([k for k in sys.modules if k.split('.')[0] in ('pydantic', 'hashlib')])")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[-2] == "[]"


def test_a_start_validates_only_the_tables_it_reads(kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 2: the kept check holds each table's JSON; a table is validated when first read."""
    loaded = _fresh()  # checked and kept
    read: list[bytes] = []
    original = tables.Table.model_validate_json

    def counted(data: bytes, *args: object, **kwargs: object) -> tables.Table:
        read.append(data)
        return original(data)

    monkeypatch.setattr(tables.Table, "model_validate_json", counted)
    again = _fresh()
    assert read == [] and len(again) == len(loaded) and list(again) == list(loaded)
    first = next(iter(loaded))
    assert again[first] == loaded[first] and again[first] is again[first]
    assert len(read) == 1
    _same(loaded, again)
    assert len(read) == len(loaded)


def test_a_kept_table_changed_with_its_digest_made_again_is_checked_from_the_files(
        kept: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loaded = _fresh()
    [file] = kept.glob("tables-*.json")
    _, _, body = file.read_bytes().partition(b"\n")
    ids, *lines = body.split(b"\n")
    lines[3] = b'{"id": "' + json.loads(ids)[3].encode() + b'", "rows": []}'  # no longer a table
    changed = b"\n".join([ids, *lines])
    file.write_bytes(hashlib.sha256(changed).hexdigest().encode() + b"\n" + changed)
    again = _fresh()
    first = next(iter(again))
    assert again[first] == loaded[first]  # a table that still reads is taken as kept
    _same(loaded, again)  # the changed one (and every other unread) is taken from the files, checked


def test_pack_and_unpack_give_back_the_tables_in_their_order() -> None:
    packed = tablecache.pack({"b": b'{"id":"b"}', "a": b'{"id":"a"}'})
    assert tablecache.unpack(packed) == {"b": b'{"id":"b"}', "a": b'{"id":"a"}'}
    assert list(tablecache.unpack(packed) or {}) == ["b", "a"]
    for broken in (None, b"", b"not json\n{}", b'["a", "b"]\n{}', b'["a", "a"]\n{}\n{}', b'{"a": 1}\n{}', b'[1]\n{}'):
        assert tablecache.unpack(broken) is None
