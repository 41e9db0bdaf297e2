"""Counts, Thaeborn's turn order in a fight (rules/lots/counts.py; issue 17, item 12).

Seed 004 glossary: "Count: A unit used to schedule Actions in combat. An Action's Counts equal its
committed Effort; advance everyone to the next scheduled resolution."
"""

from __future__ import annotations

from wyrd.rules.lots import Discipline, attack, begin_fight, check, defend, end_fight, retry
from wyrd.rules.lots.counts import now, up_next
from wyrd.rules.lots.events import CountsTaken, FightBegun

PROWESS = Discipline.PROWESS


def test_an_actions_counts_equal_its_effort(table) -> None:
    """ "An Action's Counts equal its committed Effort; advance everyone to the next scheduled
    resolution": Ada's blow of Effort 3 resolves at 3, so Bram and the Orc, still at 0, come first."""
    assert table.do(begin_fight) == [FightBegun(combatants=["Ada", "Bram", "Orc"])]
    assert (now(table.state), up_next(table.state)) == (0, ["Ada", "Bram", "Orc"])
    table.faces(2, 2)
    events = table.do(attack, "Ada", "Orc", effort=3)
    assert table.of(CountsTaken, events) == [CountsTaken(
        character="Ada", counts=3, count=0, resolves=3, now=0, up=["Bram", "Orc"])]
    table.refuse("lots.counts.not-ready", attack, "Ada", "Orc", effort=1)


def test_the_fight_advances_to_the_next_resolution(table) -> None:
    """Everyone advances to the earliest scheduled resolution: whoever's Action resolves first acts next."""
    table.do(begin_fight, ["Ada", "Bram", "Orc"])
    table.faces(3, 3, 3, 3, 3, 3, 3, 3, 3, 3)
    table.do(attack, "Ada", "Orc", effort=3)
    table.do(check, "Bram", 2, discipline=PROWESS, effort=1)  # Bram: 0 -> 1
    table.do(defend, "Bram", "Orc", effort=2)  # the Orc's blow: 0 -> 2 (Bram's defence takes none)
    assert (now(table.state), up_next(table.state)) == (1, ["Bram"])
    table.do(check, "Bram", 2, discipline=PROWESS, effort=4)  # Bram: 1 -> 5
    assert (now(table.state), up_next(table.state)) == (2, ["Orc"])
    table.faces(3, 3, 3, 3)
    table.do(defend, "Ada", "Orc", effort=2)  # the Orc, up at 2, strikes Ada: 2 -> 4
    assert (now(table.state), up_next(table.state)) == (3, ["Ada"])


def test_an_npc_strikes_only_when_its_count_comes(table) -> None:
    """[ours] A defence is the NPC attacker's Action: its blow waits for its Count."""
    table.do(begin_fight)
    table.faces(2, 2, 2, 2)
    table.do(defend, "Bram", "Orc", effort=2)
    table.refuse("lots.counts.not-ready", defend, "Ada", "Orc", effort=1)


def test_a_second_try_takes_its_counts_again(new) -> None:
    """[ours] An Action takes at least 1 Count; trying again is another Action with its Effort."""
    t = new("Ada", "Orc")
    t.do(begin_fight)
    t.faces(4, 1)
    t.do(check, "Ada", 5, discipline=PROWESS)  # 0 -> 1 (no effort: still a moment)
    t.refuse("lots.counts.not-ready", retry, "Ada")  # the Orc is up at 0
    assert up_next(t.state) == ["Orc"]


def test_out_of_a_fight_nothing_is_counted(table) -> None:
    table.faces(2, 2, 2, 2)
    events = table.do(attack, "Ada", "Orc", effort=3)
    assert table.of(CountsTaken, events) == [] and now(table.state) is None
    table.refuse("lots.counts.no-fight", end_fight)
    table.do(begin_fight)
    table.refuse("lots.counts.fighting", begin_fight)
    table.do(end_fight)
    assert table.state.fight is None and "fight" not in table.state.model_dump(mode="json")
