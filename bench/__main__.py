"""Run every benchmark and print its figures.

``python -m bench [startup|instructions|session|odds|simulate|crash|scale|untrusted|interrupts|saves|savecheck|
savefuzz|repetition|firewall|prompts|table|longgame|longgame-quick|targets]``

``python -m bench targets`` runs the suites that hold issue 21's targets and lists each with its verdict.

``python -m bench narration --model M [--base-url U] ...`` asks a language model (``--help`` for the rest);
it runs only when named, with its model.
"""

from __future__ import annotations

import atexit
import os
import platform
import subprocess
import sys
import tempfile

from bench import (
    crash,
    firewall,
    instructions,
    interrupts,
    longgame,
    odds,
    prompts,
    repetition,
    savecheck,
    savefuzz,
    session,
    simulate,
    startup,
    table,
    targets,
    untrusted,
)
from bench.narration import main as narration

SUITES = {"startup": startup.run, "instructions": instructions.run, "session": session.run, "odds": odds.run,
          "simulate": simulate.run, "crash": crash.run, "scale": session.scale, "untrusted": untrusted.run,
          "interrupts": interrupts.run, "saves": session.saves, "savecheck": savecheck.run, "savefuzz": savefuzz.run,
          "repetition": repetition.run, "firewall": firewall.run, "prompts": prompts.run,
          "table": table.run, "longgame": longgame.run, "longgame-quick": longgame.quick,
          "targets": targets.run}


def machine() -> str:
    """The CPU model (lscpu's model name), core count, Python version and load: what the figures ran on."""
    model = platform.processor() or platform.machine()
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout
        model = next((line.split(":", 1)[1].strip() for line in lscpu.splitlines()
                      if line.startswith("Model name")), model)
    except OSError:
        pass
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return (f"{platform.node()}: {model}, {os.cpu_count()} cores, Python {platform.python_version()} "
            f"({platform.python_implementation()}), load average {load}")


# Suites with options of their own, run only when named: ``python -m bench NAME OPTIONS...``.
COMMANDS = {"narration": narration}


def main(argv: list[str]) -> int:
    # Saves a bench opens leave marks (and histories) in the data folder: a folder of the run's own
    # keeps the player's clean, unless one is named.
    if "WYRD_HOME" not in os.environ:
        home = tempfile.TemporaryDirectory(prefix="wyrd-bench-")
        os.environ["WYRD_HOME"] = home.name
        atexit.register(home.cleanup)
    if argv and argv[0] in COMMANDS:
        print(f"# {machine()}", file=sys.stderr if "--json" in argv else sys.stdout, flush=True)  # JSON alone out
        return COMMANDS[argv[0]](argv[1:])
    chosen = argv or [name for name in SUITES if name != "targets"]  # targets runs three suites again
    unknown = [name for name in chosen if name not in SUITES]
    if unknown:
        print(f"unknown suite {', '.join(unknown)}; the suites are {', '.join(SUITES)}", file=sys.stderr)
        return 2
    print(f"# {machine()}")
    for name in chosen:
        print(f"\n## {name}")
        for line in SUITES[name]():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
