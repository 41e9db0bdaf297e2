"""An empty game is made from its state model's defaults, without the model's validator (issue 21, point 2).

Pydantic takes a model's defaults unvalidated, so ``GameState()`` and ``GameState.model_construct()``
are the same state; the second does not build the whole state's validator, which a new game or a
resume does not otherwise need before its first prompt.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wyrd.play.engine.session import new_state
from wyrd.rulesets import rulesets


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_an_empty_game_is_the_state_model_s_default(ruleset: str) -> None:
    made, default = new_state(ruleset), next(r for r in rulesets() if r.id == ruleset).load().GameState()
    assert type(made) is type(default)
    assert made == default
    assert made.model_dump(mode="json") == default.model_dump(mode="json")
    assert made.model_fields_set == default.model_fields_set == set()
    assert type(made).model_validate(made.model_dump(mode="json")) == default


def test_a_new_game_and_a_resume_leave_the_state_s_validator_unbuilt_and_it_checks_the_same(tmp_path: Path) -> None:
    script = tmp_path / "script.txt"
    script.write_text("pc take all\n", encoding="utf-8")
    save = tmp_path / "g.wyrd"
    play = ["play", "--story", "hollow-fair", "--seed", "1", "--save", str(save), "--script", str(script)]
    resume = ["resume", str(save), "--script", str(tmp_path / "none.txt")]
    (tmp_path / "none.txt").write_text("", encoding="utf-8")
    code = (f"from wyrd.play.cli.main import main; assert main({play!r}) == 0; assert main({resume!r}) == 0\n"
            "import pydantic\n"
            "from wyrd.rules.abacus.state import GameState\n"
            "print(GameState.__pydantic_complete__)\n"
            "try:\n    GameState.model_validate({'characters': 3})\nexcept pydantic.ValidationError as e:\n"
            "    print(e.error_count() > 0)\n"
            "print(GameState.__pydantic_complete__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path)})
    assert done.stdout.splitlines()[-3:] == ["False", "True", "True"]
