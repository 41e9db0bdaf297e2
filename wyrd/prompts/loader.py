"""Prompt templates for the LLM narrator: YAML files in this folder, validated on load.

One file per kind of moment, plus ``system.yaml``. A moment file has::

    id: challenge_outcome            # stable id, the file's stem
    description: ...                 # what it is for
    moments: [challenge_outcome, falter]   # the moment kinds it tells ([] for the generic one)
    template: |-                     # the human message; {placeholders} from PLACEHOLDERS only
      ...

``system.yaml`` has ``id``, ``description`` and ``text`` (taken literally, no placeholders). The
generic prompt, ``moment``, tells every moment that no other file claims.

The files of this folder are the shared prompts: the system prompt, the generic one and
those of the oracle's own moments (:class:`~wyrd.oracle.narrators.base.MomentKind`). A
ruleset's own moments (``lots/check``, ``wolden/fight/struck`` ...) are told by the files
of the folder its registry entry names (:attr:`wyrd.rulesets.Ruleset.prompts`, a package
resource such as ``wyrd.prompts:lots``), the same format, one file for a kind of moment or
a few close ones; a file there is the prompt ``<ruleset id>/<file name>`` (``lots/casts``).
So a ruleset installed beside Wyrd brings its prompts with it.

Everything here is plain Python (pydantic and yaml); :func:`chat_prompt` alone
imports langchain-core, and only when called, because importing it costs more
than a second and most games never use an LLM.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from wyrd.rulesets import resource, rulesets
from wyrd.stories.files import read_text
from wyrd.stories.yamlguard import safe_load

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

    from langchain_core.prompts import ChatPromptTemplate

__all__ = [
    "GENERIC",
    "PLACEHOLDERS",
    "PROMPTS_DIR",
    "PromptError",
    "PromptSet",
    "PromptSpec",
    "chat_prompt",
    "load_prompts",
    "prompt_set",
    "render",
    "ruleset_prompt_folders",
]

PROMPTS_DIR = Path(__file__).resolve().parent
GENERIC = "moment"
# What a template may ask for; the LLM narrator fills every one of them.
PLACEHOLDERS = frozenset({"facts", "settled", "summary", "tone", "moment", "detail", "subject"})


class PromptError(ValueError):
    """A prompt file that cannot be used; the message names the file and the field."""


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


class PromptSpec(BaseModel):
    """One moment's prompt template, as read from its file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^(?:[a-z][a-z0-9_]*/)?[a-z][a-z0-9_]*$")
    description: str
    moments: tuple[str, ...] = ()
    template: str

    @field_validator("template")
    @classmethod
    def _known_placeholders(cls, text: str) -> str:
        used = _placeholders(text)
        unknown = used - PLACEHOLDERS
        if unknown:
            raise ValueError(f"unknown placeholders {sorted(unknown)}; known: {sorted(PLACEHOLDERS)}")
        if "facts" not in used:
            raise ValueError("the template must include {facts}")
        return text


class SystemSpec(BaseModel):
    """The system prompt, the same for every moment."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    description: str
    text: str  # taken literally: braces are just braces


class PromptSet(BaseModel):
    """The system prompt and every moment's template, by id."""

    model_config = ConfigDict(frozen=True)

    system: SystemSpec
    prompts: dict[str, PromptSpec]

    def for_moment(self, moment: str) -> PromptSpec:
        """The template that tells ``moment`` (a :class:`~wyrd.oracle.narrators.base.MomentKind` value)."""
        for spec in self.prompts.values():
            if moment in spec.moments:
                return spec
        return self.prompts[GENERIC]


