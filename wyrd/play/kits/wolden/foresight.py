"""Wolden's odds before the dice, and what its oracle reads: the strain of a scene, and criticals as fate.

:func:`preview` answers ``odds COMMAND``: a ``check`` is opened on a copy of the game
(nothing is rolled or saved) and its exact odds shown as percentages, with what each
result brings; ``roll`` weighs the open roll; ``scene``, ``fight``, ``extended`` and
``montage`` weigh one roll of each character standing against what the encounter would
be; ``pass`` names the blows it lets through.

The oracle's hooks: :func:`tension` (a scene's strain: enemies standing, wounds carried
and characters taken out), and :func:`oracle_twist`, a doubled answer's twist chosen as a
critical would choose it (Wolden's sign of fate: a yes-side double reads as a critical
success, a no-side one as a critical failure; see :mod:`wyrd.play.kits.wolden.fate`).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.frontends.view import clean
from wyrd.play.kits.wolden.narrator import able
from wyrd.play.kits.wolden.texts import ability_name
from wyrd.play.kits.wolden.verbs import wolden
from wyrd.rules.dice import Dice, ScriptedSource
from wyrd.rules.errors import RuleError
from wyrd.rules.wolden.odds import check_odds, pending_odds
from wyrd.stories.wolden import ExtendedSpec, FightSpec, MontageSpec, Scenario, ScenarioProgress

__all__ = ["TENSION_MAX", "TENSION_WORDS", "odds_lines", "percent", "preview", "tension"]

TENSION_MAX = 8
TENSION_WORDS = "the scene's strain (enemies standing, wounds carried, characters taken out)"


def percent(p: Fraction) -> str:
    """A chance as players read it, the exact fraction after it in brackets."""
    if p in (0, 1):
        return f"{float(p):.0%}"
    return f"{float(p):.1%} ({p})"


_RESULTS = {"critical_failure": "critical failure", "failure": "failure", "partial": "partial",
            "success": "success", "critical_success": "critical success"}


def odds_lines(state: W.GameState) -> list[str]:
    """The exact chance of each result of the open roll, and what each would bring."""
    pending = state.pending
    if pending is None:
        return []
    char = state.characters[pending.lead]
    odds = pending_odds(state)
    assert odds is not None
    score = odds.ability
    parts = ", ".join(f"{_RESULTS[r.value]} {percent(p)}" for r, p in odds.outcomes)
    lines = [f"{clean(char.name)} rolls {odds.dice}d12 + {ability_name(pending.ability)} {score}: {parts}."]
    who = ", ".join(map(clean, pending.involved))
    found = state.encounter
    if pending.against is None or found is None:
        lines.append("A plain roll: what follows is the story's (harm, wound).")
    elif isinstance(found, W.Fight):
        enemy = found.enemies[pending.against]
        blow = f"it hits {who} for {enemy.damage.notation} each ({enemy.damage.maximum} on a critical failure)"
        if pending.attack:
            lines.append(f"Against {clean(enemy.name)} ({enemy.taken}/{enemy.harm} harm): 6 or less, {blow}; "
                         "7 to 12, 1 harm to it and it hits; 13 or more, 1 harm to it (2 on a critical) "
                         "and it misses.")
        else:
            lines.append(f"Defending against {clean(enemy.name)}: 12 or less, {blow}; 13 or more, it misses.")
    else:
        change = float(odds.expected_rating_change)
        text = (f"Against {clean(found.name)}, rating {found.rating} (done at 0, lost at {W.LOST_AT * found.start}): "
                f"+4, +2, -1, -2, -4 by result, {change:+.2f} on average")
        if found.danger is not None:
            each = who if len(pending.involved) == 1 else f"each of {who}"
            text += f"; 12 or less deals {found.danger.notation} to {each}"
        lines.append(text + ".")
    return lines


def tension(state: Any) -> int:
    """The oracle's chaos in Wolden: enemies standing, wounds carried and characters out, at most 8."""
    game = wolden(state)
    found = game.encounter
    enemies = len(found.standing) if isinstance(found, W.Fight) else 0
    wounds = sum(c.wounds for c in game.characters.values() if not c.out)
    out = sum(1 for c in game.characters.values() if c.out)
    return min(TENSION_MAX, enemies + wounds + out)


def _progress(follower: Any) -> ScenarioProgress:
    return follower if isinstance(follower, ScenarioProgress) else ScenarioProgress()


