"""Damage, scratch-out and defeat, and the actions that deal them ad hoc.

Seed 000: damage lowers a character's current points; a consequence that would
scratch out an ability already scratched defeats the character, whose player then
rolls their Wyrd (a 6: the character becomes an impediment to the survivors).
[ours, RULES.md] Damage beyond 0 current points scratches the ability out.
A scratched ability still spends what it has left but never recovers.
Consequences happen only in scenes, never between them.

The mechanics (:func:`damage`, :func:`scratch`, :func:`defeat`) live in
:mod:`wyrd.rules.abacus.effects` and are re-exported here: damage fires stage
rules and a defeat calls a Wyrd roll, which may fire rules that harm again, so
they are part of that one recursion. This module holds the players' actions.
"""

from __future__ import annotations

from wyrd.rules.abacus.effects import damage, defeat, scratch
from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.turn import Turn, action

__all__ = ["damage", "defeat", "harm", "scratch", "scratch_out"]


@action
def harm(turn: Turn, name: str, ability: Ability, n: int) -> None:
    """An ad hoc consequence: ``name`` takes ``n`` damage to ``ability``."""
    turn.not_ended()
    turn.in_scene()
    char = turn.active(name)
    if n <= 0:
        raise OutOfTurn(f"damage must be at least 1, not {n}", rule="abacus.harm.positive")
    damage(turn, char.name, Ability(ability), n)


@action
def scratch_out(turn: Turn, name: str, ability: Ability) -> None:
    """An ad hoc consequence: scratch out ``ability`` (a second scratch defeats)."""
    turn.not_ended()
    turn.in_scene()
    char = turn.active(name)
    scratch(turn, char.name, Ability(ability))
