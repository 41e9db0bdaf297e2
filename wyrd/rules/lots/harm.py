"""Harm: attacks, defences, Pain, Test Your Mettle, and rest.

Seed 004 (glossary): Accuracy is Offense minus Defense, and above zero it lands
an actively defended attack (barring fate) and adds to the damage; the initial
Effort of a weapon attack sets its damage; Pain is the suffering that gets past
the defences, and more of it calls for Test Your Mettle; Pain is not a pool of
hit points. Only players roll: "When you perform an attack on an NPC, you
Cast Lots ...; there is no NPC roll for defense. When you are defending against
an attack from an NPC, you Cast Lots ...; the NPC does not roll for their
attack." So an NPC never attacks with ``attack`` nor defends with ``defend``:
the player's ``defend`` or ``attack`` is the one cast for that blow.

RULES.md [ours], the arithmetic:

* damage = initial Effort + Accuracy, where only an Accuracy above zero "adds
  to its damage": a landed blow does at least its Effort, never less;
  Pain = damage - armour, at least 0;
* whenever Pain rises, Test Your Mettle: Mettle against the total Pain, with
  lots. A failure (or a WASTE) loses the next action; a FUMBLE that makes it
  fail, or a total Pain of twice the Mettle or more, incapacitates;
* rest removes as much Pain as the Mettle.

[ours] The rest of the reading:

* An attack is a check of Offense against Defense + 1 when the target actively
  defends (only an Accuracy above 0 lands), against Defense when it doesn't.
  Its Tier for the Rule of Fours is the Defense. A CRIT lands it whatever the gap.
* A defence is the defender's check of Defense against Offense (a tie holds);
  a failure or a WASTE (the defender stalls) lets the blow land.
* An attack commits at least 1 effort; a defence commits none of the defender's.
* Mods (seed 004 glossary: "Do not apply the same advantage twice by both
  boosting Offense and lowering Defense"): an attack or a defence may carry
  Mods, each named for its advantage; the same advantage named twice, on both
  values or twice on one, is refused.
* An incapacitated character takes no more Mettle tests (the Pain still adds up)
  and can't attack or defend by choice; an attack on them is an undefended one.
* An NPC's Mettle test casts no lots (only players roll): it is the comparison
  alone, Mettle against the total Pain. It holds if the Mettle meets the Pain,
  costs the next action if not, and incapacitates at Pain of twice the Mettle.
* Rest also ends a lost action, and lifts incapacitation once the Pain is below
  twice the Mettle.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.lots.checks import assessed_by, cast
from wyrd.rules.lots.counts import take_counts
from wyrd.rules.lots.enums import CheckForm, Discipline, IncapacityReason, Lot, Result
from wyrd.rules.lots.errors import BadValue, OutOfTurn
from wyrd.rules.lots.events import AttackResolved, Incapacitated, MettleTested, PainTaken, Rested
from wyrd.rules.lots.odds import attack_spec_numbers
from wyrd.rules.lots.spec import Blow, CheckSpec, Mod
from wyrd.rules.lots.state import CastRecord
from wyrd.rules.lots.turn import Turn, action

__all__ = [
    "attack",
    "damage_of",
    "defend",
    "npc_mettle",
    "pain_of",
    "rest",
    "run_blow",
    "run_mettle",
    "suffer",
    "take_pain",
]


def damage_of(effort: int, accuracy: int) -> int:
    """The damage of a landed attack: its initial Effort plus any Accuracy above zero."""
    return effort + max(0, accuracy)


def pain_of(damage: int, armour: int) -> int:
    """The Pain that gets past the armour (never below 0)."""
    return max(0, damage - armour)


def take_pain(
    turn: Turn, name: str, n: int, *, damage: int | None = None, accuracy: int | None = None,
    armour: int | None = None, source: str = "",
) -> None:
    """``name`` takes ``n`` Pain; if it rose, they Test Their Mettle."""
    char = turn.state.characters[name]
    char.condition.pain += n
    turn.emit(PainTaken(
        character=name, n=n, pain_after=char.condition.pain, damage=damage, accuracy=accuracy,
        armour=armour, source=source,
    ))
    if n > 0 and not char.condition.incapacitated and char.npc and not turn.legacy:
        npc_mettle(turn, name)
    elif n > 0 and not char.condition.incapacitated:
        spec = CheckSpec(
            form=CheckForm.METTLE, roller=name, attribute=char.mettle, difficulty=char.condition.pain,
            purpose=source,
        )
        run_mettle(turn, spec)


def npc_mettle(turn: Turn, name: str) -> None:
    """An NPC Tests its Mettle without lots: Mettle against total Pain, the comparison alone."""
    char = turn.state.characters[name]
    condition = char.condition
    down = condition.pain >= 2 * char.mettle
    steady = char.mettle >= condition.pain
    reeling = not steady and not down
    condition.loses_action = condition.loses_action or reeling
    condition.incapacitated = condition.incapacitated or down
    turn.emit(MettleTested(
        character=name, cast=None, mettle=char.mettle, pain=condition.pain,
        outcome=Result.SUCCESS if steady else Result.FAILURE, loses_action=reeling, incapacitated=down,
    ))
    if down:
        turn.emit(Incapacitated(character=name, reason=IncapacityReason.PAIN))


def run_mettle(turn: Turn, spec: CheckSpec, *, retell_of: CastRecord | None = None) -> CastRecord:
    """Test Your Mettle: Mettle against total Pain, and what failing it costs."""
    record = cast(turn, spec, retell_of=retell_of)
    reading = record.reading
    assert spec.roller is not None and reading is not None
    assert spec.attribute is not None and spec.difficulty is not None
    condition = turn.state.characters[spec.roller].condition
    by_pain = spec.difficulty >= 2 * spec.attribute
    by_fumble = reading.lot == Lot.FUMBLE and reading.result == Result.FAILURE
    down = by_pain or by_fumble
    reeling = reading.result != Result.SUCCESS and not down
    condition.loses_action = condition.loses_action or reeling
    condition.incapacitated = condition.incapacitated or down
    turn.emit(MettleTested(
        character=spec.roller, cast=record.id, mettle=spec.attribute, pain=spec.difficulty,
        outcome=reading.result, loses_action=reeling, incapacitated=down,
    ))
    if down:
        why = IncapacityReason.PAIN if by_pain else IncapacityReason.FUMBLE
        turn.emit(Incapacitated(character=spec.roller, reason=why))
    return record


def run_blow(turn: Turn, spec: CheckSpec, *, retell_of: CastRecord | None = None) -> CastRecord:
    """Cast for an attack (the attacker's) or a defence (the defender's); harm follows if it lands."""
    record = cast(turn, spec, retell_of=retell_of)
    blow, reading = spec.blow, record.reading
    assert blow is not None and reading is not None and spec.roller is not None
    # The attacker's cast lands the blow by succeeding; the defender's by not succeeding.
    held = reading.result == Result.SUCCESS
    landed = held if spec.form == CheckForm.ATTACK else not held
    turn.emit(AttackResolved(
        cast=record.id, attacker=blow.attacker, target=blow.target, roller=spec.roller,
        offense=blow.offense, defense=blow.defense, accuracy=blow.accuracy, landed=landed,
    ))
    # Each side learns the other's measure by fighting them.
    opponent = blow.target if spec.form == CheckForm.ATTACK else blow.attacker
    assessed_by(turn, record, subject=opponent)
    if landed:
        damage = blow.effort + blow.accuracy if turn.legacy else damage_of(blow.effort, blow.accuracy)
        take_pain(
            turn, blow.target, pain_of(damage, blow.armour), damage=damage, accuracy=blow.accuracy,
            armour=blow.armour, source=f"attack by {blow.attacker}",
        )
    return record


def _modded(mods: Sequence[Mod]) -> tuple[int, int]:
    """What the Mods add to the Offense and to the Defense; the same advantage twice is refused."""
    seen: dict[str, str] = {}
    for mod in mods:
        key = " ".join(mod.reason.casefold().split())
        if not key:
            raise BadValue("a Mod names its advantage", rule="lots.mod.reason")
        if key in seen:
            where = "both Offense and Defense" if seen[key] != mod.on else f"the {mod.on.title()} twice"
            raise BadValue(
                f"{mod.reason!r} would adjust {where}: do not apply the same advantage twice",
                rule="lots.mod.twice",
            )
        seen[key] = mod.on
    return sum(m.n for m in mods if m.on == "offense"), sum(m.n for m in mods if m.on == "defense")


def _blow(
    turn: Turn, attacker: str, target: str, *, effort: int, offense: int | None, defense: int | None,
    armour: int | None, defended: bool, mods: Sequence[Mod] = (),
) -> Blow:
    a, t = turn.character(attacker), turn.character(target)
    plus_offense, plus_defense = _modded(mods)
    if a.name == t.name:
        raise BadValue(f"{a.name} can't attack themself", rule="lots.attack.self")
    if effort < 1:
        raise BadValue(f"an attack commits at least 1 effort, not {effort}", rule="lots.attack.effort")
    if armour is not None and armour < 0:
        raise BadValue(f"armour can't be {armour}", rule="lots.attack.armour")
    return Blow(
        attacker=a.name, target=t.name,
        offense=(offense if offense is not None else a.discipline(Discipline.PROWESS)) + plus_offense,
        defense=(defense if defense is not None else t.discipline(Discipline.PROWESS)) + plus_defense,
        effort=effort, armour=armour if armour is not None else t.armour,
        defended=defended and not t.condition.incapacitated,
    )


@action
def attack(
    turn: Turn, attacker: str, target: str, *, effort: int, offense: int | None = None,
    defense: int | None = None, armour: int | None = None, defended: bool = True, purpose: str = "",
    mods: Sequence[Mod] = (),
) -> None:
    """``attacker`` strikes ``target`` and casts for the attack; a landed blow deals harm.

    Offense and Defense default to each side's Prowess, armour to the target's;
    ``mods`` adjust them, each advantage once.
    An NPC does not cast for its attack: the player it strikes casts with :func:`defend`.
    """
    if turn.character(attacker).npc and not turn.legacy:
        raise OutOfTurn(
            f"{turn.character(attacker).name} is an NPC, and the NPC does not roll for their attack: "
            f"the one struck casts (defend WHO against {turn.character(attacker).name})",
            rule="lots.npc.roll",
        )
    char = turn.able(attacker, "attack")
    blow = _blow(turn, attacker, target, effort=effort, offense=offense, defense=defense, armour=armour,
                 defended=defended, mods=mods)
    attribute, difficulty, proficiency, tier = attack_spec_numbers(blow.offense, blow.defense, defended=blow.defended)
    spec = CheckSpec(
        form=CheckForm.ATTACK, roller=char.name, attribute=attribute,
        difficulty=difficulty, proficiency=proficiency, tier=tier,
        discipline=Discipline.PROWESS if offense is None else None, effort=effort, purpose=purpose, blow=blow,
    )
    take_counts(turn, char, effort, "attack")
    if turn.loses_action(char, "attack"):
        return
    turn.close_window()
    run_blow(turn, spec)


@action
def defend(
    turn: Turn, defender: str, attacker: str, *, effort: int, offense: int | None = None,
    defense: int | None = None, armour: int | None = None, purpose: str = "", mods: Sequence[Mod] = (),
) -> None:
    """``defender`` casts against an attack by ``attacker`` (whose initial Effort is ``effort``).

    A defence is a reaction: it does not use up an action lost to a Mettle test;
    the blow is the attacker's Action, so a reeling attacker spends it reeling
    and nothing is cast. An NPC does not cast to defend: the player attacking it casts with :func:`attack`.
    """
    if turn.character(defender).npc and not turn.legacy:
        raise OutOfTurn(
            f"{turn.character(defender).name} is an NPC, and there is no NPC roll for defence: "
            f"the attacker casts (attack WHO {turn.character(defender).name})",
            rule="lots.npc.roll",
        )
    char = turn.able(defender, "defend")
    blow = _blow(turn, attacker, defender, effort=effort, offense=offense, defense=defense, armour=armour,
                 defended=True, mods=mods)
    spec = CheckSpec(
        form=CheckForm.DEFENCE, roller=char.name, attribute=blow.defense, difficulty=blow.offense,
        discipline=Discipline.PROWESS if defense is None else None, purpose=purpose, blow=blow,
    )
    striker = turn.character(attacker)
    take_counts(turn, striker, effort, "attack")  # the blow is the attacker's Action
    if not turn.legacy and turn.loses_action(striker, "attack"):
        return  # a reeling attacker's blow is the action it lost: nothing to defend against
    turn.close_window()
    run_blow(turn, spec)


@action
def suffer(turn: Turn, who: str, n: int, source: str = "") -> None:
    """``who`` takes ``n`` Pain from something other than an attack (a fall, a fire, the Thae)."""
    char = turn.character(who)
    if n < 1:
        raise BadValue(f"Pain comes 1 or more at a time, not {n}", rule="lots.harm.positive")
    turn.close_window()
    take_pain(turn, char.name, n, source=source)


@action
def rest(turn: Turn, who: str) -> None:
    """``who`` rests: Pain falls by their Mettle."""
    char = turn.character(who)
    turn.close_window()
    condition = char.condition
    eased = min(condition.pain, char.mettle)
    condition.pain -= eased
    condition.loses_action = False
    was_down = condition.incapacitated
    condition.incapacitated = was_down and condition.pain >= 2 * char.mettle
    turn.emit(Rested(
        character=char.name, n=eased, pain_after=condition.pain,
        recovered=was_down and not condition.incapacitated,
    ))
