"""The table's invitation as the host sees it: the link, its QR code, and where the game is saved.

Printed by the host's process, or by the host's own seat when it has one (which makes the QR code
while the game is being made: :mod:`wyrd.play.frontends.terminal.hostseat`): so this module loads
nothing of the server's.
"""

from __future__ import annotations

import io
import shlex
import socket
import sys
from pathlib import Path
from typing import TextIO

__all__ = ["announce", "invitation", "qr_text"]


def _shown_address(bind: str) -> str:
    """The address others type: the machine's own for a wildcard bind."""
    if bind in ("0.0.0.0", "::", ""):
        try:
            return socket.gethostbyname(socket.gethostname())
        except OSError:
            return "127.0.0.1"
    return f"[{bind}]" if ":" in bind else bind


def invitation(bind: str, port: int, token: str) -> str:
    """The link a player opens (the token in the fragment: never sent to a server, never logged)."""
    return f"http://{_shown_address(bind)}:{port}/#invite={token}"


def qr_text(link: str) -> str:
    """``link`` as a QR code drawn with block characters, for a phone's camera."""
    from wyrd.play.frontends.table.libraries import segno_imported

    segno_imported()
    import segno

    out = io.StringIO()
    segno.make(link, error="l").terminal(out=out, compact=True, border=2)
    return out.getvalue()


def announce(link: str, save: Path, out: TextIO = sys.stdout, *, qr: bool = True, drawn: str | None = None) -> None:
    """Print the invitation (and its QR code, ``drawn`` if made already) and where the game is saved."""
    print(f"The table is open. Invite the players with this link:\n\n    {link}\n", file=out)
    if qr:
        print(drawn if drawn is not None else qr_text(link), file=out)
    from wyrd.play.frontends.terminal.wrapping import fitted, stream_columns

    again = shlex.quote(str(save))
    print(fitted(f"Saving to {save}. Stop with Ctrl-D (at the prompt) or Ctrl-C; `wyrd host --resume {again}` "
                 "opens it again with the same seats.", stream_columns(out)), file=out, flush=True)
