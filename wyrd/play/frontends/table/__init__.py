"""The shared table: a front-end of the engine that several people play from their own devices.

``wyrd host`` serves one game (one session, one save file) over HTTP and WebSockets; each person
is a seat, in a browser (the page in ``static/``) or at a terminal (``wyrd join``). The table has
no rule of its own: every line goes to the same :class:`~wyrd.play.frontends.console.Console` the
REPL and scripts use, one at a time, and what it commits is sent to every seat in one order.
:mod:`.protocol` is the contract between the host and its seats. Nothing here is imported on the
REPL's start path: the server libraries load only when ``wyrd host`` or ``wyrd join`` runs.
"""
