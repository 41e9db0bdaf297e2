"""Portents: changing a cast after the fact, by Blot-out or Re-tell.

Seed 004: Portents can be spent whenever lots are cast, on your own roll (1),
another player's (2) or the narrator's (3); nobody in the story knows, except
the character who spent them. A Blot-out erases the action or check: it never
happened, and the effort spent on it is lost. A Re-tell makes the check again
and keeps only the new outcome; the effort already spent still counts (it is
not spent twice). A Re-tell can itself be re-told, again and again, as long as
the Portents last; only the last telling happens.

[ours] Without a narrator, the narrator's rolls are the world's secret casts
(NPCs cast no lots: only players roll): those cost 3. Only players' characters hold and
spend Portents (an incapacitated one still may). A Portent changes a cast in
the window (the latest action that cast lots, see :mod:`wyrd.rules.lots.state`);
everything that cast set off (the harm of an attack, the Mettle test after it)
is erased with it, and a Re-tell sets it off again from the new outcome. The
record keeps every cast: a Re-tell is not an undo.
"""

from __future__ import annotations

from wyrd.rules.dice import Dice
from wyrd.rules.lots.characters import Character
from wyrd.rules.lots.checks import cast, run_check
from wyrd.rules.lots.enums import CheckForm, PortentUse, Whose
from wyrd.rules.lots.errors import NotEnoughPortents, OutOfTurn
from wyrd.rules.lots.events import PortentSpent
from wyrd.rules.lots.harm import run_blow, run_mettle
from wyrd.rules.lots.spec import CheckSpec
from wyrd.rules.lots.state import CastRecord, GameState
from wyrd.rules.lots.turn import Turn, action

__all__ = ["blot_out", "portent_cost", "retell", "run_spec", "whose"]


def whose(spender: Character, roller: Character | None) -> Whose:
    """Whose cast it is, seen from the one spending: their own, another player's, or an NPC's."""
    if roller is None or roller.npc:
        return Whose.NPC
    if roller.name == spender.name:
        return Whose.OWN
    return Whose.PLAYER


def portent_cost(state: GameState, spender: str, cast_id: str | None = None) -> int:
    """What changing a cast in the window would cost ``spender`` (the latest cast if no id).

    Raises:
        RuleError: If there is no such character or no such cast open to Portents.
    """
    turn = Turn(state, Dice.scripted(()))  # nothing is rolled or changed here
    record, _ = _target(turn, cast_id)
    payer = turn.character(spender)
    roller = turn.state.characters[record.spec.roller] if record.spec.roller else None
    return whose(payer, roller).cost


def run_spec(turn: Turn, spec: CheckSpec, *, retell_of: CastRecord | None = None) -> CastRecord:
    """Cast ``spec`` again, with everything it sets off."""
    if spec.form == CheckForm.BARE:
        return cast(turn, spec, retell_of=retell_of)
    if spec.form == CheckForm.METTLE:
        return run_mettle(turn, spec, retell_of=retell_of)
    if spec.blow is not None:
        return run_blow(turn, spec, retell_of=retell_of)
    return run_check(turn, spec, retell_of=retell_of)


def _target(turn: Turn, cast_id: str | None) -> tuple[CastRecord, int]:
    window = turn.state.window
    if not window:
        raise OutOfTurn(
            "no cast is open to Portents: they change the latest action's lots, before the next",
            rule="lots.portent.nothing",
        )
    if cast_id is None:
        return window[-1], len(window) - 1
    for index, record in enumerate(window):
        if record.id.casefold() == cast_id.strip().casefold():
            return record, index
    open_ids = ", ".join(r.id for r in window)
    raise OutOfTurn(
        f"cast {cast_id!r} is not open to Portents (open: {open_ids})", rule="lots.portent.settled"
    )


def _pay(turn: Turn, spender: str, record: CastRecord, use: PortentUse) -> tuple[Character, Whose, int]:
    payer = turn.player(spender, "spend Portents")
    roller = turn.state.characters[record.spec.roller] if record.spec.roller else None
    seen = whose(payer, roller)
    cost = seen.cost
    if payer.portents < cost:
        label = {Whose.OWN: "their own cast", Whose.PLAYER: "another player's cast", Whose.NPC: "an NPC's cast"}
        raise NotEnoughPortents(
            f"{payer.name} has {payer.portents} Portent{'' if payer.portents == 1 else 's'}; "
            f"to {use.value.replace('_', '-')} {label[seen]} costs {cost}",
            rule="lots.portent.cost",
        )
    payer.portents -= cost
    return payer, seen, cost


def _erase(turn: Turn, index: int) -> list[str]:
    """Put every condition back as it was before the cast at ``index``; return the casts erased."""
    window = turn.state.window
    erased = [r.id for r in window[index:]]
    turn.restore(window[index].before)
    del window[index:]
    return erased


@action
def blot_out(turn: Turn, spender: str, cast_id: str | None = None) -> None:
    """``spender`` erases a cast (the latest, or ``cast_id``): it never happened; its effort is lost."""
    record, index = _target(turn, cast_id)
    payer, seen, cost = _pay(turn, spender, record, PortentUse.BLOT_OUT)
    erased = _erase(turn, index)
    effort = record.spec.effort
    if record.spec.roller is not None and effort:
        condition = turn.state.characters[record.spec.roller].condition
        condition.effort_spent += effort
        condition.effort_lost += effort
    turn.emit(PortentSpent(
        character=payer.name, use=PortentUse.BLOT_OUT, cost=cost, cast=record.id, target=record.spec.roller,
        whose=seen, portents_after=payer.portents, erased=erased, effort_lost=effort,
    ))


@action
def retell(turn: Turn, spender: str, cast_id: str | None = None) -> None:
    """``spender`` has a cast (the latest, or ``cast_id``) told again; only the new telling counts."""
    record, index = _target(turn, cast_id)
    payer, seen, cost = _pay(turn, spender, record, PortentUse.RETELL)
    erased = _erase(turn, index)
    turn.emit(PortentSpent(
        character=payer.name, use=PortentUse.RETELL, cost=cost, cast=record.id, target=record.spec.roller,
        whose=seen, portents_after=payer.portents, erased=erased,
    ))
    run_spec(turn, record.spec, retell_of=record)
