"""A save checks itself (issue 16, point 3), is created whole (point 4) and copies whole (point 5).

Each command row chains a digest of everything recorded before it, each snapshot one of the
chain at its seq and its state: a hand edit anywhere is refused with the command where it was
made. Schema-1 saves gain their digests once, when opened for writing.
"""

from __future__ import annotations

import shutil
import sqlite3
import zlib
from contextlib import closing
from pathlib import Path

import pytest

import wyrd.play.engine.savefile as savefile_module
from tests.play.saveedit import SMALL_GAME
from wyrd.play.cli.main import main
from wyrd.play.engine.paths import list_saves, newest_save
from wyrd.play.engine.savefile import (
    CorruptSave,
    EditedSave,
    ReadOnlySave,
    SaveExists,
    SaveFile,
    part_name,
)
from wyrd.play.engine.session import Session

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saves"


def _sql(path: Path, *statements: str) -> None:
    with closing(sqlite3.connect(path)) as conn, conn:
        for statement in statements:
            conn.execute(statement)


def _refused(path: Path, words: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["resume", str(path), "--script", "/dev/null"], ["log", str(path)], ["export", str(path)]):
        assert main(args) == 1
        err = capsys.readouterr().err
        assert words in err and "cannot be trusted" in err and len(err.strip().splitlines()) == 1, err


def test_a_sound_save_verifies(game: Path) -> None:
    with SaveFile.open(game) as save:
        assert save.verified and save.integrity_check() == []
    with SaveFile.open(game, readonly=True) as save:
        assert save.latest_snapshot() is not None