def _read(path: Path | Traversable, ident: str | None = None) -> dict[str, Any]:
    try:
        # A folder given as a Path may be a player's: read bounded, from a regular file only.
        data = safe_load(read_text(path) if isinstance(path, Path) else path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
        raise PromptError(f"{path}: cannot read: {exc}") from exc
    if not isinstance(data, dict):
        raise PromptError(f"{path}: expected a mapping with id, description and template")
    ident = ident or Path(path.name).stem
    if data.get("id") != ident:
        raise PromptError(f"{path}: id: {data.get('id')!r} should be the file's name, {ident!r}")
    return data


def _problem(path: Path | Traversable, exc: ValidationError) -> PromptError:
    lines = [f"{path}: {'.'.join(str(p) for p in err['loc']) or '(file)'}: {err['msg']}" for err in exc.errors()]
    return PromptError("\n".join(lines))


def ruleset_prompt_folders() -> dict[str, Path | Traversable]:
    """Each registered ruleset's own prompt folder (:attr:`~wyrd.rulesets.Ruleset.prompts`), by ruleset id.

    Raises:
        PromptError: a ruleset names a folder that is not there (or not ``package:path``).
    """
    folders: dict[str, Path | Traversable] = {}
    for ruleset in rulesets():
        if ruleset.prompts is None:
            continue
        try:
            found = resource(ruleset.prompts).locate()
        except (ValueError, ModuleNotFoundError) as exc:
            raise PromptError(f"ruleset {ruleset.id}: prompts: {exc}") from exc
        if not found.is_dir():
            raise PromptError(f"ruleset {ruleset.id}: prompts: {ruleset.prompts!r} is not a folder")
        folders[ruleset.id] = found
    return folders


def load_prompts(folder: Path | None = None,
                 ruleset_folders: Mapping[str, Path | Traversable] | None = None) -> PromptSet:
    """Read and check the shared prompt files of ``folder`` and each ruleset's own folder.

    Args:
        folder: the shared prompts (this package's folder by default).
        ruleset_folders: each ruleset's own prompt folder by ruleset id (by default those the
            registry names, :func:`ruleset_prompt_folders`); ``fight.yaml`` in the folder
            of ``lots`` is the prompt ``lots/fight``.

    Raises:
        PromptError: a file that is missing, malformed, claims a moment another file
            claims, or uses an unknown placeholder; the message names the file.
    """
    folder = folder or PROMPTS_DIR
    own = ruleset_prompt_folders() if ruleset_folders is None else ruleset_folders
    system_path = folder / "system.yaml"
    if not system_path.is_file():
        raise PromptError(f"{system_path}: missing: the system prompt is required")
    try:
        system = SystemSpec.model_validate(_read(system_path))
    except ValidationError as exc:
        raise _problem(system_path, exc) from exc
    # The shared files (by name), then each ruleset's (by ruleset id, then by name).
    files: list[tuple[Path | Traversable, str]] = [(p, p.stem) for p in sorted(folder.glob("*.yaml"))]
    for ident in sorted(own):
        mine = sorted((p for p in own[ident].iterdir() if p.name.endswith(".yaml")), key=lambda p: p.name)
        files += [(p, f"{ident}/{p.name.removesuffix('.yaml')}") for p in mine]
    prompts: dict[str, PromptSpec] = {}
    claimed: dict[str, Path | Traversable] = {}
    for path, ident in files:
        if path == system_path:
            continue
        try:
            spec = PromptSpec.model_validate(_read(path, ident))
        except ValidationError as exc:
            raise _problem(path, exc) from exc
        for moment in spec.moments:
            if moment in claimed:
                raise PromptError(f"{path}: moments: {moment!r} is already told by {claimed[moment]}")
            claimed[moment] = path
        prompts[spec.id] = spec
    if GENERIC not in prompts:
        raise PromptError(f"{folder / (GENERIC + '.yaml')}: missing: the generic prompt is required")
    return PromptSet(system=system, prompts=prompts)


@cache
def prompt_set() -> PromptSet:
    """The bundled prompts and every registered ruleset's, read once."""
    return load_prompts()


def render(spec: PromptSpec, values: dict[str, str], prompts: PromptSet | None = None) -> tuple[str, str]:
    """The system and human messages for ``spec`` as plain text (no langchain; for logs and tests)."""
    prompts = prompts or prompt_set()
    return prompts.system.text, spec.template.format(**{k: values.get(k, "") for k in PLACEHOLDERS})


def chat_prompt(spec: PromptSpec, prompts: PromptSet | None = None) -> ChatPromptTemplate:
    """``spec`` as a langchain :class:`ChatPromptTemplate` (system message, then the moment's template).

    The only function here that imports langchain-core.
    """
    from langchain_core.prompts import ChatPromptTemplate

    prompts = prompts or prompt_set()
    # The system text has no placeholders; escape any braces so the f-string template reads it verbatim.
    system = prompts.system.text.replace("{", "{{").replace("}", "}}")
    return ChatPromptTemplate.from_messages([("system", system), ("human", spec.template)])
