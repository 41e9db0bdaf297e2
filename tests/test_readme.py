"""The README's Quick start and the CI script must never drift apart.

CI (.ci/run) runs the Quick start commands exactly as a new player or developer would type
them, so each README command must appear in it verbatim.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```[a-z]*\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 1, "Quick start should have exactly one code block"
    return [line for line in blocks[0].splitlines() if line.strip()]


def test_quick_start_has_an_install_command_and_a_test_command() -> None:
    commands = quick_start_commands()
    assert len(commands) == 2
    assert commands[0].startswith("python3 -m venv .venv")
    assert commands[0].endswith("wyrd play")
    assert commands[1].endswith("python -m pytest")


def test_ci_runs_the_quick_start_commands_verbatim() -> None:
    script = ROOT / ".ci" / "run"
    assert os.access(script, os.X_OK), ".ci/run must be executable"
    lines = [line.strip() for line in script.read_text(encoding="utf-8").splitlines()]
    for command in quick_start_commands():
        assert any(command in line for line in lines), f".ci/run lacks: {command}"
