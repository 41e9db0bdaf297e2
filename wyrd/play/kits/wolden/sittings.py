"""Which play session is under way: seed 001's "session", as Wyrd counts it.

Seed 001 allows a downtime "Once per session or between sessions, at most". The
text's session is a sitting at the table; in Wyrd it is one run of ``wyrd play``
or ``wyrd resume`` (README, the Wolden rules notes). The play layer names each
sitting with an id that nobody types: the kit's opening hook begins a new one
each time a front-end opens play (a new game or a resumed one), and the verbs
that care (``downtime``, ``session``) put the id into their arguments, so the
save keeps it and a replay sees the same ids whatever sitting replays it. The
rules (:func:`wyrd.rules.wolden.downtime`) compare the ids and nothing else.

Undo and a refused save rebuild the game but do not open play again, so they
stay in the same sitting. A caller that never opens play (a test, a bot) stays
in one sitting until it calls :func:`begin`, which is the safe way round: fewer
downtimes, never more.
"""

from __future__ import annotations

import secrets

__all__ = ["begin", "current"]

_sitting = secrets.token_hex(8)


def begin() -> str:
    """A new sitting begins (play was opened, or resumed): its new id."""
    global _sitting
    _sitting = secrets.token_hex(8)
    return _sitting


def current() -> str:
    """The id of the sitting under way."""
    return _sitting
