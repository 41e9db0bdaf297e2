"""Fights: simple enemies, rounds, and what each roll does to either side.

Seed 001: combat is quick and dangerous. The players act in the order they
choose; when all have acted the round closes, and they decide whether to go on.
A total of 6 or less means the enemy hits; a partial means you hit it and it
hits you too; a success means it failed to affect you this round. A critical
failure takes the most damage the enemy can deal; an enemy's basic damage is 1d4+1.
Each helper suffers the consequences of a failure or partial as the lead does.

RULES.md [ours]: a success deals the enemy 1 harm, a critical success 2, a partial
1 while the enemy also hits; an enemy is beaten when its harm reaches its
capacity. [ours] Every roll in a fight is made against one enemy, whose blows it
risks; a roll that is not an attack (``attack=False``: slipping past, holding a
door) deals it no harm. The enemy's damage strikes the ability rolled, with a
separate damage roll for each character struck. A partial's blows land even when
the hit beats the enemy (they are simultaneous).
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.wolden.encounters import begin_round, choose_participants, end_encounter, slug
from wyrd.rules.wolden.enums import Ability, EncounterOutcome, Result
from wyrd.rules.wolden.errors import OutOfTurn, UnknownName
from wyrd.rules.wolden.events import EnemyHarmed, FightStarted, Struck
from wyrd.rules.wolden.harm import take_harm
from wyrd.rules.wolden.state import DamageDice, Enemy, Fight, Rounds
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["HARM_DEALT", "end_fight", "find_enemy", "resolve_against", "start_fight", "strike"]

HARM_DEALT: dict[Result, int] = {
    Result.CRITICAL_FAILURE: 0,
    Result.FAILURE: 0,
    Result.PARTIAL: 1,
    Result.SUCCESS: 1,
    Result.CRITICAL_SUCCESS: 2,
}
"""RULES.md [ours]: the harm an attack deals its enemy, by result."""


@action
def start_fight(
    turn: Turn, enemies: Sequence[Enemy], *, participants: Sequence[str] = (), name: str = "fight",
    ident: str | None = None,
) -> None:
    """Begin a fight against ``enemies`` (everyone standing takes part by default)."""
    turn.no_pending()
    turn.no_encounter()
    if not enemies:
        raise OutOfTurn("a fight needs at least one enemy", rule="wolden.fight.enemies")
    ids = [e.id for e in enemies]
    doubled = sorted({i for i in ids if ids.count(i) > 1})
    if doubled:
        raise OutOfTurn(f"two enemies share the id {doubled[0]!r}", rule="wolden.fight.enemies")
    beaten = [e.id for e in enemies if e.defeated]
    if beaten:
        raise OutOfTurn(f"{beaten[0]} is already beaten", rule="wolden.fight.enemies")
    chosen = choose_participants(turn, participants)
    fight = Fight(id=ident or slug(name, "fight"), name=name, rounds=Rounds(participants=chosen),
                  enemies={e.id: e.model_copy(deep=True) for e in enemies})
    turn.state.encounter = fight
    turn.emit(FightStarted(id=fight.id, name=name, enemies=ids, participants=chosen))
    begin_round(turn, fight)


@action
def end_fight(turn: Turn) -> None:
    """The characters leave the fight (seed 001: they may weigh up whether to risk another round)."""
    turn.no_pending()
    turn.fight()
    end_encounter(turn, EncounterOutcome.WITHDREW)


def find_enemy(fight: Fight, ident: str) -> Enemy:
    """An enemy of the fight by id or name (case-insensitive)."""
    found = fight.enemies.get(ident)
    if found is not None:
        return found
    folded = ident.casefold()
    for enemy in fight.enemies.values():
        if folded in (enemy.id.casefold(), enemy.name.casefold()):
            return enemy
    raise UnknownName(f"there is no enemy {ident!r} in {fight.name}", rule="wolden.unknown.enemy")


def strike(
    turn: Turn, source: str, damage: DamageDice, names: Sequence[str], ability: Ability, *, maximum: bool,
) -> None:
    """``source`` deals its damage to each named character still standing."""
    for name in names:
        char = turn.character(name)
        if char.out:
            continue
        if maximum:
            faces: list[int] = []
            n = damage.maximum
        else:
            faces = list(turn.dice.roll(damage.count, damage.sides, f"damage: {source} on {char.name}").faces)
            n = sum(faces) + damage.bonus
        turn.emit(Struck(source=source, character=char.name, dice=damage.notation, faces=faces, n=n,
                         maximum=maximum))
        take_harm(turn, char.name, ability, n, source=source)


def resolve_against(
    turn: Turn, fight: Fight, enemy_id: str, result: Result, involved: Sequence[str], ability: Ability,
    *, attack: bool,
) -> None:
    """What a roll against an enemy does: harm to it, its blows to those involved, the fight's end."""
    enemy = fight.enemies[enemy_id]
    dealt = HARM_DEALT[result] if attack else 0
    if dealt:
        before = enemy.taken
        enemy.taken = min(enemy.harm, before + dealt)
        turn.emit(EnemyHarmed(enemy=enemy.id, n=enemy.taken - before, taken=enemy.taken, harm=enemy.harm,
                              defeated=enemy.defeated))
    if not result.succeeded:
        strike(turn, enemy.id, enemy.damage, involved, ability, maximum=result == Result.CRITICAL_FAILURE)
    if not fight.standing:
        end_encounter(turn, EncounterOutcome.WON)
