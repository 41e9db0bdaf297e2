"""Opening a save Wyrd left as it was skips its whole digest chain, and still refuses any hand edit.

Issue 21, point 3: a resume must cost the same at command 100 and at command 100,000, while issue
16, point 3 still holds: a hand edit anywhere is refused with the command where it was made. A
session that closes a save nobody else wrote leaves a mark in the data folder (WYRD_HOME); an open
that finds the file exactly so checks only what follows the mark. Whether the whole chain was
walked is counted here (the command digests computed), never timed.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from wyrd.play.engine import savedigest, savemark
from wyrd.play.engine.savefile import EditedSave, SaveFile
from wyrd.play.engine.session import Session


@pytest.fixture
def hashed(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many command digests were computed (one per command the chain check reads)."""
    count = [0]
    real = savedigest.command_digest

    def counting(*args: object) -> bytes:
        count[0] += 1
        return real(*args)  # type: ignore[arg-type]
    monkeypatch.setattr(savedigest, "command_digest", counting)
    return count


def _commands(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM commands").fetchone()[0])


def _opened(path: Path, hashed: list[int], *, readonly: bool = False) -> int:
    """Open and close the save; the command digests that took."""
    hashed[0] = 0
    SaveFile.open(path, readonly=readonly).close()
    return hashed[0]


def _edit_keeping_times(path: Path, statement: str) -> None:
    """A hand edit with sqlite3, the file's modification time then put back as it was."""
    before = os.stat(path)
    with closing(sqlite3.connect(path)) as conn, conn:
        assert conn.execute(statement).rowcount == 1
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns


def test_a_save_left_as_it_was_is_opened_without_walking_its_chain(game: Path, hashed: list[int]) -> None:
    """Issue 21, point 3: resume, and log/export's read-only open, read none of the chain."""
    assert _opened(game, hashed) == 0
    assert _opened(game, hashed, readonly=True) == 0
    hashed[0] = 0
    session = Session.resume(game)
    session.execute("scene with Ada")
    session.close()
    assert hashed[0] == 0
    assert _opened(game, hashed) == 0


@pytest.mark.parametrize("edit", [
    "UPDATE commands SET text = 'pc add Eve body=5 mind=5 soul=5' WHERE seq = 1",
    "UPDATE dice SET faces = '[1]' WHERE command = (SELECT min(command) FROM dice) AND idx = 0",
    "UPDATE events SET data = replace(data, 'Ada', 'Eve') WHERE command = 2 AND idx = 0",
    "UPDATE dice SET faces = '[6]' WHERE command = (SELECT max(command) FROM dice) AND idx = 0",
])
def test_a_hand_edit_anywhere_is_refused_with_its_command_even_with_the_time_put_back(
        game: Path, hashed: list[int], edit: str) -> None:
    """Issue 16, point 3 kept under issue 21, point 3: the mark no longer fits, the whole chain is walked."""
    with closing(sqlite3.connect(game)) as conn:
        command = {"commands": 1, "events": 2}.get(edit.split()[1]) or conn.execute(
            f"SELECT {'min' if 'min' in edit else 'max'}(command) FROM dice").fetchone()[0]
    assert savemark.load(game) is not None
    _edit_keeping_times(game, edit)
    for readonly in (False, True):
        with pytest.raises(EditedSave, match=f"changed outside Wyrd at command {command};"):
            SaveFile.open(game, readonly=readonly)


def test_an_edited_snapshot_is_refused_even_with_the_time_put_back(game: Path) -> None:
    with closing(sqlite3.connect(game)) as conn:
        (seq,) = conn.execute("SELECT max(seq) FROM snapshots WHERE invalidated_by IS NULL").fetchone()
    assert savemark.load(game) is not None
    _edit_keeping_times(game, f"UPDATE snapshots SET extra = '{{}}' WHERE seq = {seq} AND invalidated_by IS NULL")
    with pytest.raises(EditedSave, match=f"at the snapshot of command {seq};"):
        SaveFile.open(game)


def test_a_file_that_changed_in_any_way_is_checked_whole(game: Path, hashed: list[int], tmp_path: Path) -> None:
    """The mark is trusted only for the very file as it was left: not after a touch, not for a
    copy (another inode), not with a -wal beside it; a whole check then marks it anew."""
    whole = _commands(game)
    os.utime(game)  # nothing edited: checked whole, found sound, marked again on close
    assert _opened(game, hashed) == whole
    assert _opened(game, hashed) == 0
    copy = tmp_path / "copy.wyrd"
    shutil.copy2(game, copy)
    assert _opened(copy, hashed, readonly=True) == whole
    Path(f"{game}-wal").touch()
    assert savemark.load(game) is None


def test_a_write_by_another_program_while_the_game_is_open_leaves_no_mark(game: Path, hashed: list[int]) -> None:
    """An edit made while the session plays is still refused at the next open, naming its command."""
    session = Session.resume(game)
    with closing(sqlite3.connect(game)) as conn, conn:
        conn.execute("UPDATE commands SET text = 'scene with Eve' WHERE seq = 2")
    session.execute("scene with Ada")
    session.close()
    assert savemark.load(game) is None
    with pytest.raises(EditedSave, match="changed outside Wyrd at command 2;"):
        SaveFile.open(game)


def test_bytes_written_to_the_file_while_the_game_is_open_leave_no_mark(game: Path, hashed: list[int]) -> None:
    """Not only SQLite's writes: any change to the file between the session's own commits."""
    session = Session.resume(game)
    session.execute("scene with Ada")
    os.utime(game)  # what writing a byte in place does to the file's times
    session.execute("end scene")
    session.close()
    assert savemark.load(game) is None
    assert _opened(game, hashed) == _commands(game)


def test_the_chain_after_the_mark_is_still_checked(game: Path) -> None:
    """A mark behind the file's last command (never left by Wyrd itself) checks what follows it."""
    with closing(sqlite3.connect(game)) as conn:
        seq, head = conn.execute("SELECT seq, digest FROM commands WHERE seq = 3").fetchone()
        assert savedigest.first_edit(conn, (seq, head)) is None
        conn.execute("UPDATE commands SET text = 'x' WHERE seq = 5")
        assert savedigest.first_edit(conn, (seq, head)) == "command 5"
        assert savedigest.first_edit(conn, (seq, bytes(32))) == "command 4"
