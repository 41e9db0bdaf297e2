"""Which reading of the Wyrd Abacus rules a saved command is played under.

Every Abacus command read now carries ``edition`` (:data:`EDITION`) in its
arguments: the rules as seed 000 has them (one sabotage per character per
challenge, paid for from outside the scene; a Wyrd point for each other ability;
failure damage from the value rolled against; a Charm's +2 ending with its scene;
servant ids unique for the game; challenges waiting for the next scene). A saved
command without it was played before Wyrd followed the text on those, and
replays under that first reading (:func:`wyrd.rules.abacus.turn.first_reading`),
so old saves resume to the state they were left in.

:class:`EditionTable` is the kit's verb table: each verb registered in it has its
arguments stamped when read and prepared, and is played under the reading its
arguments name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import nullcontext
from typing import Any, TypeVar

from wyrd.play.engine.verbs import Args, Verb, VerbTable
from wyrd.rules.abacus.turn import first_reading

__all__ = ["EDITION", "EditionTable", "stamped"]

EDITION = 2
"""The reading of the rules a command is played under (a saved command without one: the first)."""

V = TypeVar("V", bound=Verb)


def stamped(args: Mapping[str, Any]) -> Args:
    """``args`` marked as read under today's rules."""
    return {**args, "edition": EDITION}


def _stamp(cls: type[V]) -> None:
    """Wrap ``cls``'s own reading and playing once (a subclass inherits the wrapped ones)."""
    if cls.__dict__.get("_edition_stamped"):
        return
    parse: Callable[..., Args] = cls.parse
    prepare: Callable[..., Args] = cls.prepare
    apply: Callable[..., Any] = cls.apply

    def parse_stamped(self: Verb, words: Any, state: Any) -> Args:
        return stamped(parse(self, words, state))

    def prepare_stamped(self: Verb, args: Args, ctx: Any) -> Args:
        # Preparing may rebuild the arguments (a story's pregenerated characters): stamp them again.
        return stamped(prepare(self, args, ctx))

    def apply_stamped(self: Verb, state: Any, dice: Any, args: Mapping[str, Any]) -> Any:
        with nullcontext() if args.get("edition") == EDITION else first_reading():
            return apply(self, state, dice, args)

    for name, wrapped, inner in (("parse", parse_stamped, parse), ("prepare", prepare_stamped, prepare),
                                 ("apply", apply_stamped, apply)):
        wrapped.__doc__ = inner.__doc__
        setattr(cls, name, wrapped)
    cls._edition_stamped = True  # type: ignore[attr-defined]


class EditionTable(VerbTable):
    """A verb table whose verbs record, and replay under, the reading of the rules they were read with."""

    def register(self, cls: type[V]) -> type[V]:
        if cls.changes:
            _stamp(cls)
        return super().register(cls)
