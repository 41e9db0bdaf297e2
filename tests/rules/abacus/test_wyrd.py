"""Wyrd rolls (rules/abacus/wyrd.py): the personal pool, omens, clocks, counters."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from wyrd.rules.abacus import (
    Ability,
    Clock,
    Counter,
    GameState,
    Omen,
    Threshold,
    add_challenge,
    add_character,
    attempt,
    draw,
    end_scene,
    finale,
    install,
    omen,
    roll,
    scratch_out,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import ClockAdvanced, CounterFired, InfluenceRolled
from wyrd.rules.abacus.turn import Turn
from wyrd.rules.abacus.wyrd import single_out
from wyrd.rules.dice import Dice
from wyrd.rules.odds import influence_odds


def rolled(t, events) -> dict[str, tuple[list[int], int]]:
    return {e.character: (e.dice, e.result) for e in t.of(InfluenceRolled, events)}


def test_wyrd_roll_uses_the_personal_pool(new) -> None:
    """Seed 000: a Wyrd roll is an influence roll of the character's personal Wyrd pool."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.faces(1)
    t.do(add_challenge, "Knife", "threat", 2)
    t.do(attempt, "knife", "Ada", ["Bram"])
    t.do(roll)
    t.do(draw, "Bram", 1)  # Bram: 1 Wyrd; then the roll is overcome
    t.do(add_challenge, "Lock", "logic", 3)
    t.do(attempt, "lock", "Ada")
    t.faces(1)
    t.do(roll)
    t.do(draw, "Ada", 2)  # Ada: 2 Wyrd
    t.faces(4, 6, 2)
    events = t.do(wyrd, ["Ada", "Bram"])
    assert rolled(t, events) == {"Ada": ([4, 6], 6), "Bram": ([2], 2)}
    assert [e.trait for e in t.of(InfluenceRolled, events)] == ["wyrd", "wyrd"]


def test_empty_pool_rolls_a_one(new) -> None:
    """Seed 000: a Wyrd roll before any Wyrd is drawn counts as a result of 1."""
    t = new("Ada")
    events = t.do(wyrd, ["Ada"])
    assert rolled(t, events) == {"Ada": ([], 1)}
    assert t.dice.history == []


def test_starting_wyrd_rolls_one_die(new) -> None:
    """Seed 000: one optional starting point of Wyrd is one die in a Wyrd roll."""
    t = new("Ada", faces=[5], wyrd=1)
    assert rolled(t, t.do(wyrd, ["Ada"])) == {"Ada": ([5], 5)}


@pytest.mark.parametrize(("result", "expected"), [
    (1, Omen.INTRUSION), (2, Omen.INTRUSION), (3, Omen.NOTHING), (4, Omen.NOTHING),
    (5, Omen.NOTHING), (6, Omen.TWIST),
])
def test_omen_classification(result: int, expected: Omen) -> None:
    """Seed 000: a 6 brings the Vale in (a threat, a twist, a personal hook); a best
    of 1-2 lets the ordinary world or a friend break in; RULES.md: 3-5 nothing new."""
    assert omen(result) == expected


def test_exact_chance_of_a_twist_through_the_engine() -> None:
    """Seed 000: any 6 on a Wyrd roll brings a twist; with 3 Wyrd that is 91/216,
    counted over all 216 outcomes of a real Wyrd roll."""
    twists = 0
    for faces in itertools.product(range(1, 7), repeat=3):
        dice = Dice.scripted(faces)
        state = add_character(GameState(), dice, "Ada", 5, 5, 5).state
        state.characters["Ada"].wyrd = 3
        out = wyrd(state, dice, ["Ada"])
        result = next(e for e in out.events if isinstance(e, InfluenceRolled)).result
        twists += omen(result) == Omen.TWIST
    assert Fraction(twists, 216) == Fraction(91, 216) == influence_odds(3).p_any_six


def test_wyrd_roll_between_scenes(new) -> None:
    """Seed 000: between scenes an outcome may be decided by a Wyrd roll."""
    t = new("Ada", faces=[3], wyrd=1)
    assert t.state.scene is None
    assert rolled(t, t.do(wyrd, ["Ada"])) == {"Ada": ([3], 3)}


def test_wyrd_roll_counts_for_the_scene(new) -> None:
    """Seed 000: ideally a Wyrd roll once per scene; the scene records it."""
    t = new("Ada", faces=[3], scene=["Ada"], wyrd=1)
    t.do(wyrd, ["Ada"])
    assert t.scene.wyrd_rolls == 1


def test_wyrd_roll_needs_someone(new) -> None:
    """[ours, wyrd.wyrd] a Wyrd roll is made by at least one character."""
    new("Ada").refuse("abacus.wyrd.who", wyrd, [])


