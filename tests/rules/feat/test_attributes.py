"""Attribute feats and Mettle (rules/feat/attributes.py).

The cast (conftest NOVICES): Ada Vigour 6 Mettle 5 Wit 5 Glamour 5; Bram Vigour 7
Mettle 6 Wit 4 Glamour 4; Cora Vigour 4 Mettle 5 Wit 7 Glamour 6.
"""

from __future__ import annotations

from wyrd.rules.feat import (
    SHOCK_DIFFICULTY,
    first_to_act,
    initiative,
    race,
    reaction,
    recover,
    search,
    shock,
    skill_feat,
    survive,
    wound,
)
from wyrd.rules.feat.events import (
    CharacterKilled,
    CharacterRecovered,
    FeatRolled,
    InitiativeDecided,
    MettleLost,
    RaceDecided,
    ReactionTested,
    SearchMade,
    ShockTested,
    StepUpRolled,
    SurvivalTested,
)


def test_shock_is_mettle_at_8(new) -> None:
    """Seed 003: the shock of an injury is a Mettle feat at Difficulty 8 (Ada: 8 - 5 = +3, 7,7);
    no d100, as for every attribute feat."""
    assert SHOCK_DIFFICULTY == 8
    t = new("Ada", faces=[7, 7, 1])
    events = t.do(shock, "Ada")
    (tested,) = t.of(ShockTested, events)
    assert tested.kind == "shock_tested" and tested.success and not tested.out_of_action
    assert t.of(FeatRolled, events)[0].level == 3 and not t.of(StepUpRolled, events)


def test_failed_shock_puts_out_of_action(new) -> None:
    """Seed 003: a failed shock roll leaves the character unable to act; [ours] until `recover`.
    They can still take Mettle feats."""
    t = new("Ada", faces=[7, 6, 1])
    tested = t.of(ShockTested, t.do(shock, "Ada"))[0]
    assert not tested.success and tested.out_of_action and t.char("Ada").out_of_action
    t.refuse("feat.able.out-of-action", skill_feat, "Ada", "climbing", 5)
    t.refuse("feat.able.out-of-action", race, "Ada", "Ada", long=True)
    t.faces(1, 1, 1)
    t.do(shock, "Ada")  # a Mettle feat is still allowed
    assert t.char("Ada").out_of_action  # failed again: still out
    (back,) = t.of(CharacterRecovered, t.do(recover, "Ada"))
    assert back.kind == "character_recovered" and not t.char("Ada").out_of_action
    t.refuse("feat.recover.not-out", recover, "Ada")


def test_survival(new) -> None:
    """Seed 003: surviving a serious injury or poison is a Mettle feat at a Difficulty from its
    severity; success survives (Bram at 10: +4, 8 then 7), failure dies."""
    t = new("Bram", faces=[8, 7, 1])
    survived = t.of(SurvivalTested, t.do(survive, "Bram", 10, cause="adder bite"))[0]
    assert survived.kind == "survival_tested" and survived.survived and survived.cause == "adder bite"
    t.faces(1, 8, 8)
    events = t.do(survive, "Bram", 10, cause="adder bite")
    (killed,) = t.of(CharacterKilled, events)
    assert killed.kind == "character_killed" and killed.cause == "adder bite"
    assert t.char("Bram").dead
    t.refuse("feat.able.dead", survive, "Bram", 4)


def test_mettle_0_kills(new) -> None:
    """Seed 003: Mettle may be lowered by sickness or injury; at 0 the character dies."""
    t = new("Ada")
    lost = t.of(MettleLost, t.do(wound, "Ada", 2, cause="fever"))[0]
    assert lost.kind == "mettle_lost" and lost.mettle_after == 3 and not t.char("Ada").dead
    events = t.do(wound, "Ada", 9)
    assert t.of(MettleLost, events)[0].mettle_after == 0
    assert t.of(CharacterKilled, events)[0].cause == "Mettle fell to 0"
    assert t.char("Ada").dead and t.state.living() == []
    t.refuse("feat.able.dead", wound, "Ada", 1)


