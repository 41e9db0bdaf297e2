"""Extended challenges and travel montages (rules/wolden/extended.py, encounters.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.wolden import (
    LOST_AT,
    Ability,
    DamageDice,
    EncounterKind,
    EncounterOutcome,
    Result,
    Situation,
    abandon,
    attempt,
    check,
    downtime,
    pass_turn,
    roll,
    start_extended,
    start_fight,
    start_montage,
)
from wyrd.rules.wolden.events import (
    ExtendedEnded,
    ExtendedProgressed,
    ExtendedStarted,
    HarmTaken,
    RoundStarted,
    SituationDrawn,
    Struck,
    TurnPassed,
)
from wyrd.rules.wolden.state import Enemy

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES

# Faces for Ada (Might 3) with one die: each gives one result.
FAIL, PARTIAL, SUCCESS = 2, 5, 11

ROADS = [Situation(id="ford", text="a swollen ford"), Situation(id="wolves", text="wolf tracks"),
         Situation(id="bridge", text="a broken bridge")]


def test_start(duo) -> None:
    """Seed 001: an extended challenge has a difficulty rating; everyone standing takes part by default."""
    events = duo.do(start_extended, "Convince the Governor", 8)
    assert events == [
        ExtendedStarted(id="convince-the-governor", name="Convince the Governor", rating=8, montage=False,
                        participants=["Ada", "Bram"]),
        RoundStarted(encounter="convince-the-governor", type=EncounterKind.EXTENDED, number=1,
                     participants=["Ada", "Bram"]),
    ]


@pytest.mark.parametrize(
    ("faces", "result", "rating"),
    [((1, 1), Result.CRITICAL_FAILURE, 12), ((2, 3), Result.FAILURE, 10), ((5, 4), Result.PARTIAL, 7),
     ((11, 4), Result.SUCCESS, 6), ((11, 11), Result.CRITICAL_SUCCESS, 4)],
)
def test_rating_changes(duo, faces: tuple[int, int], result: Result, rating: int) -> None:
    """Seed 001's table: critical failure +4, failure +2, partial -1, success -2, critical success -4."""
    duo.do(start_extended, "Treaty", 8)
    duo.faces(*faces)
    events = duo.do(check, "Ada", MIGHT, advantage=True, against="treaty")
    (moved,) = duo.of(ExtendedProgressed, events)
    assert (moved.result, moved.rating) == (result, rating)
    assert moved.change == result.rating_change


def test_four_successes_or_two_criticals_finish_a_rating_of_8(new) -> None:
    """Seed 001's worked example: a rating of 8 falls to four plain successes or to two criticals."""
    t = new("Ada", "Bram", "Cora", "Dot")
    t.do(start_extended, "Treaty", 8)
    t.faces(12, 12, 12, 12)  # each rolls a 12 plus an ability of 3: a success
    for name, ability in (("Ada", MIGHT), ("Bram", AGILITY), ("Cora", MIND)):
        t.do(check, name, ability, against="Treaty")
    events = t.do(check, "Dot", GRACES, against="Treaty")
    assert t.of(ExtendedEnded, events) == [ExtendedEnded(id="treaty", outcome=EncounterOutcome.DONE, rating=0,
                                                         rounds=1)]
    assert t.state.encounter is None

    t.do(start_extended, "Treaty again", 8)
    t.faces(10, 10, 11, 11)  # a pair with a total of 13 or more, twice
    t.do(check, "Ada", MIGHT, advantage=True, against="treaty-again")
    events = t.do(check, "Bram", AGILITY, advantage=True, against="treaty-again")
    assert t.of(ExtendedEnded, events)[0].outcome == EncounterOutcome.DONE


def test_rating_stops_at_zero(duo) -> None:
    """Seed 001: done at 0; [ours] the rating never shows below 0."""
    duo.do(start_extended, "Gate", 2)
    duo.faces(12, 12)
    events = duo.do(check, "Ada", MIGHT, advantage=True, against="gate")
    assert duo.of(ExtendedProgressed, events)[0].rating == 0
    assert duo.of(ExtendedEnded, events)[0].outcome == EncounterOutcome.DONE


def test_lost_at_twice_the_start(duo) -> None:
    """RULES.md [ours]: lost when the rating reaches twice its start (the text: the GM might rule so)."""
    assert LOST_AT == 2
    duo.do(start_extended, "Gate", 3)
    duo.faces(FAIL)
    duo.do(check, "Ada", MIGHT, against="gate")  # 5
    duo.faces(1)
    events = duo.do(check, "Bram", MIGHT, against="gate")  # Bram's Might 0: 1, a failure: 7 >= 6
    assert duo.of(ExtendedEnded, events) == [ExtendedEnded(id="gate", outcome=EncounterOutcome.LOST, rating=7,
                                                           rounds=1)]