def test_defeated_no_longer_roll(new) -> None:
    """Seed 000: a defeated character is no longer under a player's control."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(scratch_out, "Bram", Ability.MIND)
    t.do(scratch_out, "Bram", Ability.MIND)
    t.refuse("abacus.defeat.no-actions", wyrd, ["Bram"])


@pytest.mark.parametrize(("faces", "chosen"), [
    ([5, 5, 6, 1, 1], "Bram"),  # Ada 5,5; Bram 6,1,1: the higher result
    ([4, 4, 4, 1, 1], "Ada"),  # Ada 4,4; Bram 4,1,1: same result, Ada shows it twice
    ([5, 5, 5, 2, 5, 1, 6], "Bram"),  # two 5s each: a dead heat, re-rolled 1 against 6
])
def test_single_out_highest_then_count(faces: list[int], chosen: str) -> None:
    """DESIGN.md / seed 000: a Wyrd roll picks whom the Wyrd singles out: the highest
    result, ties broken by how many dice show it, then ([ours]) a re-roll."""
    state = GameState()
    for name in ("Ada", "Bram"):
        state = add_character(state, Dice.scripted([]), name, 5, 5, 5).state
    state.characters["Ada"].wyrd = 2
    state.characters["Bram"].wyrd = 3
    dice = Dice.scripted(faces)
    assert single_out(Turn(state, dice), ["Ada", "Bram"], reason="test") == chosen
    assert len(dice.history) == (2 if len(faces) == 5 else 4)


# -- clocks ------------------------------------------------------------------------------


def beast_clock() -> Clock:
    return Clock(id="beast", name="The Beast", thresholds=[Threshold(at=5), Threshold(at=10),
                                                            Threshold(at=15)])


def test_clock_counts_fives_and_sixes_on_every_die(new) -> None:
    """Seed 000: a clock tallies each die of a Wyrd roll showing 5 or 6."""
    t = new("Ada", "Bram", scene=None)
    t.do(install, clocks=[beast_clock()])
    t.state.characters["Ada"].wyrd = 3
    t.state.characters["Bram"].wyrd = 2
    t.faces(5, 6, 4, 6, 1)
    events = t.do(wyrd, ["Ada", "Bram"])
    assert t.of(ClockAdvanced, events) == [ClockAdvanced(clock="beast", value=3, change=3)]


def test_clock_thresholds_five_ten_fifteen(new) -> None:
    """Seed 000: the hunting beast draws nearer at a tally of 5, is right behind at
    10 and catches the party at 15; each threshold is passed once."""
    t = new("Ada")
    t.do(install, clocks=[beast_clock()])
    t.state.characters["Ada"].wyrd = 4
    crossed: list[list[int]] = []
    rolls = [(5, 5, 6, 1), (6, 6, 1, 1), (5, 5, 5, 5), (6, 1, 1, 1),
             (6, 6, 6, 6), (6, 1, 1, 1), (6, 6, 6, 6)]  # counts 3, 5, 9, 10, 14, 15, 19
    for faces in rolls:
        t.faces(*faces)
        events = t.do(wyrd, ["Ada"])
        crossed.append([th for e in t.of(ClockAdvanced, events) for th in e.thresholds])
    assert crossed == [[], [5], [], [10], [], [15], []]
    assert t.state.clocks["beast"].value == 19
    assert t.state.clocks["beast"].reached == [5, 10, 15]


def test_clock_with_no_five_or_six_stays(new) -> None:
    """Seed 000: only 5s and 6s count."""
    t = new("Ada", faces=[4, 3], wyrd=1)
    t.do(install, clocks=[beast_clock()])
    t.state.characters["Ada"].wyrd = 2
    events = t.do(wyrd, ["Ada"])
    assert t.of(ClockAdvanced, events) == []
    assert t.state.clocks["beast"].value == 0


# -- counters ---------------------------------------------------------------------------


def test_counter_fires_when_result_at_or_under(new) -> None:
    """Seed 000: a Wyrd result no higher than the killer's tally means another
    victim (the counter fires)."""
    t = new("Ada", "Bram", "Cora")
    t.do(install, counters=[Counter(id="kills", name="Kill Count", value=3)])
    t.state.characters["Ada"].wyrd = 1
    t.state.characters["Bram"].wyrd = 1
    t.state.characters["Cora"].wyrd = 1
    t.faces(3, 4, 1)
    events = t.do(wyrd, ["Ada", "Bram", "Cora"])
    fired = [(e.character, e.result) for e in t.of(CounterFired, events)]
    assert fired == [("Ada", 3), ("Cora", 1)]


def test_counter_zero_never_fires(new) -> None:
    """Seed 000: results are at least 1, so a count of 0 never fires."""
    t = new("Ada")
    t.do(install, counters=[Counter(id="kills", name="Kill Count", value=0)])
    assert t.of(CounterFired, t.do(wyrd, ["Ada"])) == []


def test_empty_pool_result_one_meets_count_one(new) -> None:
    """Seed 000: a trait of 0 counts as a 1, which is at or under a count of 1."""
    t = new("Ada")
    t.do(install, counters=[Counter(id="kills", name="Kill Count", value=1)])
    assert [e.result for e in t.of(CounterFired, t.do(wyrd, ["Ada"]))] == [1]


# -- scene end and finale ----------------------------------------------------------------


def test_scene_end_roll_feeds_clocks(new) -> None:
    """Seed 000: a clock can feed on a Wyrd roll made as every scene closes;
    RULES.md: that roll is made when the scene had none."""
    t = new("Ada", "Bram", scene=None, wyrd=1)
    t.do(install, clocks=[beast_clock()])
    t.do(start_scene, ["Ada", "Bram"])
    t.faces(6, 5)
    t.do(end_scene)
    assert t.state.clocks["beast"].value == 2


def test_no_wyrd_after_the_story(new) -> None:
    """Seed 000: the final Wyrd roll ends the story."""
    t = new("Ada")
    t.do(finale)
    t.refuse("abacus.finale.ended", wyrd, ["Ada"])


def test_single_out_of_one_rolls_nothing() -> None:
    """[ours, wyrd.single_out] with one candidate there is nothing to pick between."""
    state = add_character(GameState(), Dice.scripted([]), "Ada", 5, 5, 5).state
    turn = Turn(state, Dice.scripted([]))
    assert single_out(turn, ["Ada"], reason="test") == "Ada"
    assert single_out(turn, [], reason="test") is None
