"""Costs that do not grow with the game (issue 21, point 3): undo and snapshots, by counts.

A player who holds down undo must not pay a replay of up to ``SNAPSHOT_EVERY`` commands per
command taken back: undos in a row replay about one command each, a command played and taken
back again and again replays none, and the game they leave is the one a resume reads from the
save. Undos whose numbers fall on the snapshot multiples still leave a snapshot every
``SNAPSHOT_EVERY`` live commands, so a resume never replays further than that. The latest live
command is found without reading the undone commands after it, the latest snapshot without
reading the others, and after an early undo a resume reads what was undone, not every command
and event since. Counts, never timers (the times are in ``python -m bench longgame``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from itertools import cycle
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine import history as history_module
from wyrd.play.engine.savefile import Record, SaveFile
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

SNAPSHOT_EVERY = 8
LOOP = ["scene with Ada, Bram", 'challenge add "Gate" obstruction 1', "attempt gate by Ada", "roll", "wyrd",
        "end scene"]
SETUP = ["pc add Ada body=5 mind=5 soul=5", "pc add Bram body=6 mind=5 soul=4"]
STORY = ["story hollow-fair", "pc take all", "scene", 'attempt fair-unease by "Coral Vell"', "roll",
         'draw "Coral Vell" 2', 'attempt huckster-cheat by "Ivy Marchbank"', "roll", "wyrd", "end scene", "scene",
         'attempt hester-grief by "Ivy Marchbank"', "roll", 'draw "Ivy Marchbank" 1',
         'attempt finch-questions by "Ivy Marchbank"', "roll", "wyrd", "end scene", "scene",
         'attempt dray-sermon by "Ivy Marchbank"', "roll", 'draw "Ivy Marchbank" 3',
         'attempt dray-ledger by "Ivy Marchbank"', 'spend "Ivy Marchbank" 1', "roll"]


@pytest.fixture(autouse=True)
def small_snapshots(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(history_module, "SNAPSHOT_EVERY", SNAPSHOT_EVERY)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The seqs of the commands replayed, in order."""
    seen: list[int] = []
    original = Session._replay

    def counting(self: Session, record: Record) -> None:
        seen.append(record.seq)
        original(self, record)

    monkeypatch.setattr(Session, "_replay", counting)
    yield seen


def played(path: Path, lines: Sequence[str]) -> None:
    session = Session.new(path, seed=21, ruleset="abacus")
    console = Console(session, path)
    for line in lines:
        out = console.handle(line)
        assert not (out.events and out.events[0]["kind"] == "refused"), (line, out.lines)
    session.close()


def looped(count: int) -> list[str]:
    return SETUP + [line for line, _ in zip(cycle(LOOP), range(count - len(SETUP)), strict=False)]


def game(session: Session) -> dict[str, Any]:
    """Everything of the game in memory that a resume reads from the save."""
    follower = session.follower.snapshot() if session.follower is not None else None
    return {"state": session.state.model_dump(mode="json"), "follower": follower, "deck": session.teller.deck,
            "next_command": session.next_command, "next_event": session.next_event,
            "rolled": {k: list(v) for k, v in session.rolled._kept.items()}}


@pytest.mark.parametrize("lines", [looped(70), STORY], ids=["loop", "story"])
def test_undos_in_a_row_replay_about_one_command_each_and_leave_the_resumed_game(
        tmp_path: Path, replays: list[int], lines: list[str]) -> None:
    """Issue 21, point 3: 10,000 undos in a row on a 10,000-command game ran for more than 25 minutes."""
    path = tmp_path / "g.wyrd"
    played(path, lines)
    session = Session.resume(path)
    replays.clear()
    undos = len(lines) - 2
    for _ in range(undos):
        assert session.undo().refused is None
    # Today's code rebuilt from the latest snapshot at every undo: up to SNAPSHOT_EVERY each.
    assert len(replays) <= undos + 2 * SNAPSHOT_EVERY, len(replays)
    held = game(session)
    session.close()
    again = Session.resume(path)
    assert game(again) == held
    assert again.save is not None and again.save.last_event_seq() == highest_event(path) == held["next_event"] - 1
    again.close()


def test_a_command_played_and_taken_back_again_and_again_replays_nothing(tmp_path: Path, replays: list[int]) -> None:
    """Issue 21, point 3: an undo of the command just played costs no replay, at any length."""
    path = tmp_path / "g.wyrd"
    played(path, looped(44))  # the latest snapshot four commands back
    session = Session.resume(path)
    console = Console(session, path)
    assert session.undo().refused is None  # the first after a resume may rebuild
    replays.clear()
    line = LOOP[(44 - 1 - len(SETUP)) % len(LOOP)]  # the line of the command undone
    for _ in range(20):
        out = console.handle(line)
        assert not (out.events and out.events[0]["kind"] == "refused"), out.lines
        assert session.undo().refused is None
    assert replays == []
    held = game(session)
    session.close()
    again = Session.resume(path)
    assert game(again) == held
    again.close()


def test_undos_on_the_snapshot_multiples_still_leave_a_snapshot_every_so_many_live_commands(
        tmp_path: Path, replays: list[int]) -> None:
    """Issue 21, point 3: three commands and an undo, over and over, with every undo numbered on a
    multiple of SNAPSHOT_EVERY: today no snapshot was ever taken after the first, and a resume
    replayed every live command."""
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=7, ruleset="abacus")  # the start is command 1
    console = Console(session, path)
    for _ in range(SNAPSHOT_EVERY * 12):
        if session.next_command % SNAPSHOT_EVERY == 0:
            assert session.undo().refused is None
        else:
            out = console.handle(f"pc add P{session.next_command} body=5 mind=5 soul=5")
            assert not (out.events and out.events[0]["kind"] == "refused"), out.lines
    session.close()
    with SaveFile.open(path, readonly=True) as save:
        live = [r.seq for r in save.live_commands()]
        snap = save.latest_snapshot()
    assert len(live) > 4 * SNAPSHOT_EVERY
    after = [seq for seq in live if snap is None or seq > snap.seq]
    assert len(after) <= 2 * SNAPSHOT_EVERY, (snap.seq if snap else None, len(after))
    replays.clear()
    Session.resume(path).close()
    assert len(replays) <= 2 * SNAPSHOT_EVERY


