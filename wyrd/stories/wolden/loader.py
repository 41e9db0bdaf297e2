"""Finding and reading Wolden scenario and cult files, and the arguments ``story`` records.

Wolden files are YAML files in a ``wolden`` folder of story content (the bundled
``stories/content/wolden/``, the player's ``<data>/stories/wolden/``, or
``--content DIR``'s ``DIR/wolden/``), read with :func:`wyrd.stories.yamlguard.safe_load`.
A scenario is checked by :class:`~wyrd.stories.wolden.scenario.Scenario`. Cult files
(``kind: cults`` and a ``cults:`` list of cult mappings) sit in the same folders.
A file that cannot be used is a :class:`ScenarioError` naming the file and the fault.
"""

from collections.abc import Iterable, Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from wyrd.rules.errors import RuleError
from wyrd.rules.wolden import Cult, create_character
from wyrd.stories.files import read_text, yaml_files
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.wolden.scenario import Scenario
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "FOLDER",
    "FileKind",
    "ScenarioError",
    "file_kind",
    "find_scenario",
    "list_scenarios",
    "load_cults",
    "scenario_args",
]

FOLDER = "wolden"
"""The sub-folder of every story folder that holds Wolden content."""


class FileKind(StrEnum):
    """The two kinds of Wolden file."""

    SCENARIO = "scenario"
    CULTS = "cults"


class ScenarioError(Exception):
    """A scenario or cult file that cannot be used; the message names the file and the fault."""


def _files(dirs: Iterable[Path]) -> list[Path]:
    found: list[Path] = []
    for folder in dirs:
        sub = folder / FOLDER
        if sub.is_dir():
            found += yaml_files(sub)
    return found


def _read(path: Path) -> dict[str, Any]:
    try:
        data = safe_load(read_text(path), source=path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise ScenarioError(f"{path}: cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise ScenarioError(f"{path}: a Wolden file holds one mapping")
    return data


def file_kind(data: Mapping[str, Any]) -> FileKind:
    """What a Wolden file holds: a cults file says ``kind: cults`` (or has a ``cults:`` list of mappings
    and no scenes, as cult files always had); anything else is a scenario."""
    if data.get("kind") == "cults":
        return FileKind.CULTS
    cults = data.get("cults")
    if "scenes" not in data and isinstance(cults, list) and cults and all(isinstance(c, dict) for c in cults):
        return FileKind.CULTS
    return FileKind.SCENARIO


def _is_scenario(data: Mapping[str, Any]) -> bool:
    return file_kind(data) == FileKind.SCENARIO


def load_cults(dirs: Iterable[Path]) -> dict[str, Cult]:
    """Every cult in the cult files of ``dirs``; where two share an id, the earlier folder's wins."""
    cults: dict[str, Cult] = {}
    for path in _files(dirs):
        data = _read(path)
        if _is_scenario(data):
            continue
        for i, entry in enumerate(data.get("cults") or []):
            try:
                cult = validated(Cult, entry)
            except ValidationError as exc:
                raise ScenarioError(f"{path}: cult {i + 1}: {_first(exc)}") from None
            cults.setdefault(cult.id, cult)
    return cults


def _first(exc: ValidationError) -> str:
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(p) for p in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])


def list_scenarios(dirs: Iterable[Path]) -> list[tuple[str, str]]:
    """The (id, title) of every scenario in ``dirs`` that reads."""
    out: list[tuple[str, str]] = []
    for path in _files(dirs):
        try:
            data = _read(path)
        except ScenarioError:
            continue
        if _is_scenario(data) and isinstance(data.get("id"), str):
            out.append((data["id"], str(data.get("title", ""))))
    return out


def find_scenario(ident: str, dirs: Iterable[Path]) -> Scenario:
    """The scenario ``ident``, checked (ScenarioError naming the file if it is unfit)."""
    folders = list(dirs)
    for path in _files(folders):
        data = _read(path)
        if not _is_scenario(data) or data.get("id") != ident:
            continue
        try:
            return validated(Scenario, data)
        except ValidationError as exc:
            raise ScenarioError(f"{path}: {_first(exc)}") from None
    known = ", ".join(i for i, _ in list_scenarios(folders)) or "none"
    raise ScenarioError(f"there is no Wolden scenario {ident!r} (known: {known})")


def scenario_args(ident: str, dirs: Iterable[Path]) -> dict[str, Any]:
    """The canonical arguments of ``story ID``: the scenario and its cults, so replay needs no file.

    Every pregenerated character is made by the creation rules here, so a scenario
    whose cast does not fit its cults is refused before play.
    """
    folders = list(dirs)
    scenario = find_scenario(ident, folders)
    known = load_cults(folders)
    missing = [c for c in scenario.cults if c not in known]
    if missing:
        raise ScenarioError(f"{scenario.id} needs the cult {missing[0]!r}, which no cult file holds")
    for pregen in scenario.pregens:
        try:
            create_character(pregen.name, known[pregen.cult], might=pregen.might, agility=pregen.agility,
                             mind=pregen.mind, graces=pregen.graces, gifts=pregen.gifts, concept=pregen.concept)
        except RuleError as exc:
            raise ScenarioError(f"{scenario.id}: {pregen.name}: {exc}") from None
    return {"id": scenario.id, "scenario": dumped(scenario),
            "cults": [dumped(known[c]) for c in scenario.cults]}