def test_a_die_changed_before_the_last_snapshot_is_refused_naming_its_command(
        game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, point 3 (and the issue's own example: a die changed in an early command)."""
    with closing(sqlite3.connect(game)) as conn:
        (seq,) = conn.execute("SELECT min(command) FROM dice").fetchone()
        (snap,) = conn.execute("SELECT max(seq) FROM snapshots").fetchone()
    assert seq < snap
    _sql(game, f"UPDATE dice SET faces = '[1]' WHERE command = {seq} AND idx = 0")
    with pytest.raises(EditedSave, match=f"changed outside Wyrd at command {seq};"):
        SaveFile.open(game)
    _refused(game, f"at command {seq};", capsys)


@pytest.mark.parametrize("edit", [
    "UPDATE commands SET text = 'pc add Eve' WHERE seq = 2",
    "UPDATE commands SET parsed = '{}' WHERE seq = 3",
    "UPDATE events SET data = json_set(data, '$.name', 'Eve') WHERE command = 2 AND idx = 0",
    "DELETE FROM events WHERE command = 3 AND idx = 0",
    "INSERT INTO events VALUES (3, 99, 'note', '{\"kind\": \"note\"}')",
    "UPDATE commands SET digest = zeroblob(32) WHERE seq = 3",
])
def test_any_edit_is_refused(game: Path, edit: str) -> None:
    _sql(game, edit)
    with pytest.raises(EditedSave, match=r"at command [23];"):
        SaveFile.open(game, readonly=True)


def test_an_edited_snapshot_is_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, point 3: a snapshot edited to give a character more points is refused."""
    with closing(sqlite3.connect(game)) as conn:
        sid, seq, state = conn.execute("SELECT id, seq, state FROM snapshots ORDER BY seq DESC LIMIT 1").fetchone()
        text = zlib.decompress(state).decode().replace('"soul":5', '"soul":19', 1)
        conn.execute("UPDATE snapshots SET state = ? WHERE id = ?", (zlib.compress(text.encode()), sid))
        conn.commit()
    with pytest.raises(EditedSave, match=f"the snapshot of command {seq}"):
        SaveFile.open(game)
    _refused(game, f"snapshot of command {seq}", capsys)


def test_status_columns_may_change_without_breaking_the_chain(game: Path) -> None:
    with SaveFile.open(game) as save:
        assert save.undo() is not None
        save.append("after", {}, [], [])
    with SaveFile.open(game, readonly=True) as save:
        assert save.integrity_check() == []


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("*.wyrd")), ids=lambda p: p.stem)
def test_an_old_save_gains_its_digests_once_when_opened_for_writing(fixture: Path, tmp_path: Path) -> None:
    copy = tmp_path / fixture.name
    shutil.copyfile(fixture, copy)
    with SaveFile.open(copy, readonly=True) as save:  # read as it is: unverified, unchanged
        assert not save.verified and save.last_seq() > 0
    assert copy.read_bytes() == fixture.read_bytes()
    with SaveFile.open(copy) as save:
        assert save.verified and save.integrity_check() == []
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA user_version").fetchone() == (2,)
        assert conn.execute("SELECT count(*) FROM commands WHERE digest IS NULL").fetchone() == (0,)
    with SaveFile.open(copy, readonly=True) as save:
        assert save.verified


def test_backup_is_one_whole_file_that_verifies_and_resumes(game: Path, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, point 5: the copy holds what the -wal holds too, and never overwrites."""
    session = Session.resume(game)
    assert session.execute("pc add Bram body=6 mind=5 soul=4").refused is None  # in the -wal only
    assert session.save is not None and Path(f"{game}-wal").stat().st_size > 0
    out = tmp_path / "copy.wyrd"
    session.save.backup(out)
    with pytest.raises(SaveExists):
        session.save.backup(out)
    session.close()
    assert not Path(f"{out}-wal").exists()
    with SaveFile.open(out, readonly=True) as copy:
        assert copy.last_seq() == len(SMALL_GAME) + 2 and copy.integrity_check() == []
    assert main(["backup", str(game)]) == 0
    assert main(["backup", str(game)]) == 0
    assert main(["export", str(game), "--save", "-o", str(tmp_path / "e.wyrd")]) == 0
    assert main(["backup", str(game), "-o", str(out)]) == 1
    assert "already exists" in capsys.readouterr().err
    for made in ("g-backup.wyrd", "g-backup-2.wyrd", "e.wyrd"):
        Session.resume(tmp_path / made).close()


def test_creation_never_overwrites_and_leaves_no_part(tmp_path: Path) -> None:
    """Issue 16, point 4."""
    path = tmp_path / "g.wyrd"
    path.write_text("mine")
    with pytest.raises(SaveExists):
        SaveFile.create(path, meta={})
    assert path.read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.wyrd"]
    other = tmp_path / "h.wyrd"
    SaveFile.create(other, meta={}).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.wyrd", "h.wyrd"]


def test_a_link_less_file_system_still_never_overwrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def no_links(*_: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(savefile_module.os, "link", no_links)
    path = tmp_path / "g.wyrd"
    SaveFile.create(path, meta={}).close()
    with SaveFile.open(path) as save:
        assert save.integrity_check() == []
    with pytest.raises(SaveExists):
        SaveFile.create(path, meta={})


def test_leftovers_and_non_saves_are_never_the_newest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 4: `wyrd resume` with no argument never picks a half-made file."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    folder = tmp_path / "saves"
    folder.mkdir()
    good = folder / "a.wyrd"
    SaveFile.create(good, meta={}).close()
    shutil.copyfile(good, part_name(folder / "z.wyrd"))
    (folder / "y.wyrd").write_bytes(b"")
    (folder / "x.wyrd").write_bytes(good.read_bytes()[:60])
    (folder / ".w.wyrd").write_bytes(good.read_bytes())
    assert list_saves() == [good]
    assert newest_save() == good


def test_a_read_only_save_is_read_and_named_read_only(game: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, point 4: log and export read it (immutable, no -shm made); resume says read-only."""
    with SaveFile.open(game):
        pass  # closing the last connection folds the -wal in
    real = savefile_module.os.access
    monkeypatch.setattr(savefile_module.os, "access",
                        lambda p, mode, **kw: False if mode & savefile_module.os.W_OK else real(p, mode, **kw))
    before = sorted(p.name for p in game.parent.iterdir())
    assert main(["log", str(game)]) == 0
    assert "Ada" in capsys.readouterr().out
    assert main(["resume", str(game), "--script", "/dev/null"]) == 1
    err = capsys.readouterr().err
    assert "read-only" in err and "damaged" not in err
    with pytest.raises(ReadOnlySave):
        SaveFile.open(game)
    assert sorted(p.name for p in game.parent.iterdir()) == before


def test_damage_is_a_corrupt_save_not_a_traceback(game: Path) -> None:
    _sql(game, "UPDATE events SET data = 'not json' WHERE command = 2")
    with pytest.raises(CorruptSave), SaveFile.open(game, readonly=True) as save:
        list(save.all_commands())
