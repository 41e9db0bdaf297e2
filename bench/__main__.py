"""Run every benchmark and print its figures: ``python -m bench [startup|session|odds|crash|scale]``."""

from __future__ import annotations

import platform
import sys

from bench import crash, odds, session, startup

SUITES = {"startup": startup.run, "session": session.run, "odds": odds.run, "crash": crash.run,
          "scale": session.scale}


def main(argv: list[str]) -> int:
    chosen = argv or list(SUITES)
    print(f"# {platform.node()}: {platform.processor() or platform.machine()}, Python {platform.python_version()}")
    for name in chosen:
        print(f"\n## {name}")
        for line in SUITES[name]():
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
