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

Another library's ``from module import name`` cannot be pointed elsewhere: it loads a deferred
module at once. :func:`stood_in` lends such an import a stand-in module whose named functions load
the real one only when called, for as long as the importing module takes to import.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

__all__ = ["deferred", "origin", "stood_in"]

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


# The stand-ins in place now, by the name of the module each stands in for.
_STANDING: dict[str, ModuleType] = {}


def _forwarding(name: str, function: str) -> Callable[..., Any]:
    """A function that imports module ``name`` when called, and calls its ``function``."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(_real(name), function)(*args, **kwargs)

    call.__name__ = call.__qualname__ = function
    return call


class _StandIn(ModuleType):
    """A stand-in module: whatever else is read from it comes from the real module, loaded then.

    So an importer that wants more than the stood-in functions (another thread's, say) still gets
    the real thing, only sooner.
    """

    def __getattr__(self, attribute: str) -> Any:
        # Not the dunders the import system probes: a module with ``__path__`` has a ``from ... import``
        # look for submodules, which would load the real one at once.
        if attribute.startswith("__"):
            raise AttributeError(attribute)
        return getattr(_real(self.__name__), attribute)


def _real(name: str) -> ModuleType:
    """Module ``name`` itself, imported now if only its stand-in is in place."""
    if name in _STANDING and sys.modules.get(name) is _STANDING[name]:
        del sys.modules[name]
    return importlib.import_module(name)


@contextmanager
def stood_in(name: str, functions: tuple[str, ...]) -> Iterator[None]:
    """While inside, an import of module ``name`` gets a stand-in whose ``functions`` load the real one when called.

    What an importer took from the stand-in keeps working after: each function imports the real
    module at its call and calls the real function. The stand-in leaves ``sys.modules`` on the
    way out, so every later import gets the real module. A module already imported is not stood in for.
    Another thread importing ``name`` meanwhile gets the stand-in too; whatever it reads from it
    besides ``functions`` loads the real module there and then.
    """
    if name in sys.modules:
        yield
        return
    stand_in = _StandIn(name, f"Stands in for {name} until one of {', '.join(functions)} is called.")
    for function in functions:
        setattr(stand_in, function, _forwarding(name, function))
    sys.modules[name] = _STANDING[name] = stand_in
    try:
        yield
    finally:
        del _STANDING[name]
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
