"""Text from a shared save or a story never reaches the terminal with its escapes (Issue 16, point 7),
and ``wyrd check`` never follows a symlink out of the folder it checks."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.play.saveedit import reseal
from wyrd.play.cli.main import main
from wyrd.play.engine.savefile import SaveFile

ESCAPE = "\x1b[2J\x1b]0;OWNED\x07"
UNSAFE = ("\x1b", "\x07", "\x9b", "\u202e")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out + err


def shared_save(path: Path) -> Path:
    """A save as a stranger could share it: every text field of hand-made events holds escapes,
    in the kinds the views word themselves and in kinds they do not know."""
    meta = {"ruleset": "abacus" + ESCAPE, "story": "Tale" + ESCAPE, "seed": ESCAPE, "dice": "seeded"}
    with SaveFile.create(path, meta=meta) as save:
        save.append("start", {"verb": "start"}, [], [{"kind": "session_started", "seed": ESCAPE}])
        for kind in ("answer", "scene_started", "damage", "postscript", "scene_test", "narration", "twist",
                     "challenge_resolved", "refused", "pc_added", "points_spent", "unknown" + ESCAPE):
            fields = {name: ESCAPE for name in ("odds", "chance", "roll", "answer", "damage", "result", "text",
                                                "character", "outcome", "title", "name", "reason", "value")}
            save.append("say" + ESCAPE, {"verb": "say"}, [{"sides": 6, "faces": [3], "purpose": "hit" + ESCAPE}],
                        [{"kind": kind, **fields, "number\u202e": ESCAPE}])
        save.append("spare", {"verb": "say"}, [], [])
        save.undo()
    conn = sqlite3.connect(path)  # a hand edit: the number an undo took back, as text
    with conn:
        conn.execute("UPDATE commands SET undoes = ? WHERE undoes IS NOT NULL", (ESCAPE,))
    conn.close()
    reseal(path)  # a stranger can write the digests again (issue 16, point 3 guards hand edits, not malice)
    return path


@pytest.mark.parametrize("argv", [["log"], ["log", "--all"], ["export"], ["export", "--md"]])
def test_log_and_export_of_a_shared_save_print_no_escape(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                          argv: list[str]) -> None:
    """Issue 16, point 7: `wyrd log`/`export` of a save whose events carry \\x1b[2J\\x1b]0;OWNED\\x07."""
    save = shared_save(tmp_path / "shared.wyrd")
    code, out = run(capsys, argv[0], str(save), *argv[1:])
    assert code == 0
    assert "Asked at" in out and "OWNED" not in out  # the text is shown; escapes (a title's too) are gone
    assert not any(c in out for c in UNSAFE), [line for line in out.splitlines() if "\x1b" in line][:3]


def test_an_exported_journal_file_holds_no_escape(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 16, point 7: the Markdown journal written to a file is as clean as the one printed."""
    save = shared_save(tmp_path / "shared.wyrd")
    code, _ = run(capsys, "export", str(save), "-o", str(tmp_path / "j.md"))
    text = (tmp_path / "j.md").read_text()
    assert code == 0 and "Tale" in text and "OWNED" not in text
    assert not any(c in text for c in UNSAFE)


def test_the_repl_log_and_export_verbs_show_no_escape(tmp_path: Path) -> None:
    """Issue 16, point 7: `log` and `export` in play, through the console every front-end uses."""
    from wyrd.play.engine.session import Session
    from wyrd.play.frontends.console import Console

    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=1, ruleset="abacus")
    try:
        assert session.save is not None
        session.save.append("ask" + ESCAPE, {"verb": "ask"}, [],
                            [{"kind": "answer", "odds": ESCAPE, "chance": ESCAPE, "roll": ESCAPE, "answer": ESCAPE}])
        console = Console(session, path)
        shown = [line.text for line in console.handle("log all").lines]
        assert console.handle(f"export {tmp_path / 'j.md'}").lines[0].text.startswith("Journal written")
        written = (tmp_path / "j.md").read_text()
    finally:
        session.close()
    assert any("Asked at" in line for line in shown) and "Asked at" in written
    assert not any(c in "\n".join(shown) + written for c in UNSAFE)


