"""Golden transcripts: whole games played through ``wyrd play --script FILE --json``.

Each ``tests/golden/NAME.txt`` is a script of commands whose first line says its seed
(``# seed: N``); ``tests/golden/NAME.jsonl`` holds the JSON lines the game must print for it,
one event a line. The script runs in-process (``wyrd.play.cli.main.main``) with ``WYRD_HOME`` and the
working directory in a temporary folder, and its output must equal the expected file.

Between them the scripts use every verb at least once (a test checks that), refused lines
included: an unknown verb with its "did you mean", bad numbers, rule refusals with their rule
ids. View verbs (help, pc, status, challenges, log, save, export) print no events, so with
``--json`` they print nothing at all.

To rewrite the expected files after a deliberate change, run

    WYRD_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/play/test_golden.py

then read the diff of ``tests/golden/*.jsonl`` line by line against the rules before committing
it: a golden is only worth what the eyes that froze it were worth.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.engine.words import UsageError, split_line

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SCRIPTS = sorted(GOLDEN.glob("*.txt"))
REGEN = os.environ.get("WYRD_REGEN_GOLDEN") == "1"


def seed_of(script: Path) -> int:
    first = script.read_text(encoding="utf-8").splitlines()[0]
    found = re.fullmatch(r"#\s*seed:\s*(\d+)\s*", first)
    assert found, f"{script.name} must begin with '# seed: N'"
    return int(found.group(1))


def ruleset_of_script(script: Path) -> str:
    """A golden of another ruleset says so on its second line: ``# ruleset: wolden``."""
    lines = script.read_text(encoding="utf-8").splitlines()
    found = re.fullmatch(r"#\s*ruleset:\s*([a-z]+)\s*", lines[1]) if len(lines) > 1 else None
    return found.group(1) if found else "abacus"


def content_of_script(script: Path) -> list[str]:
    """A golden that plays a test story says where it is: ``# content: FOLDER`` (under tests/golden)."""
    found = [re.fullmatch(r"#\s*content:\s*(\S+)\s*", line) for line in script.read_text(encoding="utf-8").splitlines()
             if line.startswith("#")]
    return [arg for m in found if m for arg in ("--content", str(GOLDEN / m.group(1)))]


