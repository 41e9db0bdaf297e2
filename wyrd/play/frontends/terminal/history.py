"""The lines typed at a prompt, kept between games: the REPL's and a seat's at a shared table.

Apart from the REPL's own module so that ``wyrd join`` reads it without the console, the
session and the rules the REPL imports.
"""

from __future__ import annotations

from prompt_toolkit.history import FileHistory, History, InMemoryHistory

from wyrd.play.engine.paths import history_file

__all__ = ["line_history"]


def line_history() -> History:
    """The history file in the data folder, or one in memory when that cannot be written."""
    try:
        path = history_file()
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("a", encoding="utf-8"):
            pass  # fail now, not when the first line is stored in the middle of a prompt
        return FileHistory(str(path))
    except (OSError, RuntimeError, ValueError):
        return InMemoryHistory()
