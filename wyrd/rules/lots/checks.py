"""Checks and casting lots: the cast every other action builds on.

Seed 004, Checks: the relevant Attribute against the task's Difficulty, then
the lots, which may turn the result (see :mod:`wyrd.rules.lots.fate`). Only players
roll, usually; the world's secret cast stands for the GM's when something must
stay random. Lots may also be cast with no check at all (the narrator's secret
roll, to raise tension): only the lot matters then.

Try, try again: after fate spoiled a check the character was able enough for,
they may try again if time and means allow; a lot may give the new attempt a
modifier. [ours] The second try is the same check (the same effort committed
again, the same Proficiency for the Rule of Fours) with an optional modifier,
and only plain checks can be tried again this way (an attack is simply made
again). It comes right after the spoiled check or not at all: the next action
that casts lots or changes a condition closes the chance (as it closes the
Portent window). A check also counts as an assessment: after it is resolved,
the character learns of the Tier.

Only players roll (seed 004, "Only players roll - usually"): an NPC never
casts lots for a check, a second try or a cast of its own; the world's secret
cast (no one named) stands for the rolls the GM keeps to themself.

Every cast rolls ``dice.roll(1, 4, "weal")`` then ``dice.roll(1, 4, "woe")``.
"""

from __future__ import annotations

from wyrd.rules.lots.assess import appraise, assessed_event
from wyrd.rules.lots.counts import take_counts
from wyrd.rules.lots.enums import CheckForm, Discipline, Result, Stat
from wyrd.rules.lots.errors import BadValue, OutOfTurn
from wyrd.rules.lots.events import CheckCast, LotsCast
from wyrd.rules.lots.fate import SIDES, fortune_of, read, read_lot
from wyrd.rules.lots.spec import CheckSpec
from wyrd.rules.lots.state import CastRecord
from wyrd.rules.lots.turn import Turn, action

__all__ = ["assessed_by", "cast", "cast_lots", "check", "retry", "run_check"]


def cast(turn: Turn, spec: CheckSpec, *, retell_of: CastRecord | None = None) -> CastRecord:
    """Cast the lots for ``spec``, read them, record the cast in the window, and say so.

    The roller's effort is committed here (and lost on a WASTE). The conditions
    from just before the cast are kept, for a Portent to put back.
    """
    before = turn.snapshot()
    weal = turn.dice.roll(1, SIDES, "weal").faces[0]
    woe = turn.dice.roll(1, SIDES, "woe").faces[0]
    lot = read_lot(weal, woe)
    reading = None
    if spec.form != CheckForm.BARE:
        assert spec.attribute is not None and spec.difficulty is not None
        reading = read(
            spec.attribute, spec.difficulty, lot,
            proficiency=spec.rule_proficiency, tier=spec.rule_tier, attack=spec.attack, legacy=turn.legacy,
        )
    record = CastRecord(
        id=turn.new_cast_id(), spec=spec, weal=weal, woe=woe, lot=lot, reading=reading, before=before,
        retell_of=retell_of.id if retell_of else None, retells=retell_of.retells + 1 if retell_of else 0,
    )
    turn.state.window.append(record)
    lost = 0
    if spec.roller is not None and spec.effort:
        condition = turn.state.characters[spec.roller].condition
        condition.effort_spent += spec.effort
        if reading is not None and reading.result == Result.WASTE:
            condition.effort_lost += spec.effort
            lost = spec.effort
    if reading is None:
        turn.emit(LotsCast(
            cast=record.id, character=spec.roller, purpose=spec.purpose, weal=weal, woe=woe, lot=lot,
            fortune=fortune_of(lot), retell_of=record.retell_of, retells=record.retells,
        ))
    else:
        assert spec.attribute is not None and spec.difficulty is not None
        turn.emit(CheckCast(
            cast=record.id, character=spec.roller, form=spec.form, purpose=spec.purpose,
            discipline=spec.discipline, stat=spec.stat, attribute=spec.attribute, difficulty=spec.difficulty,
            proficiency=spec.rule_proficiency, tier=spec.rule_tier, effort=spec.effort, weal=weal, woe=woe,
            lot=lot, base=reading.base, outcome=reading.result, change=reading.change, fortune=reading.fortune,
            may_retry=reading.may_retry and spec.form == CheckForm.CHECK, retry=spec.retry,
            retell_of=record.retell_of, retells=record.retells, effort_lost=lost,
        ))
    return record


