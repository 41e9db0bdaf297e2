"""The strict rules core of Wyrd, and the registry of its rulesets.

``rules`` imports only the standard library and pydantic: no I/O, no printing,
no global ``random``. Rulesets are found by id, as python-chess finds variants::

    >>> find_ruleset("abacus").name
    'Wyrd Abacus'

Third parties add their own through the ``wyrd.rulesets`` entry-point group; an
entry point names a :class:`Ruleset`.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from pydantic import BaseModel, ConfigDict

from rules.errors import RuleError

__all__ = ["RuleError", "Ruleset", "UnknownRuleset", "find_ruleset", "register", "rulesets"]


class UnknownRuleset(LookupError):
    pass


class Ruleset(BaseModel):
    """A ruleset's id, its name, the seed text it follows, and the module of its actions."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    seed: str
    module: str

    def load(self) -> ModuleType:
        """Import the ruleset's package (kept lazy so finding one costs nothing)."""
        return importlib.import_module(self.module)


_REGISTRY: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> None:
    _REGISTRY[ruleset.id] = ruleset


register(Ruleset(id="abacus", name="Wyrd Abacus", seed="000_e418bfdb0e315e34.txt", module="rules.abacus"))
register(Ruleset(id="wolden", name="Wolden", seed="001_0ed33d63b95f167b.txt", module="rules.wolden"))
register(Ruleset(id="feat", name="Heroes of the Fall", seed="003_9d26c77002c98e48.txt", module="rules.feat"))
register(Ruleset(id="lots", name="Thaeborn", seed="004_06c27bdc2e65ccea.txt", module="rules.lots"))


def _load_entry_points() -> None:
    from importlib.metadata import entry_points

    for point in entry_points(group="wyrd.rulesets"):
        found = point.load()
        if isinstance(found, Ruleset):
            register(found)


def find_ruleset(ident: str) -> Ruleset:
    """The ruleset with this id; entry points are consulted only on a miss."""
    if ident not in _REGISTRY:
        _load_entry_points()
    try:
        return _REGISTRY[ident]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise UnknownRuleset(f"no ruleset {ident!r} (known: {known})") from None


def rulesets() -> list[Ruleset]:
    return sorted(_REGISTRY.values(), key=lambda r: r.id)