def test_new_round_once_everyone_has_acted(duo) -> None:
    """Seed 001: when all the players have acted, the challenge moves to its next round."""
    duo.do(start_extended, "Gate", 9)
    duo.faces(PARTIAL)
    assert duo.of(RoundStarted, duo.do(check, "Ada", MIGHT, against="gate")) == []
    duo.refuse("wolden.round.acted", attempt, "Ada", MIGHT, against="gate")
    duo.faces(PARTIAL)
    events = duo.do(check, "Bram", MIND, against="gate")
    assert duo.of(RoundStarted, events)[0].number == 2
    assert duo.state.encounter is not None and duo.state.encounter.rounds.acted == []


def test_round_keeps_the_order(party) -> None:
    """Seed 001: the players choose the order; the engine records it."""
    party.do(start_extended, "Gate", 20)
    party.faces(PARTIAL, PARTIAL)
    party.do(check, "Cora", MIND, against="gate")
    party.do(check, "Ada", MIGHT, against="gate")
    assert party.state.encounter is not None
    assert party.state.encounter.rounds.acted == ["Cora", "Ada"]


def test_helping_is_a_turn(party) -> None:
    """[ours] A helper has had their turn for the round too."""
    party.do(start_extended, "Gate", 20)
    party.faces(PARTIAL, 3)
    party.do(check, "Ada", MIGHT, helpers=["Bram"], against="gate")
    party.refuse("wolden.round.acted", attempt, "Bram", MIND, against="gate")
    party.refuse("wolden.round.acted", attempt, "Cora", MIND, helpers=["Ada"], against="gate")


def test_pass_turn(duo) -> None:
    """Seed 001: joining in is optional; [ours] a participant may pass their turn."""
    duo.do(start_extended, "Gate", 9)
    assert duo.do(pass_turn, "Bram") == [TurnPassed(encounter="gate", character="Bram", round=1)]
    duo.faces(PARTIAL)
    events = duo.do(check, "Ada", MIGHT, against="gate")
    assert duo.of(RoundStarted, events)[0].number == 2


def test_participants_only(new) -> None:
    """Seed 001: any number of the characters may join in; [ours] those who don't can't roll against it."""
    t = new("Ada", "Bram", "Cora")
    t.do(start_extended, "Gate", 9, participants=["Ada", "Bram"])
    t.refuse("wolden.round.not-taking-part", attempt, "Cora", MIND, against="gate")
    t.refuse("wolden.round.not-taking-part", attempt, "Ada", MIGHT, helpers=["Cora"], against="gate")
    t.refuse("wolden.round.not-taking-part", pass_turn, "Cora")


def test_plain_checks_leave_the_rating_alone(duo) -> None:
    """[ours] A roll counts toward the challenge only when made against it."""
    duo.do(start_extended, "Gate", 9)
    duo.faces(SUCCESS)
    events = duo.do(check, "Ada", MIGHT)
    assert duo.of(ExtendedProgressed, events) == []
    assert duo.state.encounter is not None and duo.state.encounter.rounds.acted == []


def test_against_must_name_the_challenge(duo) -> None:
    duo.refuse("wolden.encounter.none", attempt, "Ada", MIGHT, against="gate")
    duo.do(start_extended, "Gate", 9)
    duo.refuse("wolden.unknown.encounter", attempt, "Ada", MIGHT, against="tower")


def test_one_encounter_at_a_time(duo) -> None:
    """[ours] One extended challenge, montage or fight at a time; no downtime during one."""
    duo.do(start_extended, "Gate", 9)
    duo.refuse("wolden.encounter.one-at-a-time", start_extended, "Tower", 4)
    duo.refuse("wolden.encounter.one-at-a-time", start_fight, [Enemy(id="rat", name="Rat", harm=1)])
    duo.refuse("wolden.downtime.not-now", downtime, "Ada", "rest")


def test_rating_must_be_positive(duo) -> None:
    duo.refuse("wolden.extended.rating", start_extended, "Gate", 0)


def test_abandon(duo) -> None:
    duo.refuse("wolden.extended.none", abandon)
    duo.do(start_extended, "Gate", 9)
    events = duo.do(abandon)
    assert events == [ExtendedEnded(id="gate", outcome=EncounterOutcome.ABANDONED, rating=9, rounds=1)]


