"""Argument types the command-line parsers share.

Only argparse is needed here, so every subcommand's parser can use these without
slowing ``wyrd --version``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

__all__ = ["whole"]


def whole(low: int = 0, high: int | None = None) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` up to ``high`` (no upper bound if None)."""

    def parse(text: str) -> int:
        try:
            number = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if number < low:
            below = "can't be negative" if low == 0 else f"must be {low} or more"
            raise argparse.ArgumentTypeError(f"{below} (got {number})")
        if high is not None and number > high:
            raise argparse.ArgumentTypeError(f"at most {high} (got {number})")
        return number

    return parse
