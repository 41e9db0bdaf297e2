"""What things cost in the Wyrd Abacus, in words, before anyone rolls.

Seed 000 ends every story with a Wyrd roll of each character's personal pool: a 6 and
the Vale holds them. Every scene Wyrd point drawn joins the drawer's pool, so every
draw raises that chance; :func:`held_chance` is it, exactly (1 - (5/6)^W; no Wyrd at
all counts as a 1, never held). :func:`price_line` puts it beside the odds of a roll.
:func:`challenge_stakes` says what a challenge costs to attempt (a stage rule's
price) and to fail (its consequences and the rules they set off), in names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from wyrd.play.frontends.view import clean
from wyrd.rules.abacus import GameState, effective_value
from wyrd.rules.abacus.effects import default_damage
from wyrd.rules.abacus.stage import Effect, EffectKind, StageRule, Target, TriggerKind
from wyrd.rules.abacus.standing import attempt_cost, matches
from wyrd.rules.abacus.state import Challenge

__all__ = ["attempt_rules", "bearing_rules", "challenge_stakes", "fail_words", "held_chance", "percent", "price_line",
           "rule_words"]


def held_chance(wyrd: int) -> Fraction:
    """The chance that a character with ``wyrd`` personal Wyrd is held by the Vale at the finale.

    Seed 000: the finale is a Wyrd roll, a 6 held; an influence roll of 0 dice counts as a 1.
    """
    if wyrd <= 0:
        return Fraction(0)
    return 1 - Fraction(5, 6) ** wyrd


def percent(chance: Fraction) -> str:
    """A chance as players read it: a whole percentage, never 0% or 100% unless it is exactly so."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    shown = round(float(chance) * 100)
    return f"{min(99, max(1, shown))}%"


def price_line(state: GameState, drawers: Sequence[str], n: int = 1) -> str:
    """What drawing ``n`` Wyrd costs each of ``drawers`` at the finale: held now, held after."""
    parts = []
    for name in drawers:
        char = state.characters.get(name)
        if char is None or char.defeated:
            continue
        now, after = char.wyrd, char.wyrd + n
        parts.append(f"{clean(name)} {percent(held_chance(now))} now, {percent(held_chance(after))} "
                     + ("with one more" if n == 1 else f"with {n} more"))
    if not parts:
        return ""
    return ("Price: Wyrd drawn joins the drawer's own, and at the finale a 6 on it means held by the Vale: "
            + "; ".join(parts) + ".")


# -- stage rules: which bear on this scene -------------------------------------------


def _concerns(rule: StageRule, challenge: Challenge, state: GameState) -> bool:
    if not matches(rule.trigger.match, challenge, state):
        return False
    scoped = [e for e in rule.effects if not e.match.is_empty]
    return not scoped or any(matches(e.match, challenge, state) for e in scoped)


def bearing_rules(state: GameState) -> list[StageRule]:
    """The active stage rules that bear on the scene now: a rule about no challenge in particular
    (a Wyrd roll's, a scene's end), or one about a challenge placed here."""
    scene = state.scene
    found = []
    for rule in state.stage_rules.values():
        if not rule.active:
            continue
        anywhere = rule.trigger.match.is_empty and all(e.match.is_empty for e in rule.effects)
        if anywhere or (scene is not None and any(_concerns(rule, ch, state) for ch in scene.challenges.values())):
            found.append(rule)
    return found


def attempt_rules(state: GameState, challenge: Challenge) -> list[StageRule]:
    """The rules that charge Wyrd just to attempt ``challenge``."""
    return [r for r in state.stage_rules.values()
            if r.active and r.trigger.on in (TriggerKind.ALWAYS, TriggerKind.ATTEMPT)
            and any(e.do == EffectKind.ATTEMPT_COST for e in r.effects) and _concerns(r, challenge, state)]


def _fail_rules(state: GameState, challenge: Challenge) -> list[StageRule]:
    return [r for r in state.stage_rules.values()
            if r.active and r.trigger.on in (TriggerKind.FAIL, TriggerKind.DAMAGE) and _concerns(r, challenge, state)]


# -- effects in words -----------------------------------------------------------------

