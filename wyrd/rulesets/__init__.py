"""The registry of rulesets: each one described once, found by id, added by entry points.

A :class:`Ruleset` says where every part of a ruleset lives, by module name, so
finding one imports nothing but its description (python-chess finds its variants
the same way)::

    >>> find_ruleset("abacus").name
    'Wyrd Abacus'

Every ruleset, the four bundled ones included, comes in through the
``wyrd.rulesets`` entry-point group: an entry point names a :class:`Ruleset`.
A package installed beside Wyrd adds a fifth ruleset by declaring one, with no
edit to Wyrd. This module imports only the standard library and pydantic, so
every layer may read it.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from types import ModuleType
from typing import Any

from pydantic import BaseModel, ConfigDict

__all__ = ["ENTRY_POINTS", "Ruleset", "UnknownRuleset", "find_ruleset", "register", "rulesets"]

ENTRY_POINTS = "wyrd.rulesets"


class UnknownRuleset(LookupError):
    """No ruleset has this id."""


class Ruleset(BaseModel):
    """One ruleset, described once: its id and name, the text it follows, and where its parts live.

    Every part is named by module (``package.module`` or ``package.module:attribute``) and
    imported only when it is first used.
    """

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    # the rule text it follows (a file of ../shared/seeds/) or another source
    seed: str
    # the pure rules package: its GameState, actions and events
    rules: str
    # the play kit: verbs, story following, hints, texts, narration (a module with ``KIT``)
    kit: str
    # the simulator `wyrd simulate` runs its stories with (``module:attribute``, a wyrd.sim Simulator)
    policy: str | None = None

    def load(self) -> ModuleType:
        """Import the rules package."""
        return importlib.import_module(self.rules)

    def part(self, name: str) -> Any:
        """Import one of this ruleset's parts, ``module`` or ``module:attribute``."""
        target: str = getattr(self, name)
        module, _, attribute = target.partition(":")
        loaded = importlib.import_module(module)
        return getattr(loaded, attribute) if attribute else loaded


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
    for point in entry_points(group=ENTRY_POINTS):
        found = point.load()
        if not isinstance(found, Ruleset):
            raise TypeError(f"the entry point {point.name!r} of {ENTRY_POINTS} names {found!r}, not a Ruleset")
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