def test_danger_strikes_failures_and_partials(duo) -> None:
    """Seed 001: the usual consequences still apply; [ours] a challenge's danger deals its damage to each
    character involved on a failure or partial, the maximum on a critical failure."""
    duo.do(start_extended, "Cliff", 9, danger=DamageDice(count=1, sides=4, bonus=0))
    duo.faces(PARTIAL, 1, 3, 3)  # the pool (a partial), then a d4 for each of Ada and Bram
    events = duo.do(check, "Ada", MIGHT, helpers=["Bram"], against="cliff")
    assert [(s.character, s.n) for s in duo.of(Struck, events)] == [("Ada", 3), ("Bram", 3)]
    assert [h.ability for h in duo.of(HarmTaken, events)] == [MIGHT, MIGHT]


def test_danger_spares_successes(duo) -> None:
    duo.do(start_extended, "Cliff", 9, danger=DamageDice())
    duo.faces(SUCCESS)
    assert duo.of(Struck, duo.do(check, "Ada", MIGHT, against="cliff")) == []


def test_everyone_out_loses_it(duo) -> None:
    """[ours] When every participant is out, the challenge is lost."""
    duo.do(start_extended, "Cliff", 9, danger=DamageDice(count=1, sides=4, bonus=20))
    duo.faces(1, 1)
    events = duo.do(check, "Ada", GRACES, helpers=["Bram"], against="cliff")
    assert [e.kind for e in events][-1] == "extended_ended"
    assert duo.of(ExtendedEnded, events)[0].outcome == EncounterOutcome.LOST


# -- travel montages -----------------------------------------------------------------------


def test_montage_draws_a_situation_each_round(duo) -> None:
    """Seed 001: a montage's situations are set for the players, not chosen by them; [ours] one is
    drawn with the dice from the table passed in at the start of each round, without repeats until the
    table is used up."""
    duo.faces(2)
    events = duo.do(start_montage, "To the Coast", 6, ROADS)
    (drawn,) = duo.of(SituationDrawn, events)
    assert (drawn.situation, drawn.face, drawn.round) == ("wolves", 2, 1)
    assert duo.state.encounter is not None and duo.state.encounter.situation == "wolves"
    duo.faces(PARTIAL, 3, 2)  # Ada's roll; Bram's roll; the d2 for round 2 (ford, bridge left)
    duo.do(check, "Ada", MIGHT, against="to-the-coast")
    events = duo.do(check, "Bram", AGILITY, against="to-the-coast")
    (drawn,) = duo.of(SituationDrawn, events)
    assert (drawn.situation, drawn.round) == ("bridge", 2)
    duo.do(pass_turn, "Ada")
    events = duo.do(pass_turn, "Bram")  # one left: no die needed
    (drawn,) = duo.of(SituationDrawn, events)
    assert (drawn.situation, drawn.face) == ("ford", None)
    duo.faces(1)
    duo.do(pass_turn, "Ada")
    events = duo.do(pass_turn, "Bram")  # the table is full again: a d3
    assert duo.of(SituationDrawn, events)[0].situation == "ford"
    assert duo.dice.history[-1].sides == 3


def test_montage_per_check(duo) -> None:
    """[ours] A montage may draw a new situation for every roll instead."""
    events = duo.do(start_montage, "Chase", 6, ROADS, per_check=True)
    assert duo.of(SituationDrawn, events) == []
    duo.faces(3, PARTIAL)
    events = duo.do(check, "Ada", MIGHT, against="chase")
    assert [e.kind for e in events][:2] == ["check_opened", "situation_drawn"]
    assert duo.of(SituationDrawn, events)[0].situation == "bridge"


def test_montage_needs_situations(duo) -> None:
    duo.refuse("wolden.montage.situations", start_montage, "Trip", 6, [])
    duo.refuse("wolden.montage.situations", start_montage, "Trip", 6, [Situation(id="a"), Situation(id="a")])


def test_montage_ends_like_a_challenge(duo) -> None:
    """Seed 001: once the montage's rating reaches 0 the characters have arrived."""
    duo.faces(1)
    duo.do(start_montage, "Trip", 2, ROADS)
    duo.faces(SUCCESS)
    events = duo.do(check, "Ada", MIGHT, against="trip")
    assert duo.of(ExtendedEnded, events)[0].outcome == EncounterOutcome.DONE


def test_open_roll_then_roll(duo) -> None:
    """The staged form works against a challenge too."""
    duo.do(start_extended, "Gate", 9)
    duo.do(attempt, "Ada", MIGHT, against="GATE")
    duo.faces(SUCCESS)
    assert duo.of(ExtendedProgressed, duo.do(roll))[0].rating == 7
