"""Enemies act from tables: without a GM, the play layer says what each enemy does in a round.

When a round of a fight begins (the first with ``fight`` or ``scene``, then each
one after), every enemy still standing draws its action for the round: from its
own table in the scenario (``actions`` of :class:`wyrd.stories.wolden.EnemySpec`) if
it has one, else from the bundled ``wolden/enemy-acts``. The action names whom
the enemy goes for (weakest: the lowest total of abilities as they stand;
strongest: the highest; random or lead: by the dice; ties by character order),
so the players know whom to defend. The draws use the context's dice
(:attr:`wyrd.play.engine.storyplay.PlayContext.dice`), so they are deterministic; the
``enemy_acted`` events are kept as saved, never replayed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

import wyrd.rules.wolden as W
from wyrd.oracle.grammar import person, worded
from wyrd.oracle.tables import roll
from wyrd.oracle.text import fill
from wyrd.play.frontends.view import clean
from wyrd.rules.actions import Event
from wyrd.rules.defaults import left_out_unset
from wyrd.rules.dice import Dice
from wyrd.rules.wolden.events import RoundStarted
from wyrd.stories.wolden import EnemySpec, Scenario

__all__ = ["GENERIC", "EnemyActed", "enemy_actions", "enemy_spec", "plan_lines"]


class EnemyActed(Event):
    """What an enemy does in its turn of a round, and to whom (the kit's, never replayed)."""

    kind: Literal["enemy_acted"] = "enemy_acted"
    enemy: str
    text: str
    target: str
    # those tied with the target for weakest or strongest, passed over by the party's order (issue 18)
    tied: list[str] | None = left_out_unset()

GENERIC = "wolden/enemy-acts"


def enemy_spec(enemy: W.Enemy, story: Scenario | None) -> EnemySpec | None:
    """The scenario's enemy this one of the fight is (a second of a kind is ``id-2``, ``Name 2``)."""
    if story is None:
        return None
    for spec in story.enemies:
        if (enemy.id, enemy.name) == (spec.id, spec.name):
            return spec
        base, _, n = enemy.id.rpartition("-")
        if base == spec.id and n.isdigit() and enemy.name == f"{spec.name} {n}":
            return spec
    return None


def _total(char: W.Character) -> int:
    return sum(char.current(a) for a in W.Ability)


def _target(how: str | None, standing: Sequence[W.Character], dice: Dice, enemy: W.Enemy) -> W.Character:
    """Whom the enemy goes for among ``standing`` (in character order, so ties go to the first)."""
    if how == "weakest":
        return min(standing, key=_total)
    if how == "strongest":
        return max(standing, key=_total)
    if len(standing) == 1:
        return standing[0]
    face = dice.roll(1, len(standing), f"enemy target: {enemy.id}").faces[0]
    return standing[face - 1]


def _tied(how: str | None, standing: Sequence[W.Character], target: W.Character) -> list[str] | None:
    """Who stood level with the target for weakest or strongest (the tie went to the first of them)."""
    if how not in ("weakest", "strongest"):
        return []
    return [c.name for c in standing if c.name != target.name and _total(c) == _total(target)] or None


def enemy_actions(events: Sequence[object], state: W.GameState, story: Scenario | None,
                  dice: Dice) -> list[Event]:
    """One ``enemy_acted`` per enemy standing, if a round of the fight under way began in ``events``."""
    found = state.encounter
    if not isinstance(found, W.Fight):
        return []
    if not any(isinstance(e, RoundStarted) and e.encounter == found.id for e in events):
        return []
    standing = [c for name, c in state.characters.items() if name in found.rounds.participants and not c.out]
    if not standing:
        return []
    out: list[Event] = []
    pronouns = {p.name: p.pronouns for p in story.pregens} if story is not None else {}
    for enemy in found.standing:
        spec = enemy_spec(enemy, story)
        # how the story refers to the enemy and the one it goes for (wyrd.oracle.grammar)
        them = (worded(enemy.name, spec) if spec is not None else None) or enemy.name
        if spec is not None and spec.actions:
            rows = spec.actions
            face = dice.roll(1, len(rows), f"enemy action: {enemy.id}").faces[0] if len(rows) > 1 else 1
            row = rows[face - 1]
            target = _target(row.target, standing, dice, enemy)
            text = fill(row.text, {"enemy": them, "character": person(target.name, pronouns.get(target.name))})
            tied = _tied(row.target, standing, target)
        else:
            target = _target("random", standing, dice, enemy)
            who = person(target.name, pronouns.get(target.name))
            text = roll(GENERIC, dice, {"enemy": them, "character": who}).text
            tied = None
        out.append(EnemyActed(enemy=enemy.id, text=text, target=target.name, tied=tied))
    return out


def plan_lines(state: W.GameState, targets: Mapping[str, str]) -> list[str]:
    """Whom each enemy still standing goes for this round, as a hint."""
    found = state.encounter
    if not isinstance(found, W.Fight):
        return []
    # Issue 18, point 6: one taken out since the round began is no one to defend, nor one who may act
    standing = {n for n, c in state.characters.items() if not c.out}
    plans = [f"{clean(e.name)} goes for {clean(targets[e.id])}" for e in found.standing
             if targets.get(e.id) in standing]
    if not plans:
        return []
    return [f"This round {'; '.join(plans)}: defend them (`check WHO ABILITY vs ENEMY defend`); "
            "one who passes takes the blow."]