def highest_event(path: Path) -> int:
    """The highest event number in the save, read from every event."""
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT max(json_extract(data, '$.seq')) FROM events").fetchone()[0] or 0)


def _steps(conn: sqlite3.Connection, query: str, *params: object) -> int:
    """SQLite's virtual machine steps (in hundreds) to run ``query``: work done, not time."""
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(tick, 100)
    try:
        conn.execute(query, params).fetchall()
    finally:
        conn.set_progress_handler(None, 0)
    return steps[0]


def test_the_latest_live_command_is_found_without_reading_the_undone_ones(tmp_path: Path) -> None:
    """Issue 21, point 3: each undo of a run looked through every command undone before it."""
    path = tmp_path / "g.wyrd"
    with SaveFile.create(path, meta={"game": "test"}) as save:
        for i in range(400):
            save.append(f"c{i}", {"verb": "note"}, [], [])
        found = []
        for _ in range(300):
            target = save.last_live()
            assert target is not None and save.undo() == target.seq
            found.append(target.seq)
        assert found == list(range(400, 100, -1))
        assert save.last_live() is not None and save.last_live().seq == 100  # type: ignore[union-attr]
    with closing(sqlite3.connect(path)) as conn:
        from wyrd.play.engine.saveschema import LATEST_LIVE

        indexed = _steps(conn, LATEST_LIVE.format(" INDEXED BY live"), 0)
        scanned = _steps(conn, LATEST_LIVE.format(""), 0)
    # 300 undone commands and 300 undo records lie after the latest live command.
    assert indexed <= 1 < scanned, (indexed, scanned)


def test_an_old_save_gains_the_index_when_claimed_and_reads_the_same(tmp_path: Path) -> None:
    """Issue 21, point 3: the index of live commands is not part of what a save holds."""
    fixtures = Path(__file__).resolve().parent / "fixtures" / "saves"
    for fixture in sorted(fixtures.glob("*.wyrd")):
        copy = tmp_path / fixture.name
        copy.write_bytes(fixture.read_bytes())
        with SaveFile.open(copy, readonly=True) as save:
            before = [(r.seq, r.text, r.faces, r.events) for r in save.live_commands()]
            last = save.last_live()
        with SaveFile.open(copy) as save:
            assert [(r.seq, r.text, r.faces, r.events) for r in save.live_commands()] == before
            assert save.last_live() == last
            assert save.last_event_seq() == highest_event(copy)
        with closing(sqlite3.connect(copy)) as conn:
            assert conn.execute("SELECT 1 FROM sqlite_schema WHERE name = 'live'").fetchone() == (1,)


def _work(save: SaveFile, read: Callable[[], object]) -> int:
    """SQLite's virtual machine steps (in hundreds) of one read of the save."""
    steps = [0]

    def tick() -> int:
        steps[0] += 1
        return 0

    save._conn.set_progress_handler(tick, 100)
    try:
        read()
    finally:
        save._conn.set_progress_handler(None, 0)
    return steps[0]


def test_a_resume_reads_what_was_undone_not_the_whole_game_after_an_early_undo(tmp_path: Path) -> None:
    """Issue 21, point 3: after one early undo, every resume read each command and event since
    (for the highest event number, and for the faces taken again); now only what was undone."""
    def reads(after: int) -> tuple[int, int]:
        path = tmp_path / f"g{after}.wyrd"
        with SaveFile.create(path, meta={"game": "test"}) as save:
            save._conn.execute("PRAGMA synchronous = OFF")  # the same rows, sooner
            numbers = iter(range(1, 10**6))

            def add(i: int, again: int | None = None) -> int:
                parsed = {"verb": "note"} | ({"again": again} if again else {})
                events = [{"kind": "note", "seq": next(numbers)} for _ in range(2)]
                return save.append(f"c{i}", parsed, [{"sides": 6, "faces": [3], "purpose": "p"}], events)
            add(0)
            first = add(1)
            assert save.undo() == first
            add(2, again=first)
            for i in range(after):
                add(3 + i)
            assert save.last_event_seq() == next(numbers) - 1
            undone, taken = save.rolled_back()
            assert [r.seq for r in undone] == [first] and taken == {first}
            return _work(save, save.last_event_seq), _work(save, save.rolled_back)
    few, many = reads(20), reads(2_000)
    assert all(m <= f + 1 for f, m in zip(few, many, strict=True)), (few, many)


def test_the_latest_snapshot_is_found_without_reading_the_others(tmp_path: Path) -> None:
    """Issue 21, point 3: a resume and the digest check read every snapshot row to find the latest."""
    def reads(snapshots: int) -> int:
        path = tmp_path / f"s{snapshots}.wyrd"
        with SaveFile.create(path, meta={"game": "test"}) as save:
            save._conn.execute("PRAGMA synchronous = OFF")  # the same rows, sooner
            for i in range(snapshots):
                seq = save.append(f"c{i}", {"verb": "note"}, [], [])
                save.save_snapshot(seq, {"n": i, "padding": "x" * 500}, {"next_event": 1})
            latest = save.latest_snapshot()
            assert latest is not None and latest.seq == snapshots
            return _work(save, save.latest_snapshot)
    assert reads(150) <= reads(10) + 1
