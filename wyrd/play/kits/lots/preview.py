"""``odds COMMAND`` in Thaeborn: a command's chances before any lot is cast, as percentages.

Seed 004: a check succeeds when the Attribute meets the Difficulty, unless the lots
(a WEAL d4 and a WOE d4) turn it. The chances here are the rules' own
(:func:`wyrd.rules.lots.check_odds`, :func:`~wyrd.rules.lots.mettle_odds`), read from the
command's words and the state as the verb would read them; nothing is cast, saved or
changed. Each line names what the scene says failing costs, and the standing rules in
force, before the attempt.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from wyrd.play.kits.lots.looks import percent
from wyrd.rules.lots import CheckOdds, Discipline, GameState, Stat, check_odds, mettle_odds, portent_cost
from wyrd.rules.lots.odds import attack_odds
from wyrd.stories.lots import ScenarioPlay

__all__ = ["preview"]

_SIXTEENTH = Fraction(1, 16)


def _pc(p: Fraction) -> str:
    """``88% (7/8)``: the percentage first, the exact fraction after it in brackets."""
    return percent(p) if p in (0, 1) else f"{percent(p)} ({p})"


def _fate(odds: CheckOdds) -> str:
    return (f"a WEAL {_pc(odds.p_weal)} (heightened, a CRIT: {_pc(_SIXTEENTH)}), "
            f"a WOE {_pc(odds.p_woe)} (heightened, a FUMBLE: {_pc(_SIXTEENTH)})")


def _odds_line(head: str, odds: CheckOdds, *, retry: bool = True) -> list[str]:
    fail = 1 - odds.p_success - odds.p_waste
    lines = [f"{head}: success {_pc(odds.p_success)}, failure {_pc(fail)}, a WASTE (effort lost) "
             f"{_pc(odds.p_waste)}."]
    if odds.crit_barred:
        lines.append("The Rule of Fours: the Tier is 4 or more above the Proficiency, so not even a CRIT carries it.")
    elif odds.fumble_barred:
        lines.append("The Rule of Fours: the Proficiency is 4 or more above the Tier, so not even a FUMBLE sinks it.")
    lines.append(f"Fate: {_fate(odds)}" + (f"; may try again after {_pc(odds.p_retry)}." if retry else "."))
    return lines


def _stakes(follower: Any, purpose: str, discipline: object) -> list[str]:
    """What the scene says failing this costs, and the standing rules in force: named before the attempt."""
    if not isinstance(follower, ScenarioPlay) or follower.scenario is None:
        return []
    lines: list[str] = []
    call = follower.call_for(purpose, discipline, None)
    if call is not None and call.fails:
        lines.append(f"Failing costs: {call.fails}")
    rules = [*follower.scenario.rules, *(follower.current.rules if follower.current is not None else [])]
    if rules:
        lines.append("In force: " + "; ".join(f"{r.name} ({r.text})" for r in rules))
    return lines


def _fight_stakes(follower: Any, npc: str) -> list[str]:
    """What the scene says losing its fight costs, when the blow is against its foe."""
    scene = follower.current if isinstance(follower, ScenarioPlay) else None
    if scene is None or scene.fight is None or scene.fight.npc != npc or not scene.fight.fails:
        return []
    return [f"Losing this fight costs: {scene.fight.fails}"]


def _check(state: GameState, args: dict[str, Any], follower: Any) -> list[str]:
    char = state.characters[args["who"]]
    if args.get("value") is not None:
        base, named = int(args["value"]), "a value"
    elif args.get("stat"):
        base, named = char.stat(Stat(args["stat"])), str(args["stat"]).title()
    else:
        base, named = char.discipline(Discipline(args["discipline"])), str(args["discipline"]).title()
    attribute = base + int(args.get("modifier") or 0)
    difficulty = int(args["difficulty"])
    odds = check_odds(attribute, difficulty, proficiency=args.get("proficiency") or base,
                      tier=args.get("tier") if args.get("tier") is not None else difficulty)
    head = f"{char.name} checks {named} {attribute} vs {difficulty}"
    if char.npc:
        return [f"{char.name} is an NPC, and only players roll: they make no checks."]
    return _odds_line(head, odds) + _stakes(follower, str(args.get("purpose") or ""), args.get("discipline"))


def _again(state: GameState, args: dict[str, Any]) -> list[str]:
    char = state.characters[args["who"]]
    spec = char.condition.retry
    if spec is None or spec.attribute is None or spec.difficulty is None:
        return [f"{char.name} has no check to try again."]
    attribute = spec.attribute + int(args.get("modifier") or 0)
    odds = check_odds(attribute, spec.difficulty, proficiency=spec.rule_proficiency, tier=spec.rule_tier)
    return _odds_line(f"{char.name} tries again, {attribute} vs {spec.difficulty}", odds)


def _sides(state: GameState, args: dict[str, Any], attacker: str, target: str) -> tuple[int, int]:
    mods = args.get("mods", [])
    plus_off = sum(int(m["n"]) for m in mods if m["on"] == "offense")
    plus_def = sum(int(m["n"]) for m in mods if m["on"] == "defense")
    a, t = state.characters[attacker], state.characters[target]
    offense = (args["offense"] if args.get("offense") is not None else a.discipline(Discipline.PROWESS)) + plus_off
    defense = (args["defense"] if args.get("defense") is not None else t.discipline(Discipline.PROWESS)) + plus_def
    return offense, defense


def _harm(state: GameState, target: str, effort: int, accuracy: int, armour: int | None) -> str:
    t = state.characters[target]
    worn = t.armour if armour is None else armour
    damage = effort + max(0, accuracy)
    pain = max(0, damage - worn) + t.condition.pain
    steady = mettle_odds(t.mettle, pain).p_steady if t.mettle >= 1 else Fraction(0)
    return (f"A landed blow deals {damage} ({effort} effort + {max(0, accuracy)} Accuracy) - armour {worn}: "
            f"{target} at Pain {pain} then holds steady {_pc(steady)}"
            + (" (an NPC's Mettle test casts no lots: read as its Mettle against the Pain)." if t.npc else "."))


def _attack(state: GameState, args: dict[str, Any], follower: Any) -> list[str]:
    attacker, target = args["attacker"], args["target"]
    if state.characters[attacker].npc:
        return [f"{attacker} is an NPC and does not roll: the one struck casts with `defend`."]
    offense, defense = _sides(state, args, attacker, target)
    defended = bool(args.get("defended", True)) and not state.characters[target].condition.incapacitated
    odds = attack_odds(offense, defense, defended=defended)
    head = f"{attacker} attacks {target}, Offense {offense} vs Defense {defense}" + (" + 1 (defended)" if defended
                                                                                     else "")
    return [*_odds_line(head, odds, retry=False),
            _harm(state, target, int(args["effort"]), offense - defense, args.get("armour")),
            *_fight_stakes(follower, target)]


def _defend(state: GameState, args: dict[str, Any], follower: Any) -> list[str]:
    defender, attacker = args["defender"], args["attacker"]
    if state.characters[defender].npc:
        return [f"{defender} is an NPC: there is no NPC roll for defence; the attacker casts with `attack`."]
    offense, defense = _sides(state, args, attacker, defender)
    odds = check_odds(defense, offense)
    head = f"{defender} defends against {attacker}, Defense {defense} vs Offense {offense} (a tie holds)"
    return [*_odds_line(head, odds, retry=False),
            "If the defence fails (or is WASTEd): " + _harm(state, defender, int(args["effort"]),
                                                           offense - defense, args.get("armour")),
            *_fight_stakes(follower, attacker)]


def _bare(args: dict[str, Any]) -> list[str]:
    who = args.get("who") or "the world"
    q = Fraction(1, 4)
    return [f"Lots for {who}: a WEAL (WEAL die 4) {_pc(q)}, a WOE (WOE die 1) {_pc(q)}; a CRIT (both 4) "
            f"{_pc(_SIXTEENTH)}, a FUMBLE (both 1) {_pc(_SIXTEENTH)}, a WASTE (WEAL 4, WOE 1) {_pc(_SIXTEENTH)}; "
            f"no lot {_pc(Fraction(9, 16))}."]


def _pain(state: GameState, args: dict[str, Any]) -> list[str]:
    char = state.characters[args["who"]]
    pain = char.condition.pain + int(args["n"])
    odds = mettle_odds(char.mettle, max(0, pain))
    return [f"{char.name} at Pain {pain} Tests their Mettle {char.mettle}: holds steady {_pc(odds.p_steady)}, "
            f"reels (loses the next action) {_pc(odds.p_loses_action)}, overcome {_pc(odds.p_incapacitated)}."]


def _portent(state: GameState, args: dict[str, Any], verb: str) -> list[str]:
    who = args["who"]
    record = next((r for r in reversed(state.window) if args.get("cast") in (None, r.id)), None)
    if record is None:
        return ["No cast is open to Portents now (only until the next action)."]
    cost = portent_cost(state, who, record.id)
    spec = record.spec
    head = f"{who} spends {cost} of {state.characters[who].portents} Portents to {verb} {record.id}"
    if verb == "blot out" or spec.attribute is None or spec.difficulty is None:
        return [f"{head}: nothing is cast; the act never happened and its effort is lost."]
    odds = check_odds(spec.attribute, spec.difficulty, proficiency=spec.rule_proficiency, tier=spec.rule_tier,
                      attack=spec.form.value == "attack")
    return _odds_line(f"{head}; the new telling", odds, retry=False)


def preview(state: Any, follower: Any, command: Any) -> list[str]:
    """The chances of a Thaeborn command before its lots are cast (none: it casts no lots)."""
    if not isinstance(state, GameState):
        return []
    key, args = command.key, dict(command.args)
    if key == "check":
        return _check(state, args, follower)
    if key == "again":
        return _again(state, args)
    if key == "attack":
        return _attack(state, args, follower)
    if key == "defend":
        return _defend(state, args, follower)
    if key == "lots":
        return _bare(args)
    if key == "pain":
        return _pain(state, args)
    if key == "retell":
        return _portent(state, args, "re-tell")
    if key == "blot":
        return _portent(state, args, "blot out")
    return []
