"""One story format per ruleset, behind one protocol, found through the registry.

Each ruleset that has stories names its format in the registry (``Ruleset.stories``:
a module with ``FORMAT``, a :class:`StoryFormat`), so this module finds a format by
ruleset id and never names one. A format loads a file into its own typed story,
lints it into :class:`~wyrd.stories.problems.Problem` findings (file, line, field),
gives the JSON Schema of its files for editors, and lists its stories.

Which format reads a file (``wyrd check``, ``wyrd play --story``), decided here only:

1. the ruleset the file names (``ruleset: wolden``);
2. else the ruleset whose folder the file sits in (``wolden/``, ``feat/``, ``lots/``:
   each format's :attr:`StoryFormat.folder`, where play looks for its stories);
3. else the default ruleset, :func:`default_ruleset`: the one the registry marks as the
   default (the Wyrd Abacus among the bundled four, whose story files have never had to
   name their ruleset).
"""

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Generic, NamedTuple, TypeVar

from wyrd.rulesets import Ruleset, find_ruleset, rulesets
from wyrd.stories import BUNDLED
from wyrd.stories import files as _files
from wyrd.stories.problems import Problem
from wyrd.stories.yamlguard import safe_load, yaml

__all__ = [
    "BUNDLED",
    "NoStoryFormat",
    "StoryFormat",
    "StoryInfo",
    "default_ruleset",
    "discover",
    "format_for",
    "formats",
    "ruleset_named",
    "ruleset_of",
    "story_files",
    "story_ruleset",
    "yaml_files",
]

"""The story folder of the bundled stories (each ruleset's in its :attr:`StoryFormat.folder`)."""

S = TypeVar("S")


class NoStoryFormat(LookupError):
    """The ruleset has no story format."""


class StoryInfo(NamedTuple):
    """A story found on disk: enough to list it; ``problems`` if it would not load."""

    id: str
    title: str
    path: Path
    folder: Path
    ruleset: str = ""
    premise: str = ""
    freeform: bool = False
    players: tuple[int, int] | None = None  # None: the story does not say
    problems: tuple[Problem, ...] = ()

    @property
    def ok(self) -> bool:
        return not self.problems


def yaml_files(folder: Path) -> list[Path]:
    """The ``*.yaml`` and ``*.yml`` files in ``folder`` (not below it), sorted: regular files only, as
    :func:`wyrd.stories.files.list_yaml` reads a player's folder (no FIFO, no symlink out of it)."""
    if not folder.is_dir():
        return []
    return _files.yaml_files(folder)


def story_files(folder: str | Path) -> list[Path]:
    """Story files at the top of ``folder``: ``*.yaml``/``*.yml`` in it, and ``*/story.yaml`` (one folder a story;
    a real folder, not a symlink to one)."""
    root = Path(folder)
    if not root.is_dir():
        return []
    files = yaml_files(root)
    for sub in _files.subfolders(root):
        files += [p for p in (sub / "story.yaml", sub / "story.yml") if _files.regular_file(p, root) is None]
    return sorted(files)


class StoryFormat(ABC, Generic[S]):
    """The story format of one ruleset: load, lint, schema and list its files.

    A subclass sets :attr:`ruleset` and :attr:`folder` and writes the four abstract
    methods; its module names an instance ``FORMAT``, and the ruleset's registry
    entry names that module (``stories=...``).
    """

    #: the id of the ruleset whose stories these are
    ruleset: str
    #: the sub-folder of a story folder that holds this format's files ("": the story folder itself)
    folder: str
    #: the story folder whose :attr:`folder` holds the bundled stories
    bundled: Path = BUNDLED

    @abstractmethod
    def load(self, path: str | Path) -> S:
        """One story file that can be played as written, typed; else a
        :class:`~wyrd.stories.problems.StoryError` with every error found (file, line, field)."""

    @abstractmethod
    def lint(self, path: str | Path) -> list[Problem]:
        """Everything wrong with the file, errors and warnings, in file order (empty: clean)."""

    @abstractmethod
    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of this format's files, for editors."""

    @abstractmethod
    def info(self, path: Path, folder: Path) -> StoryInfo | None:
        """The file as a listed story (with its problems if it does not load); None if it holds no story."""

    def _here(self, root: Path) -> list[Path]:
        return story_files(root) if not self.folder else yaml_files(root / self.folder)

    def _roots(self, dirs: Iterable[Path]) -> list[Path]:
        """The story folders ``dirs`` and then the bundled one, each once."""
        roots: dict[Path, Path] = {}
        for root in [*dirs, self.bundled]:
            roots.setdefault(root.resolve(), root)
        return list(roots.values())

    def files(self, dirs: Iterable[Path] = ()) -> list[Path]:
        """This format's files in the story folders ``dirs``, then in the bundled one, folder by folder."""
        return [path for root in self._roots(dirs) for path in self._here(root)]

    def stories(self, dirs: Iterable[Path] = ()) -> list[StoryInfo]:
        """Every story of this format in ``dirs``, then the bundled ones (a file that does not load: with its
        problems; one that says it is another ruleset's is left out)."""
        found: list[StoryInfo] = []
        for root in self._roots(dirs):
            for path in self._here(root):
                info = self.info(path, root)
                if info is not None and not (info.problems and _names_another(path, self.ruleset)):
                    found.append(info)
        return found


