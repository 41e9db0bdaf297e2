"""Tests for wyrd.play.engine.savefile: the append-only SQLite save file.

What matters most: a command is durable once ``append`` returns (even across SIGKILL), nothing is
ever deleted (undo is recorded), and a file that is not one of our saves is refused without a
single byte of it being written.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine.savefile import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    CorruptSave,
    ForeignSave,
    NewerSave,
    NotASave,
    Roll,
    SaveError,
    SaveExists,
    SaveFile,
    SaveWriteError,
)

REPO = Path(__file__).resolve().parents[2]
META = {"ruleset": "abacus", "story": "barrow", "seed": 7, "dice": "seeded"}


def d6(*faces: int, purpose: str = "challenge roll") -> dict[str, Any]:
    return {"sides": 6, "faces": list(faces), "purpose": purpose}


def ev(kind: str, **data: Any) -> dict[str, Any]:
    return {"kind": kind, **data}


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "game.wyrd"


@pytest.fixture
def save(path: Path) -> Any:
    with SaveFile.create(path, meta=META) as s:
        yield s


def fill(save: SaveFile, n: int) -> list[int]:
    return [save.append(f"cmd {i}", {"verb": "cmd", "i": i}, [d6(i % 6 + 1)], [ev("k", i=i)])
            for i in range(n)]


def raw(path: Path, sql: str) -> list[Any]:
    """Run SQL on the file with plain sqlite3, as another program would."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


# --- create and open ----------------------------------------------------------------------------


def test_create_then_open_round_trips_meta_and_header(path: Path) -> None:
    with SaveFile.create(path, meta=META) as s:
        s.append("pc add Ada body=3", {"verb": "pc add"}, [], [ev("character_created")])
    assert raw(path, "PRAGMA application_id") == [(APPLICATION_ID,)]
    assert raw(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)]
    assert raw(path, "PRAGMA journal_mode") == [("wal",)]
    with SaveFile.open(path) as s:
        meta = s.meta
        assert {k: meta[k] for k in META} == META
        assert meta["format"] == "wyrd-save" and meta["schema_version"] == SCHEMA_VERSION
        assert meta["created_at"] and meta["app_version"]
        assert [r.text for r in s.live_commands()] == ["pc add Ada body=3"]


def test_a_new_save_names_its_holder_as_it_is_made_and_is_not_written_again_before_its_first_command(
        path: Path) -> None:
    """Issue 21, point 2: each transaction flushes the disk before a new game's prompt; the holder
    (who plays the save, for a second session refused) is part of the save as it is made."""
    with SaveFile.create(path, meta=META, holder="wyrd play") as s:
        wal = Path(f"{path}-wal")
        assert not wal.exists() or wal.stat().st_size == 0  # nothing written since it was placed
        assert s.meta["holder"]["command"] == "wyrd play" and s.meta["holder"]["pid"] == os.getpid()
        s.append("one", {}, [], [])
        assert wal.stat().st_size > 0


def test_a_save_opened_again_names_its_holder_without_waiting_for_the_disk_and_its_commands_do(
        path: Path) -> None:
    """Issue 21, point 2: a resume named its holder in a transaction flushed to the disk (three flushes,
    1 to 3 ms, before its prompt). Who holds the lock is told, not kept: that write is made with
    ``synchronous = NORMAL`` (WAL: consistent, durable at the next flush), and every command as before."""
    SaveFile.create(path, meta=META).close()
    seen: list[str] = []
    with SaveFile.open(path, claim=False) as s:
        s._conn.set_trace_callback(seen.append)
        s.claim("wyrd resume")
        s.append("one", {}, [], [])
        s._conn.set_trace_callback(None)
        assert s._conn.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
        assert s.meta["holder"]["command"] == "wyrd resume"
    holder = next(i for i, sql in enumerate(seen) if "'holder'" in sql)
    command = next(i for i, sql in enumerate(seen) if sql.startswith("INSERT INTO commands"))
    normal, full = seen.index("PRAGMA synchronous = NORMAL"), seen.index("PRAGMA synchronous = FULL")
    assert normal < holder < full < command


