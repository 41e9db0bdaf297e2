"""The working context of one action, and the wrapper that makes actions safe.

An action is written as a function of a :class:`Turn` (a private copy of the
state, the dice, and the events so far). :func:`action` turns it into the public
form ``f(state, dice, ...) -> Outcome``: it copies the state first, and if the
action raises a :class:`RuleError` it rewinds the dice, so the caller's state and
dice are exactly as they were.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Concatenate, ParamSpec

from pydantic import BaseModel, ConfigDict

from rules.abacus.characters import Character
from rules.abacus.errors import NotEnoughWyrd, OutOfTurn, UnknownName
from rules.abacus.events import Event, WyrdDrawn
from rules.abacus.state import Challenge, GameState, Scene
from rules.dice import Dice

__all__ = ["Outcome", "Turn", "action"]

P = ParamSpec("P")


class Outcome(BaseModel):
    """The result of an action: the new state and what happened."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: GameState
    events: list[Event]


class Turn:
    """A private copy of the state plus the dice and the events being written."""

    # Effects can set off Wyrd rolls that set off effects; past this depth, stop.
    MAX_DEPTH = 4

    def __init__(self, state: GameState, dice: Dice) -> None:
        self.state = state
        self.dice = dice
        self.events: list[Event] = []
        self.depth = 0

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- lookups -------------------------------------------------------------

    def character(self, name: str) -> Character:
        found = self.state.characters.get(name)
        if found is not None:
            return found
        folded = name.casefold()
        for key, char in self.state.characters.items():
            if key.casefold() == folded:
                return char
        raise UnknownName(f"there is no character called {name!r}", rule="abacus.unknown.character")

    def active(self, name: str) -> Character:
        """A character who can still act (not defeated)."""
        char = self.character(name)
        if char.defeated:
            raise OutOfTurn(
                f"{char.name} has been defeated and no longer acts",
                rule="abacus.defeat.no-actions",
            )
        return char

    def in_scene(self) -> Scene:
        if self.state.scene is None:
            raise OutOfTurn(
                "there is no scene: between scenes there are no challenges and no scene pool",
                rule="abacus.scene.between-scenes",
            )
        return self.state.scene

    def challenge(self, ident: str) -> Challenge:
        scene = self.in_scene()
        found = scene.challenges.get(ident)
        if found is not None:
            return found
        folded = ident.casefold()
        for ch in scene.challenges.values():
            if folded in (ch.id.casefold(), ch.name.casefold()):
                return ch
        raise UnknownName(
            f"no challenge {ident!r} in this scene", rule="abacus.unknown.challenge"
        )

    def not_ended(self) -> None:
        if self.state.ended:
            raise OutOfTurn("the story has ended", rule="abacus.finale.ended")

    # -- the scene pool --------------------------------------------------------

    def can_draw(self, name: str) -> bool:
        scene = self.state.scene
        if scene is None:
            return False
        if name in scene.ghost:
            return scene.ghost[name] > 0
        return name not in scene.warded and scene.pool > 0

    def draw(self, name: str, n: int, reason: str) -> None:
        """``name`` draws ``n`` Wyrd: from the scene pool into their personal pool,
        or, for a defeated character's player, from their own allowance."""
        scene = self.in_scene()
        if n <= 0:
            raise NotEnoughWyrd(f"cannot draw {n} Wyrd", rule="abacus.wyrd.positive")
        if name in scene.ghost:
            left = scene.ghost[name]
            if left < n:
                raise NotEnoughWyrd(
                    f"{name}'s player has {left} Wyrd left this scene; {reason} needs {n}",
                    rule="abacus.defeat.ghost-wyrd",
                )
            scene.ghost[name] = left - n
            self.emit(
                WyrdDrawn(
                    character=name, n=n, reason=reason, pool_after=scene.pool,
                    personal_after=None, ghost=True,
                )
            )
            return
        char = self.active(name)
        if char.name in scene.warded:
            raise NotEnoughWyrd(
                f"{char.name} made a Ward and cannot draw on the Wyrd this scene",
                rule="abacus.magic.ward-no-draw",
            )
        if scene.pool < n:
            raise NotEnoughWyrd(
                f"the scene pool has {scene.pool} Wyrd; {reason} needs {n}",
                rule="abacus.wyrd.pool-empty",
            )
        scene.pool -= n
        scene.drawn += n
        char.wyrd += n
        self.emit(
            WyrdDrawn(
                character=char.name, n=n, reason=reason, pool_after=scene.pool,
                personal_after=char.wyrd,
            )
        )

    def names(self, names: Sequence[str]) -> list[str]:
        """Canonical names, each once, in the order given."""
        out: list[str] = []
        for name in names:
            canonical = self.character(name).name
            if canonical not in out:
                out.append(canonical)
        return out


def action(
    fn: Callable[Concatenate[Turn, P], None],
) -> Callable[Concatenate[GameState, Dice, P], Outcome]:
    """Make ``fn(turn, ...)`` a safe public action ``f(state, dice, ...) -> Outcome``."""

    @functools.wraps(fn)
    def run(state: GameState, dice: Dice, /, *args: P.args, **kwargs: P.kwargs) -> Outcome:
        mark = dice.mark()
        turn = Turn(state.model_copy(deep=True), dice)
        try:
            fn(turn, *args, **kwargs)
        except BaseException:
            # Refused or broken, the action must leave no trace: the copy is
            # dropped, and the dice will give the same faces to the next action.
            dice.rewind(mark)
            raise
        return Outcome.model_construct(state=turn.state, events=turn.events)

    return run