def _names_another(path: Path, ruleset: str) -> bool:
    """Whether the file says it belongs to another ruleset (so a format listing its folder leaves it out)."""
    named = ruleset_named(_read(path))
    return named is not None and named != ruleset


def _read(path: Path) -> Any:
    """The data of a YAML file as play reads it, or None if it does not read."""
    try:
        return safe_load(_files.read_text(path), source=path)
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None


# The words YAML 1.1 reads as booleans and the story loader's YAML 1.2 reads as text (true and false are
# booleans in both).
_YAML11_ONLY_BOOLEANS = frozenset({"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"})


def _read_kept(path: Path) -> Any:
    """:func:`_read`'s data of a file at the top of a story folder, read the way the format that reads it
    with its lines does (:func:`wyrd.stories.yamlread.read_yaml`), that reading kept for that format.

    Starting a game of such a story then parses its file once. The ruleset and the id are all that
    is looked at: where the two readings could tell them apart (a word YAML 1.1 reads as a boolean)
    or the stricter reading refuses the file, it is read as :func:`_read` reads it.
    """
    from wyrd.stories.problems import StoryError
    from wyrd.stories.yamlread import read_yaml

    try:
        data, _ = read_yaml(path, keep=True)
    except StoryError:
        return _read(path)
    if isinstance(data, Mapping) and any(isinstance(data.get(key), str) and data[key] in _YAML11_ONLY_BOOLEANS
                                         for key in ("id", "ruleset")):
        return _read(path)
    return data


# -- finding formats through the registry ---------------------------------------------


def _format_of(entry: Ruleset) -> StoryFormat[Any]:
    if entry.stories is None:
        raise NoStoryFormat(f"the ruleset {entry.id!r} ({entry.name}) has no story format")
    found = importlib.import_module(entry.stories).FORMAT
    if not isinstance(found, StoryFormat):
        raise TypeError(f"{entry.stories}.FORMAT is {found!r}, not a StoryFormat")
    return found


def format_for(ruleset: str) -> StoryFormat[Any]:
    """The story format of ``ruleset`` (UnknownRuleset, or NoStoryFormat if it has none)."""
    return _format_of(find_ruleset(ruleset))


def formats() -> list[StoryFormat[Any]]:
    """The story format of every ruleset that has one, in registry order."""
    return [_format_of(r) for r in rulesets() if r.stories is not None]


def default_ruleset() -> str:
    """The ruleset of a story file that names none and sits in no ruleset's folder; ``wyrd schema``'s
    default: the registry's default (:func:`wyrd.rulesets.default_ruleset`), by id."""
    from wyrd.rulesets import default_ruleset as registry_default

    return registry_default().id


def ruleset_named(data: Any) -> str | None:
    """The ruleset a file's data names at its top (``ruleset: ID``), if it names one."""
    if isinstance(data, Mapping):
        named = data.get("ruleset")
        if isinstance(named, str) and named:
            return named
    return None


def ruleset_of(path: Path, data: Any) -> str:
    """The ruleset whose format reads ``path`` (its data already read): see the module's docstring."""
    named = ruleset_named(data)
    if named is not None:
        return named
    for found in formats():
        if found.folder and path.parent.name == found.folder:
            return found.ruleset
    return default_ruleset()


def discover(dirs: Iterable[Path]) -> list[StoryInfo]:
    """Every story of every ruleset in the story folders ``dirs`` and the bundled ones, ruleset by ruleset."""
    folders = [Path(d) for d in dirs]
    return [info for found in formats() for info in found.stories(folders)]


def story_ruleset(ident: str, dirs: Iterable[Path]) -> str | None:
    """The ruleset of the story ``ident`` in ``dirs`` or the bundled stories (None: there is no such story).

    A file named after the story (``ID.yaml``, ``ID/story.yaml``, ``RULESET/ID.yaml``)
    is read alone, so starting a game parses one file and imports no format; other
    stories are found by listing every format's.
    """
    folders = [Path(d) for d in dirs] + [BUNDLED]
    if "/" not in ident and ident not in (".", ".."):
        for root in folders:
            subs = _files.subfolders(root) if root.is_dir() else []
            top = (f"{ident}.yaml", f"{ident}.yml", f"{ident}/story.yaml", f"{ident}/story.yml")
            for name in (*top, *(f"{sub.name}/{ident}{ext}" for sub in subs for ext in (".yaml", ".yml"))):
                candidate = root / name
                if _files.regular_file(candidate, root) is None:
                    data = _read_kept(candidate) if name in top else _read(candidate)
                    if isinstance(data, Mapping) and data.get("id") == ident:
                        return ruleset_of(candidate, data)
    for info in discover(folders):
        if info.id == ident:
            return info.ruleset
    return None

