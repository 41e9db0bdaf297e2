"""Physical dice: with `--dice typed` every roll asks for the faces (in a script, the next
line holds them), a face off the die is refused, and resume replays the typed faces."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session

SCRIPT = """pc add Ada body=5 mind=5 soul=5
scene
challenge add "Door" obstruction 4
attempt door
roll
3
wyrd
influence body
9 1 1 1 1
draw ada 1
"""


def test_typed_faces_are_used_and_replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    script = tmp_path / "typed.txt"
    script.write_text(SCRIPT, encoding="utf-8")
    save = tmp_path / "typed.wyrd"
    code = main(["play", "--story", "none", "--dice", "typed", "--seed", "1", "--save", str(save),
                 "--script", str(script), "--json"])
    assert code == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rolled = next(e for e in events if e["kind"] == "challenge_rolled")
    assert rolled["die"] == 3 and not rolled["overcome"]
    refused = [e for e in events if e["kind"] == "refused"]
    assert any("face" in e["reason"] for e in refused)  # 9 is not on a d6: the influence roll is refused
    drawn = next(e for e in events if e["kind"] == "wyrd_drawn")
    assert drawn["n"] == 1
    resumed = Session.resume(save)
    assert resumed.state.characters["Ada"].wyrd == 1
    assert resumed.state.pending is None
    resumed.close()
