"""The engine that runs stage rules: standing modifiers, triggers and their effects.

Standing rules (``on: always``) are read when they matter: a challenge's
effective value, a roll's bonus, whether another ability may be spent for free,
and how much Wyrd an attempt demands. Triggered rules fire at a moment (an
attempt, a failure, damage, a Wyrd roll, a 6, a scene's start or end) and apply
their effects through the same functions players' actions use.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from wyrd.rules.abacus.enums import Ability, ChallengeStatus
from wyrd.rules.abacus.events import ChallengePlaced, ClockAdvanced, CounterChanged, StageRuleFired
from wyrd.rules.abacus.stage import (
    Clock,
    Effect,
    EffectKind,
    Lasts,
    Match,
    StageRule,
    Target,
    TriggerKind,
)
from wyrd.rules.abacus.state import Challenge, ChallengeSpec, GameState
from wyrd.rules.abacus.turn import Turn

__all__ = [
    "Moment",
    "advance_clock",
    "apply_effect",
    "attempt_cost",
    "check_references",
    "default_damage",
    "effective_value",
    "fire",
    "free_ability",
    "matches",
    "place",
    "take_roll_bonus",
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


def matches(match: Match, challenge: Challenge | None, state: GameState) -> bool:
    """Whether a rule's match covers ``challenge`` (or, with no challenge, the scene)."""
    if challenge is None:
        if match.is_empty:
            return True
        # A trigger with no challenge of its own (a Wyrd 6, a scene's end) looks
        # for a matching challenge in the scene, untackled if it asks for that.
        scene = state.scene
        return scene is not None and any(
            matches(match, ch, state) for ch in scene.challenges.values()
        )
    if match.challenge is not None and match.challenge != challenge.id:
        return False
    if match.type is not None and match.type != challenge.type:
        return False
    if match.denizen is not None and match.denizen != challenge.denizen:
        return False
    return not (match.untackled and (challenge.tackled or challenge.status != ChallengeStatus.OPEN))


_STANDING = (TriggerKind.ALWAYS, TriggerKind.ATTEMPT)


def _standing(state: GameState, kind: EffectKind, challenge: Challenge) -> list[tuple[StageRule, Effect]]:
    # Asked several times for every attempt: the cheap tests (active, trigger, effect kind) go first.
    found: list[tuple[StageRule, Effect]] = []
    for rule in state.stage_rules.values():
        if not rule.active or rule.trigger.on not in _STANDING:
            continue
        effects = [effect for effect in rule.effects if effect.do == kind]
        if effects and matches(rule.trigger.match, challenge, state):
            found += [(rule, effect) for effect in effects if matches(effect.match, challenge, state)]
    return found


def check_references(state: GameState, effects: Iterable[Effect], where: str) -> None:
    """Refuse effects naming a counter, clock or catalogue challenge the game does not have."""
    from wyrd.rules.abacus.errors import UnknownName

    for effect in effects:
        for ident, known, what in ((effect.counter, state.counters, "counter"), (effect.clock, state.clocks, "clock"),
                                   (effect.challenge, state.catalogue, "challenge")):
            if ident is not None and ident not in known:
                raise UnknownName(f"{where} names no known {what} {ident!r}", rule=f"abacus.unknown.{what}")


def effective_value(state: GameState, challenge: Challenge) -> int:
    """The value a roll must reach: base, sabotage, and standing modifiers; never below 0."""
    change = sum(e.n or 0 for _, e in _standing(state, EffectKind.MODIFY, challenge))
    return max(0, challenge.value + challenge.sabotage + change)


def free_ability(state: GameState, challenge: Challenge) -> bool:
    return bool(_standing(state, EffectKind.FREE_ABILITY, challenge))


def attempt_cost(state: GameState, challenge: Challenge) -> int:
    return sum(1 if e.n is None else e.n for _, e in _standing(state, EffectKind.ATTEMPT_COST, challenge))


def take_roll_bonus(turn: Turn, challenge: Challenge) -> int:
    """The bonus standing rules give this roll; rules with limited uses spend one."""
    total = 0
    for rule, effect in _standing(turn.state, EffectKind.ROLL_BONUS, challenge):
        total += effect.n or 0
        _use(turn, rule)
    return total


def _use(turn: Turn, rule: StageRule) -> None:
    if rule.lasts == Lasts.USES:
        rule.uses = (rule.uses or 1) - 1
        if rule.uses <= 0:
            rule.active = False


def default_damage(challenge: Challenge) -> int:
    """[ours, after seed 000's guide of about half the value] half, rounded up."""
    return (challenge.value + 1) // 2


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
                _use(turn, rule)
    finally:
        turn.depth -= 1


def _first_match(match: Match, state: GameState) -> Challenge | None:
    if match.is_empty or state.scene is None:
        return None
    return next((ch for ch in state.scene.challenges.values() if matches(match, ch, state)), None)


def _targets(turn: Turn, target: Target, moment: Moment) -> list[str]:
    from wyrd.rules.abacus.wyrd import single_out  # a Wyrd roll can itself fire rules

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
    chosen = single_out(turn, pool, reason="singled out by a stage rule")
    return [chosen] if chosen else []


def apply_effect(turn: Turn, effect: Effect, moment: Moment, *, from_failure: bool = False) -> None:
    """Apply one effect; ``from_failure`` marks the consequences of a failed roll,
    whose damage fires ``damage`` rules (a rule's own damage does not, or Bloody
    would run through the whole cast)."""
    # Both fire rules in turn. Import the functions from their modules: the package
    # re-exports functions named ``harm`` and ``wyrd``, which shadow the submodules.
    from wyrd.rules.abacus.harm import damage, scratch
    from wyrd.rules.abacus.wyrd import wyrd_roll

    kind = effect.do
    if kind in (EffectKind.MODIFY, EffectKind.ROLL_BONUS, EffectKind.ATTEMPT_COST,
                EffectKind.FREE_ABILITY, EffectKind.MARK):
        return  # standing effects are read where they apply; a mark only tells
    if kind == EffectKind.COUNTER:
        counter = turn.state.counters[effect.counter or ""]
        change = effect.n if effect.n is not None else 1
        counter.value = max(0, counter.value + change)
        turn.emit(CounterChanged(counter=counter.id, value=counter.value, change=change))
    elif kind == EffectKind.CLOCK:
        advance_clock(turn, turn.state.clocks[effect.clock or ""], effect.n or 1)
    elif kind == EffectKind.PLACE:
        if turn.state.scene is not None:
            place(turn, turn.state.catalogue[effect.challenge or ""])
    elif kind == EffectKind.WYRD_ROLL:
        names = _targets(turn, effect.target, moment)
        if names:
            wyrd_roll(turn, names, reason="called by a stage rule")
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
                n = default_damage(moment.challenge)
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
        ClockAdvanced(clock=clock.id, value=clock.value, change=change, thresholds=[t.at for t in crossed])
    )
    for threshold in crossed:
        for effect in threshold.effects:
            apply_effect(turn, effect, Moment(kind=TriggerKind.WYRD_ROLL))
