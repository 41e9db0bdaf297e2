"""The ``wyrd host`` and ``wyrd join`` subcommands: the shared table.

Only argparse is imported at the top; the server libraries (Starlette, uvicorn, websockets, segno)
load only when one of these commands runs, never on the way to ``wyrd play``'s prompt (and, at the
host's own terminal, after the host's seat is shown its table).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from wyrd.play.cli.play import add_model_options
from wyrd.play.cli.rulesets import add_ruleset_option

if TYPE_CHECKING:
    import socket

    from wyrd.play.frontends.table.engine import TableEngine
    from wyrd.play.frontends.table.host import HostOptions
    from wyrd.play.frontends.table.server import TableServer
    from wyrd.play.frontends.terminal.hostseat import HostSeat

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["HOST_RECAP", "add_host", "add_join"]

#: Entries of the log the host's own prompt shows when a saved table opens again.
HOST_RECAP = 12


def _fail(message: str) -> int:
    from wyrd.play.frontends.view import clean

    print("wyrd: " + clean(message), file=sys.stderr)
    return 1


def add_host(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("host", help="open a shared table: players join from a browser or `wyrd join`")
    p.add_argument("--story", help="the story to play (`wyrd stories` lists them)")
    p.add_argument("--resume", type=Path, metavar="FILE", help="open a saved game's table again (same seats)")
    p.add_argument("--save", type=Path, help="the save file of a new game (default: a new file in your data folder)")
    add_ruleset_option(p, defaulted=False)
    p.add_argument("--seed", type=int, help="the seed of the dice (default: a random one)")
    p.add_argument("--content", action="append", type=Path, default=[], metavar="DIR",
                   help="another folder of stories (may be repeated)")
    p.add_argument("--bind", default="127.0.0.1", metavar="ADDRESS",
                   help="the address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for a LAN)")
    p.add_argument("--port", type=int, default=8420, help="the port (default 8420; 0 picks a free one)")
    p.add_argument("--name", default="Host", help="the host's name at the table (default Host)")
    p.add_argument("--origin", action="append", default=[], metavar="URL",
                   help="another origin a browser may join from (a reverse proxy's https://... address)")
    p.add_argument("--rate", type=float, default=None, metavar="N",
                   help="messages a second one connection may send (default 20; a bot or a benchmark needs more)")
    add_model_options(p)
    p.add_argument("--no-repl", action="store_true", help="serve only: no prompt for the host")
    p.add_argument("--no-qr", action="store_true", help="print the link without its QR code")
    p.set_defaults(handler=run_host)


def add_join(subparsers: Subparsers) -> None:
    p = subparsers.add_parser("join", help="take a seat at a shared table, at this terminal")
    p.add_argument("link", help="the invitation link the host gave (http://HOST:PORT/#invite=TOKEN)")
    p.add_argument("--name", help="your name at the table (asked for a new seat)")
    p.set_defaults(handler=run_join)


def run_host(args: argparse.Namespace) -> int:
    import gc

    from wyrd.play.frontends.terminal.hostseat import HostSeat

    # The host's own seat loads in a process of its own while the table opens here.
    own = HostSeat.start() if _seated_here(args) else None
    # What the server and the game import lasts as long as the table: the collector stays off while
    # they are made, as for `wyrd play` (the game's setup in the worker turns it back on: `_making`).
    gc.disable()
    try:
        server_or_code = _host_server(args, own)
        if isinstance(server_or_code, int):
            return server_or_code
        server, sock, options, tokens = server_or_code
        return _serve_host(args, server, sock, options, tokens, own)
    finally:
        if own is not None:
            own.close()
        gc.enable()


def _seated_here(args: argparse.Namespace) -> bool:
    """Whether the host plays at this terminal too (it has one, and ``--no-repl`` was not given)."""
    return not args.no_repl and sys.stdin.isatty()


def _making(args: argparse.Namespace, options: HostOptions, tokens: dict[str, str],
            invited: Callable[[str], None] | None) -> Callable[[], TableEngine]:
    """What the server's worker runs first: the table's record opened and its
    invitation's token handed to ``invited``, the story's ruleset found (a new table), then the game
    made, with the collector off and the models built at first use as for `wyrd play`."""
    from wyrd.play.frontends.table.host import make_engine, table_book

    def made() -> TableEngine:
        import gc

        from wyrd.play.cli.play import narrate_with_model, setting_up
        from wyrd.play.cli.story import play_ruleset

        with setting_up(), table_book(options, tokens) as book:
            if invited is not None:  # the host's seat draws the invitation's QR code while the game is made
                invited(tokens["invite"])
            if not options.resume:
                options.ruleset = play_ruleset(args.story, args.ruleset, args.content)
                story = args.story
                if story is None:
                    from wyrd.play.engine.kits import hooks_for

                    story = hooks_for(options.ruleset).quick_start
                options.story = None if story == "none" else story
            engine = make_engine(options, tokens, book)()
            narrate_with_model(engine.session, args)  # the seats are sent its words as it writes them
            # As for `wyrd play`: what the setup made lasts the game, so collections skip it from now on.
            gc.freeze()
        return engine

    return made


def _host_server(args: argparse.Namespace,
                 own: HostSeat | None) -> int | tuple[TableServer, socket.socket, HostOptions, dict[str, str]]:
    """The table's server, its listening socket, the options and the tokens; or the exit code of a failure.

    The game is not made here: the server's worker makes it (:func:`_making`), once uvicorn is up or,
    for the host's own seat, first of all."""
    import secrets

    from wyrd.play.engine.paths import new_save_path
    from wyrd.play.frontends.table.host import HostOptions, open_socket
    from wyrd.play.frontends.table.server import Limits, TableServer

    if args.resume is not None and args.story is not None:
        return _fail("give --story for a new table or --resume FILE for a saved one, not both")
    seed = args.seed if args.seed is not None else secrets.randbelow(10**9)
    if args.resume is None:
        options = HostOptions(save=args.save or new_save_path(seed), seed=seed, content=args.content,
                              bind=args.bind, port=args.port, name=args.name, origins=tuple(args.origin))
    else:
        options = HostOptions(save=args.resume, resume=True, content=args.content, bind=args.bind,
                              port=args.port, name=args.name, origins=tuple(args.origin))
    try:
        sock = open_socket(options.bind, options.port)
    except OSError as exc:
        return _fail(f"cannot listen on {options.bind}:{options.port}: {exc.strerror or exc}")
    tokens: dict[str, str] = {}
    limits = Limits(rate=args.rate, burst=max(40, int(args.rate * 2))) if args.rate else Limits()
    invited = None
    if own is not None:
        from wyrd.play.frontends.table.invitation import invitation

        port, qr = sock.getsockname()[1], not args.no_qr

        def invited(token: str) -> None:
            own.invited(invitation(options.bind, port, token), qr=qr)

    server = TableServer(_making(args, options, tokens, invited), origins=options.origins, limits=limits)
    return server, sock, options, tokens


