"""The Thaeborn verbs that spend Portents on a cast: ``retell`` and ``blot``.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.lots`; its docstring is the in-game help (``help VERB``).
Importing this module registers them in :data:`~wyrd.play.kits.lots.verbs.VERBS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import wyrd.rules.lots as L
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import Words
from wyrd.play.kits.lots.verbs import VERBS, LotsVerb, take_who
from wyrd.rules.dice import Dice

__all__: list[str] = []

_CAST_ID = re.compile(r"^c\d+$", re.IGNORECASE)


def _portent_args(words: Words, state: L.GameState) -> Args:
    who = take_who(words, state)
    cast = words.take("CAST").casefold() if _CAST_ID.match(words.peek() or "") else None
    words.done()
    return {"who": who, "cast": cast}


@VERBS.register
class Retell(LotsVerb):
    """retell WHO [CAST] [roll W O ...]

    WHO spends Portents to have a cast told again (the latest, or CAST such as c3,
    while it is still open: until the next action). Only the new telling happens,
    and what the old one set off is gone; the effort still counts. A Re-tell can
    be re-told. It costs 1 for WHO's own cast, 2 for another player's, 3 for an
    NPC's or the world's. Not an undo: both casts stay in the record.
    """

    key = "retell"
    aliases = ("re-tell",)
    casts = True
    completes = ("character", "cast")

    def read(self, words: Words, state: L.GameState) -> Args:
        return _portent_args(words, state)

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.retell(state, dice, args["who"], args["cast"])


@VERBS.register
class Blot(LotsVerb):
    """blot WHO [CAST]

    WHO spends Portents to blot out a cast (the latest, or CAST such as c3, while
    it is still open): the act never happened, and its effort is lost. Same cost
    as a Re-tell. Nobody in the story knows but WHO.
    """

    key = "blot"
    aliases = ("blot-out",)
    completes = ("character", "cast")

    def read(self, words: Words, state: L.GameState) -> Args:
        return _portent_args(words, state)

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.blot_out(state, dice, args["who"], args["cast"])