# YAML cannot hold a raw ESC; its double-quoted escapes can, and a story's reader decodes them.
IN_YAML = r"\x1b[2J\x1b]0;OWNED\x07"
STORY_WITH_ESCAPES = f"""\
id: bad
title: "Bad{IN_YAML}"
"field{IN_YAML}": "{IN_YAML}"
scenes:
  - title: "One{IN_YAML}"
    "other{IN_YAML}\\u202e": 1
"""


def test_check_prints_no_escape_from_a_storys_field_names(capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    """Issue 16, point 7: `wyrd check` of a story whose field names and values hold escapes."""
    story = tmp_path / "bad.yaml"
    story.write_text(STORY_WITH_ESCAPES)
    code, out = run(capsys, "check", str(story))
    assert code == 1
    assert "field" in out and "OWNED" not in out  # the names are shown, cleaned
    assert not any(c in out for c in UNSAFE)
    code, out = run(capsys, "check", str(tmp_path))
    assert not any(c in out for c in UNSAFE)


def test_stories_lists_no_escape_from_a_title_or_a_file_name(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 7: `wyrd stories` with a story whose title, id and file name hold escapes."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    (tmp_path / f"x{ESCAPE}.yaml").write_text(STORY_WITH_ESCAPES)
    code, out = run(capsys, "stories", "--content", str(tmp_path))
    assert code == 0 and "x: " in out and "OWNED" not in out
    assert not any(c in out for c in UNSAFE)


def test_check_does_not_follow_a_symlink_out_of_the_folder(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """Issue 16, point 7: a link to a file outside the checked folder is refused by name, its lines never shown."""
    secret = tmp_path / "shadow"
    secret.write_text("root:$6$SECRETHASH:19000:0:99999:7:::\nsecond: SECRETLINE\n")
    folder = tmp_path / "stories"
    folder.mkdir()
    (folder / "leak.yaml").symlink_to(secret)
    (folder / "also.yml").symlink_to(secret)
    (folder / "good.yaml").write_text((Path(__file__).resolve().parents[2] / "wyrd" / "stories" / "content"
                                       / "the-milestones.yaml").read_text())
    code, out = run(capsys, "check", str(folder))
    assert "SECRET" not in out and "root:" not in out
    assert "leak.yaml" in out and "leaves its folder" in out
    assert "good.yaml: ok" in out
    assert code == 1  # what was refused is reported as a failure
    # Named alone, a link out of its own folder is refused the same way.
    code, out = run(capsys, "check", str(folder / "leak.yaml"))
    assert "SECRET" not in out and "leaves its folder" in out and code == 1


def test_check_refuses_a_fifo_at_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Issue 16, points 6 and 7: `wyrd check` on a folder with a FIFO, and on the FIFO itself, does not wait."""
    import os

    os.mkfifo(tmp_path / "f.yaml")
    code, out = run(capsys, "check", str(tmp_path))
    assert code == 1 and "not a regular file" in out
    code, out = run(capsys, "check", str(tmp_path / "f.yaml"))
    assert code == 1 and "not a regular file" in out


def test_a_broken_tables_error_quotes_its_file_cleaned(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16, point 7: error messages that quote a table file's text print no escape."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    tables = tmp_path / "content" / "tables"
    tables.mkdir(parents=True)
    (tables / "t.yaml").write_text(f'id: "t{IN_YAML}"\ntitle: x\ndice: d6\nrows:\n  - range: 1-7\n    text: a\n')
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO(""))
    code, out = run(capsys, "play", "--content", str(tmp_path / "content"), "--ruleset", "abacus",
                    "--story", "none", "--script", "-")
    assert code == 1 and "do not load" in out and "1-7 is out of range" in out
    assert not any(c in out for c in UNSAFE)


def test_saves_lists_a_save_whose_name_holds_escapes_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 16, point 6: a file name is text from outside too (a save shared under a crafted name)."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    folder = tmp_path / "saves"
    folder.mkdir()
    SaveFile.create(folder / ("game" + ESCAPE + ".wyrd"), meta={"ruleset": "abacus"}).close()
    code, out = run(capsys, "saves")
    assert code == 0 and "game" in out
    assert not any(mark in out for mark in UNSAFE)
