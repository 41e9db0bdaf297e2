"""Scenes and what lies between them: the scene pool, recovery and rest.

Seed 000: at the start of a scene the pool holds one Wyrd point per character
present, plus one ([ours, RULES.md] defeated characters do not count); what is
left at the end is lost. A defeated character's player has 2 points a scene to
spend for others. Each character who faced a challenge in the scene restores one
spent point in an ability that is not scratched (one more with the optional
connection rule). Between scenes there is no pool and no challenge; a rest is an
influence roll in one ability, +1 point per 6.

[ours, RULES.md] If no Wyrd roll was made in a scene, one is made for everyone
present at its end; it is also made when a clock counts only scene-end rolls.
[ours] A character rests at most once between two scenes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wyrd.rules.abacus.characters import Character
from wyrd.rules.abacus.effects import Moment, check_references, fire, place
from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import NotEnoughPoints, OutOfTurn
from wyrd.rules.abacus.events import (
    InfluenceRolled,
    PointsRecovered,
    RecoveryRefused,
    SceneEnded,
    SceneStarted,
    StageRuleAdded,
)
from wyrd.rules.abacus.influence import roll_trait
from wyrd.rules.abacus.reasons import RecoveryReason, RollReason
from wyrd.rules.abacus.stage import Lasts, StageRule, TriggerKind
from wyrd.rules.abacus.state import ChallengeSpec, Scene
from wyrd.rules.abacus.turn import Turn, action
from wyrd.rules.abacus.wyrd import wyrd_roll

__all__ = ["GHOST_WYRD", "SCENE_TEST", "add_rule", "end_scene", "rest", "start_scene"]

GHOST_WYRD = 2
SCENE_TEST = RollReason.SCENE_TEST  # the name of old: the reason of a scene's first Wyrd roll


@action
def start_scene(
    turn: Turn, present: Sequence[str], ident: str | None = None, *,
    challenges: Sequence[ChallengeSpec] = (), rules: Sequence[StageRule] = (), test: bool = False,
) -> None:
    """Begin a scene with ``present``; assemble the pool; place its challenges and rules.

    With ``test``, the scene test (DESIGN.md, our design): a Wyrd roll, counting as
    the scene's, for those present who have any personal Wyrd. Those with none are
    not yet touched by the Wyrd and do not roll, so early scenes go as expected.
    """
    state = turn.state
    turn.not_ended()
    if state.scene is not None:
        raise OutOfTurn(f"scene {state.scene.id} is still going; end it first", rule="abacus.scene.one-at-a-time")
    names = turn.names(present)
    if not names:
        raise OutOfTurn("a scene needs at least one character present", rule="abacus.scene.present")
    for name in names:
        turn.active(name)
    for rule in rules:
        check_references(state, rule.effects, f"rule {rule.id}")
    for spec in challenges:
        check_references(state, spec.on_fail or [], f"challenge {spec.id}")
    number = state.scenes_played + 1
    scene = Scene(
        id=ident or f"scene-{number}", number=number, present=names, pool=len(names) + 1,
        ghost={c.name: GHOST_WYRD for c in state.characters.values() if c.defeated},
    )
    state.scene = scene
    state.rested = []
    turn.emit(SceneStarted(scene=scene.id, number=number, present=names, pool=scene.pool, ghost=dict(scene.ghost)))
    for rule in rules:
        add_rule(turn, rule.model_copy(update={"lasts": rule.lasts if rule.lasts != Lasts.STORY else Lasts.SCENE}))
    for spec in challenges:
        place(turn, spec)
    # What was set loose or called for since the last scene (a clock's threshold, a servant) is here now.
    waiting, state.waiting = state.waiting, []
    for spec in waiting:
        place(turn, spec)
    fire(turn, Moment(kind=TriggerKind.SCENE_START))
    touched = [n for n in names if state.characters[n].wyrd > 0]
    if test and touched:
        wyrd_roll(turn, touched, reason=SCENE_TEST)


def add_rule(turn: Turn, rule: StageRule) -> str:
    """Put a stage rule in play under a fresh id, which is returned."""
    ident = rule.id
    suffix = 2
    while ident in turn.state.stage_rules:
        ident = f"{rule.id}-{suffix}"
        suffix += 1
    turn.state.stage_rules[ident] = rule.model_copy(update={"id": ident})
    turn.emit(StageRuleAdded(rule=ident, name=rule.name, source=rule.source))
    return ident


def _default_recovery(char: Character) -> Ability | None:
    """[ours] Unchosen, recovery goes to the usable ability with most points spent."""
    usable = [a for a in Ability if not char.is_scratched(a) and char.spent(a) > 0]
    return max(usable, key=lambda a: char.spent(a), default=None)


def _recover(turn: Turn, char: Character, ability: Ability, reason: RollReason | RecoveryReason) -> None:
    if char.is_scratched(ability):
        raise OutOfTurn(
            f"{char.name}'s {ability.value.title()} is scratched out and cannot recover",
            rule="abacus.recovery.scratched",
        )
    if char.spent(ability) <= 0:
        raise NotEnoughPoints(
            f"{char.name} has spent no {ability.value.title()} to recover", rule="abacus.recovery.nothing-spent"
        )
    char.points[ability] += 1
    turn.emit(PointsRecovered(character=char.name, ability=ability, n=1, points_after=char.points[ability],
                              reason=reason))


def _refusal(char: Character, ability: Ability, faced: Sequence[str]) -> str:
    """The rule a named recovery breaks, or "" if it may be made."""
    if char.defeated or char.name not in faced:
        return "abacus.recovery.faced-a-challenge"
    if char.is_scratched(ability):
        return "abacus.recovery.scratched"
    if char.spent(ability) <= 0:
        return "abacus.recovery.nothing-spent"
    return ""


@action
def end_scene(
    turn: Turn, recover: Mapping[str, Ability] | None = None, connections: Mapping[str, Ability] | None = None,
) -> None:
    """Close the scene: its Wyrd roll if owed, untackled dangers, recovery, the pool lost.

    ``recover`` chooses each character's recovered ability; ``connections`` names
    those who drew on their connection (only with the optional rule on).
    """
    state = turn.state
    scene = turn.in_scene()
    if state.pending is not None:
        raise OutOfTurn(f"the roll on {state.pending.challenge} is still open", rule="abacus.scene.roll-open")
    chosen = {turn.character(k).name: Ability(v) for k, v in (recover or {}).items()}
    bonds = {turn.character(k).name: Ability(v) for k, v in (connections or {}).items()}
    if bonds and not state.connections:
        raise OutOfTurn("the connection rule is not in use in this story", rule="abacus.recovery.connection-off")
    present = [n for n in scene.present if not state.characters[n].defeated]
    turn.closing = True  # what the closing scene's roll places would vanish with it: it waits
    owed = scene.wyrd_rolls == 0 or any(c.scene_end_only for c in state.clocks.values())
    if owed and present:
        wyrd_roll(turn, present, reason=RollReason.SCENE_END, scene_end=True)
    fire(turn, Moment(kind=TriggerKind.SCENE_END))
    # [ours] A wrong name refuses only that name's recovery: the scene still ends for everyone.
    # Checked after the scene-end roll, which may harm.
    refused: list[RecoveryRefused] = []
    for name, wanted in list(chosen.items()):
        why = _refusal(state.characters[name], wanted, scene.faced)
        if why:
            refused.append(RecoveryRefused(character=name, ability=wanted, rule=why))
            del chosen[name]
    for name, wanted in list(bonds.items()):
        why = _refusal(state.characters[name], wanted, scene.faced)
        if not why and state.characters[name].connection is None:
            why = "abacus.recovery.connection"
        if why:
            refused.append(RecoveryRefused(character=name, ability=wanted, rule=why))
            del bonds[name]
    for event in refused:
        # (The first reading checked names before the roll: one the roll defeated just went without.)
        if not (turn.legacy and state.characters[event.character].defeated):
            turn.emit(event)
    for name in scene.faced:
        char = state.characters[name]
        if char.defeated:
            continue
        ability = chosen.get(name) or _default_recovery(char)
        if ability is not None:
            _recover(turn, char, ability, RollReason.SCENE_END)
        if name in bonds:
            _recover(turn, char, bonds[name], RecoveryReason.CONNECTION)
    for rule in state.stage_rules.values():
        if rule.lasts == Lasts.SCENE or rule.scene_only:
            rule.active = False
    state.stage_rules = {k: r for k, r in state.stage_rules.items() if r.active}
    turn.emit(SceneEnded(scene=scene.id, pool_lost=scene.pool))
    state.scene = None
    state.scenes_played += 1


@action
def rest(turn: Turn, who: str, ability: Ability) -> None:
    """A real rest between scenes: an influence roll of ``ability``, +1 point per 6."""
    state = turn.state
    turn.not_ended()
    if state.scene is not None:
        raise OutOfTurn("rest comes between scenes, not during one", rule="abacus.rest.between-scenes")
    char = turn.active(who)
    ability = Ability(ability)
    if char.name in state.rested:
        raise OutOfTurn(f"{char.name} has already rested since the last scene", rule="abacus.rest.once")
    if char.is_scratched(ability):
        raise OutOfTurn(
            f"{char.name}'s {ability.value.title()} is scratched out and cannot recover",
            rule="abacus.recovery.scratched",
        )
    roll = roll_trait(turn.dice, char.name, char.scores[ability], f"rest: {ability.value}")
    turn.emit(InfluenceRolled(character=char.name, trait=ability.value, dice=list(roll.dice), result=roll.result,
                              ties=roll.ties, reason=RollReason.REST))
    state.rested.append(char.name)
    gained = min(roll.sixes, char.spent(ability))
    char.points[ability] += gained
    turn.emit(PointsRecovered(character=char.name, ability=ability, n=gained, points_after=char.points[ability],
                              reason=RollReason.REST))