def _best(char: W.Character) -> tuple[W.Ability, int]:
    return max(((a, char.current(a)) for a in W.Ability), key=lambda pair: pair[1])


def _each_roll(game: W.GameState, fight: bool) -> list[str]:
    """One roll of 1d12 with each standing character's best ability: the chance of each reading."""
    lines = []
    for name in able(game):
        ability, score = _best(game.characters[name])
        odds = check_odds(1, score)
        high, mid, low = odds.p_any_success, odds.p_partial, odds.p_any_failure
        if fight:
            said = (f"it misses and takes harm {percent(high)}, both hit {percent(mid)}, "
                    f"it hits {percent(low)}")
        else:
            said = (f"success {percent(high)}, partial {percent(mid)}, failure {percent(low)}; "
                    f"the rating moves {float(odds.expected_rating_change):+.2f} a roll on average")
        lines.append(f"  {clean(name)}, {ability_name(ability)} {score} on 1d12: {said}.")
    return lines


def _encounter_preview(spec: ExtendedSpec | MontageSpec | FightSpec, story: Scenario,
                       game: W.GameState) -> list[str]:
    if isinstance(spec, FightSpec):
        foes = [story.enemy(e) for e in spec.enemies]
        listed = "; ".join(f"{clean(f.name)} ({f.harm} harm, hits for {f.damage})" for f in foes)
        head = [f"{clean(spec.name)} would be a fight against {listed}. One roll each (a gift, an advantage or "
                "help adds a d12):"]
        return head + _each_roll(game, True)
    kind = "a travel montage" if isinstance(spec, MontageSpec) else "an extended challenge"
    danger = f"; failures and partials deal {spec.danger}" if spec.danger else ""
    head = [f"{clean(spec.name)} would be {kind} of rating {spec.rating}{danger}. One roll each (a gift, an "
            "advantage or help adds a d12):"]
    return head + _each_roll(game, False)


def _check_preview(game: W.GameState, command: Any) -> list[str]:
    try:
        opened = command.verb.apply(game, Dice(ScriptedSource([])), command.args)
    except RuleError as exc:
        return [f"That roll would be refused: {clean(exc)}"]
    return ["Before the dice (nothing is rolled):", *odds_lines(opened.state)]


def _pass_preview(game: W.GameState, follower: Any, who: str) -> list[str]:
    found = game.encounter
    if not isinstance(found, W.Fight):
        return [f"A pass costs {clean(who)} nothing here: no enemy is waiting for an opening."]
    targets = _progress(follower).targets
    blows = [e for e in found.standing if targets.get(e.id) == who]
    if not blows:
        return [f"No enemy goes for {clean(who)} this round: a pass costs nothing."]
    return [f"If {clean(who)} passes, {clean(e.name)} strikes for {e.damage.notation} "
            f"({e.damage.count + e.damage.bonus} to {e.damage.maximum}), against Agility." for e in blows]


def preview(state: Any, follower: Any, command: Any) -> list[str]:
    """`odds COMMAND`: the chances of what the command would roll, before anything is rolled."""
    game = wolden(state)
    key, args = command.key, command.args
    story = _progress(follower).scenario
    if key == "check":
        return _check_preview(game, command)
    if key == "roll":
        return odds_lines(game) or ["No roll is open: `check WHO ABILITY` opens one."]
    if key == "pass":
        return _pass_preview(game, follower, str(args["who"]))
    if key == "scene" and story is not None:
        nxt = _progress(follower).next_scene
        if nxt is None or nxt.encounter is None:
            return ["The next scene brings no encounter: nothing to weigh yet."]
        return _encounter_preview(story.encounters[nxt.encounter], story, game)
    if key in ("fight", "extended", "montage") and story is not None:
        words = args.get("enemies") or [args.get("name")]
        spec = story.encounters.get(str(words[0])) if len(words) == 1 else None
        if spec is None:
            spec = next((s for s in story.encounters.values()
                         if str(words[0]).casefold() in (s.id, s.name.casefold())), None)
        if spec is not None:
            return _encounter_preview(spec, story, game)
    if key in ("fight", "extended", "montage"):
        return ["Each roll in it (a gift, an advantage or help adds a d12):",
                *_each_roll(game, key == "fight")]
    if key == "downtime":
        return ["A downtime rolls on tables (training: the cult's powers; carouse: its carousing table; rest: "
                "2d4 more wounds healed): there is no failing it."]
    return []
