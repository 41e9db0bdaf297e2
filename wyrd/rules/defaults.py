"""What model fields default to: empty lists made by a plain function, and None left out of a dump.

pydantic reads the signature of every default factory as it builds a model's validator (to learn
whether the factory takes the data validated so far). The signature of the builtin ``list`` is its
``__text_signature__``, which :func:`inspect.signature` parses anew with ``ast`` and ``tokenize`` at
every call: 0.1 to 0.3 ms a field, about 20 ms of the 110 ms a new game of *The Hollow Fair* spent
setting up before its first prompt (78 list fields among the models it builds; bench/RESULTS.md,
issue 21, point 2). A plain function's signature takes microseconds. What a field holds is the same:
a new empty list for each model made without it. (``dict`` has no text signature; inspecting it is
refused at once, so ``default_factory=dict`` costs nothing and stays.)

A field whose JSON has always left it out while it is unset (a story's wording, an oracle event's
marks, a Wolden game's unnamed play session) takes :func:`left_out_unset` as its default.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

__all__ = ["empty_list", "left_out_unset"]


def empty_list() -> list[Any]:
    """A new empty list: ``Field(default_factory=empty_list)`` where ``default_factory=list`` would do."""
    return []


def _unset(value: object) -> bool:
    return value is None


def left_out_unset() -> Any:
    """A field's default, None, with the field left out of a dump while it is None."""
    return Field(default=None, exclude_if=_unset)
