"""Thaeborn in play as seed 004 has it: the odds shown are the odds of the roll made (issue 17, items 3, 16).

For random checks (modifiers, Proficiency and Tier), attacks (defended or not, on a player or an
NPC) and Mettle tests, the real action runs on each of the 16 casts of the WEAL and WOE d4s; the
chance the cast's line shows (:func:`wyrd.play.kits.lots.texts.shown_chance`, read from the event)
must be the share of casts that succeed, land, or hold steady. Then `wyrd odds lots --attack` and
a lost action spent with typed dice.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from wyrd.play.cli.main import main
from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.lots.texts import shown_chance
from wyrd.rules.dice import Dice
from wyrd.rules.lots import GameState, Result, add_character, attack, attack_odds, check, retry, suffer
from wyrd.rules.lots.events import CheckCast, MettleTested


def _game(mettle: int, pain: int) -> GameState:
    state = GameState()
    for name, npc in (("Ada", False), ("Orc", True)):
        state = add_character(state, Dice.scripted(()), name, {"prowess": 5, "willpower": mettle}, npc=npc).state
    state.characters["Ada"].condition.pain = pain
    return state


FACES = [(weal, woe) for weal in range(1, 5) for woe in range(1, 5)]


@settings(max_examples=60, deadline=None)
@given(value=st.integers(0, 12), difficulty=st.integers(0, 12), modifier=st.integers(-4, 4),
       tier=st.one_of(st.none(), st.integers(0, 12)), proficiency=st.one_of(st.none(), st.integers(0, 12)))
def test_the_shown_check_odds_are_the_odds_of_the_check(value: int, difficulty: int, modifier: int,
                                                        tier: int | None, proficiency: int | None) -> None:
    """Issue 17 item 3: the chance a check's line shows equals the share of the 16 casts that
    succeed when the real action runs on each."""
    state = _game(4, 0)
    wins, shown = 0, set()
    for weal, woe in FACES:
        outcome = check(state, Dice.scripted((weal, woe)), "Ada", difficulty, value=value, modifier=modifier,
                        tier=tier, proficiency=proficiency)
        (cast,) = [e for e in outcome.events if isinstance(e, CheckCast)]
        wins += cast.outcome == Result.SUCCESS
        shown.add(shown_chance(cast.model_dump(mode="json"))[1])
    assert shown == {Fraction(wins, 16)}


@settings(max_examples=40, deadline=None)
@given(offense=st.integers(0, 12), defense=st.integers(0, 12), defended=st.booleans(), npc=st.booleans())
def test_the_shown_attack_odds_are_the_odds_of_the_attack(offense: int, defense: int, defended: bool,
                                                          npc: bool) -> None:
    """Issue 17 item 3: an attack's shown chance (and `wyrd odds lots --attack`'s) is the share of
    casts that land it, the +1 of an actively defended target included."""
    state = _game(4, 0)
    state.characters["Bram"] = state.characters["Ada"].model_copy(update={"name": "Bram"})
    target = "Orc" if npc else "Bram"
    landed, shown = 0, set()
    for weal, woe in FACES:
        outcome = attack(state, Dice.scripted((weal, woe, 2, 2)), "Ada", target, effort=1, offense=offense,
                         defense=defense, defended=defended)
        cast = next(e for e in outcome.events if isinstance(e, CheckCast))
        landed += cast.outcome == Result.SUCCESS
        shown.add(shown_chance(cast.model_dump(mode="json"))[1])
    assert shown == {Fraction(landed, 16)} == {attack_odds(offense, defense, defended=defended).p_success}


@settings(max_examples=40, deadline=None)
@given(mettle=st.integers(1, 8), before=st.integers(0, 12), n=st.integers(1, 12))
def test_the_shown_mettle_odds_are_the_chance_of_holding_steady(mettle: int, before: int, n: int) -> None:
    """Issue 17 item 16: Test Your Mettle shows the chance of holding steady (neither reeling nor
    overcome), counted over the real test run on every cast."""
    state = _game(mettle, before)
    steady, shown = 0, set()
    for weal, woe in FACES:
        outcome = suffer(state, Dice.scripted((weal, woe)), "Ada", n)
        (test,) = [e for e in outcome.events if isinstance(e, MettleTested)]
        steady += not (test.loses_action or test.incapacitated)
        cast = next(e for e in outcome.events if isinstance(e, CheckCast))
        label, chance = shown_chance(cast.model_dump(mode="json"))
        assert label == "holds steady"
        shown.add(chance)
    assert shown == {Fraction(steady, 16)}


def test_a_lost_action_is_spent_with_the_dice_typed_for_it(tmp_path: Path) -> None:
    """Issue 17 item 16. RULES.md [ours]: a failed Mettle test "loses the next action"; the next
    action typed with its dice is that lost action, spent reeling, not refused for its faces."""
    session = Session.new(tmp_path / "l.wyrd", seed=1, ruleset="lots")
    console = Console(session, tmp_path / "l.wyrd")
    try:
        for line in ["pc add Bo prowess=6 willpower=5 mettle=3", "pain bo 4 roll 2 2"]:
            console.handle(line)
        assert session.state.characters["Bo"].condition.loses_action
        shown = console.handle("check bo prowess vs 3 roll 3 3").events
        assert [e["kind"] for e in shown if e["kind"] in ("refused", "action_lost")] == ["action_lost"]
        assert not session.state.characters["Bo"].condition.loses_action
    finally:
        session.close()


@pytest.mark.parametrize(("extra", "chance"), [((), "1/16"), (("--undefended",), "7/8")])
def test_odds_of_an_attack_count_the_defended_plus_one(capsys: pytest.CaptureFixture[str], extra: tuple[str, ...],
                                                       chance: str) -> None:
    """Issue 17 item 16. Seed 004 glossary: only an Accuracy "greater than zero lands an actively
    defended attack": `wyrd odds lots --attack` shows the attack the `attack` verb casts."""
    code = main(["odds", "lots", "-a", "5", "-d", "5", "--attack", *extra, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["p_success"]) == (0, chance)
    assert out["difficulty"] == (6 if not extra else 5) and out["tier"] == 5


@settings(max_examples=40, deadline=None)
@given(value=st.integers(0, 12), difficulty=st.integers(0, 12), modifier=st.integers(-4, 4),
       tier=st.one_of(st.none(), st.integers(0, 12)), proficiency=st.one_of(st.none(), st.integers(0, 12)))
def test_the_shown_odds_of_a_second_try_are_its_odds(value: int, difficulty: int, modifier: int,
                                                     tier: int | None, proficiency: int | None) -> None:
    """Issue 17 item 3: the hint offering `again` shows the chance of the second try the rules will
    cast (the same Proficiency, the same offsets), counted over its 16 casts."""
    state = _game(4, 0)
    first = check(state, Dice.scripted((4, 1)), "Ada", difficulty, value=value, modifier=modifier, tier=tier,
                  proficiency=proficiency)  # a WASTE: a second try if Ada was able
    assume(first.state.characters["Ada"].condition.retry is not None)
    (offer,) = [h for h in hooks_for("lots").hints(first.state) if "may try again" in h]
    found = re.search(r"success (none|certain|\d+% \((\d+/\d+)\))", offer)
    assert found is not None
    shown = {"none": Fraction(0), "certain": Fraction(1)}.get(found.group(1)) or Fraction(found.group(2))
    wins = 0
    for weal, woe in FACES:
        outcome = retry(first.state, Dice.scripted((weal, woe)), "Ada")
        wins += next(e for e in outcome.events if isinstance(e, CheckCast)).outcome == Result.SUCCESS
    assert shown == Fraction(wins, 16)
