"""The working context of one action, and the wrapper that makes actions safe.

An action is written as a function of a :class:`Turn` (a private copy of the
state, the dice, and the events so far). :func:`action` turns it into the public
form ``f(state, dice, ...) -> Outcome``: it copies the state first, and if the
action raises a :class:`RuleError` it rewinds the dice, so the caller's state and
dice are exactly as they were.

Games saved before Wyrd followed seed 000 on sabotage, the price of other
abilities, failure damage, a Charm's scene, servant ids and challenges waiting
for the next scene replay as they were played: inside :func:`first_reading` the
actions keep that first reading (:attr:`Turn.legacy`). The play kit plays an old
command that way; everything new follows the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeAlias

from wyrd.rules.abacus.characters import Character
from wyrd.rules.abacus.errors import NotEnoughWyrd, OutOfTurn, UnknownName
from wyrd.rules.abacus.events import WyrdDrawn
from wyrd.rules.abacus.state import Challenge, GameState, Scene
from wyrd.rules.actions import Outcome as BaseOutcome
from wyrd.rules.actions import Reading, action_for, find_named
from wyrd.rules.actions import Turn as BaseTurn
from wyrd.rules.dice import Dice

__all__ = ["Outcome", "Turn", "action", "first_reading"]

# Commands saved before an edition changed these rules replay inside ``first_reading()``.
_READING = Reading("abacus")
first_reading = _READING.first


# What every Wyrd Abacus action returns: the new game state and its events.
Outcome: TypeAlias = BaseOutcome[GameState]

class Turn(BaseTurn[GameState]):
    """An action's working copy of a Wyrd Abacus game, with the lookups actions share."""

    # Effects can set off Wyrd rolls that set off effects; past this depth, stop.
    MAX_DEPTH = 4

    def __init__(self, state: GameState, dice: Dice) -> None:
        super().__init__(state, dice)
        self.depth = 0
        # set while a scene closes: what its last Wyrd roll places goes to the next scene
        self.closing = False

    @property
    def legacy(self) -> bool:
        """Whether this action replays a command saved under the first reading of the rules."""
        return _READING.legacy

    # -- lookups -------------------------------------------------------------

    def character(self, name: str) -> Character:
        found = find_named(self.state.characters, name)
        if found is not None:
            return found
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


action = action_for(Turn)
