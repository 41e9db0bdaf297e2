"""The first prompt counted in instructions, which do not change with how busy or fast the machine is.

``python -m bench startup`` times the first prompt against the import floor in wall time, and on a
shared machine both move with its load: the same code was measured at floor +93 ms one hour and floor
+150 ms the next. This suite runs each start once under ``valgrind --tool=callgrind``, which counts
the instructions the process executed, and ends the process where the prompt is first drawn on the
screen (prompt-toolkit's renderer patched to exit after its first frame). The counts repeat exactly
for the same code and inputs (each process gets the same hash seed), so they show what a change
costs or saves whatever the machine does.

Counted: the floor script of :mod:`bench.startup`; the same script making one pydantic model with a
field and validating it (what any program that uses pydantic pays, and the floor script, which only
imports ``BaseModel``, does not); ``wyrd play --story hollow-fair`` in a data folder used before;
and ``wyrd resume`` of a game quit as a player quits it. Not a target: issue 21's target is in time
(``bench startup``); these are the same starts, counted. Needs valgrind (Debian: ``apt install
valgrind``); without it the suite says so and prints nothing else.
"""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
from pathlib import Path

from bench.startup import FLOOR_SCRIPT, STORY, _env, _saved_game, in_terminal

__all__ = ["count", "run"]

# Ends the process once prompt-toolkit has drawn its first frame (the prompt is then on the screen).
_AT_PROMPT = """\
import os, sys
import prompt_toolkit.renderer as _renderer
_render = _renderer.Renderer.render
def _first_frame(self, *args, **kwargs):
    _render(self, *args, **kwargs)
    sys.stdout.flush()
    os._exit(0)
_renderer.Renderer.render = _first_frame
"""

_ONE_MODEL = FLOOR_SCRIPT.replace("from pydantic import BaseModel\n", """\
from pydantic import BaseModel, Field
class One(BaseModel):
    value: int = Field(1)
One(value=2)
""")

_WYRD = """\
import sys
from wyrd.play.cli.main import main
sys.exit(main(sys.argv[1:]))
"""

_COLLECTED = re.compile(rb"Collected\s*:\s*(\d+)")


def count(path: Path, args: list[str], env: dict[str, str], *, tool: bool = True) -> int:
    """Instructions ``python path args`` executes under callgrind, run in a pseudo-terminal until it exits.

    With ``tool`` False the script runs as it is (a start that leaves what a later one reads kept), and 0 is returned.
    """
    out = path.with_suffix(".out")
    argv = [sys.executable, str(path), *args]
    if tool:
        argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *argv]
    try:
        _, seen = in_terminal(argv, env, timeout=600, cwd=path.parent)
    finally:
        out.unlink(missing_ok=True)
    if not tool:
        return 0
    found = _COLLECTED.search(seen)
    if found is None:
        raise RuntimeError(f"callgrind reported no count; the terminal showed {seen[-400:]!r}")
    return int(found.group(1))


def _script(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(_AT_PROMPT + text, encoding="utf-8")
    return path


def run() -> list[str]:
    if shutil.which("valgrind") is None:
        return ["valgrind is not installed: no instruction counts (apt install valgrind)"]
    import compileall

    import wyrd

    compileall.compile_dir(Path(wyrd.__file__).parent, quiet=1)
    with tempfile.TemporaryDirectory() as home:
        # A fixed hash seed: with Python's random one, sets and dicts of text are laid out otherwise in
        # each process and the same start counts up to 3 M instructions more or less.
        env, folder = dict(_env(home), PYTHONHASHSEED="0"), Path(home)
        floor_script, model_script = _script(folder, "floor", FLOOR_SCRIPT), _script(folder, "model", _ONE_MODEL)
        wyrd_script = _script(folder, "wyrd_start", _WYRD)
        saved = _saved_game(home)  # a game quit as a player quits it
        play = ["play", "--story", STORY, "--seed", "1", "--save", f"{home}/b.wyrd"]
        # A game played before from the same script: the story's reading and the entry points kept, as
        # they are for a player after their first game (their `wyrd` is always the same script).
        count(wyrd_script, play, env, tool=False)
        Path(f"{home}/b.wyrd").unlink()
        resumed = folder / "r.wyrd"
        shutil.copy(saved, resumed)
        got = {
            "floor": count(floor_script, [], env),
            "model": count(model_script, [], env),
            "play": count(wyrd_script, play, env),
            "resume": count(wyrd_script, ["resume", str(resumed)], env),
        }
    floor, model = got["floor"], got["model"]
    lines = [f"{'the floor script, to its prompt drawn':<50} {floor / 1e6:9,.0f} M instructions",
             f"{'  and making one pydantic model':<50} {model / 1e6:9,.0f} M  ({(model - floor) / 1e6:+,.0f} M)"]
    for name, label in (("play", f"wyrd play --story {STORY}"), ("resume", "wyrd resume FILE (a game quit)")):
        took = got[name]
        lines.append(f"{label:<50} {took / 1e6:9,.0f} M  ({took / floor:.2f}x the floor; "
                     f"{(took - floor) / 1e6:+,.0f} M, of which {(took - model) / 1e6:,.0f} M past one model)")
    return lines
