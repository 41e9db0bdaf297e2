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

from wyrd.rules.abacus.challenge import slug
from wyrd.rules.abacus.effects import damage, defeat, place, scratch
from wyrd.rules.abacus.enums import Ability, ChallengeType
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.state import ChallengeSpec
from wyrd.rules.abacus.turn import Turn, action

__all__ = ["antagonist", "damage", "defeat", "harm", "scratch", "scratch_out"]


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


@action
def antagonist(turn: Turn, name: str, type: ChallengeType, ability: Ability | None = None) -> None:
    """A defeated character turned against the others, placed as a challenge of the scene.

    Seed 000: a defeated character whose Wyrd roll is a 6 "will become a significant impediment
    for the survivors"; as "an antagonistic denizen", the value of its challenge matches "one of the
    character's former ability scores": ``ability``'s score, by default the one ``type`` belongs to.
    """
    turn.not_ended()
    turn.in_scene()
    char = turn.character(name)
    if not char.defeated or not char.impediment:
        why = "has not been defeated" if not char.defeated else "was not turned by the Wyrd (their roll was no 6)"
        raise OutOfTurn(f"{char.name} {why} and does not stand against the others",
                        rule="abacus.antagonist.impediment")
    kind = ChallengeType(type)
    use = Ability(ability) if ability is not None else kind.ability
    place(turn, ChallengeSpec(id=slug(char.name), name=char.name, type=kind, value=char.scores[use]))