def play(script: Path | str, seed: int, save: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    exists = Path(script).exists()
    ruleset = ruleset_of_script(Path(script)) if exists else "abacus"
    content = content_of_script(Path(script)) if exists else []
    code = main(["play", "--seed", str(seed), "--save", str(save), "--script", str(script), "--json",
                 "--ruleset", ruleset, *content])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # `export FILE` in a script writes here
    return tmp_path


def test_there_are_goldens() -> None:
    assert len(SCRIPTS) >= 4
    for script in SCRIPTS:
        assert script.with_suffix(".jsonl").exists() or REGEN, f"{script.name} has no expected .jsonl"


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.stem for s in SCRIPTS])
def test_golden(script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "game.wyrd"
    code, out, err = play(script, seed_of(script), save, capsys)
    assert code == 0, err
    assert err == ""
    expected_file = script.with_suffix(".jsonl")
    if REGEN:
        expected_file.write_text(out, encoding="utf-8")
    expected = [json.loads(line) for line in expected_file.read_text(encoding="utf-8").splitlines()]
    printed = [json.loads(line) for line in out.splitlines()]
    assert printed == expected
    # One JSON object a line, nothing else, and every event numbered except refusals and undos.
    assert all(isinstance(e, dict) and "kind" in e for e in printed)
    assert all(isinstance(e["seq"], int) for e in printed if e["kind"] not in ("refused", "undone"))

    # The save tells the same story: its live events are the printed ones that still stand.
    session = Session.resume(save, content=[Path(a) for a in content_of_script(script)[1::2]])
    try:
        assert session.save is not None
        assert session.save.integrity_check() == []
        live = [e for record in session.save.live_commands() for e in record.events]
        numbered = [e for e in printed if e["seq"] is not None]
        seqs = [e["seq"] for e in live]
        assert seqs == sorted(set(seqs))  # rising, never reused (an undo leaves a gap)
        shown = {e["seq"]: e for e in numbered}
        assert live == [shown[s] for s in seqs]
    finally:
        session.close()


def test_every_verb_is_in_a_golden() -> None:
    """Every verb of every playable ruleset is used by at least one golden of that ruleset."""
    used: dict[str, set[str]] = {}
    for script in SCRIPTS:
        ruleset = ruleset_of_script(script)
        table = hooks_for(ruleset).verbs
        for line in script.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            with contextlib.suppress(UsageError):  # the unknown verb a golden is meant to refuse
                used.setdefault(ruleset, set()).add(table.find(split_line(line)[0]).key)
    for ruleset, seen in used.items():
        assert set(hooks_for(ruleset).verbs.verbs()) - seen == set(), ruleset


def test_goldens_have_refusals_and_undo() -> None:
    """The kinds of refusal the goldens promise are really in them."""
    printed = [json.loads(line) for script in SCRIPTS
               for line in script.with_suffix(".jsonl").read_text(encoding="utf-8").splitlines()]
    reasons = [e for e in printed if e["kind"] == "refused"]
    assert any("did you mean" in e["reason"] for e in reasons)
    assert any(e["rule"] == "usage" and "whole number" in e["reason"] for e in reasons)
    assert any(e["rule"] == "usage" and "must be from" in e["reason"] for e in reasons)
    assert {"abacus.character.points", "abacus.roll.none-open", "abacus.challenge.sequential",
            "abacus.spend.not-enough-points", "abacus.draw.involved", "abacus.defeat.no-actions",
            "abacus.defeat.ghost-wyrd", "abacus.magic.once-per-scene", "abacus.magic.cost",
            "abacus.contest.two", "abacus.rest.once", "abacus.finale.ended",
            "abacus.sabotage.once"} <= {e["rule"] for e in reasons}
    assert any(e["kind"] == "recovery_refused" for e in printed)
    kinds = {e["kind"] for e in printed}
    assert {"session_started", "undone", "damage", "ability_scratched", "character_defeated", "wyrd_drawn",
            "magic_cast", "contest_decided", "challenge_modified", "points_recovered", "story_ended"} <= kinds
    assert any(e["kind"] == "wyrd_drawn" and e["ghost"] for e in printed)


def test_undo_takes_the_effects_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """After `spend bo 1` and `undo`, Bo has his point back and is not part of the roll."""
    script = tmp_path / "undo.txt"
    script.write_text("pc add Ada body=6 mind=5 soul=4\npc add Bo body=5 mind=5 soul=5\nscene\n"
                      'challenge add "Door" obstruction 6\nattempt door by ada\nspend bo 1\nundo\n', encoding="utf-8")
    save = tmp_path / "undo.wyrd"
    code, out, _ = play(script, 5, save, capsys)
    assert code == 0
    printed = [json.loads(line) for line in out.splitlines()]
    assert printed[-1] == {"seq": None, "kind": "undone", "command": "spend bo 1", "command_seq": 7}
    session = Session.resume(save)
    try:
        assert session.state.characters["Bo"].points["body"] == 5
        assert session.state.pending is not None
        assert session.state.pending.involved == ["Ada"] and session.state.pending.assigned == []
        audit = list(session.save.all_commands()) if session.save else []
        assert [(r.text, r.status) for r in audit[-2:]] == [("spend bo 1", "undone"), ("undo", "live")]
    finally:
        session.close()


VIEWS = ["help", "help cast", "pc", "pc ada", "status", "challenges", "log", "log all", "save"]


def test_view_verbs_print_nothing_with_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = ["pc add Ada body=6 mind=5 soul=4", "scene", 'challenge add "Door" obstruction 6', "attempt door"]
    plain = tmp_path / "plain.txt"
    plain.write_text("\n".join(setup) + "\n", encoding="utf-8")
    viewed = tmp_path / "viewed.txt"
    viewed.write_text("\n".join(line for s in setup for line in [s, *VIEWS]) + "\n", encoding="utf-8")
    _, without, _ = play(plain, 3, tmp_path / "a.wyrd", capsys)
    code, with_views, err = play(viewed, 3, tmp_path / "b.wyrd", capsys)
    assert code == 0 and err == ""
    assert with_views == without


@pytest.mark.parametrize("view", VIEWS)
def test_view_verbs_do_show_text_without_json(view: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    setup = "pc add Ada body=6 mind=5 soul=4\nscene\n"
    script = tmp_path / "s.txt"
    script.write_text(setup, encoding="utf-8")
    capsys.readouterr()
    assert main(["play", "--seed", "3", "--save", str(tmp_path / "1.wyrd"), "--script", str(script)]) == 0
    before = capsys.readouterr().out.splitlines()
    script.write_text(setup + view + "\n", encoding="utf-8")
    assert main(["play", "--seed", "3", "--save", str(tmp_path / "2.wyrd"), "--script", str(script)]) == 0
    after = capsys.readouterr().out.splitlines()
    assert len(after) > len(before)
    assert after[: len(before)] == [line.replace("1.wyrd", "2.wyrd") for line in before]


def test_export_from_a_golden_writes_the_journal(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = GOLDEN / "story_end.txt"
    code, _, _ = play(script, seed_of(script), home / "game.wyrd", capsys)
    assert code == 0
    journal = (home / "journal.md").read_text(encoding="utf-8")
    assert journal.startswith("# An unwritten story")
    assert "The story ends." in journal


def test_quit_stops_the_script(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = GOLDEN / "challenge_rolls.txt"
    assert script.read_text(encoding="utf-8").splitlines()[-1].startswith("pc add Cy")
    code, out, _ = play(script, seed_of(script), tmp_path / "q.wyrd", capsys)
    assert code == 0
    assert all(json.loads(line).get("name") != "Cy" for line in out.splitlines())


def events_of(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_the_same_script_twice_prints_the_same(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = GOLDEN / "magic.txt"
    _, first, _ = play(script, seed_of(script), tmp_path / "1.wyrd", capsys)
    _, second, _ = play(script, seed_of(script), tmp_path / "2.wyrd", capsys)
    _, other, _ = play(script, seed_of(script) + 1, tmp_path / "3.wyrd", capsys)
    assert events_of(first) == events_of(second)
    assert events_of(first) != events_of(other)
