"""Downtime (rules/wolden/downtime.py): healing, new slots, and one activity a session."""

from __future__ import annotations

from wyrd.rules.wolden import (
    Ability,
    Character,
    DowntimeChoice,
    attempt,
    downtime,
    enlist,
    harm,
    new_session,
    wound,
)
from wyrd.rules.wolden.events import (
    AbilityRaised,
    DowntimeTaken,
    GiftGained,
    ItemGained,
    SessionAdvanced,
    TableRolled,
    WoundsHealed,
    WoundTaken,
)

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES
TRAINING, SHOPPING, REST, CAROUSE = (DowntimeChoice.TRAINING, DowntimeChoice.SHOPPING, DowntimeChoice.REST,
                                     DowntimeChoice.CAROUSE)


def veteran(t, wounds: int = 6, slots: int = 10, **scores: int) -> str:
    """A ready Owl with many wounds (the test cults' Owls)."""
    base = {MIGHT: 3, AGILITY: 2, MIND: 1, GRACES: 0}
    base.update({Ability(k): v for k, v in scores.items()})
    t.do(enlist, Character(name="Moss", cult="owls", scores=base, slots=slots, wounds=wounds))
    return "Moss"


def test_always_heals_and_adds_slots(duo) -> None:
    """Seed 001: every downtime clears ability damage, mends 4 wounds and opens 4 more gift slots."""
    duo.do(harm, "Ada", MIGHT, 2)
    duo.do(harm, "Ada", AGILITY, 1)
    duo.do(wound, "Ada")
    duo.faces(1)  # carousing: a quiet night
    events = duo.do(downtime, "Ada", CAROUSE)
    assert events[0] == DowntimeTaken(character="Ada", choice=CAROUSE, session=1, damage_healed=3, wounds_healed=1,
                                      slots=8)
    ada = duo.char("Ada")
    assert ada.damage == dict.fromkeys(Ability, 0)
    assert (ada.wounds, ada.slots, ada.free_slots) == (0, 8, 6)


def test_four_wounds_at_most(new) -> None:
    """Seed 001: downtime heals 4 wounds (the rest stay, unless Pure Rest heals more)."""
    t = new()
    name = veteran(t)
    t.faces(1)
    events = t.do(downtime, name, CAROUSE)
    assert events[0].wounds_healed == 4
    assert t.char(name).wounds == 2


def test_once_per_session(duo) -> None:
    """Seed 001: a downtime at most once a session (or once between sessions)."""
    duo.faces(1)
    duo.do(downtime, "Ada", CAROUSE)
    duo.refuse("wolden.downtime.once-per-session", downtime, "Ada", REST)
    duo.faces(1)
    duo.do(downtime, "Bram", CAROUSE)  # [ours] each character takes their own downtime
    assert duo.do(new_session) == [SessionAdvanced(session=2)]
    duo.faces(1, 1)
    assert duo.do(downtime, "Ada", REST)[0].session == 2


def test_not_while_a_roll_is_open(duo) -> None:
    duo.do(attempt, "Ada", MIGHT)
    duo.refuse("wolden.check.one-at-a-time", downtime, "Bram", REST)


def test_focused_training_rolls_on_the_power_table(duo) -> None:
    """Seed 001: Focused Training rolls on the cult's table of powers."""
    duo.faces(3)
    events = duo.do(downtime, "Ada", TRAINING)
    assert duo.of(TableRolled, events) == [TableRolled(character="Ada", table="powers", cult="owls", die=4, face=3,
                                                       row="talons")]
    assert duo.of(GiftGained, events) == [GiftGained(character="Ada", gift="talons", slots=1, free_slots=5,
                                                     source="training")]


def test_training_rolls_again_on_a_power_held(new) -> None:
    """[ours] A power already held is rolled again."""
    t = new()
    name = veteran(t, wounds=0)
    t.faces(3)
    t.do(downtime, name, TRAINING)
    t.do(new_session)
    t.faces(3, 3, 4)
    events = t.do(downtime, name, TRAINING)
    assert [r.face for r in t.of(TableRolled, events)] == [3, 3, 4]
    assert t.of(GiftGained, events)[0].gift == "moon-sight"
    assert t.of(GiftGained, events)[0].slots == 2


