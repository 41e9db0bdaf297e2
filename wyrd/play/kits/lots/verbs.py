"""The Thaeborn verb table and what every Thaeborn verb shares: the words they read, the dice typed, the edition.

Each verb class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.lots`; its docstring is the in-game help (``help VERB``). Every verb
that casts lots takes physical dice too: end the line with ``roll W O`` (the
WEAL face, then the WOE face, for each cast it makes, d4s); faces typed are
used first, and anything cast beyond them (the Mettle test a blow sets off)
is cast by the engine.

Every command read now carries ``edition`` (:data:`EDITION`): the rules as
seed 004 has them. A saved command without it was played before Wyrd followed
the text on who rolls, damage, the Rule of Fours and second tries, and replays
under that first reading (:func:`wyrd.rules.lots.turn.first_reading`), so old
saves resume to the state they were left in.

The verbs register here from :mod:`~wyrd.play.kits.lots.checks` (checks, lots and
assessment), :mod:`~wyrd.play.kits.lots.harm` (blows, fights, Pain and rest),
:mod:`~wyrd.play.kits.lots.portents` (Re-tells and blotting out) and
:mod:`~wyrd.play.kits.lots.kit` (the sheet, Story Points and the story).
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any, ClassVar

import wyrd.rules.lots as L
from wyrd.play.engine.verbs import SHARED, Args, Verb, VerbTable
from wyrd.play.engine.words import UsageError, Words, parse_int, resolve
from wyrd.rules.dice import Dice
from wyrd.rules.lots.events import ActionLost
from wyrd.rules.lots.fate import SIDES
from wyrd.rules.lots.turn import first_reading

__all__ = [
    "DISCIPLINES", "EDITION", "STATS", "VERBS", "LotsVerb", "lots_state", "take_discipline", "take_faces",
    "take_modifier", "take_text", "take_who",
]

# This kit's verbs (SHARED's help, undo, log ... included): every verb module of the kit registers here.
VERBS = VerbTable(shared=SHARED)

DISCIPLINES = [d.value for d in L.Discipline]
STATS = [s.value for s in L.Stat]
EDITION = 2
"""The reading of the rules a command is played under (a saved command without one: the first)."""


def lots_state(state: object) -> L.GameState:
    """The Thaeborn state a verb was handed (the session's state is typed for every ruleset)."""
    if not isinstance(state, L.GameState):
        raise UsageError("this command belongs to Thaeborn (wyrd play --ruleset lots)")
    return state


def take_who(words: Words, state: L.GameState, what: str = "WHO") -> str:
    """A character's name (any case, a unique beginning, several words)."""
    return words.take_name(what, list(state.characters))


def take_discipline(words: Words, what: str = "DISCIPLINE") -> str:
    """A Discipline by name or a unique beginning (``pro`` for prowess)."""
    return resolve(words.take(what), DISCIPLINES, "Discipline")


def take_faces(words: Words) -> list[int]:
    """A trailing ``roll W O [W O ...]``: faces of real d4s, WEAL then WOE for each cast."""
    faces: list[str] = []
    at = len(words.words)
    while at > 0 and words.words[at - 1].lstrip("+-").isdigit():
        at -= 1
        faces.insert(0, words.words[at])
    if at == 0 or words.words[at - 1].casefold() != "roll":
        return []
    if not faces or len(faces) % 2:
        raise words.fail("`roll` takes two d4 faces for each cast, the WEAL face first (roll 4 2)")
    del words.words[at - 1 :]
    return [parse_int(f, "a d4 face", low=1, high=SIDES) for f in faces]


def take_modifier(words: Words) -> int:
    """An optional ``+N`` or ``-N`` next."""
    word = words.peek()
    if word is not None and word[:1] in "+-" and word[1:].isdigit():
        words.take("MOD")
        return parse_int(word, "the modifier", low=-20, high=20)
    return 0


def take_text(words: Words, what: str) -> str:
    """One optional free word (quote it to keep spaces): a purpose, a reason, a source."""
    text = words.take_optional() or ""
    if not words.empty:
        raise words.fail(f'put the {what} in quotes ("...") or leave it out')
    return text


class LotsVerb(Verb):
    """A Thaeborn verb: ``read`` and ``play`` see the Thaeborn state, typed."""

    casts: ClassVar[bool] = False  # whether it takes `roll W O`

    def parse(self, words: Words, state: Any) -> Args:
        """The physical dice at the end of the line first, then the verb's own words."""
        faces = take_faces(words) if self.casts else []
        args = {**self.read(words, lots_state(state)), "edition": EDITION}
        return {**args, "faces": faces} if self.casts else args

    def read(self, words: Words, state: L.GameState) -> Args:
        """The canonical arguments of the words after the verb."""
        words.done()
        return {}

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        return [int(f) for f in args.get("faces", [])]

    def apply(self, state: Any, dice: Dice, args: Mapping[str, Any]) -> Any:
        """Play the verb; faces typed and never cast are refused, not silently dropped.

        An action lost to a failed Mettle test casts nothing, so the faces typed
        for it are not asked for: the character spends the action reeling.
        """
        with nullcontext() if args.get("edition") == EDITION else first_reading():
            outcome = self.play(lots_state(state), dice, args)
        if dice.queued and any(isinstance(e, ActionLost) for e in outcome.events):
            return outcome
        if dice.queued:
            used = len(args.get("faces", [])) - len(dice.queued)
            raise UsageError(f"{len(args.get('faces', []))} faces were typed, but only {used} were cast")
        return outcome

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        """Apply the arguments to the rules core."""
        raise NotImplementedError
