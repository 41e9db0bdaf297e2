"""Writing a journal never destroys a save, nor, unasked, any other file (Issue 16, point 5).

``wyrd export g.wyrd --md -o g.wyrd`` and the REPL's ``export self.wyrd`` once replaced the
game with its journal. Now the save itself (by any name), any Wyrd save and a save's -wal or
-shm are refused always; another existing file only with --force.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.overwrite import OverwriteRefused, check_target, is_save, write_new
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=3, ruleset="abacus")
    try:
        Console(session, path).handle("pc add Ada body=5 mind=5 soul=5")
    finally:
        session.close()
    return path


def test_export_onto_its_own_save_is_refused_with_or_without_force(capsys: pytest.CaptureFixture[str],
                                                                   game: Path) -> None:
    """Issue 16, point 5: `wyrd export g.wyrd --md -o g.wyrd` leaves the game whole, even with --force."""
    before = game.read_bytes()
    for extra in ([], ["--force"]):
        code, out = run(capsys, "export", str(game), "--md", "-o", str(game), *extra)
        assert code == 1 and "is the save being exported" in out and "Traceback" not in out
    assert game.read_bytes() == before
    code, out = run(capsys, "log", str(game))
    assert code == 0 and "Ada" in out


def test_export_onto_the_save_through_another_name_is_refused(capsys: pytest.CaptureFixture[str],
                                                              game: Path) -> None:
    """Issue 16, point 5: the same file through a symlink or a ../ path is still the save."""
    link = game.with_name("journal.md")
    link.symlink_to(game)
    other = game.parent / "sub"
    other.mkdir()
    before = game.read_bytes()
    for target in (link, other / ".." / game.name):
        code, out = run(capsys, "export", str(game), "-o", str(target), "--force")
        assert code == 1 and "is the save being exported" in out
    assert game.read_bytes() == before and link.is_symlink()


def test_export_never_replaces_another_save_or_a_saves_companions(capsys: pytest.CaptureFixture[str],
                                                                  game: Path) -> None:
    """Issue 16, point 5: any Wyrd save (header: SQLite magic, application id 0x57797264) is refused always."""
    other = game.with_name("other.wyrd")
    other.write_bytes(game.read_bytes())
    assert is_save(other)
    code, out = run(capsys, "export", str(game), "-o", str(other), "--force")
    assert code == 1 and "is a Wyrd save" in out
    assert other.read_bytes() == game.read_bytes()
    for suffix in ("-wal", "-shm"):
        code, out = run(capsys, "export", str(game), "-o", f"{game}{suffix}", "--force")
        assert code == 1 and "part of the save" in out


def test_an_existing_file_needs_force(capsys: pytest.CaptureFixture[str], game: Path) -> None:
    """Issue 16, point 5: an existing file is refused, naming --force; with --force it is replaced whole."""
    notes = game.with_name("notes.md")
    notes.write_text("my own notes\n")
    code, out = run(capsys, "export", str(game), "-o", str(notes))
    assert code == 1 and "already exists" in out and "--force" in out
    assert notes.read_text() == "my own notes\n"
    code, _ = run(capsys, "export", str(game), "-o", str(notes), "--force")
    assert code == 0 and "Ada" in notes.read_text()
    fresh = game.with_name("fresh.md")
    code, _ = run(capsys, "export", str(game), "-o", str(fresh))
    assert code == 0 and "Ada" in fresh.read_text()


def test_the_repl_export_verb_refuses_the_same_way(game: Path) -> None:
    """Issue 16, point 5: `export self.wyrd` in play; another file needs `export FILE --force`."""
    session = Session.resume(game)
    console = Console(session, game)
    try:
        before = game.read_bytes()
        line = console.handle(f"export {game}").lines[0]
        assert line.style == "refused" and "is the save being exported" in line.text
        assert console.handle(f"export {game} --force").lines[0].style == "refused"
        notes = game.with_name("notes.md")
        notes.write_text("mine\n")
        line = console.handle(f"export {notes}").lines[0]
        assert "already exists" in line.text and "--force" in line.text and notes.read_text() == "mine\n"
        assert console.handle(f"export {notes} --force").lines[0].text.startswith("Journal written")
        assert "Ada" in notes.read_text()
        assert console.handle(f"export {notes} loudly").lines[0].style == "refused"
    finally:
        session.close()
    assert game.read_bytes()[:100] == before[:100]
    resumed = Session.resume(game)
    try:
        assert list(resumed.state.characters) == ["Ada"]
    finally:
        resumed.close()


def test_the_helper_refuses_before_writing_and_never_races(tmp_path: Path) -> None:
    """Issue 16, point 5: one helper for every writer of journals; without force, the file is made exclusively."""
    target = tmp_path / "j.md"
    write_new(target, "one\n")
    with pytest.raises(OverwriteRefused, match="already exists"):
        write_new(target, "two\n")
    with pytest.raises(OverwriteRefused, match="export FILE --force"):
        check_target(target, force_hint="export FILE --force")
    write_new(target, "three\n", force=True)
    assert target.read_text() == "three\n"
    assert [p.name for p in tmp_path.iterdir()] == ["j.md"]  # no temporary file left beside it


def test_every_other_writer_spares_saves_and_asks_for_force(capsys: pytest.CaptureFixture[str], game: Path,
                                                            tmp_path: Path) -> None:
    """Issue 16, point 5: "every other writer": `wyrd schema -o` and `wyrd simulate --plot` too."""
    before = game.read_bytes()
    code, out = run(capsys, "schema", "-o", str(game), "--force")
    assert code == 1 and "Wyrd save" in out and game.read_bytes() == before
    code, out = run(capsys, "simulate", "the-milestones", "--runs", "1", "--plot", str(game), "--force")
    assert code != 0 and game.read_bytes() == before
    other = tmp_path / "schema.json"
    other.write_text("mine", encoding="utf-8")
    code, out = run(capsys, "schema", "-o", str(other))
    assert code == 1 and "--force" in out and other.read_text(encoding="utf-8") == "mine"
    assert run(capsys, "schema", "-o", str(other), "--force")[0] == 0
    assert other.read_text(encoding="utf-8").startswith("{")