def test_wound_refusals(new) -> None:
    """[ours] Mettle lost is at least 1."""
    t = new("Ada")
    t.refuse("feat.mettle.positive", wound, "Ada", 0)
    t.refuse("feat.unknown.character", wound, "Zed", 1)


def test_search_once(new) -> None:
    """Seed 003: searching is a Feat at Difficulty - Wit (Cora Wit 7 at 6: -1, a 3 will do); only
    one roll is allowed unless circumstances change."""
    t = new("Cora", "Ada", faces=[3, 1, 1])
    found = t.of(SearchMade, t.do(search, "Cora", "The Hidden  Key", 6))[0]
    assert found.kind == "search_made" and found.found and found.target == "the hidden key"
    t.refuse("feat.search.once", search, "Cora", "the hidden key", 6)
    t.faces(2, 8, 8, 1, 1, 1)
    again = t.of(SearchMade, t.do(search, "Cora", "the hidden key", 6, again=True))[-1]
    assert again.again and not again.found
    t.do(search, "Ada", "the hidden key", 6)  # someone else may look
    assert t.state.searches == {"the hidden key": ["Cora", "Ada"]}
    t.refuse("feat.search.target", search, "Ada", "  ", 6)


def test_reaction_uses_glamour(new) -> None:
    """Seed 003: a desired reaction gets a Difficulty and the character's Glamour is rolled
    (Cora Glamour 6 at 6: level 0, 5 or more)."""
    t = new("Cora", faces=[4, 8, 8])
    tested = t.of(ReactionTested, t.do(reaction, "Cora", 6, toward="the reeve"))[0]
    assert tested.kind == "reaction_tested" and not tested.favourable and tested.toward == "the reeve"
    assert t.of(FeatRolled)[0].trait == "glamour"


def test_initiative_by_vigour(new) -> None:
    """Seed 003: who reacts first is usually in order of Vigour; [ours] equals are listed as tied."""
    t = new("Ada", "Bram", "Cora", "Thief")
    decided = t.of(InitiativeDecided, t.do(initiative, ["Cora", "ada", "Bram", "Thief", "Ada"]))[0]
    assert decided.kind == "initiative_decided" and not decided.rolled
    assert decided.order == ["Bram", "Ada", "Thief", "Cora"]
    assert decided.tied == [["Ada", "Thief"]]
    t.refuse("feat.initiative.who", initiative, [])


def test_first_to_act_between_two(new) -> None:
    """Seed 003: between two, a Feat at Vigour A - Vigour B, B being the one rolling
    (Ada 6 against Bram 7: +1, a 7 or 8)."""
    t = new("Ada", "Bram", faces=[7, 1, 1, 6, 1, 1])
    decided = t.of(InitiativeDecided, t.do(first_to_act, "Ada", "Bram"))[0]
    assert decided.rolled and decided.order == ["Ada", "Bram"]
    assert t.of(FeatRolled)[0].level == 1
    decided = t.of(InitiativeDecided, t.do(first_to_act, "Ada", "Bram"))[-1]
    assert decided.order == ["Bram", "Ada"]


def test_races(new) -> None:
    """Seed 003: short races are Vigour against Vigour (Ada at 7 - 6 = +1); long ones
    Vigour + Mettle against Vigour + Mettle (13 - 11 = +2, an 8)."""
    t = new("Ada", "Bram", faces=[7, 1, 1, 7, 8, 8])
    won = t.of(RaceDecided, t.do(race, "Ada", "Bram"))[0]
    assert won.kind == "race_decided" and won.winner == "Ada" and won.level == 1 and not won.long
    lost = t.of(RaceDecided, t.do(race, "Ada", "Bram", long=True))[-1]
    assert (lost.runner_score, lost.rival_score, lost.level, lost.winner) == (11, 13, 2, "Bram")
    t.refuse("feat.opposed.two", race, "Ada", "ada")
