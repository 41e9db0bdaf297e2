"""Extended challenges and travel montages: a difficulty rating worn down round by round.

Seed 001: an extended challenge carries a difficulty rating, and each roll made
against it moves the rating: +4 on a critical failure, +2 on a failure, -1 on a partial
success, -2 on a success, -4 on a critical success. At 0 the characters have
succeeded. Any number of the characters may join in, and when all of them have
acted, the next round begins. A travel montage is the same with situations the
story prescribes: here, drawn with the dice from a table the caller passes.
The usual consequences of each roll still apply.

RULES.md [ours]: the challenge is lost when the rating reaches twice its start
(the text: a doubled rating is a failure only a miracle could undo). [ours] The
rating never goes below 0. [ours] A challenge may carry a ``danger``, a damage
roll its failures and partials deal each character involved, as a fight's enemy
would; without one, the story applies the consequences.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.wolden.encounters import begin_round, choose_participants, end_encounter, slug
from wyrd.rules.wolden.enums import EncounterOutcome, Result
from wyrd.rules.wolden.errors import OutOfTurn
from wyrd.rules.wolden.events import ExtendedProgressed, ExtendedStarted
from wyrd.rules.wolden.state import DamageDice, Extended, Rounds, Situation
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["LOST_AT", "abandon", "progress", "start_extended", "start_montage"]

LOST_AT = 2
"""RULES.md [ours]: the challenge is lost when the rating reaches this many times its start."""


def _open(
    turn: Turn, name: str, rating: int, *, montage: bool, participants: Sequence[str], ident: str | None,
    danger: DamageDice | None, situations: Sequence[Situation] = (), per_check: bool = False,
) -> None:
    turn.no_pending()
    turn.no_encounter()
    if rating < 1:
        raise OutOfTurn(f"a difficulty rating starts at 1 or more, not {rating}", rule="wolden.extended.rating")
    if montage:
        if not situations:
            raise OutOfTurn("a travel montage needs a table of situations to draw from",
                            rule="wolden.montage.situations")
        ids = [s.id for s in situations]
        doubled = sorted({i for i in ids if ids.count(i) > 1})
        if doubled:
            raise OutOfTurn(f"two situations share the id {doubled[0]!r}", rule="wolden.montage.situations")
    chosen = choose_participants(turn, participants)
    found = Extended(
        id=ident or slug(name), name=name, rounds=Rounds(participants=chosen), montage=montage, start=rating,
        rating=rating, danger=danger, situations=list(situations), unused=[s.id for s in situations],
        per_check=per_check,
    )
    turn.state.encounter = found
    turn.emit(ExtendedStarted(id=found.id, name=name, rating=rating, montage=montage, participants=chosen))
    begin_round(turn, found)


@action
def start_extended(
    turn: Turn, name: str, rating: int, *, participants: Sequence[str] = (), ident: str | None = None,
    danger: DamageDice | None = None,
) -> None:
    """Begin an extended challenge of difficulty ``rating`` (everyone standing takes part by default)."""
    _open(turn, name, rating, montage=False, participants=participants, ident=ident, danger=danger)


@action
def start_montage(
    turn: Turn, name: str, rating: int, situations: Sequence[Situation], *, participants: Sequence[str] = (),
    ident: str | None = None, danger: DamageDice | None = None, per_check: bool = False,
) -> None:
    """Begin a travel montage of difficulty ``rating``, drawing its situations from ``situations``."""
    _open(turn, name, rating, montage=True, participants=participants, ident=ident, danger=danger,
          situations=situations, per_check=per_check)


def progress(turn: Turn, challenge: Extended, lead: str, result: Result) -> None:
    """Move the rating by the result; end the challenge at 0 or at twice its start."""
    change = result.rating_change
    challenge.rating = max(0, challenge.rating + change)
    turn.emit(ExtendedProgressed(id=challenge.id, lead=lead, result=result, change=change,
                                 rating=challenge.rating))
    if challenge.rating == 0:
        end_encounter(turn, EncounterOutcome.DONE)
    elif challenge.rating >= LOST_AT * challenge.start:
        end_encounter(turn, EncounterOutcome.LOST)


@action
def abandon(turn: Turn) -> None:
    """Give up the extended challenge or montage under way."""
    turn.no_pending()
    turn.extended()
    end_encounter(turn, EncounterOutcome.ABANDONED)