def test_create_refuses_an_existing_file_and_leaves_it_alone(path: Path) -> None:
    path.write_text("my notes\n")
    with pytest.raises(SaveExists, match="already exists"):
        SaveFile.create(path, meta=META)
    with pytest.raises(FileExistsError):  # SaveExists is also a FileExistsError
        SaveFile.create(path, meta=META)
    assert path.read_text() == "my notes\n"


def test_meta_update_and_reserved_keys(save: SaveFile) -> None:
    save.update_meta({"story": "mill", "dice": "typed"})
    assert save.meta["story"] == "mill" and save.meta["dice"] == "typed"
    with pytest.raises(ValueError, match="format"):
        save.update_meta({"format": "other"})


# --- append and read back -----------------------------------------------------------------------


def test_append_and_read_back(save: SaveFile) -> None:
    assert save.append("scene", {"verb": "scene"}, [], [ev("scene_started", pool=3)]) == 1
    seq = save.append(
        "roll", {"verb": "roll"}, [d6(4), d6(6, 2, purpose="wyrd roll")],
        [ev("challenge_rolled", die=4, overcome=False), ev("twist", text="Á crow — ☾")])
    assert seq == 2 and save.last_seq() == 2
    records = list(save.live_commands())
    assert [r.seq for r in records] == [1, 2]
    roll = records[1]
    assert roll.parsed == {"verb": "roll"} and roll.status == "live" and roll.undone_by is None
    assert roll.dice == (Roll(6, (4,), "challenge roll"), Roll(6, (6, 2), "wyrd roll"))
    assert roll.faces == [4, 6, 2]
    assert roll.events == (ev("challenge_rolled", die=4, overcome=False),
                           ev("twist", text="Á crow — ☾"))
    assert records[0].dice == () and records[0].faces == []
    assert [r.seq for r in save.live_commands(after=1)] == [2]
    assert [(e.seq, e.index, e.kind) for e in save.events_since(0)] == [
        (1, 0, "scene_started"), (2, 0, "challenge_rolled"), (2, 1, "twist")]
    assert [e.data["text"] for e in save.events_since(1) if e.kind == "twist"] == ["Á crow — ☾"]
    assert save.integrity_check() == []


def test_append_of_something_json_cannot_hold_writes_nothing(save: SaveFile) -> None:
    fill(save, 2)
    with pytest.raises(TypeError):
        save.append("bad", {"verb": object()}, [], [])
    with pytest.raises(KeyError):
        save.append("bad", {}, [], [{"no kind": 1}])
    assert save.last_seq() == 2 and save.integrity_check() == []


# --- undo ---------------------------------------------------------------------------------------


def test_undo_marks_but_never_deletes_and_is_audited(save: SaveFile) -> None:
    assert save.undo() is None  # nothing to undo yet, and nothing recorded
    assert save.last_seq() == 0
    fill(save, 3)
    assert save.undo() == 3
    assert save.undo("undo") == 2
    assert save.append("again", {}, [d6(5)], [ev("k")]) == 6
    assert [r.seq for r in save.live_commands()] == [1, 6]
    assert [e.seq for e in save.events_since(0)] == [1, 6]
    audit = {r.seq: r for r in save.all_commands()}
    assert sorted(audit) == [1, 2, 3, 4, 5, 6]
    assert (audit[3].status, audit[3].undone_by) == ("undone", 4)
    assert (audit[2].status, audit[2].undone_by) == ("undone", 5)
    assert audit[4].undoes == 3 and audit[5].undoes == 2 and audit[4].text == "undo"
    assert audit[3].faces == [3] and audit[3].events == (ev("k", i=2),)  # kept for the log
    assert raw(save.path, "SELECT count(*) FROM events") == [(4,)]
    assert save.integrity_check() == []


def test_undo_until_empty(save: SaveFile) -> None:
    assert save.last_live() is None
    fill(save, 2)
    last = save.last_live()
    assert last is not None and (last.seq, last.text) == (2, "cmd 1")
    assert save.undo() == 2
    last = save.last_live()
    assert last is not None and last.seq == 1  # not the undo record 3
    assert [save.undo(), save.undo()] == [1, None]
    assert list(save.live_commands()) == [] and len(list(save.all_commands())) == 4


