"""How long until the player can type: ``wyrd play`` to its first prompt, in a real terminal.

Each figure is the median of several runs, printed beside a bare ``python -c pass``
measured in the same run, so the machine's own speed is visible.
"""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

__all__ = ["PROMPT", "first_prompt", "run", "wall"]

# Prefer the wyrd beside this Python (the project's venv) to whatever else is on PATH.
_BESIDE = Path(sys.executable).with_name("wyrd")
WYRD = str(_BESIDE) if _BESIDE.exists() else shutil.which("wyrd") or "wyrd"
# The prompt is "wyrd> ", but prompt-toolkit draws it with colour codes and moves the cursor
# over the trailing space instead of printing it: look for the text with escapes taken out.
PROMPT = b"wyrd>"
ESCAPES = re.compile(rb"\x1b\[[0-9;?]*[ -/]*[@-~]")


def wall(argv: list[str], runs: int = 7) -> float:
    """Median wall time of a command that runs to its end, in seconds."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def first_prompt(runs: int = 7, marker: bytes = PROMPT) -> float:
    """Median time from launching ``wyrd play`` in a pseudo-terminal to its prompt."""
    times = []
    for i in range(runs):
        with tempfile.TemporaryDirectory() as home:
            env = dict(os.environ, WYRD_HOME=home, TERM="xterm-256color")
            main, child = pty.openpty()
            start = time.perf_counter()
            proc = subprocess.Popen([WYRD, "play", "--seed", str(i), "--save", f"{home}/b.wyrd"],
                                    stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
            os.close(child)
            seen = b""
            deadline = start + 20
            while marker not in ESCAPES.sub(b"", seen) and time.perf_counter() < deadline:
                ready, _, _ = select.select([main], [], [], 0.05)
                if ready:
                    try:
                        seen += os.read(main, 4096)
                    except OSError:
                        break
                    # Answer a cursor-position request, as a terminal would.
                    if b"\x1b[6n" in seen:
                        os.write(main, b"\x1b[1;1R")
                        seen = seen.replace(b"\x1b[6n", b"")
            times.append(time.perf_counter() - start)
            proc.kill()
            proc.wait()
            os.close(main)
            if marker not in ESCAPES.sub(b"", seen):
                raise RuntimeError(f"no prompt seen; the terminal showed {seen[-300:]!r}")
    return statistics.median(times)


def run() -> list[str]:
    bare = wall([sys.executable, "-c", "pass"])
    version = wall([WYRD, "--version"])
    prompt = first_prompt()
    return [
        f"bare python -c pass        {bare * 1000:7.1f} ms",
        f"wyrd --version             {version * 1000:7.1f} ms  (+{(version - bare) * 1000:.1f} ms over bare)",
        f"wyrd play to first prompt  {prompt * 1000:7.1f} ms  (+{(prompt - bare) * 1000:.1f} ms over bare;"
        " target +300 ms)",
    ]