def _refused(server: TableServer, exc: Exception) -> bool:
    """Whether ``exc`` is why the table's game could not be made (said to the host), not a bug."""
    from wyrd.play.engine.reply import SessionError
    from wyrd.play.engine.savefile import SaveError

    return server.failure() is exc and isinstance(exc, (SaveError, SessionError, OSError, ValueError))


def _serve_host(args: argparse.Namespace, server: TableServer, sock: socket.socket, options: HostOptions,
                tokens: dict[str, str], own: HostSeat | None) -> int:
    import asyncio
    import signal

    from wyrd.play.frontends.table.host import serve
    from wyrd.play.frontends.table.invitation import announce, invitation

    port = sock.getsockname()[1]

    invited: list[str] = []

    def opened() -> None:
        invited.append(invitation(options.bind, port, tokens["invite"]))
        if own is None:  # else the seat prints it, with the QR code it drew meanwhile
            announce(invited[0], options.save, qr=not args.no_qr)

    def recap() -> int:
        return max(0, server.engine.last - HOST_RECAP)  # a resumed table: its last entries, not all

    repl: Callable[[], Awaitable[None]] | None = None
    if own is not None:
        async def repl() -> None:
            own.seat(tokens["host"], recap(), options.save)
            try:
                while not own.ended():
                    await asyncio.sleep(0.05)
            finally:  # stopped here: the seat leaves while the server still hears it go
                own.leave()
                for _ in range(100):
                    if own.ended():
                        break
                    await asyncio.sleep(0.02)
    elif _seated_here(args):  # a system where the seat cannot have a process of its own
        async def repl() -> None:
            # Imported once the game is made: the page does not wait for prompt-toolkit.
            from wyrd.play.frontends.table.client import Invitation, RemoteTable
            from wyrd.play.frontends.terminal.remote import play_remote

            local = "[::1]" if ":" in options.bind else "127.0.0.1"
            here = Invitation(f"ws://{local}:{port}/ws", f"http://{local}:{port}", None, tokens["host"])
            table = RemoteTable(here, on_message=lambda message: None)
            table.last = recap()
            await play_remote(table)

    # Stopped by SIGTERM (a service manager, `kill`) as by Ctrl-C: the table closes and says so. Both are
    # taken even where they were ignored (a job started in the background), as the server takes them
    # while it runs (it raises each again once it has stopped): the host's seat is served before it starts.
    before = {stop: signal.signal(stop, signal.default_int_handler) for stop in (signal.SIGINT, signal.SIGTERM)}
    try:
        asyncio.run(serve(server, sock, opened=opened, repl=repl, seat=own.link if own is not None else None))
    except KeyboardInterrupt:
        pass
    except Exception as exc:
        if not _refused(server, exc):
            raise
        return _fail(str(exc))
    finally:
        for stop, handler in before.items():
            signal.signal(stop, handler)
        server.close()
        if own is not None:
            own.close()  # its last words before the host's
    if not invited:  # stopped while it was opening
        return 130
    from wyrd.play.frontends.terminal.wrapping import fitted, stream_columns

    print(fitted(f"The table is closed. Everything is saved in {options.save}.", stream_columns(sys.stdout)))
    return 0


def run_join(args: argparse.Namespace) -> int:
    from wyrd.play.frontends.table.libraries import websockets_imported

    websockets_imported()
    from wyrd.play.frontends.table.client import RemoteTable, parse_link, seats_file
    from wyrd.play.frontends.terminal.remote import run_remote

    try:
        invitation = parse_link(args.link)
    except ValueError as exc:
        return _fail(str(exc))
    table = RemoteTable(invitation, name=args.name or "", on_message=lambda message: None, keep=seats_file())
    if table.seat is None and not table.name:
        if not sys.stdin.isatty():
            return _fail("say your name at the table with --name NAME")
        table.name = input("Your name at the table: ").strip()
    return run_remote(table)
