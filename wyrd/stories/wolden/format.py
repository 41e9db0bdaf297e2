"""The Wolden story format behind the common protocol (``Ruleset.stories`` names this module).

A Wolden file is a scenario or a cults file (``kind: cults``, see
:func:`~wyrd.stories.wolden.loader.file_kind`); both sit in the ``wolden`` folder of a
story folder. Linting a scenario checks its shape, its references (each with its
path, so the finding names its line), that the cults it names are in a cults file
beside it or bundled, and that its pregenerated characters are ones the creation
rules make. Files are read as play reads them (YAML 1.1, :mod:`wyrd.stories.yamlguard`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from wyrd.rules.errors import RuleError
from wyrd.rules.wolden import Cult, create_character
from wyrd.stories.files import read_text
from wyrd.stories.formats import StoryFormat, StoryInfo, yaml_files
from wyrd.stories.loader import read_mapping, validate
from wyrd.stories.problems import LINTING, Origin, Problem, StoryError, errors
from wyrd.stories.wolden.loader import FOLDER, FileKind, file_kind
from wyrd.stories.wolden.scenario import Scenario
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = ["FORMAT", "CultFile", "CultSpec", "WoldenFile", "WoldenFormat"]

RULESET = "wolden"


class CultSpec(Cult):
    """A cult as a cults file writes it: the rules' :class:`~wyrd.rules.wolden.Cult`, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class CultFile(BaseModel):
    """A file of cults (``kind: cults``): the cults scenarios name, with their downtime tables."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ruleset: Literal["wolden"] = "wolden"
    kind: Literal[FileKind.CULTS] = FileKind.CULTS
    cults: list[CultSpec] = Field(min_length=1)


WoldenFile = Scenario | CultFile


def _cults_beside(path: Path, bundled: Path) -> dict[str, Cult]:
    """The cults a scenario at ``path`` may name: from the cults files beside it, then the bundled ones.

    A cults file that does not load offers nothing here; it is linted on its own.
    """
    found: dict[str, Cult] = {}
    for file in [*yaml_files(path.parent), *yaml_files(bundled / FOLDER)]:
        try:
            data = safe_load(read_text(file), source=file)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            continue
        if not isinstance(data, dict) or file_kind(data) != FileKind.CULTS:
            continue
        for entry in data.get("cults") or []:
            try:
                cult = Cult.model_validate(entry)
            except ValidationError:
                continue
            found.setdefault(cult.id, cult)
    return found


class WoldenFormat(StoryFormat[WoldenFile]):
    """Wolden scenarios (encounters, scenes, an ending) and cults files."""

    ruleset = RULESET
    folder = FOLDER

    def _read(self, path: str | Path) -> tuple[WoldenFile, Origin]:
        data, positions = read_mapping(path, "a Wolden file", yaml11=True)
        origin = Origin(str(path), positions)
        if file_kind(data) == FileKind.CULTS:
            return validate(CultFile, path, data, positions), origin
        return validate(Scenario, path, data, positions, context={LINTING: True}), origin

    def load(self, path: str | Path) -> WoldenFile:
        found, origin = self._read(path)
        problems = errors(self._problems(found, origin, Path(path)))
        if problems:
            raise StoryError(problems)
        return found

    def lint(self, path: str | Path) -> list[Problem]:
        try:
            found, origin = self._read(path)
        except StoryError as exc:
            return list(exc.problems)
        return self._problems(found, origin, Path(path))

    def _problems(self, found: WoldenFile, origin: Origin, path: Path) -> list[Problem]:
        if isinstance(found, CultFile):
            return _lint_cults(found, origin)
        problems = [origin.problem(where, message) for where, message in found.faults()]
        cults = _cults_beside(path, self.bundled)
        for i, ident in enumerate(found.cults):
            if ident not in cults:
                problems.append(origin.problem(("cults", i), f"no cults file beside it or bundled holds {ident!r}"))
        for i, pregen in enumerate(found.pregens):
            if pregen.cult not in cults:
                continue
            try:
                create_character(pregen.name, cults[pregen.cult], might=pregen.might, agility=pregen.agility,
                                 mind=pregen.mind, graces=pregen.graces, gifts=pregen.gifts, concept=pregen.concept)
            except RuleError as exc:
                problems.append(origin.problem(("pregens", i), f"{pregen.name}: {exc}"))
        return sorted(problems, key=lambda p: (p.line or 0, p.column or 0, p.field))

    def json_schema(self) -> dict[str, Any]:
        schema = TypeAdapter(WoldenFile).json_schema()
        return {"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "A Wolden scenario or cults file",
                **schema}

    def info(self, path: Path, folder: Path) -> StoryInfo | None:
        try:
            data = safe_load(read_text(path), source=path)
        except (OSError, UnicodeDecodeError, yaml.YAMLError):
            data = None  # listed below, with the loader's problems
        if isinstance(data, dict) and file_kind(data) == FileKind.CULTS:
            return None
        try:
            found = self.load(path)
        except StoryError as exc:
            return StoryInfo(id=path.stem, title="", path=path, folder=folder, ruleset=RULESET,
                             problems=tuple(exc.problems))
        assert isinstance(found, Scenario)
        return StoryInfo(id=found.id, title=found.title, path=path, folder=folder, ruleset=RULESET,
                         premise=found.premise)


def _lint_cults(found: CultFile, origin: Origin) -> list[Problem]:
    seen: set[str] = set()
    problems = []
    for i, cult in enumerate(found.cults):
        if cult.id in seen:
            problems.append(origin.problem(("cults", i, "id"), f"more than one cult has the id {cult.id!r}"))
        seen.add(cult.id)
    return problems


FORMAT = WoldenFormat()
