"""What a story checker finds: a :class:`Problem` names the file, the line, the field and how bad it is.

Every story format reports through these types, so ``wyrd check`` prints the findings
of any ruleset's format the same way (``wolden/x.yaml:42: scenes[3].encounter: ...``).
:class:`Origin` keeps where each path of a file was written, so a finding about a
field can name its line.
"""

from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

__all__ = ["LINTING", "Origin", "Problem", "Severity", "Steps", "StoryError", "errors", "format_path"]

# The validation context key under which a story model leaves what does not hold together to
# the linter (which reports every fault at its line) instead of refusing at the first.
LINTING = "lint"

# A path into a story file's data: mapping keys and list indexes ("scenes", 3, "value").
Steps = tuple[str | int, ...]


class Severity(StrEnum):
    ERROR = "error"  # the story cannot be played as written
    WARNING = "warning"  # probably a mistake


class Problem(NamedTuple):
    """One thing wrong with a story file, where it is, and how bad."""

    file: str | None
    line: int | None
    column: int | None
    field: str
    message: str
    severity: Severity = Severity.ERROR

    def __str__(self) -> str:
        where = ":".join(str(p) for p in (self.file, self.line) if p is not None)
        parts = [where] if where else []
        if self.field:
            parts.append(self.field)
        note = "warning: " if self.severity == Severity.WARNING else ""
        return ": ".join([*parts, note + self.message])


class StoryError(Exception):
    """A story that cannot be used, with every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__(str(self))

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


def errors(problems: Sequence[Problem]) -> list[Problem]:
    """Only the errors (the story cannot be played as written)."""
    return [p for p in problems if p.severity == Severity.ERROR]


def format_path(path: Iterable[str | int]) -> str:
    """``("scenes", 3, "value")`` as ``scenes[3].value``."""
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


class Origin(NamedTuple):
    """Where a story was read from: the file and the (line, column) of every path in it.

    A named tuple, not a dataclass: made in a tenth of the time, before every game's first prompt.
    """

    file: str
    positions: Mapping[Steps, tuple[int, int]] = MappingProxyType({})

    def locate(self, path: Steps) -> tuple[int, int] | None:
        """The position of ``path``, or of its nearest ancestor written in the file."""
        for end in range(len(path), -1, -1):
            found = self.positions.get(path[:end])
            if found is not None:
                return found
        return None

    def problem(self, path: Steps, message: str, severity: Severity = Severity.ERROR) -> Problem:
        """A problem about ``path`` of this file, at the line where it (or its nearest ancestor) is written."""
        line, column = self.locate(path) or (None, None)
        return Problem(self.file, line, column, format_path(path), message, severity)
