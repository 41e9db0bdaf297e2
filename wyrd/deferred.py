"""Libraries put in place unloaded, and loaded where they are first used.

Some libraries cost a start a lot to import and are needed only on a path most starts never
take. PyYAML compiles its resolvers' regular expressions and links libyaml as it is imported
(about 85 M instructions, 6% of a new game's start), yet a game
whose story and tables an earlier start kept (:mod:`wyrd.kept`) parses no YAML.

:func:`deferred` puts such a module in ``sys.modules`` through importlib's ``LazyLoader``: the
module object is there at once, and it runs its code when one of its attributes is first read.
An ``import`` statement naming it reads one (the import system looks at its ``__spec__``), so
Wyrd's modules take it from the module that deferred it (``from wyrd.stories.yamlguard import
yaml``) instead. A module already imported is left as it is. Like the other modules below every
layer, this one imports only the standard library.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

__all__ = ["deferred", "origin"]

# Where each module deferred here comes from: asked without loading it.
_ORIGINS: dict[str, str | None] = {}


def deferred(name: str) -> ModuleType:
    """Top-level module ``name``, as imported if it already is; else in place, unloaded until first used.

    Raises:
        ModuleNotFoundError: there is no such module.
    """
    found = sys.modules.get(name)
    if found is not None:
        return found
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ModuleNotFoundError(f"No module named {name!r}", name=name)
    # Python 3.11's LazyLoader is not safe if two threads first touch the module at once: a game
    # reads its files from one thread at a time (the shared table's engine has a single worker).
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    _ORIGINS[name] = spec.origin
    spec.loader.exec_module(module)
    return module


def origin(name: str) -> str | None:
    """The file top-level module ``name`` comes from, without loading it (None: no such module, or no file)."""
    if name in _ORIGINS:
        return _ORIGINS[name]
    module = sys.modules.get(name)
    if module is not None:
        return getattr(module, "__file__", None)
    spec = importlib.util.find_spec(name)
    return spec.origin if spec is not None else None
