"""Downtime: healing, new gift slots, and one activity, at most once a session.

Seed 001: "Once per session or between sessions, at most, when the characters
have a chance to spend a day or night in a reasonably sized village or city, or
back in Wolden". Whatever else happens, it clears every
point of ability damage, mends 4 wounds and opens 4 more gift slots; then the
character picks one activity:

* Focused Training: roll on the cult's table of powers;
* Go Shopping: take an item from the cult's equipment list;
* Pure Rest: heal 2d4 more wounds;
* Carouse: roll on the cult's carousing table (a gift, a chance of +1 to an
  ability, and whatever else the night brings).

[ours] A session is one sitting of play (for Wyrd, one run of ``wyrd play`` or
``wyrd resume``): the caller names it (``run``) and the state remembers the one
the session under way was seen in, so a second downtime in the same sitting is
refused however the session is called, and the first one in a new sitting
begins the next session by itself. Where the party is, is the caller's to say
(``settled``): a scenario's scenes say whether they are settled places.

[ours] Each character takes their own downtime, with their own activity, and
never during an encounter or an open roll. A character taken out is back on
their feet after it. Focused Training rolls again on a power already held (and
is refused when every power is held); the rules never let a player simply
choose, since there is no narrator to approve it. An ability raised by
carousing stops at the maximum of 5; a gift already held is not gained twice.
An item already carried is not bought twice.
"""

from __future__ import annotations

from wyrd.rules.wolden.characters import ABILITY_MAX, Character
from wyrd.rules.wolden.cults import DOWNTIME_SLOTS, Cult, Gift
from wyrd.rules.wolden.enums import DowntimeChoice
from wyrd.rules.wolden.errors import DowntimeError, OutOfTurn, UnknownName
from wyrd.rules.wolden.events import (
    AbilityRaised,
    DowntimeTaken,
    GiftGained,
    ItemGained,
    SessionAdvanced,
    TableRolled,
)
from wyrd.rules.wolden.harm import heal_wounds, take_wounds
from wyrd.rules.wolden.turn import Turn, action

__all__ = ["DOWNTIME_WOUNDS", "REST_DICE", "downtime", "new_session"]

DOWNTIME_WOUNDS = 4
"""Seed 001: wounds every downtime heals."""
REST_DICE = (2, 4)
"""Seed 001: Pure Rest heals 2d4 more wounds."""


def _advance(turn: Turn, run: str | None) -> None:
    turn.state.session += 1
    turn.state.downtime = []
    turn.state.session_run = run
    turn.emit(SessionAdvanced(session=turn.state.session))


@action
def new_session(turn: Turn, run: str | None = None) -> None:
    """A new session begins: everyone may take a downtime again.

    ``run`` names the play session (one sitting) it begins in; it is refused when the
    session under way was already seen in that one. Without ``run`` the caller
    vouches that a new session has begun.
    """
    turn.no_pending()
    state = turn.state
    if run is not None and run == state.session_run:
        raise DowntimeError(f"session {state.session} is still being played; the next one begins when play "
                            "is next taken up", rule="wolden.session.same-sitting")
    _advance(turn, run)