def assessed_by(turn: Turn, record: CastRecord, subject: str | None = None) -> None:
    """A resolved check counts as an assessment of its Tier (not after a WASTE).

    ``subject`` is what was assessed (the check's purpose if not given).
    """
    spec, reading = record.spec, record.reading
    if spec.roller is None or reading is None or reading.result == Result.WASTE:
        return
    found = appraise(spec.rule_proficiency, spec.rule_tier, timed=False)
    turn.emit(assessed_event(
        spec.roller, found, discipline=spec.discipline, subject=spec.purpose if subject is None else subject,
        via="check", cast=record.id,
    ))


def run_check(turn: Turn, spec: CheckSpec, *, retell_of: CastRecord | None = None) -> CastRecord:
    """Cast a plain check and settle what it leaves: a second try, an assessment."""
    record = cast(turn, spec, retell_of=retell_of)
    assert spec.roller is not None and record.reading is not None
    condition = turn.state.characters[spec.roller].condition
    again = record.reading.may_retry and spec.form == CheckForm.CHECK
    condition.retry = spec.model_copy(update={"retry": True}) if again else None
    assessed_by(turn, record)
    return record


@action
def check(
    turn: Turn,
    who: str,
    difficulty: int,
    *,
    discipline: Discipline | None = None,
    stat: Stat | None = None,
    value: int | None = None,
    modifier: int = 0,
    proficiency: int | None = None,
    tier: int | None = None,
    effort: int = 0,
    attack: bool = False,
    purpose: str = "",
) -> None:
    """``who`` makes a check against ``difficulty`` and casts the lots.

    The Attribute is ``value`` if given (any number the table agrees on), else
    the character's ``stat`` (seed 004: an Attribute is "a Discipline, Stat,
    etc."), else their ``discipline``; ``modifier`` is added to it. The
    Rule of Fours compares ``proficiency`` (default: the Attribute before the
    modifier, the character's own measure) with ``tier`` (default: the
    Difficulty). ``attack`` marks an attack, which a CRIT always carries; for an
    attack that deals harm, use :func:`wyrd.rules.lots.harm.attack`.
    """
    char = turn.caster(who, "make a check")
    if value is None and discipline is None and stat is None:
        raise BadValue("a check needs a Discipline, a Stat or a value to compare", rule="lots.check.attribute")
    if effort < 0:
        raise BadValue(f"effort can't be {effort}", rule="lots.check.effort")
    which = Discipline(discipline) if discipline is not None and stat is None else None
    tracked = Stat(stat) if stat is not None else None
    if value is not None:
        base = value
    elif tracked is not None:
        base = char.stat(tracked)
    else:
        assert which is not None
        base = char.discipline(which)
    spec = CheckSpec(
        form=CheckForm.ATTACK if attack else CheckForm.CHECK, roller=char.name, attribute=base + modifier,
        difficulty=difficulty, tier=tier, discipline=which, stat=tracked, effort=effort,
        proficiency=base if proficiency is None and not turn.legacy else proficiency,
        purpose=purpose,
    )
    take_counts(turn, char, effort, "make a check")
    if turn.loses_action(char, "check"):
        return
    turn.close_window()
    run_check(turn, spec)


@action
def retry(turn: Turn, who: str, *, modifier: int = 0) -> None:
    """``who`` tries their spoiled check again (the same check, plus ``modifier``)."""
    char = turn.caster(who, "try again")
    spec = char.condition.retry
    latest = turn.state.window[-1] if turn.state.window else None
    if spec is None or (not turn.legacy and (latest is None or latest.spec.roller != char.name)):
        raise OutOfTurn(
            f"{char.name} has no check to try again: that comes right after a check they were able "
            "enough for, which a WASTE or a FUMBLE kept from succeeding",
            rule="lots.retry.not-allowed",
        )
    assert spec.attribute is not None
    again = spec.model_copy(update={"attribute": spec.attribute + modifier, "proficiency": spec.rule_proficiency})
    take_counts(turn, char, spec.effort, "try again")
    if turn.loses_action(char, "try again"):
        return
    turn.close_window()
    run_check(turn, again)


@action
def cast_lots(turn: Turn, who: str | None = None, purpose: str = "") -> None:
    """Cast lots with no check: a player's (``who``) or, with no one named, the world's secret roll."""
    roller = None
    if who is not None:
        char = turn.character(who)
        if char.npc and not turn.legacy:
            turn.caster(who, "cast lots")  # refused: only players roll
        roller = char.name  # an incapacitated player may still be asked to cast
    turn.close_window()
    cast(turn, CheckSpec(form=CheckForm.BARE, roller=roller, purpose=purpose))
