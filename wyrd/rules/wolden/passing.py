"""Letting a turn go by, and what it costs in a fight.

Seed 001: in a fight "The GM describes what it looks like the enemy is about to do,
and then all players describe their actions. ... it is taken as granted that
they're at the same time trying to avoid any attacks on them." A roll is how a
character meets what comes at them ("Rolling a total of 6 or below in a combat
means the enemy hit or affected you"); a character who lets the round go by
meets nothing, so what each enemy was about to do to them happens.

[ours] Outside a fight a pass costs nothing. In a fight the caller says which
enemies go for the character this round (``exposed_to``: without a narrator the
play layer draws it from the enemies' tables as each round begins); each one
still standing strikes the one who passes as on a failed roll (its damage rolled,
not the maximum), against Agility: dodging is what they did not do.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.wolden.encounters import check_can_act, mark_acted, settle
from wyrd.rules.wolden.enums import Ability
from wyrd.rules.wolden.errors import OutOfTurn
from wyrd.rules.wolden.events import TurnPassed
from wyrd.rules.wolden.fight import find_enemy, strike
from wyrd.rules.wolden.state import Fight
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["PASS_STRUCK", "pass_turn"]

PASS_STRUCK = Ability.AGILITY
"""[ours] The ability an enemy's blow strikes when its target let the round go by."""


@action
def pass_turn(turn: Turn, name: str, *, exposed_to: Sequence[str] = ()) -> None:
    """``name`` lets their turn in this round go by; in a fight, the enemies going for them strike."""
    turn.no_pending()
    found = turn.state.encounter
    if found is None:
        raise OutOfTurn("there is no round to pass in", rule="wolden.encounter.none")
    char = turn.active(name)
    check_can_act(found, char.name)
    mark_acted(found, [char.name])
    turn.emit(TurnPassed(encounter=found.id, character=char.name, round=found.rounds.number))
    if isinstance(found, Fight):
        for ident in exposed_to:
            enemy = find_enemy(found, ident)
            if not enemy.defeated:
                strike(turn, enemy.id, enemy.damage, [char.name], PASS_STRUCK, maximum=False)
    settle(turn)
