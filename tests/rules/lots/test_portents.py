"""Portents: Blot-out and Re-tell, their costs, chains of Re-tells, and effort (rules/lots/portents.py)."""

from __future__ import annotations

from wyrd.rules.lots import (
    Conversion,
    Discipline,
    Lot,
    PortentUse,
    Result,
    Whose,
    attack,
    award,
    blot_out,
    cast_lots,
    check,
    convert,
    defend,
    portent_cost,
    rest,
    retell,
    retry,
)
from wyrd.rules.lots.events import CheckCast, LotsCast, MettleTested, PainTaken, PortentSpent

PROWESS = Discipline.PROWESS


def portents(table, name: str) -> int:
    return table.char(name).portents


# --- costs ----------------------------------------------------------------------------------------


def test_retell_own_roll_costs_one(table) -> None:
    """Seed 004: a Portent on your own roll costs 1."""
    table.faces(2, 1, 3, 3)
    table.do(check, "Ada", 5, discipline=PROWESS)
    events = table.do(retell, "Ada")
    spent, cast, *_ = events
    assert spent == PortentSpent(character="Ada", use=PortentUse.RETELL, cost=1, cast="c1", target="Ada",
                                 whose=Whose.OWN, portents_after=5, erased=["c1"])
    assert isinstance(cast, CheckCast) and (cast.cast, cast.retell_of, cast.retells) == ("c2", "c1", 1)
    assert portents(table, "Ada") == 5


def test_another_players_roll_costs_two(table) -> None:
    """Seed 004: on another player's roll, 2 Portents."""
    table.faces(2, 1, 3, 3)
    table.do(check, "Ada", 5, discipline=PROWESS)
    (spent, *_) = table.do(retell, "Bram")
    assert (spent.cost, spent.whose, spent.target) == (2, Whose.PLAYER, "Ada")
    assert (portents(table, "Bram"), portents(table, "Ada")) == (4, 6)


def test_the_worlds_roll_costs_three(table) -> None:
    """[ours] The world's secret lots are the narrator's roll too: 3 Portents."""
    table.faces(1, 1, 2, 2)
    table.do(cast_lots, None, "the Thae stirs")
    (spent, cast) = table.do(retell, "Bram")
    assert (spent.cost, spent.whose, spent.target) == (3, Whose.NPC, None)
    assert isinstance(cast, LotsCast) and cast.retell_of == "c1"


def test_portent_cost_prices_without_spending(table) -> None:
    """Seed 004: the three prices, asked in advance (the play layer shows them)."""
    table.faces(2, 2)
    table.do(check, "Ada", 5, value=5)
    before = table.state.model_copy(deep=True)
    assert [portent_cost(table.state, name) for name in ("Ada", "Bram")] == [1, 2]
    assert table.state == before
    table.faces(2, 2)
    table.do(cast_lots, None, "the weather")
    assert portent_cost(table.state, "Ada", "c2") == 3


def test_too_few_portents_is_refused(new) -> None:
    """Seed 004: the number of Portents required must be paid."""
    t = new("Ada", "Bram", "Orc")
    t.char("Bram").portents = 2
    t.faces(2, 2)
    t.do(cast_lots, None)
    error = t.refuse("lots.portent.cost", retell, "Bram")
    assert "costs 3" in error.message


def test_npcs_spend_no_portents(table) -> None:
    """[ours] Only players' characters hold and spend Portents."""
    table.faces(2, 2)
    table.do(check, "Ada", 5, value=5)
    table.refuse("lots.player.npc", retell, "Orc")


def test_nothing_to_change(table) -> None:
    """Seed 004: Portents change an outcome when lots are cast; with no cast there is nothing."""
    table.refuse("lots.portent.nothing", retell, "Ada")
    table.refuse("lots.portent.nothing", blot_out, "Ada")


# --- Re-tell ----------------------------------------------------------------------------------------


def test_retell_keeps_only_the_last_outcome(table) -> None:
    """Seed 004: a Re-tell does the check again; only the second outcome is kept. The rules keep
    both casts' events (a Re-tell is not an undo)."""
    table.faces(1, 1, 4, 4)
    table.do(check, "Ada", 5, discipline=PROWESS)
    table.do(retell, "Ada")
    casts = table.of(CheckCast)
    assert [(c.cast, c.lot, c.outcome) for c in casts] == [
        ("c1", Lot.FUMBLE, Result.FAILURE), ("c2", Lot.CRIT, Result.SUCCESS)]
    assert [r.id for r in table.state.window] == ["c2"]