def test_training_refused_when_every_power_is_held(new) -> None:
    t = new()
    name = veteran(t, wounds=0, slots=20)
    for face in (1, 2, 3, 4):
        t.faces(face)
        t.do(downtime, name, TRAINING)
        t.do(new_session)
    t.refuse("wolden.downtime.all-powers", downtime, name, TRAINING)


def test_go_shopping(duo) -> None:
    """Seed 001: Go Shopping picks one item off the cult's equipment list."""
    events = duo.do(downtime, "Ada", SHOPPING, item="Bone Flute")
    assert duo.of(ItemGained, events) == [ItemGained(character="Ada", item="bone-flute")]
    assert [i.id for i in duo.char("Ada").items] == ["bone-flute"]
    assert duo.faces_left == 0  # no dice


def test_shopping_refusals(duo) -> None:
    duo.refuse("wolden.downtime.item", downtime, "Ada", SHOPPING)
    duo.refuse("wolden.unknown.item", downtime, "Ada", SHOPPING, item="red-scarf")  # a Fox item
    duo.refuse("wolden.downtime.item-without-shopping", downtime, "Ada", REST, item="bone-flute")
    duo.do(downtime, "Ada", SHOPPING, item="bone-flute")
    duo.do(new_session)
    duo.refuse("wolden.downtime.item-held", downtime, "Ada", SHOPPING, item="bone-flute")


def test_pure_rest_heals_2d4_more(new) -> None:
    """Seed 001: Pure Rest mends 2d4 wounds beyond the usual 4."""
    t = new()
    name = veteran(t, wounds=9, slots=12)
    t.faces(2, 1)
    events = t.do(downtime, name, REST)
    assert events[0].wounds_healed == 4
    assert t.of(WoundsHealed, events) == [WoundsHealed(character=name, n=3, wounds=2, reason="pure rest")]
    assert t.dice.history[-1].sides == 4 and len(t.dice.history[-1].faces) == 2


def test_pure_rest_heals_no_more_than_there_are(duo) -> None:
    duo.faces(4, 4)
    events = duo.do(downtime, "Ada", REST)
    assert duo.of(WoundsHealed, events) == []
    assert duo.char("Ada").wounds == 0


def test_carouse_gift(duo) -> None:
    """Seed 001: some carousing results give a 1-slot gift, and there is always room for it."""
    duo.faces(2)
    events = duo.do(downtime, "Ada", CAROUSE)
    assert duo.of(TableRolled, events)[0].row == "new-trick"
    assert duo.of(GiftGained, events)[0].gift == "soft-step"


def test_carouse_ability(duo) -> None:
    """Seed 001: a night of carousing may raise an ability."""
    duo.faces(3)
    events = duo.do(downtime, "Ada", CAROUSE)
    assert duo.of(AbilityRaised, events) == [AbilityRaised(character="Ada", ability=AGILITY, score=3, raised=True)]


def test_carouse_ability_stops_at_five(new) -> None:
    """RULES.md [ours]: at most 5."""
    t = new()
    name = veteran(t, agility=5)
    t.faces(3)
    events = t.do(downtime, name, CAROUSE)
    assert t.of(AbilityRaised, events)[0].raised is False
    assert t.char(name).scores[AGILITY] == 5


def test_carouse_wounds(duo) -> None:
    """Seed 001: downtime brings sundry consequences; [ours] a carousing row may cost wounds."""
    duo.faces(4)
    events = duo.do(downtime, "Ada", CAROUSE)
    assert duo.of(WoundTaken, events)[0].n == 2
    assert duo.char("Ada").wounds == 2


def test_downtime_brings_back_the_fallen(duo) -> None:
    """[ours] A character taken out is back on their feet after a downtime."""
    duo.do(wound, "Ada", 3)
    assert duo.char("Ada").out
    duo.faces(1)
    events = duo.do(downtime, "Ada", CAROUSE)
    assert events[0].back
    assert not duo.char("Ada").out
    assert duo.char("Ada").wounds == 0


