"""Rounds, and how an encounter (extended challenge, montage, fight) moves on or ends.

Seed 001: in a fight the players pick the order of their actions, and once each
has acted the round closes; an extended challenge likewise moves to a new
round when all its players have acted, and things may have moved on. The
engine records the order and starts the new round by itself.

[ours] Taking part in a roll, as its lead or as a helper, is a character's turn
for the round; a participant may also pass (:mod:`wyrd.rules.wolden.passing`). Characters taken out no longer count;
when every participant is out, the encounter is lost. A travel montage draws a
new situation at the start of each round (or, if it says so, for every roll),
from the table it was given, without repeats until the table is used up.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from wyrd.rules.wolden.enums import EncounterOutcome
from wyrd.rules.wolden.errors import OutOfTurn
from wyrd.rules.wolden.events import ExtendedEnded, FightEnded, RoundStarted, SituationDrawn
from wyrd.rules.wolden.state import Extended, Fight
from wyrd.rules.wolden.turn import Turn

__all__ = [
    "begin_round",
    "check_can_act",
    "choose_participants",
    "draw_situation",
    "end_encounter",
    "mark_acted",
    "settle",
    "slug",
]


def slug(name: str, fallback: str = "encounter") -> str:
    """A stable id from a name: lower case, words joined by hyphens."""
    text = re.sub(r"[^a-z0-9]+", "-", re.sub(r"['\u2019]", "", name.casefold())).strip("-")
    return text or fallback


def choose_participants(turn: Turn, names: Sequence[str]) -> list[str]:
    """Who takes part: the names given, or every character still standing."""
    chosen = turn.names(names) if names else [c.name for c in turn.state.characters.values() if not c.out]
    for name in chosen:
        turn.active(name)
    if not chosen:
        raise OutOfTurn("an encounter needs at least one character able to act",
                        rule="wolden.encounter.participants")
    return chosen


def check_can_act(encounter: Extended | Fight, name: str) -> None:
    """Refuse a character who doesn't take part, or has already had their turn this round."""
    rounds = encounter.rounds
    if name not in rounds.participants:
        raise OutOfTurn(f"{name} is not taking part in {encounter.name}", rule="wolden.round.not-taking-part")
    if name in rounds.acted:
        raise OutOfTurn(f"{name} has already had a turn in round {rounds.number}", rule="wolden.round.acted")


def mark_acted(encounter: Extended | Fight, names: Iterable[str]) -> None:
    for name in names:
        if name in encounter.rounds.participants and name not in encounter.rounds.acted:
            encounter.rounds.acted.append(name)


def begin_round(turn: Turn, encounter: Extended | Fight) -> None:
    """Announce the round (the first, or the next) and, for a montage, its situation."""
    turn.emit(RoundStarted(encounter=encounter.id, type=encounter.type, number=encounter.rounds.number,
                           participants=list(encounter.rounds.participants)))
    if isinstance(encounter, Extended) and encounter.montage and not encounter.per_check:
        draw_situation(turn, encounter)


def draw_situation(turn: Turn, montage: Extended) -> None:
    """Draw the next situation from the montage's table with the dice."""
    if not montage.situations:
        return
    if not montage.unused:
        montage.unused = [s.id for s in montage.situations]
    face: int | None = None
    if len(montage.unused) > 1:
        face = turn.dice.roll(1, len(montage.unused), f"montage situation: {montage.id}").faces[0]
    ident = montage.unused.pop((face or 1) - 1)
    situation = next(s for s in montage.situations if s.id == ident)
    montage.situation = ident
    turn.emit(SituationDrawn(encounter=montage.id, situation=ident, text=situation.text,
                             round=montage.rounds.number, face=face))


def end_encounter(turn: Turn, outcome: EncounterOutcome) -> None:
    found = turn.state.encounter
    if found is None:
        return
    turn.state.encounter = None
    if isinstance(found, Extended):
        turn.emit(ExtendedEnded(id=found.id, outcome=outcome, rating=found.rating, rounds=found.rounds.number))
    else:
        turn.emit(FightEnded(id=found.id, outcome=outcome, rounds=found.rounds.number))


def settle(turn: Turn) -> None:
    """After anything that may finish a round: lose the encounter or begin the next round."""
    found = turn.state.encounter
    if found is None:
        return
    characters = turn.state.characters
    standing = [n for n in found.rounds.participants if not characters[n].out]
    if not standing:
        end_encounter(turn, EncounterOutcome.LOST)
        return
    if all(n in found.rounds.acted for n in standing):
        found.rounds.number += 1
        found.rounds.acted = []
        begin_round(turn, found)
