"""The table's libraries imported without what they import and never use on the way to a game.

Two of them load modules at import that a table never calls (issue 21, point 2: the host's own
prompt waits for every module the server, the game and the prompt need):

- websockets' version module imports ``importlib.metadata`` (with email, zipfile and csv: about
  5 ms) to work out a development build's version; a released websockets never calls it.
- segno's writers import ``xml.sax.saxutils`` (with urllib.request, http.client and email's parser:
  about 8 ms) to escape SVG; the table draws its QR code with block characters.
- uvicorn's package imports its command line (click, and the process supervisors with
  multiprocessing: about 8 ms) to offer ``uvicorn.main`` and ``uvicorn.run``; the table makes its
  server from ``uvicorn.Config`` and ``uvicorn.Server``.

Each is imported here with a stand-in (:func:`wyrd.deferred.stood_in`) for the module it does not
need: what it took from the stand-in loads the real module if it is ever called. Call these while no
other thread imports (the stand-in is in ``sys.modules`` while they run; a module asked of it for
anything else loads the real one, so even then nobody is handed less than they asked for).
"""

from __future__ import annotations

import importlib

from wyrd.deferred import stood_in

__all__ = ["segno_imported", "server_imported", "websockets_imported"]


def websockets_imported() -> None:
    """Import websockets (its package and version) without ``importlib.metadata``."""
    with stood_in("importlib.metadata", ("version", "files")):
        importlib.import_module("websockets.version")


def server_imported() -> None:
    """Import uvicorn's package and websockets without uvicorn's command line or ``importlib.metadata``."""
    websockets_imported()
    with stood_in("uvicorn.main", ("Server", "main", "run")):
        uvicorn = importlib.import_module("uvicorn")
    # The package names its server class from the command line's module: the class again, not the
    # stand-in's function making one (``uvicorn.main`` and ``uvicorn.run`` stay functions that load it).
    uvicorn.Server = importlib.import_module("uvicorn.server").Server  # type: ignore[attr-defined]


def segno_imported() -> None:
    """Import segno without ``xml.sax.saxutils``."""
    with stood_in("xml.sax.saxutils", ("escape", "quoteattr")):
        importlib.import_module("segno")
