"""A story format whose files are one pydantic model: load, lint, schema and list, written once.

The Heroes of the Fall and Thaeborn formats are such: a scenario model that checks its
shape, and :meth:`ModelFormat.faults` saying what does not hold together, each with its
path in the file. The model skips those checks under the validation context
``{LINTING: True}`` (play reads with no context and stops at the first), so the linter
reports every fault at its line. Files are read as play reads them (YAML 1.1, :mod:`wyrd.stories.yamlguard`).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from wyrd.stories.formats import StoryFormat, StoryInfo
from wyrd.stories.loader import read_mapping, validate
from wyrd.stories.problems import LINTING, Origin, Problem, Steps, StoryError

__all__ = ["LINTING", "ModelFormat"]


M = TypeVar("M", bound=BaseModel)


class ModelFormat(StoryFormat[M]):
    """A format of one scenario model, :attr:`model`, called :attr:`what` in messages."""

    model: type[M]
    what: str = "a scenario"

    @abstractmethod
    def faults(self, found: M) -> Iterable[tuple[Steps, str]]:
        """What does not hold together in ``found``, each with its path in the file."""

    @abstractmethod
    def entry(self, found: M, path: Path, folder: Path) -> StoryInfo:
        """``found`` as a listed story."""

    def _read(self, path: str | Path) -> tuple[M, Origin]:
        data, positions = read_mapping(path, self.what, yaml11=True)
        found = validate(self.model, path, data, positions, context={LINTING: True})
        return found, Origin(str(path), positions)

    def _faults(self, found: M, origin: Origin) -> list[Problem]:
        return [origin.problem(where, message) for where, message in self.faults(found)]

    def load(self, path: str | Path) -> M:
        found, origin = self._read(path)
        problems = self._faults(found, origin)
        if problems:
            raise StoryError(problems)
        return found

    def lint(self, path: str | Path) -> list[Problem]:
        try:
            found, origin = self._read(path)
        except StoryError as exc:
            return list(exc.problems)
        return sorted(self._faults(found, origin), key=lambda p: (p.line or 0, p.column or 0, p.field))

    def json_schema(self) -> dict[str, Any]:
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", **self.model.model_json_schema()}

    def info(self, path: Path, folder: Path) -> StoryInfo | None:
        try:
            found = self.load(path)
        except StoryError as exc:
            return StoryInfo(id=path.stem, title="", path=path, folder=folder, ruleset=self.ruleset,
                             problems=tuple(exc.problems))
        return self.entry(found, path, folder)