def test_the_live_tail_skips_what_was_undone(save: SaveFile) -> None:
    """The last n live commands, oldest first, read without walking the game (the story so far after an undo)."""
    assert save.live_tail(3) == []
    fill(save, 5)
    save.undo()  # takes back 5 (the undo record is 6)
    save.undo()  # takes back 4 (7)
    assert save.append("again", {}, [d6(2)], [ev("k")]) == 8
    assert [r.seq for r in save.live_tail(2)] == [3, 8]
    assert [r.seq for r in save.live_tail(3)] == [2, 3, 8]
    assert [r.seq for r in save.live_tail(99)] == [1, 2, 3, 8] == [r.seq for r in save.live_commands()]
    assert save.live_tail(0) == []


def test_snapshots_are_invalidated_by_undo(save: SaveFile) -> None:
    save.save_snapshot(0, {"cast": []}, {"rng": None})
    fill(save, 3)
    save.save_snapshot(2, {"cast": ["Ada"], "n": 2}, {"rng": [1, 2]})
    save.save_snapshot(3, {"cast": ["Ada"], "n": 3}, {"rng": [3]})
    snap = save.latest_snapshot()
    assert snap is not None and (snap.seq, snap.state["n"], snap.extra) == (3, 3, {"rng": [3]})
    latest_2 = save.latest_snapshot(max_seq=2)
    assert latest_2 is not None and latest_2.seq == 2
    assert save.undo() == 3
    snap = save.latest_snapshot()
    assert snap is not None and snap.seq == 2
    assert save.undo() == 2
    snap = save.latest_snapshot()
    assert snap is not None and (snap.seq, snap.state) == (0, {"cast": []})
    with pytest.raises(ValueError, match="undone"):
        save.save_snapshot(2, {}, {})
    save.save_snapshot(5, {"n": 1}, {})  # state after the undo record 5: live commands <= 5
    snap = save.latest_snapshot()
    assert snap is not None and snap.seq == 5
    assert raw(save.path, "SELECT count(*) FROM snapshots") == [(4,)]  # invalidated, not deleted
    assert save.integrity_check() == []


# --- refusing files that are not our saves, without writing to them -------------------------------


def make_text(path: Path) -> None:
    path.write_text("Dear diary, today the barrow door would not open.\n" * 20)


def make_empty(path: Path) -> None:
    path.write_bytes(b"")


