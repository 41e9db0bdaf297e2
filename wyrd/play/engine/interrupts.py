"""Steps that Ctrl-C cannot split: an interrupt that lands inside one waits for its end.

The session writes a command to the save and then updates the game it shows; an
interrupt between the two would leave the game shown different from the game
saved. Inside :func:`deferred_interrupts` (in the main thread) SIGINT's handler
only notes that the signal came; when the step is over the old handler is put
back and the signal delivered to it, so Ctrl-C still does what it did, a moment
later. Off the main thread, where Python runs no signal handler, it does nothing.
Steps nest: an inner one leaves the interrupt to the outermost.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["deferred_interrupts"]


class _Noted:
    """A SIGINT handler that only remembers that the signal came."""

    def __init__(self) -> None:
        self.came = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.came = True


@contextmanager
def deferred_interrupts() -> Iterator[None]:
    """Run the block whole: a SIGINT that lands inside it is delivered when it ends."""
    if threading.current_thread() is not threading.main_thread() or isinstance(
            signal.getsignal(signal.SIGINT), _Noted):
        yield  # no handler runs here, or an outer step already waits for the signal
        return
    noted = _Noted()
    try:
        previous = signal.signal(signal.SIGINT, noted)
    except ValueError:  # not the main interpreter: signals are not ours to handle
        yield
        return
    try:
        yield
    finally:
        # None: a handler set outside Python, which cannot be put back; the default stands in.
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        if noted.came:
            # The old handler gets it now, as if it had just come (Python's raises KeyboardInterrupt).
            signal.raise_signal(signal.SIGINT)
