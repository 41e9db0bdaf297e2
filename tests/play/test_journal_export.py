"""The exported journal is titled with the story and keeps each roll's dice with it (issue 18, point 10).

"the journal titled with the story's id": a story chosen with `story ID` left the journal
"An unwritten story", and `--story ID` titled it with the id. And every roll's faces came in
one line at the end of the command, after the narration and away from the roll they belong to.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.journal import journal
from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.view import wording

# Each ruleset's bundled story, and lines that roll dice in it.
PLAYS = {
    "abacus": ("the-milestones", "The Milestones", "Wyrd Abacus", ["pc take all", "scene", "wyrd"]),
    "wolden": ("the-drowned-bell", "The Drowned Bell", "Wolden",
               ["pc take all", "scene", "scene", "check wenna agility", "roll", "check corin might with ysolde",
                "roll"]),
    "feat": ("lantern-at-gull-reach", "The Lantern at Gull Reach", "Heroes of the Fall",
             ["scene", "try Wenna climbing 5", "oppose Maud Ansel brawling"]),
    "lots": ("harrow-mere", "The Bell Under Harrow Mere", "Thaeborn",
             ["pc take all", "scene", 'check ysolde survival vs 5 "firm stones"', 'lots "does it stir"']),
}

DICE = re.compile(r"^  - \*dice: (.*)\*$")


def played(tmp_path: Path, ruleset: str, *, chosen_in_play: bool) -> Path:
    """A save of ``ruleset``'s story, chosen with ``--story`` or with a `story ID` line."""
    ident, _, _, lines = PLAYS[ruleset]
    path = tmp_path / f"{ruleset}.wyrd"
    session = Session.new(path, seed=4, ruleset=ruleset, story=None if chosen_in_play else ident)
    try:
        console = Console(session, path)
        for line in [f"story {ident}"] * chosen_in_play + lines:
            refused = [shown.text for shown in console.handle(line).lines if shown.style == "refused"]
            assert not refused, (line, refused)
    finally:
        session.close()
    return path


def exported(path: Path, ruleset: str) -> str:
    save = SaveFile.open(path, readonly=True)
    try:
        return journal(save, wording(ruleset))
    finally:
        save.close()


@pytest.mark.parametrize("chosen_in_play", [True, False])
@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_the_journal_is_titled_with_the_story_and_names_the_ruleset(tmp_path: Path, ruleset: str,
                                                                   chosen_in_play: bool) -> None:
    _, title, name, _ = PLAYS[ruleset]
    lines = exported(played(tmp_path, ruleset, chosen_in_play=chosen_in_play), ruleset).splitlines()
    assert lines[0] == f"# {title}"
    assert lines[2] == f"Ruleset: {name}, seed 4."
    # every ruleset's scenes are the journal's sections (only the Abacus's and Heroes of the Fall's were)
    assert any(line.startswith("## Scene 1") for line in lines), lines


@pytest.mark.parametrize("ruleset", sorted(PLAYS))
def test_each_roll_s_dice_follow_the_line_that_shows_them(tmp_path: Path, ruleset: str) -> None:
    path = played(tmp_path, ruleset, chosen_in_play=True)
    lines = exported(path, ruleset).splitlines()
    save = SaveFile.open(path, readonly=True)
    try:
        rolls = [roll for record in save.live_commands() for roll in record.dice]
    finally:
        save.close()
    assert len(rolls) >= 2
    shown: list[str] = []
    for before, line in pairwise(lines):
        found = DICE.match(line)
        if found is None:
            continue
        # right under the event line that rolled them (not after the narration), which shows the faces
        assert before.startswith("- ") or DICE.match(before), (before, line)
        shown += found.group(1).split("; ")
        faces = [roll.rsplit(": ", 1)[1] for roll in found.group(1).split("; ")]
        if re.search(r"rolls? |WEAL|d100", before):  # a line telling the roll shows its faces
            assert all(re.search(rf"\b{face.split(', ')[0]}\b", before) for face in faces), (before, line)
    assert shown == [f"{r.purpose}: {', '.join(map(str, r.faces))}" for r in rolls]  # every roll, in order


def test_wyrd_export_writes_the_same_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = played(tmp_path, "lots", chosen_in_play=True)
    target = tmp_path / "journal.md"
    assert main(["export", str(path), "-o", str(target)]) == 0
    capsys.readouterr()
    assert target.read_text(encoding="utf-8") == exported(path, "lots")
    assert target.read_text(encoding="utf-8").startswith("# The Bell Under Harrow Mere\n")