_WHO = {
    Target.LEAD: "the lead", Target.INVOLVED: "everyone in the roll", Target.PRESENT: "everyone present",
    Target.SUBJECT: "the one it strikes", Target.OTHER: "another present character",
    Target.SINGLED_OUT: "one singled out by a Wyrd roll",
}


def _effect_words(effect: Effect, state: GameState, challenge: Challenge | None) -> str:
    kind = effect.do
    who = _WHO.get(effect.target, "someone")
    n = effect.n
    if kind == EffectKind.DAMAGE:
        ability = effect.ability or (challenge.type.ability if challenge is not None else None)
        if n is None and challenge is not None:
            n = default_damage(effective_value(state, challenge))
        return f"{who} loses {n if n is not None else 'as many'} {ability.value.title() if ability else 'points'}"
    if kind == EffectKind.SCRATCH:
        ability = effect.ability or (challenge.type.ability if challenge is not None else None)
        return f"{who} has {ability.value.title() if ability else 'an ability'} scratched out"
    if kind == EffectKind.COUNTER:
        counter = state.counters.get(effect.counter or "")
        step = n if n is not None else 1
        name = clean(counter.name) if counter is not None else clean(effect.counter)
        return f"{name} {'rises' if step > 0 else 'drops'} by {abs(step)}"
    if kind == EffectKind.CLOCK:
        clock = state.clocks.get(effect.clock or "")
        return f"{clean(clock.name) if clock is not None else clean(effect.clock)} moves on {n or 1}"
    if kind == EffectKind.PLACE:
        spec = state.catalogue.get(effect.challenge or "")
        return f"{clean(spec.name) if spec is not None else clean(effect.challenge)} comes into the scene"
    if kind == EffectKind.WYRD_ROLL:
        return f"a Wyrd roll for {who}"
    if kind == EffectKind.MODIFY:
        return f"values {'+' if (n or 0) > 0 else ''}{n or 0}"
    if kind == EffectKind.ROLL_BONUS:
        return f"{n or 0:+d} to the roll"
    if kind == EffectKind.ATTEMPT_COST:
        return f"{n or 1} scene Wyrd just to attempt"
    if kind == EffectKind.FREE_ABILITY:
        return "any ability may be spent without drawing Wyrd"
    return ""


def _join(parts: Iterable[str]) -> str:
    words = [p for p in parts if p]
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def rule_words(rule: StageRule, state: GameState) -> str:
    """A rule's mechanics in a few words (for a rule whose story wrote no text)."""
    return _join(_effect_words(e, state, None) for e in rule.effects)


def fail_words(state: GameState, challenge: Challenge) -> str:
    """What failing ``challenge`` costs: its consequences and the stage rules they set off."""
    effects = list(challenge.on_fail) if challenge.on_fail is not None else [Effect(do=EffectKind.DAMAGE,
                                                                                    target=Target.LEAD)]
    fail = [_effect_words(e, state, challenge) for e in effects if e.do != EffectKind.MARK]
    for rule in _fail_rules(state, challenge):
        fail.append(f"by {clean(rule.name)}, " + _join(_effect_words(e, state, challenge) for e in rule.effects))
    return _join(fail) if fail else "nothing but the story's turn"


def challenge_stakes(state: GameState, challenge: Challenge) -> str:
    """One line: the challenge, its value, what attempting it costs, and what failing it costs."""
    value = effective_value(state, challenge)
    shown = f"{challenge.type.value} {value}" + (f", was {challenge.value}" if value != challenge.value else "")
    line = f"{clean(challenge.name)} ({shown})"
    if challenge.status.value != "open":
        return f"{line}: {challenge.status.value}."
    parts = []
    cost = attempt_cost(state, challenge)
    if cost:
        names = _join(clean(r.name) for r in attempt_rules(state, challenge))
        parts.append(f"to attempt it the lead draws {cost} Wyrd from the pool ({names})")
    parts.append("to fail: " + fail_words(state, challenge))
    if challenge.after:
        before = [clean(state.scene.challenges[a].name) for a in challenge.after
                  if state.scene is not None and a in state.scene.challenges]
        if before:
            parts.append(f"only after {_join(before)}")
    return f"{line}: " + "; ".join(parts) + "."
