"""Standing stage rules, read where they matter, and the uses a rule has left.

Seed 000's stage rules that are ``on: always`` (or ``on: attempt``) change no
state when they fire; they stand, and the rules ask them when it matters: a
challenge's effective value, a roll's bonus, whether another ability may be
spent for free, and how much Wyrd an attempt demands. Reading them needs only
the state, so influence rolls, challenges and triggered effects
(:mod:`wyrd.rules.abacus.effects`) all build on this module.
"""

from __future__ import annotations

from wyrd.rules.abacus.enums import ChallengeStatus
from wyrd.rules.abacus.stage import Effect, EffectKind, Lasts, Match, StageRule, TriggerKind
from wyrd.rules.abacus.state import Challenge, GameState
from wyrd.rules.abacus.turn import Turn

__all__ = [
    "attempt_cost", "effective_value", "free_ability", "magic_limit", "matches", "roll_bonus", "take_roll_bonus",
    "use_up",
]


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


def effective_value(state: GameState, challenge: Challenge) -> int:
    """The value a roll must reach: base, sabotage, and standing modifiers; never below 0."""
    change = sum(e.n or 0 for _, e in _standing(state, EffectKind.MODIFY, challenge))
    return max(0, challenge.value + challenge.sabotage + change)


def free_ability(state: GameState, challenge: Challenge) -> bool:
    return bool(_standing(state, EffectKind.FREE_ABILITY, challenge))


def attempt_cost(state: GameState, challenge: Challenge) -> int:
    return sum(1 if e.n is None else e.n for _, e in _standing(state, EffectKind.ATTEMPT_COST, challenge))


def magic_limit(state: GameState) -> int | None:
    """Acts of magic a character may attempt in a scene: seed 000's one, "unless a stage rule
    states otherwise"; the most generous standing rule wins, and one with no ``n`` lifts the limit."""
    limits = [effect.n for rule in state.stage_rules.values()
              if rule.active and rule.trigger.on in _STANDING
              for effect in rule.effects if effect.do == EffectKind.MAGIC_LIMIT]
    if not limits:
        return 1
    if any(n is None for n in limits):
        return None
    return max(1, *(n for n in limits if n is not None))


def roll_bonus(state: GameState, challenge: Challenge) -> int:
    """The bonus standing rules would give a roll on ``challenge`` now (nothing is used up)."""
    return sum(effect.n or 0 for _, effect in _standing(state, EffectKind.ROLL_BONUS, challenge))


def take_roll_bonus(turn: Turn, challenge: Challenge) -> int:
    """The bonus standing rules give this roll; rules with limited uses spend one."""
    total = 0
    for rule, effect in _standing(turn.state, EffectKind.ROLL_BONUS, challenge):
        total += effect.n or 0
        use_up(turn, rule)
    return total


def use_up(turn: Turn, rule: StageRule) -> None:
    """One use of a rule that lasts a number of uses; the last one ends it."""
    if rule.lasts == Lasts.USES:
        rule.uses = (rule.uses or 1) - 1
        if rule.uses <= 0:
            rule.active = False