# Seed 001 (001_0ed33d63b95f167b.txt): "Once per session or between sessions, at most, when the characters
# have a chance to spend a day or night in a reasonably sized village or city, or back in Wolden".


def test_only_somewhere_settled(duo) -> None:
    """Seed 001: downtime needs "a reasonably sized village or city, or back in Wolden"."""
    duo.refuse("wolden.downtime.not-settled", downtime, "Ada", REST, settled=False)


def test_a_second_session_in_the_same_sitting_is_refused(duo) -> None:
    """Seed 001: "Once per session ... at most": calling a new session in the same sitting gains nothing.

    Without this, one scene gave 8, then 12, then 16 gift slots.
    """
    duo.faces(1)
    events = duo.do(downtime, "Ada", CAROUSE, run="evening-1")
    assert events[0].slots == 8 and duo.state.session_run == "evening-1"
    duo.refuse("wolden.session.same-sitting", new_session, run="evening-1")
    duo.refuse("wolden.downtime.once-per-session", downtime, "Ada", CAROUSE, run="evening-1")
    assert duo.char("Ada").slots == 8


def test_the_first_downtime_of_a_new_sitting_begins_the_next_session(duo) -> None:
    """[ours] A session is one sitting (README): the next sitting's first downtime starts session 2 by itself."""
    duo.faces(1)
    duo.do(downtime, "Ada", CAROUSE, run="evening-1")
    duo.faces(1)
    events = duo.do(downtime, "Ada", CAROUSE, run="evening-2")
    assert events[0] == SessionAdvanced(session=2)
    assert events[1].session == 2 and duo.state.downtime == ["Ada"]
    duo.refuse("wolden.session.same-sitting", new_session, run="evening-2")


def test_a_new_session_in_a_new_sitting(duo) -> None:
    """[ours] `session` in a sitting the session under way was not seen in begins the next one, once."""
    duo.faces(1)
    duo.do(downtime, "Ada", CAROUSE, run="evening-1")
    assert duo.do(new_session, run="evening-2") == [SessionAdvanced(session=2)]
    duo.refuse("wolden.session.same-sitting", new_session, run="evening-2")
    duo.faces(1)
    assert duo.do(downtime, "Ada", CAROUSE, run="evening-2")[0].session == 2


def test_a_game_without_sittings_dumps_as_before(duo) -> None:
    """Saves of the previous release resume to the same state: no sitting named, no new field."""
    assert "session_run" not in duo.state.model_dump(mode="json")
    duo.faces(1)
    duo.do(downtime, "Ada", CAROUSE, run="evening-1")
    dumped = duo.state.model_dump(mode="json")
    assert dumped["session_run"] == "evening-1"
    assert type(duo.state).model_validate(dumped) == duo.state


def test_downtimes_taken_before_sittings_were_named_count_as_an_earlier_sittings(duo) -> None:
    """[ours] A game saved before sittings were named (README): its downtimes were another sitting's, so the
    first downtime named in a new one begins the next session; a caller that does not say so keeps them."""
    duo.faces(1)
    duo.do(downtime, "Ada", CAROUSE)  # as the release before issue 17 played it: no sitting named
    duo.refuse("wolden.downtime.once-per-session", downtime, "Ada", CAROUSE, run="evening-2")
    duo.faces(1)
    events = duo.do(downtime, "Ada", CAROUSE, run="evening-2", unnamed_earlier=True)
    assert events[0] == SessionAdvanced(session=2) and duo.state.downtime == ["Ada"]
    duo.refuse("wolden.session.same-sitting", new_session, run="evening-2")


def test_no_downtime_yet_begins_no_session(duo) -> None:
    """[ours] With nobody's downtime taken, the first one named stays in the session under way."""
    duo.faces(1)
    events = duo.do(downtime, "Ada", CAROUSE, run="evening-1", unnamed_earlier=True)
    assert events[0].session == 1 and duo.state.session == 1
