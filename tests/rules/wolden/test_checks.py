"""The staged roll (rules/wolden/checks.py): attempt, roll, check, cancel."""

from __future__ import annotations

from wyrd.rules.dice import Dice
from wyrd.rules.wolden import Ability, GameState, Result, attempt, cancel, check, harm, roll
from wyrd.rules.wolden.events import CheckCancelled, CheckOpened, CheckRolled, PoolCapped

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES


def test_attempt_opens_the_pool(duo) -> None:
    """Seed 001: assemble the pool first: 1d12, +1 gift, +1 advantage, +1 per helper."""
    events = duo.do(attempt, "Ada", MIGHT, gift="hush", advantage=True, helpers=["Bram"])
    assert events == [CheckOpened(lead="Ada", ability=MIGHT, score=3, dice=4, gift="hush", advantage=True,
                                  helpers=["Bram"], against=None)]
    assert duo.state.pending is not None
    assert duo.state.pending.involved == ["Ada", "Bram"]
    assert duo.faces_left == 0  # nothing rolled yet


def test_roll_reads_highest_plus_ability(duo) -> None:
    """Seed 001: the highest die plus the ability; 7-12 is a partial success."""
    duo.do(attempt, "Ada", MIGHT, advantage=True)
    duo.faces(4, 9)
    (rolled,) = duo.of(CheckRolled, duo.do(roll))
    assert rolled.faces == [4, 9]
    assert (rolled.highest, rolled.score, rolled.total) == (9, 3, 12)
    assert rolled.result == Result.PARTIAL
    assert duo.state.pending is None
    assert duo.dice.history[-1].sides == 12
    assert len(duo.dice.history[-1].faces) == 2


def test_check_does_both(duo) -> None:
    """[ours] check = attempt + roll in one action: the same events."""
    duo.faces(10, 10)
    events = duo.do(check, "Ada", MIGHT, gift="keen-ears")
    assert [e.kind for e in events] == ["check_opened", "check_rolled"]
    assert events[1].result == Result.CRITICAL_SUCCESS  # a pair, 10 + 3 = 13


def test_critical_failure(duo) -> None:
    """Seed 001: matching dice on a failing total make it a critical failure."""
    duo.faces(2, 2)
    events = duo.do(check, "Ada", GRACES, advantage=True)
    assert events[-1].result == Result.CRITICAL_FAILURE
    assert events[-1].critical


def test_gift_counts_once(duo) -> None:
    """Seed 001: one die from gifts, however many apply (a gift is named, not counted)."""
    duo.do(attempt, "Ada", MIGHT, gift="hush")
    assert duo.state.pending is not None and duo.state.pending.dice == 2


def test_gift_must_be_held(duo) -> None:
    """[ours] The relevant gift is named, and the lead must hold it."""
    duo.refuse("wolden.pool.gift-not-held", attempt, "Ada", MIGHT, gift="talons")


def test_at_most_four_dice_capped_not_refused(party) -> None:
    """Seed 001 001_0ed33d63b95f167b.txt: "Assemble your dice pool (maximum 4d12)": a bigger pool is capped.

    [ours] The dice fill in the text's order (gift, advantage, helpers as named): the last
    helpers' dice are lost, and those helpers stay out of the roll.
    """
    events = party.do(attempt, "Ada", MIGHT, gift="hush", advantage=True, helpers=["Bram", "Cora"])
    assert events[0] == PoolCapped(lead="Ada", asked=5, dice=4, lost=["Cora"])
    pending = party.state.pending
    assert pending is not None and pending.dice == 4 and pending.involved == ["Ada", "Bram"]
    party.do(cancel)
    events = party.do(attempt, "Ada", MIGHT, helpers=["Bram", "Cora", "Dot"], advantage=True)
    assert events[0] == PoolCapped(lead="Ada", asked=5, dice=4, lost=["Dot"])
    party.do(cancel)
    events = party.do(attempt, "Ada", MIGHT, helpers=["Bram", "Cora", "Dot"])
    assert [e.kind for e in events] == ["check_opened"]
    assert party.state.pending is not None and party.state.pending.dice == 4


