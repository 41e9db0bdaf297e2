"""A die once rolled stays rolled: undo is never a free re-roll (issue 17, item 17).

The same command typed again after an undo gets the faces it rolled the first time, seeded and
typed dice alike, in every ruleset, across a quit and a resume; a different command does not use
them up. Our choice, in the README's rules notes: the texts have no undo, and a roll made at the
table is not made again because someone took their words back.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from wyrd.play.engine.savefile import SaveFile
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

# Per ruleset: lines that set the table, then one line that rolls dice.
GAMES: dict[str, tuple[list[str], str]] = {
    "abacus": (["pc add Ada body=5 mind=5 soul=5", "scene", 'challenge add "Gate" obstruction 4',
                "attempt gate by ada"], "roll"),
    "wolden": (["pc add Ada lantern-wardens might=3 agility=2 mind=1 graces=0 gifts=steady-flame,roadwise",
                "check ada might"], "roll"),
    "feat": (["pc add Ida vigour=6 mettle=6 wit=5 glamour=4 spirit=4 skill=climbing:vigour:3"],
             "try Ida climbing 7"),
    "lots": (["pc add Ada prowess=5 willpower=4 survival=3 subterfuge=2 intuition=4 ingenuity=6"],
             "check ada ingenuity vs 5"),
}


def faces_of(path: Path) -> list[tuple[str, str, tuple[int, ...]]]:
    """Every command of the save with its status and faces."""
    with SaveFile.open(path, readonly=True) as save:
        return [(r.text, r.status, tuple(r.faces)) for r in save.all_commands()]


def play(path: Path, ruleset: str, lines: Sequence[str], seed: int = 3) -> None:
    session = Session.new(path, seed=seed, ruleset=ruleset)
    console = Console(session)
    for line in lines:
        out = console.handle(line)
        assert not (out.events and out.events[0]["kind"] == "refused"), (line, out.lines)
    session.close()


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_the_same_command_after_an_undo_rolls_the_same_faces(tmp_path: Path, ruleset: str) -> None:
    setup, roll = GAMES[ruleset]
    path = tmp_path / "g.wyrd"
    play(path, ruleset, [*setup, roll, "undo", roll, "undo", roll])
    rolls = [faces for text, _, faces in faces_of(path) if text == roll]
    assert len(rolls) == 3 and rolls[0], rolls
    assert rolls[0] == rolls[1] == rolls[2]


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_quit_and_a_resume_keep_the_faces_of_an_undone_roll(tmp_path: Path, ruleset: str) -> None:
    setup, roll = GAMES[ruleset]
    path = tmp_path / "g.wyrd"
    play(path, ruleset, [*setup, roll, "undo"])
    session = Session.resume(path)
    Console(session).handle(roll)
    session.close()
    rolls = [faces for text, _, faces in faces_of(path) if text == roll]
    assert len(rolls) == 2 and rolls[0] == rolls[1]
    again = Session.resume(path)  # and the save replays as it was played
    again.close()


def test_another_command_in_between_leaves_the_faces_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.wyrd"
    setup, roll = GAMES["abacus"]
    play(path, "abacus", [*setup, roll, "undo", "spend ada 1", roll])
    rolls = [faces for text, _, faces in faces_of(path) if text == roll]
    assert rolls[0] == rolls[1]


def test_typed_dice_are_not_asked_for_again(tmp_path: Path) -> None:
    asked: list[tuple[int, int, str]] = []

    def ask(n: int, sides: int, purpose: str) -> list[int]:
        asked.append((n, sides, purpose))
        return [2] * n

    path = tmp_path / "g.wyrd"
    session = Session.new(path, seed=1, ruleset="abacus", dice_mode="typed", ask=ask)
    console = Console(session)
    setup, roll = GAMES["abacus"]
    for line in setup:
        console.handle(line)
    console.handle(roll)
    first = len(asked)
    assert first > 0
    console.handle("undo")
    console.handle(roll)
    assert len(asked) == first  # the faces already typed were used again
    session.close()


def test_undo_says_so_in_its_help() -> None:
    session = Session.new(None, seed=1, ruleset="abacus")
    help_text = "\n".join(line.text for line in Console(session).handle("help undo").lines)
    assert "same faces" in help_text


def test_a_command_saved_before_an_edition_is_the_same_command_typed_now() -> None:
    """An old save's command (no ``edition``), undone after a resume and typed again, is the same
    command: it gets its faces back rather than a re-roll."""
    from wyrd.play.engine.rolled import command_key

    assert command_key("roll", {"edition": 2}) == command_key("roll", {})
    assert command_key("check", {"who": "ada", "edition": 2}) != command_key("check", {"who": "bo"})
