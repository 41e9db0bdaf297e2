"""Counts: Thaeborn's turn order in a fight.

Seed 004 glossary: "Count: A unit used to schedule Actions in combat. An
Action's Counts equal its committed Effort; advance everyone to the next
scheduled resolution." And "Effort: The time and exertion committed to an
Action, represented by Counts."

While a fight is on (:func:`begin_fight` until :func:`end_fight`), every
combatant has the Count at which their last Action resolves (0 at first). The
fight stands at the earliest of these among those still able to act: the next
scheduled resolution. Only a combatant whose Count has come acts; their Action
takes as many Counts as its Effort, and the fight advances.

[ours] The rest of the reading:

* An Action in a fight takes at least 1 Count (a check with no effort still
  takes a moment); a second try takes its Counts again.
* A defence is a reaction and takes none of the defender's Counts; it is the
  NPC attacker's Action (only players roll), so the NPC must be up, and its
  blow takes its Effort in the NPC's Counts.
* An Action lost to a failed Mettle test still takes its Counts (it was spent
  reeling). A Blot-out or a Re-tell gives no Counts back: the effort counts.
* Incapacitated combatants are passed over; a character who comes in during
  the fight joins at the Count it stands at. Out of a fight, nothing is counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.lots.characters import Character
from wyrd.rules.lots.errors import BadValue, OutOfTurn
from wyrd.rules.lots.events import CountsTaken, FightBegun, FightEnded
from wyrd.rules.lots.state import Fight, GameState
from wyrd.rules.lots.turn import Turn, action

__all__ = ["begin_fight", "end_fight", "now", "take_counts", "up_next"]


def _able(state: GameState, fight: Fight) -> list[str]:
    return [n for n in fight.ready if n in state.characters and not state.characters[n].condition.incapacitated]


def now(state: GameState) -> int | None:
    """The Count the fight stands at (the next scheduled resolution), or None out of a fight."""
    fight = state.fight
    if fight is None:
        return None
    able = _able(state, fight)
    return min(fight.ready[n] for n in able) if able else max(fight.ready.values(), default=0)


def up_next(state: GameState) -> list[str]:
    """Who acts at the Count the fight stands at (nobody out of a fight)."""
    fight, at = state.fight, now(state)
    if fight is None or at is None:
        return []
    return [n for n in _able(state, fight) if fight.ready[n] == at]


def take_counts(turn: Turn, char: Character, effort: int, doing: str) -> None:
    """In a fight, ``char`` acts only when their Count has come; the Action takes its Effort in Counts."""
    fight = turn.state.fight
    if fight is None:
        return
    at = now(turn.state)
    assert at is not None
    if char.name not in fight.ready:
        fight.ready[char.name] = at  # came in during the fight
    if fight.ready[char.name] > at:
        up = ", ".join(up_next(turn.state)) or "no one"
        raise OutOfTurn(
            f"{char.name} can't {doing} yet: their last Action resolves at Count {fight.ready[char.name]}, "
            f"and the fight stands at Count {at} (up: {up})",
            rule="lots.counts.not-ready",
        )
    counts = max(1, effort)
    fight.ready[char.name] = at + counts
    after = now(turn.state)
    turn.emit(CountsTaken(
        character=char.name, counts=counts, count=at, resolves=at + counts, now=after if after is not None else at,
        up=up_next(turn.state),
    ))


@action
def begin_fight(turn: Turn, names: Sequence[str] = ()) -> None:
    """A fight begins: the named characters (everyone present if none) at Count 0."""
    if turn.state.fight is not None:
        raise OutOfTurn("a fight is already on: `fight end` ends it", rule="lots.counts.fighting")
    chosen = [turn.character(n).name for n in names] or list(turn.state.characters)
    if not chosen:
        raise BadValue("a fight needs someone in it", rule="lots.counts.nobody")
    turn.state.fight = Fight(ready=dict.fromkeys(chosen, 0))
    turn.emit(FightBegun(combatants=chosen))


@action
def end_fight(turn: Turn) -> None:
    """The fight is over: Counts are no longer kept."""
    if turn.state.fight is None:
        raise OutOfTurn("no fight is on", rule="lots.counts.no-fight")
    turn.state.fight = None
    turn.emit(FightEnded())
