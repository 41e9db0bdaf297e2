"""The roll, as a staged action: open it with its pool, then roll it.

Seed 001: assemble the pool (1d12; +1 for a relevant gift, however many apply;
+1 for an advantage; +1 per helper; "maximum 4d12"), roll it, add the ability to
the highest die, and read the result (see :mod:`wyrd.rules.wolden.pool`). Helpers
suffer the consequences of a failure or partial just like the one who rolls.

1. :func:`attempt` opens the roll: who leads, which ability, the gift named
   (one the lead holds), the advantage, the helpers, and what it is against
   (the extended challenge or montage under way, or an enemy of the fight; none
   for a plain check). The play layer shows the odds here, and players who roll
   physical dice can supply their faces.
2. :func:`roll` rolls the pool and applies what follows by itself: the rating
   moves, enemies take harm and strike back, the round moves on.

:func:`check` does both in one action; :func:`cancel` drops an opened roll.
[ours] In a fight, a participant's roll is always made against an enemy. Outside
fights and dangerous challenges, the consequences of a plain check are the
story's (``harm``, ``wound``): the events name everyone involved.

[ours] A pool asked past four dice is capped, not refused: the dice fill in the
text's order (gift, advantage, then helpers as named), so what is lost is always
the last helpers' dice, and a helper whose die finds no room stays out of the
roll (no turn spent, no share of the consequences). ``pool_capped`` names them.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.wolden.encounters import check_can_act, draw_situation, mark_acted, settle
from wyrd.rules.wolden.enums import Ability, Result
from wyrd.rules.wolden.errors import OutOfTurn, PoolError, UnknownName
from wyrd.rules.wolden.events import CheckCancelled, CheckOpened, CheckRolled, PoolCapped
from wyrd.rules.wolden.extended import progress
from wyrd.rules.wolden.fight import find_enemy, resolve_against, strike
from wyrd.rules.wolden.pool import MAX_DICE, SIDES, pool_size, read_roll
from wyrd.rules.wolden.state import Extended, Fight, PendingCheck
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["attempt", "cancel", "check", "roll"]


def _target(turn: Turn, lead: str, helpers: list[str], against: str | None) -> str | None:
    """The canonical id the roll is made against, after checking everyone may act in this round."""
    found = turn.state.encounter
    if against is None:
        if isinstance(found, Fight) and lead in found.rounds.participants:
            raise OutOfTurn(f"in {found.name} every roll is made against an enemy; name one",
                            rule="wolden.fight.name-an-enemy")
        return None
    if found is None:
        raise OutOfTurn(f"there is no challenge or fight to roll against ({against!r})",
                        rule="wolden.encounter.none")
    if isinstance(found, Extended):
        if against.casefold() not in (found.id.casefold(), found.name.casefold()):
            raise UnknownName(f"the challenge under way is {found.name}, not {against!r}",
                              rule="wolden.unknown.encounter")
        ident = found.id
    else:
        enemy = find_enemy(found, against)
        if enemy.defeated:
            raise OutOfTurn(f"{enemy.name} is already beaten", rule="wolden.fight.enemy-beaten")
        ident = enemy.id
    for name in (lead, *helpers):
        check_can_act(found, name)
    return ident


def _open(
    turn: Turn, lead: str, ability: Ability, gift: str | None, advantage: bool, helpers: Sequence[str],
    against: str | None, attack: bool,
) -> PendingCheck:
    turn.no_pending()
    leader = turn.active(lead)
    use = Ability(ability)
    held = None
    if gift is not None:
        held = leader.gift(gift)
        if held is None:
            raise PoolError(f"{leader.name} holds no gift {gift!r}", rule="wolden.pool.gift-not-held")
    helping = turn.names(helpers)
    if leader.name in helping:
        raise PoolError(f"{leader.name} leads the roll and can't also help it", rule="wolden.pool.helper-is-lead")
    for name in helping:
        turn.active(name)
    asked = pool_size(gift=held is not None, advantage=advantage, helpers=len(helping))
    dice = min(asked, MAX_DICE)
    # The pool fills in the text's order (gift, advantage, helpers as named): the dice past
    # four are the last helpers', and a helper whose die finds no room stays out of the roll.
    lost = helping[len(helping) - (asked - dice):] if asked > dice else []
    helping = helping[:len(helping) - len(lost)]
    target = _target(turn, leader.name, helping, against)
    pending = PendingCheck(lead=leader.name, ability=use, gift=held.id if held else None, advantage=advantage,
                           helpers=helping, against=target, attack=attack, dice=dice)
    turn.state.pending = pending
    if lost:
        turn.emit(PoolCapped(lead=leader.name, asked=asked, dice=dice, lost=lost))
    turn.emit(CheckOpened(lead=leader.name, ability=use, score=leader.current(use), dice=dice,
                          gift=pending.gift, advantage=advantage, helpers=helping, against=target))
    found = turn.state.encounter
    if target is not None and isinstance(found, Extended) and found.montage and found.per_check:
        draw_situation(turn, found)
    return pending


def _roll(turn: Turn) -> None:
    pending = turn.state.pending
    if pending is None:
        raise OutOfTurn("no roll is open", rule="wolden.check.none-open")
    leader = turn.character(pending.lead)
    score = leader.current(pending.ability)
    faces = turn.dice.roll(pending.dice, SIDES, f"check: {leader.name} {pending.ability.value}").faces
    reading = read_roll(faces, score)
    turn.state.pending = None
    turn.emit(CheckRolled(lead=leader.name, helpers=list(pending.helpers), ability=pending.ability,
                          faces=list(faces), highest=reading.highest, score=score, total=reading.total,
                          pair=reading.pair, result=reading.result, critical=reading.critical,
                          against=pending.against))
    found = turn.state.encounter
    if pending.against is None or found is None:
        return
    if isinstance(found, Extended):
        progress(turn, found, leader.name, reading.result)
        if found.danger is not None and not reading.result.succeeded:
            strike(turn, found.id, found.danger, pending.involved, pending.ability,
                   maximum=reading.result == Result.CRITICAL_FAILURE)
    else:
        resolve_against(turn, found, pending.against, reading.result, pending.involved, pending.ability,
                        attack=pending.attack)
    mark_acted(found, pending.involved)
    settle(turn)


@action
def attempt(
    turn: Turn, lead: str, ability: Ability, *, gift: str | None = None, advantage: bool = False,
    helpers: Sequence[str] = (), against: str | None = None, attack: bool = True,
) -> None:
    """Open a roll: ``lead`` rolls ``ability`` with the pool the other arguments make up."""
    _open(turn, lead, ability, gift, advantage, helpers, against, attack)


@action
def roll(turn: Turn) -> None:
    """Roll the open roll's pool, read it, and apply what follows."""
    _roll(turn)


@action
def check(
    turn: Turn, lead: str, ability: Ability, *, gift: str | None = None, advantage: bool = False,
    helpers: Sequence[str] = (), against: str | None = None, attack: bool = True,
) -> None:
    """Open a roll and roll it at once (:func:`attempt` then :func:`roll`)."""
    _open(turn, lead, ability, gift, advantage, helpers, against, attack)
    _roll(turn)


@action
def cancel(turn: Turn) -> None:
    """Drop the opened roll before it is rolled (nothing was risked yet)."""
    pending = turn.state.pending
    if pending is None:
        raise OutOfTurn("no roll is open", rule="wolden.check.none-open")
    turn.state.pending = None
    turn.emit(CheckCancelled(lead=pending.lead))