def test_retell_of_a_retell(table) -> None:
    """Seed 004: a Re-telling may be re-told, again and again, while the Portents last."""
    table.faces(1, 1, 2, 1, 3, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    for _ in range(3):
        table.do(retell, "Ada")
    chain = [(c.cast, c.retell_of, c.retells) for c in table.of(CheckCast)]
    assert chain == [("c1", None, 0), ("c2", "c1", 1), ("c3", "c2", 2), ("c4", "c3", 3)]
    assert portents(table, "Ada") == 3
    assert [s.erased for s in table.of(PortentSpent)] == [["c1"], ["c2"], ["c3"]]


def test_a_chain_stops_when_the_portents_run_out(new) -> None:
    """Seed 004: only with enough Portents remaining."""
    t = new("Ada")
    t.char("Ada").portents = 1
    t.faces(1, 1, 1, 1)
    t.do(check, "Ada", 5, discipline=PROWESS)
    t.do(retell, "Ada")
    t.refuse("lots.portent.cost", retell, "Ada")


def test_retold_effort_counts_once(table) -> None:
    """Seed 004: on a Re-telling only the outcome changes; the effort spent still counts and
    need not be spent again."""
    table.faces(2, 1, 3, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS, effort=3)
    table.do(retell, "Ada")
    table.do(retell, "Ada")
    condition = table.char("Ada").condition
    assert (condition.effort_spent, condition.effort_lost) == (3, 0)


def test_retelling_a_waste_saves_the_effort(table) -> None:
    """Seed 004: the first attempt never happened, so neither did its WASTE."""
    table.faces(4, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS, effort=2)
    assert table.char("Ada").condition.effort_lost == 2
    table.do(retell, "Ada")
    condition = table.char("Ada").condition
    assert (condition.effort_spent, condition.effort_lost) == (2, 0)


def test_retell_resets_the_chance_to_try_again(table) -> None:
    """Seed 004: only the last telling happens: a spoiled first telling leaves no second try."""
    table.faces(4, 1, 2, 2)
    table.do(check, "Ada", 5, discipline=PROWESS)
    assert table.char("Ada").condition.retry is not None
    table.do(retell, "Ada")
    assert table.char("Ada").condition.retry is None
    table.refuse("lots.retry.not-allowed", retry, "Ada")


# --- Blot-out ----------------------------------------------------------------------------------------


def test_blot_out_erases_and_loses_the_effort(table) -> None:
    """Seed 004: a Blot-out erases the check as if skipped; any effort spent is lost."""
    table.faces(1, 1)
    table.do(check, "Ada", 5, discipline=PROWESS, effort=2)
    events = table.do(blot_out, "Ada")
    assert events == [PortentSpent(character="Ada", use=PortentUse.BLOT_OUT, cost=1, cast="c1", target="Ada",
                                   whose=Whose.OWN, portents_after=5, erased=["c1"], effort_lost=2)]
    condition = table.char("Ada").condition
    assert (condition.effort_spent, condition.effort_lost) == (2, 2)
    assert table.state.window == []
    assert table.faces_left == 0  # nothing is cast


def test_blot_out_takes_away_the_second_try(table) -> None:
    """Seed 004: the act never happened, so nothing follows from it (no try again)."""
    table.faces(2, 1)
    table.do(check, "Ada", 5, discipline=PROWESS)
    table.do(blot_out, "Ada")
    table.refuse("lots.retry.not-allowed", retry, "Ada")


def test_nothing_to_retell_after_a_blot_out(table) -> None:
    """Seed 004: a blotted-out check is gone: there is no outcome left to re-tell."""
    table.faces(2, 2)
    table.do(check, "Ada", 5, value=5)
    table.do(blot_out, "Ada")
    table.refuse("lots.portent.nothing", retell, "Ada")


def test_blot_out_a_retelling(table) -> None:
    """Seed 004: Blot-out erases any check, a re-told one too; the effort is lost then."""
    table.faces(2, 1, 3, 1)
    table.do(check, "Ada", 5, discipline=PROWESS, effort=1)
    table.do(retell, "Ada")
    (spent,) = table.do(blot_out, "Bram")
    assert (spent.cast, spent.cost, spent.effort_lost) == ("c2", 2, 1)
    assert table.char("Ada").condition.effort_lost == 1


# --- the window ---------------------------------------------------------------------------------------


def test_the_next_cast_settles_the_last(table) -> None:
    """[ours] Portents change the latest action's casts, until the next action casts lots."""
    table.faces(2, 2, 3, 3)
    table.do(check, "Ada", 5, value=5)
    table.do(check, "Bram", 5, value=5)
    table.refuse("lots.portent.settled", retell, "Ada", "c1")
    assert portent_cost(table.state, "Ada") == 2  # Bram's c2 is the one open


def test_converting_story_points_keeps_the_window(table) -> None:
    """[ours] Story Points can become Portents at any time, to pay for a Re-tell just made necessary."""
    table.char("Ada").portents = 0
    table.faces(1, 1, 4, 4)
    table.do(check, "Ada", 5, value=5)
    table.do(award, "Ada", 1, "a fine fumble")
    table.do(convert, "Ada", 1, Conversion.PORTENTS)
    table.do(retell, "Ada")
    assert table.of(CheckCast)[-1].outcome == Result.SUCCESS


def test_rest_settles_the_window(table) -> None:
    """[ours] An action that changes a condition (rest) settles the casts before it."""
    table.faces(2, 2)
    table.do(check, "Ada", 5, value=5)
    table.do(rest, "Ada")
    table.refuse("lots.portent.nothing", retell, "Ada")


# --- what a cast set off --------------------------------------------------------------------------------


def test_retelling_an_attack_retells_its_harm(table) -> None:
    """[ours] Re-telling an attack erases the harm it did and the Mettle test after, then lets
    the new outcome do its own."""
    table.faces(2, 2)  # lands (5 against 4 + 1); the Orc's Mettle test casts no lots
    events = table.do(attack, "Ada", "Orc", effort=2)
    assert table.of(PainTaken, events)[0].n == 2  # 2 effort + 1 accuracy - 1 armour
    assert table.char("Orc").condition.pain == 2
    table.faces(1, 1)  # the re-told attack fumbles and misses
    events = table.do(retell, "Ada", "c1")
    assert events[0].erased == ["c1"]
    assert table.char("Orc").condition.pain == 0
    assert table.char("Ada").condition.effort_spent == 2


def test_retelling_only_the_mettle_test(table) -> None:
    """Seed 004: Portents apply any time lots are cast; a later cast of the same action (Bram's
    Mettle test) can be re-told alone, and the Pain that led to it stays."""
    table.faces(2, 2, 1, 1)  # lands (5 against 3 + 1): 1 + 2 - 1 armour = 2 Pain; Bram fumbles his test
    table.do(attack, "Ada", "Bram", effort=1)
    assert table.char("Bram").condition.incapacitated
    table.faces(3, 3)
    (spent, *rest_events) = table.do(retell, "Ada", "c2")
    assert (spent.cost, spent.erased) == (2, ["c2"])
    assert table.of(MettleTested, rest_events)[0].outcome == Result.SUCCESS
    bram = table.char("Bram").condition
    assert (bram.pain, bram.incapacitated) == (2, False)


def test_blotting_out_a_defence_erases_the_blow(table) -> None:
    """[ours] A defence's cast decides the exchange: erasing it erases the blow it let land."""
    table.faces(2, 2, 2, 2)  # Bram's defence 3 against the Orc's 4 fails; Bram's Mettle test
    table.do(defend, "Bram", "Orc", effort=3)
    assert table.char("Bram").condition.pain > 0
    table.do(blot_out, "Bram", "c1")
    assert table.char("Bram").condition.pain == 0


def test_an_incapacitated_player_can_still_spend(table) -> None:
    """[ours] Portents are the player's: incapacitation doesn't stop spending them."""
    table.faces(2, 2)
    table.do(check, "Bram", 5, value=5)
    table.char("Ada").condition.incapacitated = True
    table.faces(3, 3)
    table.do(retell, "Ada")
    assert portents(table, "Ada") == 4
