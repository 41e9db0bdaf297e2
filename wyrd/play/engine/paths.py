"""Where Wyrd keeps a player's files: saves, history, their own stories and tables.

The platform's user data folder (platformdirs), overridable with WYRD_HOME so
tests and portable installs keep everything in one place.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

__all__ = ["cache_dir", "data_dir", "history_file", "list_saves", "new_save_path", "newest_save", "saves_dir"]

SAVE_SUFFIX = ".wyrd"


def data_dir() -> Path:
    home = os.environ.get("WYRD_HOME")
    if home:
        return Path(home)
    from platformdirs import user_data_path

    return user_data_path("wyrd", appauthor=False)


def cache_dir() -> Path:
    """What Wyrd keeps to start sooner and can always make again (the bundled tables' check)."""
    return data_dir() / "cache"


def saves_dir() -> Path:
    return data_dir() / "saves"


def history_file() -> Path:
    return data_dir() / "history"


def new_save_path(seed: int) -> Path:
    folder = saves_dir()
    folder.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-{seed}{SAVE_SUFFIX}"
    n = 2
    while path.exists():
        path = folder / f"{stamp}-{seed}-{n}{SAVE_SUFFIX}"
        n += 1
    return path


def list_saves() -> list[Path]:
    """The saves in the data folder, oldest first: whole saves only.

    A save being built (or left by a kill while it was) has a hidden ``.NAME.wyrd.part-PID``
    name and is never listed; neither is anything named ``*.wyrd`` whose first bytes are not a
    Wyrd save's (checked cheaply, without SQLite), so ``wyrd resume`` never picks one.
    """
    from wyrd.play.engine.saveplace import is_save_file

    folder = saves_dir()
    if not folder.is_dir():
        return []
    found: list[tuple[float, Path]] = []
    for path in folder.glob(f"*{SAVE_SUFFIX}"):
        if path.name.startswith(".") or not is_save_file(path):
            continue
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:  # gone meanwhile
            continue
    return [p for _, p in sorted(found)]


def newest_save() -> Path | None:
    saves = list_saves()
    return saves[-1] if saves else None
