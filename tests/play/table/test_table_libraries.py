"""The table's libraries imported without what they import and never use (issue 21, point 2).

websockets' version module imports ``importlib.metadata``, uvicorn's package its command line
(click, multiprocessing), segno's writers ``xml.sax.saxutils`` (with urllib.request): none of it is
called on the way to a table, so each comes in with a stand-in and loads only if called.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

#: Never loaded on the way to a table's game; a seat's client also asks urllib.request for the proxies
#: it may go through, at its connection.
NEVER = ("importlib.metadata", "click", "uvicorn.main", "multiprocessing")
SERVER_NEVER = (*NEVER, "urllib.request", "xml.sax.saxutils")


def _run(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                          timeout=120)
    return done.stdout.splitlines()


def test_a_table_s_server_and_its_qr_code_load_none_of_what_they_never_call() -> None:
    lines = _run(
        "import sys\n"
        "from wyrd.play.frontends.table.libraries import server_imported\n"
        "server_imported()\n"
        "import uvicorn, uvicorn.server, websockets.version\n"
        "from wyrd.play.frontends.table.host import serve\n"
        "from wyrd.play.frontends.table.invitation import qr_text\n"
        "from wyrd.play.frontends.table.server import TableServer\n"
        "import uvicorn.protocols.http.h11_impl, uvicorn.protocols.websockets.websockets_sansio_impl\n"
        "drawn = qr_text('http://127.0.0.1:8420/#invite=abc')\n"
        f"print(sorted(m for m in {SERVER_NEVER!r} if m in sys.modules))\n"
        "print(uvicorn.Server is uvicorn.server.Server, uvicorn.Config.__name__, websockets.version.version > '')\n"
        "print(len(drawn.splitlines()) > 10, set(drawn) <= set(' \\n\\u2580\\u2584\\u2588'))\n")
    assert lines == ["[]", "True Config True", "True True"]


def test_what_a_stand_in_lent_still_works_when_called() -> None:
    """uvicorn's ``run`` and websockets' need of ``importlib.metadata``, called: the real modules load then."""
    lines = _run(
        "import sys\n"
        "from wyrd.play.frontends.table.libraries import server_imported, segno_imported\n"
        "server_imported(); segno_imported()\n"
        "import uvicorn, segno, io\n"
        "print('uvicorn.main' in sys.modules, uvicorn.run.__name__)\n"
        "try:\n"
        "    uvicorn.run('no_such_module:app', log_level='critical')\n"
        "except SystemExit as exc:\n"
        "    print('exit', exc.code != 0)\n"
        "print('uvicorn.main' in sys.modules, 'click' in sys.modules)\n"
        "svg = io.BytesIO(); segno.make('hi').save(svg, kind='svg')\n"
        "print(svg.getvalue().startswith(b'<?xml'), 'xml.sax.saxutils' in sys.modules)\n"
        "from importlib import metadata\n"
        "print(metadata.version('websockets') > '')\n")
    assert lines == ["False run", "exit True", "True True", "True True", "True"]


def test_a_seat_s_terminal_loads_none_of_them_either() -> None:
    """``wyrd join`` and the host's own seat: websockets without ``importlib.metadata``."""
    lines = _run(
        "import sys\n"
        "from wyrd.play.frontends.table.libraries import websockets_imported\n"
        "websockets_imported()\n"
        "from wyrd.play.frontends.table.client import RemoteTable, parse_link\n"
        "from wyrd.play.frontends.terminal.remote import run_remote\n"
        "import wyrd.play.frontends.terminal.hostseat\n"
        f"print(sorted(m for m in {NEVER!r} if m in sys.modules))\n")
    assert lines == ["[]"]


def test_the_host_s_own_seat_and_the_table_until_it_is_shown_load_no_web_library() -> None:
    """The host's seat talks over a socket pair, and the host's process serves it before the web server:
    neither loads websockets, Starlette or uvicorn on the way to the host's first prompt."""
    web = ("websockets", "starlette", "uvicorn", "anyio")
    lines = _run(
        "import sys\n"
        "import wyrd.play.frontends.terminal.hostseat, wyrd.play.frontends.terminal.remote\n"
        "from wyrd.play.frontends.table import client, direct, host, server\n"
        f"print(sorted(m for m in {web!r} if m in sys.modules))\n"
        "server.TableServer(lambda: None).asgi\n"  # the web app, asked for: Starlette then
        "print('starlette' in sys.modules)\n")
    assert lines == ["[]", "True"]