@action
def downtime(
    turn: Turn, name: str, choice: DowntimeChoice, *, item: str | None = None, settled: bool = True,
    run: str | None = None, unnamed_earlier: bool = False,
) -> None:
    """``name`` takes their downtime, doing ``choice`` (``item``: what Go Shopping buys).

    ``settled``: whether the party is somewhere settled (the caller knows where it
    is). ``run``: the play session it is taken in; the first downtime taken in a
    new one begins a new session. ``unnamed_earlier``: downtimes already taken in the
    session under way with no play session named (a game saved before sessions were
    named) were taken in an earlier play session, so ``run`` begins a new one.
    """
    state = turn.state
    turn.no_pending()
    if state.encounter is not None:
        raise DowntimeError(f"no downtime while {state.encounter.name} is going", rule="wolden.downtime.not-now")
    char = turn.character(name)
    if not settled:
        raise DowntimeError(f"{char.name} can take a downtime only somewhere settled (a village, a city, or "
                            "back in Wolden)", rule="wolden.downtime.not-settled")
    if run is not None:
        # Downtimes taken with no play session named were played before sessions were
        # named, so in an earlier one: the caller says whether to count them so.
        earlier = state.session_run is not None or (unnamed_earlier and bool(state.downtime))
        if earlier and run != state.session_run:
            _advance(turn, run)
        state.session_run = run
    if char.name in state.downtime:
        raise DowntimeError(f"{char.name} has had their downtime this session",
                            rule="wolden.downtime.once-per-session")
    cult = turn.cult(char.cult)
    activity = DowntimeChoice(choice)
    _check_choice(char, cult, activity, item)

    damage_healed = sum(char.damage.values())
    char.damage = dict.fromkeys(char.damage, 0)
    wounds_healed = min(DOWNTIME_WOUNDS, char.wounds)
    char.wounds -= wounds_healed
    char.slots += DOWNTIME_SLOTS
    back = char.out
    char.out = False
    state.downtime.append(char.name)
    turn.emit(DowntimeTaken(character=char.name, choice=activity, session=state.session,
                            damage_healed=damage_healed, wounds_healed=wounds_healed, slots=char.slots, back=back))

    if activity == DowntimeChoice.TRAINING:
        _train(turn, char, cult)
    elif activity == DowntimeChoice.SHOPPING:
        bought = cult.item(item or "")
        assert bought is not None  # checked above
        char.items.append(bought)
        turn.emit(ItemGained(character=char.name, item=bought.id))
    elif activity == DowntimeChoice.REST:
        count, sides = REST_DICE
        faces = turn.dice.roll(count, sides, f"pure rest: {char.name}").faces
        heal_wounds(turn, char.name, sum(faces), reason="pure rest")
    else:
        _carouse(turn, char, cult)


def _check_choice(char: Character, cult: Cult, activity: DowntimeChoice, item: str | None) -> None:
    """Refuse, before any die is rolled, what the chosen activity can't do."""
    if activity != DowntimeChoice.SHOPPING:
        if item is not None:
            raise DowntimeError(f"only Go Shopping buys an item, not {activity.value}",
                                rule="wolden.downtime.item-without-shopping")
    else:
        if item is None:
            raise DowntimeError("Go Shopping needs an item from the cult's equipment list",
                                rule="wolden.downtime.item")
        wanted = cult.item(item)
        if wanted is None:
            raise UnknownName(f"the equipment of {cult.name} has no {item!r}", rule="wolden.unknown.item")
        if wanted in char.items:
            raise DowntimeError(f"{char.name} already carries {wanted.name}", rule="wolden.downtime.item-held")
    if activity == DowntimeChoice.TRAINING and all(_holds(char, r.gift) for r in cult.powers.rows):
        raise DowntimeError(f"{char.name} has mastered every power of {cult.name}",
                            rule="wolden.downtime.all-powers")


def _holds(char: Character, gift: Gift) -> bool:
    return any(g.id == gift.id for g in char.gifts)


def _gain(turn: Turn, char: Character, gift: Gift, source: str) -> None:
    if _holds(char, gift):
        return
    if gift.slots > char.free_slots:  # the cult's tables keep gifts small enough that this can't happen
        raise OutOfTurn(f"{gift.name} needs {gift.slots} free slots", rule="wolden.downtime.no-room")
    char.gifts.append(gift)
    turn.emit(GiftGained(character=char.name, gift=gift.id, slots=gift.slots, free_slots=char.free_slots,
                         source=source))


def _train(turn: Turn, char: Character, cult: Cult) -> None:
    table = cult.powers
    while True:
        face = turn.dice.roll(1, table.die, f"powers: {cult.id}").faces[0]
        row = table.row(face)
        turn.emit(TableRolled(character=char.name, table="powers", cult=cult.id, die=table.die, face=face,
                              row=row.gift.id))
        if not _holds(char, row.gift):
            _gain(turn, char, row.gift, "training")
            return


def _carouse(turn: Turn, char: Character, cult: Cult) -> None:
    table = cult.carousing
    face = turn.dice.roll(1, table.die, f"carousing: {cult.id}").faces[0]
    row = table.row(face)
    turn.emit(TableRolled(character=char.name, table="carousing", cult=cult.id, die=table.die, face=face,
                          row=row.id))
    if row.gift is not None:
        _gain(turn, char, row.gift, "carousing")
    if row.ability is not None:
        raised = char.scores[row.ability] < ABILITY_MAX
        if raised:
            char.scores[row.ability] += 1
        turn.emit(AbilityRaised(character=char.name, ability=row.ability, score=char.scores[row.ability],
                                raised=raised))
    take_wounds(turn, char.name, row.wounds, source="carousing")
