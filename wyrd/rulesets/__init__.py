"""The registry of rulesets: each one described once, found by id, added by entry points.

A :class:`Ruleset` says where every part of a ruleset lives, by module name, so
finding one imports nothing but its description (python-chess finds its variants
the same way)::

    >>> find_ruleset("abacus").name
    'Wyrd Abacus'

Every ruleset, the four bundled ones included, comes in through the
``wyrd.rulesets`` entry-point group: an entry point names a :class:`Ruleset`.
A package installed beside Wyrd adds a fifth ruleset by declaring one, with no
edit to Wyrd (tests/test_fifth_ruleset.py builds such a package)::

    [project.entry-points."wyrd.rulesets"]
    tally = "wyrd_tally:RULESET"

Whatever asks which rulesets there are (the ``--ruleset``
choices, the kinds of ``wyrd odds``, the default game) asks here; no other
list of rulesets exists.

This module imports only the standard library (a description is plain data,
not a validated model), so every layer may read it, and the ``wyrd`` command
may read it before it has loaded pydantic.
"""

from __future__ import annotations

import importlib
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

__all__ = [
    "ENTRY_POINTS",
    "Resource",
    "Ruleset",
    "RulesetWarning",
    "UnknownRuleset",
    "default_ruleset",
    "find_ruleset",
    "register",
    "resource",
    "rulesets",
]

ENTRY_POINTS = "wyrd.rulesets"


class UnknownRuleset(LookupError):
    """No ruleset has this id."""


class RulesetWarning(UserWarning):
    """An installed package declares a ruleset that cannot be loaded; it is left out."""


class Ruleset(NamedTuple):
    """One ruleset, described once: its id and name, the text it follows, and where its parts live.

    Every part is named by module (``package.module`` or ``package.module:attribute``) and
    imported only when it is first used (see :meth:`part`).
    """

    id: str
    name: str
    # the rule text it follows (a file of ../shared/seeds/) or another source
    seed: str
    # the pure rules package: its GameState, actions and events
    rules: str
    # the play kit: verbs, story following, hints, texts, narration (a module with ``KIT``)
    kit: str
    # the module that adds this ruleset's kinds to `wyrd odds`: it has ``add(kinds)``, where
    # ``kinds`` is the odds command's argparse subparsers (None: no odds command)
    odds: str | None = None
    # its own narration tables: table files named as package resources, ``package:path``
    # (``"wyrd.oracle:tables/lots.yaml"``); the oracle loads them beside the tables every
    # ruleset shares (see wyrd.oracle.tables.bundled_tables)
    tables: tuple[str, ...] = ()
    # the folder of its own prompt templates for LLM narration, as a package resource
    # (``"wyrd.prompts:lots"``); a file ``fight.yaml`` there is the prompt ``<id>/fight``
    # (see wyrd.prompts.loader.load_prompts). None: only the shared prompts
    prompts: str | None = None
    # the ruleset a game is played by when none is chosen (see default_ruleset)
    default: bool = False
    # the story format: a module with ``FORMAT``, a wyrd.stories.formats.StoryFormat (None: no stories)
    stories: str | None = None
    # the simulator `wyrd simulate` runs its stories with (``module:attribute``, a wyrd.sim Simulator)
    policy: str | None = None

    def load(self) -> ModuleType:
        """Import the rules package."""
        return importlib.import_module(self.rules)

    def part(self, name: str) -> Any:
        """Import one of this ruleset's parts, ``module`` or ``module:attribute``.

        Raises:
            LookupError: The ruleset has no such part.
        """
        target: str | None = getattr(self, name)
        if not target:
            raise LookupError(f"the ruleset {self.id!r} has no {name}")
        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded


class Resource(NamedTuple):
    """A file or folder inside an installed package, named ``package:path`` in a :class:`Ruleset`."""

    package: str
    path: str

    @property
    def label(self) -> str:
        """How messages name it: the path inside the installed packages (``wyrd/oracle/tables/lots.yaml``)."""
        return "/".join([*self.package.split("."), *self.path.split("/")])

    def locate(self) -> Traversable:
        """The file or folder itself (importing the package, not reading anything).

        Raises:
            ModuleNotFoundError: The package is not installed.
        """
        from importlib import resources  # here, not at the top: describing a ruleset reads no files

        found = resources.files(self.package)
        for part in self.path.split("/"):
            found = found.joinpath(part)
        return found


def resource(name: str) -> Resource:
    """``package:path`` as a :class:`Resource` (``wyrd.prompts:lots``, ``wyrd_tally:tables.yaml``).

    Raises:
        ValueError: The name is not ``package:path``.
    """
    package, colon, path = name.partition(":")
    if not colon or not package or not path.strip("/"):
        raise ValueError(f"{name!r} should name a package resource as package:path")
    return Resource(package, path.strip("/"))


_REGISTRY: dict[str, Ruleset] = {}
_SCANNED = False


def register(ruleset: Ruleset) -> Ruleset:
    """Add a ruleset by hand (tests do; installed packages use the entry-point group)."""
    _REGISTRY[ruleset.id] = ruleset
    return ruleset


def _scan() -> None:
    global _SCANNED
    if _SCANNED:
        return
    _SCANNED = True
    # Imported here, at the first question: `wyrd --version` reads no package's metadata. What
    # the packages declare is kept between starts where the command keeps its readings.
    from wyrd.installed import declared

    for point in declared(ENTRY_POINTS):
        # Another package's broken declaration must not take every ruleset (and the command) down with it.
        try:
            found = point.load()
        except Exception as exc:
            warnings.warn(f"the ruleset {point.name!r} ({point.value}) cannot be loaded, so it is left out: "
                          f"{type(exc).__name__}: {exc}", RulesetWarning, stacklevel=3)
            continue
        if not isinstance(found, Ruleset):
            warnings.warn(f"the entry point {point.name!r} of {ENTRY_POINTS} names {found!r}, not a Ruleset, "
                          "so it is left out", RulesetWarning, stacklevel=3)
            continue
        _REGISTRY.setdefault(found.id, found)


def find_ruleset(ident: str) -> Ruleset:
    """The ruleset with this id."""
    _scan()
    try:
        return _REGISTRY[ident]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleset(f"no ruleset {ident!r} (known: {known})") from None


def rulesets() -> list[Ruleset]:
    """Every ruleset, bundled and installed, by id."""
    _scan()
    return sorted(_REGISTRY.values(), key=lambda r: r.id)


def default_ruleset() -> Ruleset:
    """The ruleset a game is played by when none is chosen: the one marked ``default``.

    The only place that decides it. Should several be marked (a package installed beside
    Wyrd may mark its own), the first of them by id wins; should none be, the first by id.
    """
    every = rulesets()
    if not every:
        raise UnknownRuleset(f"no ruleset is installed (the entry-point group {ENTRY_POINTS} is empty)")
    return next((r for r in every if r.default), every[0])