def make_foreign(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE commands (seq INTEGER PRIMARY KEY, text TEXT)")
    conn.execute("INSERT INTO commands (text) VALUES ('not ours')")
    conn.commit()
    conn.close()


def make_foreign_wal_with_app_id(path: Path) -> None:
    make_foreign(path)
    raw(path, "PRAGMA application_id = 1234")
    raw(path, "PRAGMA journal_mode = WAL")


def make_newer(path: Path) -> None:
    SaveFile.create(path, meta=META).close()
    raw(path, "PRAGMA user_version = 99")


def make_cut_short(path: Path) -> None:
    SaveFile.create(path, meta=META).close()
    path.write_bytes(path.read_bytes()[:50])


@pytest.mark.parametrize(("make", "error", "words"), [
    (make_text, NotASave, "not an SQLite database"),
    (make_empty, NotASave, "not an SQLite database"),
    (make_foreign, ForeignSave, "another program"),
    (make_foreign_wal_with_app_id, ForeignSave, "another program"),
    (make_newer, NewerSave, "newer Wyrd"),
    (make_cut_short, CorruptSave, "damaged"),
])
def test_open_refuses_without_writing(path: Path, make: Any, error: type[SaveError],
                                      words: str) -> None:
    make(path)
    before = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    with pytest.raises(error, match=words) as info:
        SaveFile.open(path)
    assert str(path) in str(info.value)
    after = {p.name: p.read_bytes() for p in path.parent.iterdir()}
    assert after[path.name] == before[path.name]
    if error is not NewerSave:  # ours, read-only: SQLite may add its -shm beside it
        assert after == before


def test_open_refuses_a_missing_file(path: Path) -> None:
    with pytest.raises(NotASave, match="no save file"):
        SaveFile.open(path)
    assert not path.exists()


# --- failing writes -----------------------------------------------------------------------------


def test_disk_full_rolls_back_and_keeps_earlier_commands(save: SaveFile) -> None:
    fill(save, 5)
    conn = save._conn
    (pages,) = conn.execute("PRAGMA page_count").fetchone()
    conn.execute(f"PRAGMA max_page_count = {pages}")  # this connection now sees a full disk
    big = "x" * 20_000
    with pytest.raises(SaveWriteError, match="disk is full"):
        save.append(big, {"verb": big}, [d6(1)], [ev("k", text=big)])
    assert not conn.in_transaction
    assert [r.seq for r in save.live_commands()] == [1, 2, 3, 4, 5]
    save.close()
    with SaveFile.open(save.path) as again:
        assert [r.text for r in again.live_commands()] == [f"cmd {i}" for i in range(5)]
        assert again.integrity_check() == []
        assert again.append("after", {}, [], []) == 6  # no gap left by the failed one


def test_a_save_locked_by_another_writer_is_refused_not_waited_on(save: SaveFile) -> None:
    fill(save, 2)
    save.close()  # the session's own lock (issue 16, point 1) keeps Wyrd out; this is another program
    mine_ = SaveFile.open(save.path, busy_timeout=0.1)
    other = sqlite3.connect(save.path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holding a write transaction
    try:
        with mine_ as mine:
            with pytest.raises(SaveWriteError, match="another program or Wyrd session"):
                mine.append("blocked", {}, [d6(3)], [ev("k")])
            with pytest.raises(SaveWriteError):
                mine.undo()
            assert [r.seq for r in mine.live_commands()] == [1, 2]  # reading still works
    finally:
        other.execute("ROLLBACK")
        other.close()
    with SaveFile.open(save.path) as again:
        assert again.append("now", {}, [], []) == 3


# --- integrity_check ----------------------------------------------------------------------------


def test_integrity_check_finds_a_gap(save: SaveFile) -> None:
    fill(save, 4)
    raw(save.path, "DELETE FROM commands WHERE seq = 2")
    problems = save.integrity_check()
    assert "commands 2 to 2 are missing" in problems
    assert any("refers to a missing row of commands" in p for p in problems)  # orphaned rows


def test_integrity_check_finds_bad_indices_and_undo_records(save: SaveFile) -> None:
    fill(save, 3)
    save.undo()
    raw(save.path, "UPDATE events SET idx = 2 WHERE command = 1")
    raw(save.path, "UPDATE commands SET status = 'undone' WHERE seq = 2")
    raw(save.path, "UPDATE commands SET status = 'live', undone_by = NULL WHERE seq = 3")
    problems = save.integrity_check()
    assert "command 1: events indices 2..2 for 1 rows" in problems
    assert "command 2: its status and its undo record do not match" in problems
    assert "undo 4 did not undo the latest live command" in problems


# --- a crash mid-append -------------------------------------------------------------------------

CHILD = textwrap.dedent("""
    import sys
    from wyrd.play.engine.savefile import SaveFile
    with SaveFile.open(sys.argv[1]) as save:
        for i in range(1_000_000):
            dice = [{"sides": 6, "faces": [i % 6 + 1], "purpose": "roll"}]
            events = [{"kind": "rolled", "i": i}, {"kind": "narration", "text": "x" * (i % 300)}]
            print(save.append(f"roll {i}", {"verb": "roll", "i": i}, dice, events), flush=True)
            if i % 50 == 49:
                save.undo()
""")


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
@pytest.mark.parametrize("kill_after", [1, 120, 400])
def test_sigkill_mid_append_loses_nothing_that_was_reported(path: Path, kill_after: int) -> None:
    SaveFile.create(path, meta=META).close()
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], stdout=subprocess.PIPE,
                             text=True, env=env)
    assert child.stdout is not None
    printed = [int(child.stdout.readline()) for _ in range(kill_after)]
    os.kill(child.pid, signal.SIGKILL)
    printed += [int(line) for line in child.stdout.read().split()]  # still in the pipe
    child.wait()
    assert child.returncode == -signal.SIGKILL
    with SaveFile.open(path) as save:
        stored = {r.seq: r for r in save.all_commands()}
        assert set(printed) <= set(stored)
        assert all(stored[seq].undoes is None for seq in printed)
        assert save.integrity_check() == []
        assert save.append("after the crash", {}, [], []) == max(stored) + 1
