"""The engine of consequences: triggered stage rules, damage and Wyrd rolls, each able to set off the others.

Triggered rules fire at a moment (an attempt, a failure, damage, a Wyrd roll, a
6, a scene's start or end) and apply their effects through the same functions
players' actions use. Those functions fire rules in turn: damage from a failure
fires ``damage`` rules, a defeat calls a Wyrd roll, a Wyrd roll advances clocks,
sets loose servants and fires ``wyrd roll`` and ``wyrd 6`` rules, which may
harm or roll again (up to :attr:`Turn.MAX_DEPTH`). Being one recursion, they
live in one module; the actions built on them are in :mod:`~wyrd.rules.abacus.harm`
and :mod:`~wyrd.rules.abacus.wyrd`. Standing rules, which only change what a
roll needs, are read in :mod:`~wyrd.rules.abacus.standing` (re-exported here).

Seed 000 on harm: damage lowers a character's current points; a consequence that
would scratch out an ability already scratched defeats the character, whose player
then rolls their Wyrd (a 6: the character becomes an impediment to the survivors).
[ours, RULES.md] Damage beyond 0 current points scratches the ability out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from wyrd.rules.abacus.enums import Ability, ChallengeType
from wyrd.rules.abacus.errors import UnknownName
from wyrd.rules.abacus.events import (
    AbilityScratched,
    ChallengePlaced,
    CharacterDefeated,
    ClockAdvanced,
    CounterChanged,
    CounterFired,
    Damage,
    InfluenceRolled,
    ServantLoose,
    StageRuleFired,
)
from wyrd.rules.abacus.influence import TraitRoll, rank, roll_trait
from wyrd.rules.abacus.reasons import RollReason
from wyrd.rules.abacus.stage import Clock, Effect, EffectKind, Match, Target, TriggerKind
from wyrd.rules.abacus.standing import (
    attempt_cost,
    effective_value,
    free_ability,
    matches,
    take_roll_bonus,
    use_up,
)
from wyrd.rules.abacus.state import Challenge, ChallengeSpec, GameState
from wyrd.rules.abacus.turn import Turn

__all__ = [
    "Moment",
    "advance_clock",
    "apply_effect",
    "attempt_cost",
    "check_references",
    "damage",
    "default_damage",
    "defeat",
    "effective_value",
    "fire",
    "free_ability",
    "matches",
    "place",
    "place_or_wait",
    "scratch",
    "single_out",
    "take_roll_bonus",
    "wyrd_roll",
]


# A moment lives for one trigger and is made by the rules from state they hold:
# a plain dataclass, as a validated model would check what is already checked.
@dataclass(frozen=True, slots=True)
class Moment:
    """What a trigger fired on: the challenge, who it concerns, and how much."""

    kind: TriggerKind
    challenge: Challenge | None = None
    subject: str | None = None
    amount: int | None = None
    lead: str | None = None
    involved: Sequence[str] = ()
    results: Mapping[str, int] = field(default_factory=dict)


def check_references(state: GameState, effects: Iterable[Effect], where: str) -> None:
    """Refuse effects naming a counter, clock or catalogue challenge the game does not have."""
    for effect in effects:
        for ident, known, what in ((effect.counter, state.counters, "counter"), (effect.clock, state.clocks, "clock"),
                                   (effect.challenge, state.catalogue, "challenge")):
            if ident is not None and ident not in known:
                raise UnknownName(f"{where} names no known {what} {ident!r}", rule=f"abacus.unknown.{what}")


def default_damage(value: int) -> int:
    """[ours, after seed 000's guide of "about half the value of the challenge"] half the value
    the roll was made against (after Wards, Spells and sabotage), rounded up."""
    return (value + 1) // 2


def place(turn: Turn, spec: ChallengeSpec) -> Challenge:
    """Put a challenge into the open scene under a fresh id."""
    scene = turn.in_scene()
    ident = spec.id
    suffix = 2
    while ident in scene.challenges:
        ident = f"{spec.id}-{suffix}"
        suffix += 1
    # The spec's fields are already validated, so pass them as they are (not dumped and rebuilt);
    # its effects are shared, never changed in place.
    challenge = Challenge(**{**spec.__dict__, "id": ident})
    scene.challenges[ident] = challenge
    turn.emit(
        ChallengePlaced(
            id=ident, name=challenge.name, type=challenge.type,
            value=effective_value(turn.state, challenge), denizen=challenge.denizen,
        )
    )
    return challenge


def place_or_wait(turn: Turn, spec: ChallengeSpec) -> str | None:
    """Place ``spec`` in the open scene, or, between scenes or while a scene closes, keep it for
    the next scene (seed 000: "every scene involves an additional Pursuit challenge")."""
    if turn.legacy:
        # (The first reading placed nothing between scenes, and into a closing scene all the same.)
        return place(turn, spec).id if turn.state.scene is not None else None
    if turn.state.scene is None or turn.closing:
        turn.state.waiting.append(spec)
        return None
    return place(turn, spec).id


def fire(turn: Turn, moment: Moment) -> None:
    """Fire every active rule whose trigger is this moment."""
    if turn.depth >= Turn.MAX_DEPTH:
        return
    turn.depth += 1
    try:
        for rule in list(turn.state.stage_rules.values()):
            if not rule.active or rule.trigger.on != moment.kind:
                continue
            if not matches(rule.trigger.match, moment.challenge, turn.state):
                continue
            subjects: list[str | None] = [moment.subject]
            if rule.trigger.at_or_under is not None:
                counter = turn.state.counters.get(rule.trigger.at_or_under)
                if counter is None:
                    continue
                subjects = [n for n, r in moment.results.items() if r <= counter.value]
            for subject in subjects:
                if not rule.active:
                    break
                turn.emit(StageRuleFired(rule=rule.id, name=rule.name, subject=subject, text=rule.text))
                # A rule about a challenge (an untackled danger going off) acts as that challenge.
                about = moment.challenge or _first_match(rule.trigger.match, turn.state)
                here = replace(moment, subject=subject, challenge=about)
                for effect in rule.effects:
                    apply_effect(turn, effect, here)
                use_up(turn, rule)
    finally:
        turn.depth -= 1


def _first_match(match: Match, state: GameState) -> Challenge | None:
    if match.is_empty or state.scene is None:
        return None
    return next((ch for ch in state.scene.challenges.values() if matches(match, ch, state)), None)


def _targets(turn: Turn, target: Target, moment: Moment) -> list[str]:
    scene = turn.state.scene
    present = [
        n for n in (scene.present if scene else []) if not turn.state.characters[n].defeated
    ]
    def standing(names: list[str]) -> list[str]:
        # A character defeated by an earlier consequence takes no more of them.
        return [n for n in names if n in turn.state.characters and not turn.state.characters[n].defeated]

    if target == Target.LEAD:
        return standing([moment.lead] if moment.lead else [])
    if target == Target.INVOLVED:
        return standing(list(moment.involved))
    if target == Target.PRESENT:
        return present
    if target == Target.SUBJECT and moment.subject:
        return standing([moment.subject])
    pool = [n for n in present if n != moment.subject] if target == Target.OTHER else present
    chosen = single_out(turn, pool, reason=RollReason.SINGLED_OUT)
    return [chosen] if chosen else []


def apply_effect(turn: Turn, effect: Effect, moment: Moment, *, from_failure: bool = False) -> None:
    """Apply one effect; ``from_failure`` marks the consequences of a failed roll,
    whose damage fires ``damage`` rules (a rule's own damage does not, or Bloody
    would run through the whole cast)."""
    kind = effect.do
    if kind in (EffectKind.MODIFY, EffectKind.ROLL_BONUS, EffectKind.ATTEMPT_COST,
                EffectKind.FREE_ABILITY, EffectKind.MARK, EffectKind.MAGIC_LIMIT):
        return  # standing effects are read where they apply; a mark only tells
    if kind == EffectKind.COUNTER:
        counter = turn.state.counters[effect.counter or ""]
        change = effect.n if effect.n is not None else 1
        counter.value = max(0, counter.value + change)
        turn.emit(CounterChanged(counter=counter.id, value=counter.value, change=change, name=counter.name))
    elif kind == EffectKind.CLOCK:
        advance_clock(turn, turn.state.clocks[effect.clock or ""], effect.n or 1)
    elif kind == EffectKind.PLACE:
        place_or_wait(turn, turn.state.catalogue[effect.challenge or ""])
    elif kind == EffectKind.WYRD_ROLL:
        names = _targets(turn, effect.target, moment)
        if names:
            wyrd_roll(turn, names, reason=RollReason.STAGE_RULE)
    elif kind in (EffectKind.DAMAGE, EffectKind.SCRATCH):
        if turn.state.scene is None:
            return  # seed 000: no consequences between scenes (a finale's 6 harms no one)
        ability = effect.ability or (moment.challenge.type.ability if moment.challenge else None)
        if ability is None:
            ability = Ability.BODY
        for name in _targets(turn, effect.target, moment):
            if kind == EffectKind.SCRATCH:
                scratch(turn, name, ability, source=moment.challenge.id if moment.challenge else None)
                continue
            if effect.n is not None:
                n = effect.n
            elif moment.amount is not None:
                n = moment.amount
            elif moment.challenge is not None:
                # (the first reading: half the base value)
                n = default_damage(moment.challenge.value if turn.legacy
                                   else effective_value(turn.state, moment.challenge))
            else:
                n = 1
            damage(turn, name, ability, n, source=moment.challenge.id if moment.challenge else None,
                        from_failure=from_failure)


def advance_clock(turn: Turn, clock: Clock, change: int) -> None:
    if change == 0:
        return
    before = clock.value
    clock.value = max(0, before + change)
    crossed = [t for t in clock.thresholds if before < t.at <= clock.value and t.at not in clock.reached]
    clock.reached.extend(t.at for t in crossed)
    turn.emit(
        ClockAdvanced(clock=clock.id, value=clock.value, change=change, thresholds=[t.at for t in crossed],
                      name=clock.name)
    )
    for threshold in crossed:
        for effect in threshold.effects:
            apply_effect(turn, effect, Moment(kind=TriggerKind.WYRD_ROLL))


# -- harm (seed 000): damage, scratch-out, defeat ----------------------------------------


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
    char = turn.character(name)
    char.defeated = True
    (roll,) = wyrd_roll(turn, [char.name], reason=RollReason.DEFEAT, include_defeated=True)
    char.impediment = roll.result == 6
    turn.emit(CharacterDefeated(character=char.name, wyrd_result=roll.result, impediment=char.impediment))


# -- Wyrd rolls (seed 000): the personal pool rolled, and all that hangs on it ------------


def wyrd_roll(
    turn: Turn, names: Sequence[str], *, reason: str, scene_end: bool = False,
    include_defeated: bool = False,
) -> list[TraitRoll]:
    """Roll each named character's personal Wyrd and apply what hangs on the results."""
    rolls: list[TraitRoll] = []
    for name in turn.names(names):
        char = turn.character(name) if include_defeated else turn.active(name)
        roll = roll_trait(turn.dice, char.name, char.wyrd, "wyrd roll")
        rolls.append(roll)
        turn.emit(
            InfluenceRolled(
                character=char.name, trait="wyrd", dice=list(roll.dice), result=roll.result,
                ties=roll.ties, reason=reason,
            )
        )
    state = turn.state
    if state.scene is not None:
        state.scene.wyrd_rolls += 1
    for clock in state.clocks.values():
        if clock.scene_end_only and not scene_end:
            continue
        counted = sum(1 for r in rolls for face in r.dice if face in clock.faces)
        advance_clock(turn, clock, counted)
    results = {r.character: r.result for r in rolls}
    for counter in state.counters.values():
        for r in rolls:
            if r.result <= counter.value:
                turn.emit(CounterFired(counter=counter.id, value=counter.value, character=r.character,
                                        result=r.result, name=counter.name))
    best = max((r.result for r in rolls), default=0)
    for servant in list(state.servants.values()):
        if best >= servant.loose_at:
            del state.servants[servant.id]
            placed = None
            if servant.pool > 0:
                spec = ChallengeSpec(id=servant.id, name=servant.name, type=ChallengeType.THREAT, value=servant.pool)
                placed = place_or_wait(turn, spec)
            turn.emit(ServantLoose(servant=servant.id, challenge=placed, value=servant.pool))
    sixes = [r.character for r in rolls if r.result == 6]
    if sixes:
        fire(turn, Moment(kind=TriggerKind.WYRD_SIX, subject=sixes[0], results=results))
    fire(turn, Moment(kind=TriggerKind.WYRD_ROLL, results=results))
    return rolls


def single_out(turn: Turn, names: Sequence[str], *, reason: str) -> str | None:
    """The character the Wyrd picks: highest result, then most dice showing it."""
    if not names:
        return None
    if len(names) == 1:
        return names[0]
    rolls = wyrd_roll(turn, names, reason=reason)
    return rank(rolls, turn.dice, purpose="wyrd tie-break").order[0]
