"""Damage, scratch-out and defeat.

Seed 000: damage lowers a character's current points; a consequence that would
scratch out an ability already scratched defeats the character, whose player then
rolls their Wyrd (a 6: the character becomes an impediment to the survivors).
[ours, RULES.md] Damage beyond 0 current points scratches the ability out.
A scratched ability still spends what it has left but never recovers.
Consequences happen only in scenes, never between them.
"""

from __future__ import annotations

from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.events import AbilityScratched, CharacterDefeated, Damage
from wyrd.rules.abacus.stage import TriggerKind
from wyrd.rules.abacus.turn import Turn, action

__all__ = ["damage", "defeat", "harm", "scratch", "scratch_out"]


def damage(
    turn: Turn, name: str, ability: Ability, n: int, *, source: str | None = None,
    from_failure: bool = False,
) -> None:
    """``name`` loses ``n`` points of ``ability``; what goes past 0 scratches it out."""
    char = turn.character(name)
    if char.defeated or n <= 0:
        return
    before = char.points[ability]
    char.points[ability] = max(0, before - n)
    turn.emit(
        Damage(character=char.name, ability=ability, n=n, points_after=char.points[ability], source=source)
    )
    if n > before:
        scratch(turn, char.name, ability, source=source)
    if from_failure:
        from wyrd.rules.abacus.effects import Moment, fire  # effects build on harm

        challenge = turn.state.scene.challenges.get(source or "") if turn.state.scene else None
        fire(turn, Moment(kind=TriggerKind.DAMAGE, challenge=challenge, subject=char.name, amount=n))


def scratch(turn: Turn, name: str, ability: Ability, *, source: str | None = None) -> None:
    """Scratch ``ability`` out; scratching it a second time defeats the character."""
    char = turn.character(name)
    if char.defeated:
        return
    if char.is_scratched(ability):
        defeat(turn, char.name)
        return
    char.scratched.append(ability)
    turn.emit(AbilityScratched(character=char.name, ability=ability))


def defeat(turn: Turn, name: str) -> None:
    from wyrd.rules.abacus.wyrd import wyrd_roll  # a Wyrd roll may fire rules that harm

    char = turn.character(name)
    char.defeated = True
    (roll,) = wyrd_roll(turn, [char.name], reason="defeat", include_defeated=True)
    char.impediment = roll.result == 6
    turn.emit(CharacterDefeated(character=char.name, wyrd_result=roll.result, impediment=char.impediment))


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