def test_a_capped_helper_shares_nothing(party) -> None:
    """[ours] A helper whose die was lost to the cap is not struck by the roll's failure."""
    party.faces(1, 2, 3, 4)
    events = party.do(check, "Ada", GRACES, gift="hush", advantage=True, helpers=["Bram", "Cora"])
    rolled = party.of(CheckRolled, events)[0]
    assert rolled.helpers == ["Bram"] and len(rolled.faces) == 4


def test_lead_cannot_help_themself(duo) -> None:
    """[ours] A helper is someone else."""
    duo.refuse("wolden.pool.helper-is-lead", attempt, "Ada", MIGHT, helpers=["ada"])


def test_one_roll_at_a_time(duo) -> None:
    """[ours] One roll is open at a time."""
    duo.do(attempt, "Ada", MIGHT)
    duo.refuse("wolden.check.one-at-a-time", attempt, "Bram", MIND)
    duo.refuse("wolden.check.one-at-a-time", harm, "Bram", MIND, 1)


def test_roll_needs_an_open_roll(duo) -> None:
    duo.refuse("wolden.check.none-open", roll)
    duo.refuse("wolden.check.none-open", cancel)


def test_cancel_drops_the_roll(duo) -> None:
    """[ours] An opened roll can be dropped before the dice are rolled."""
    duo.do(attempt, "Ada", MIGHT)
    assert duo.do(cancel) == [CheckCancelled(lead="Ada")]
    assert duo.state.pending is None


def test_roll_uses_the_ability_as_it_stands(duo) -> None:
    """[ours] A roll adds the ability less its damage."""
    duo.do(harm, "Ada", MIGHT, 2)
    duo.faces(12)
    events = duo.do(check, "Ada", MIGHT)
    assert events[0].score == 1
    assert events[-1].total == 13


def test_unknown_and_out_characters(duo) -> None:
    duo.refuse("wolden.unknown.character", attempt, "Zed", MIGHT)
    duo.do(harm, "Bram", MIGHT, 9)  # 0 Might: 9 wounds, 2 free slots: out
    assert duo.char("Bram").out
    duo.refuse("wolden.out.no-actions", attempt, "Bram", MIND)
    duo.refuse("wolden.out.no-actions", attempt, "Ada", MIND, helpers=["Bram"])


def test_names_are_case_insensitive(duo) -> None:
    duo.faces(5, 6)
    events = duo.do(check, "ada", "mind", helpers=["BRAM"])
    assert events[0].lead == "Ada" and events[0].helpers == ["Bram"]
    assert events[0].ability == MIND


def test_physical_dice(duo) -> None:
    """DESIGN.md: players may roll physical dice and supply the faces."""
    dice = Dice.scripted([])
    dice.supply([12, 12], sides=12)
    out = check(duo.state, dice, "Ada", MIGHT, advantage=True)
    assert out.events[-1].faces == [12, 12]
    assert out.events[-1].result == Result.CRITICAL_SUCCESS


def test_plain_check_has_no_automatic_consequences(duo) -> None:
    """[ours] Outside fights and dangerous challenges the story applies a plain check's consequences."""
    duo.faces(1, 1)
    before = duo.state.characters
    events = duo.do(check, "Ada", MIND, helpers=["Bram"])
    assert [e.kind for e in events] == ["check_opened", "check_rolled"]
    assert events[-1].result == Result.CRITICAL_FAILURE
    assert events[-1].helpers == ["Bram"]  # who shares the consequences
    assert duo.state.characters == before


def test_given_state_is_untouched(duo) -> None:
    """DESIGN.md: an action works on a copy; the caller's state is not changed."""
    state: GameState = duo.state
    dump = state.model_dump()
    check(state, Dice.scripted([7]), "Ada", MIGHT)
    assert state.model_dump() == dump
