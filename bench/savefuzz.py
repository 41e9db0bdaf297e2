"""Damaged saves, measured: thousands of damaged copies of a small real save through the CLI.

Each case flips a few bytes, cuts the file short or zeroes a run of it, then runs one of
`resume`, `log`, `export` and `saves` in process (``wyrd.play.cli.main.main``). A case is
handled when it exits 0 or 1 with at most one clean line on stderr and no traceback.
``python -m bench savefuzz`` runs 20,000 cases; tests/play/test_save_fuzz.py a fixed 1,000.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import tempfile
import time
from collections import Counter
from pathlib import Path

__all__ = ["COMMANDS", "damage", "judge", "make_game", "run", "run_case"]

SCRIPT = ["pc add Ada body=5 mind=5 soul=5", "scene with Ada", 'challenge add "Gate" obstruction 1',
          "attempt gate by Ada", "roll", "undo", "roll", "end scene"]
COMMANDS = ("resume", "log", "export", "saves")


def make_game(folder: Path) -> bytes:
    """The bytes of a small finished save (the -wal folded in), with an undo in it."""
    from wyrd.play.engine.session import Session

    path = folder / "source.wyrd"
    session = Session.new(path, seed=7, ruleset="abacus")
    session.teller.prose = False
    for line in SCRIPT:
        reply = session.undo() if line == "undo" else session.execute(line)
        if reply.refused is not None:
            raise RuntimeError(f"the fuzz game was refused at {line!r}")
    session.close()
    data = path.read_bytes()
    path.unlink()
    return data


def damage(data: bytes, rng: random.Random) -> bytes:
    """One damaged copy: a few bytes flipped, the file cut short, or a 512-byte run zeroed."""
    kind = rng.random()
    if kind < 0.6:
        out = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            out[rng.randrange(len(out))] ^= 1 << rng.randrange(8)
        return bytes(out)
    if kind < 0.85:
        return data[:rng.randrange(len(data))]
    out = bytearray(data)
    start = rng.randrange(len(out))
    out[start:start + 512] = bytes(len(out[start:start + 512]))
    return bytes(out)


def run_case(folder: Path, data: bytes, command: str) -> list[str]:
    """Run one command on a damaged save in ``folder``/saves; what it did wrong (none: handled)."""
    from wyrd.play.cli.main import main

    path = folder / "saves" / "g.wyrd"
    path.parent.mkdir(exist_ok=True)
    for leftover in path.parent.iterdir():
        leftover.unlink()
    path.write_bytes(data)
    args = {"resume": ["resume", str(path), "--script", os.devnull], "log": ["log", str(path), "--all"],
            "export": ["export", str(path)], "saves": ["saves"]}[command]
    try:
        code = main(args)
    except BaseException as exc:  # the very thing this looks for
        return [f"{command} raised {type(exc).__name__}: {exc}"]
    return [f"{command} exited {code}"] if code not in (0, 1) else []


def judge(command: str, out: str, err: str) -> list[str]:
    """What is wrong with what a case printed: a traceback, or more than one line of failure."""
    wrong = [f"{command}: a traceback"] if "Traceback" in out + err else []
    if err.strip() and (len(err.strip().splitlines()) != 1 or not err.startswith("wyrd: ")):
        wrong.append(f"{command}: not one line: {err[:300]!r}")
    return wrong


def run(cases: int = 20_000, seed: int = 16) -> list[str]:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        old_home = os.environ.get("WYRD_HOME")
        os.environ["WYRD_HOME"] = name
        try:
            data = make_game(folder)
            rng = random.Random(seed)
            problems: list[str] = []
            outcomes: Counter[str] = Counter()
            start = time.perf_counter()
            for case in range(cases):
                command = COMMANDS[case % len(COMMANDS)]
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    wrong = run_case(folder, damage(data, rng), command)
                wrong += judge(command, out.getvalue(), err.getvalue())
                problems += [f"case {case}: {w}" for w in wrong]
                message = err.getvalue()
                kind = ("refused: changed outside Wyrd" if "changed outside" in message else
                        "refused: damaged" if "damaged" in message else
                        "refused: other" if message.strip() else "read or resumed")
                outcomes[kind] += 1
            took = time.perf_counter() - start
        finally:
            if old_home is None:
                os.environ.pop("WYRD_HOME", None)
            else:
                os.environ["WYRD_HOME"] = old_home
    return [f"{cases} damaged copies of a {len(data)}-byte save in {took:.0f} s: {len(problems)} not handled",
            *(f"  {kind}: {n}" for kind, n in outcomes.most_common()), *problems[:20]]
