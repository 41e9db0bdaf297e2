"""Issue 17, item 15: Heroes of the Fall decides these as seed 003 (003_9d26c77002c98e48.txt) says.

The cast (conftest): Ada Vigour 6 Mettle 5 Wit 5, climbing 3 ranks (Vigour: 4/25); the seed's
Climber (climbing 6/81, 10 Wyrd), Thief (cut-purse 6/23, a Vigour skill) and Victim (Wit 5, Vigour 4,
no skills).
"""

from __future__ import annotations

from wyrd.rules.feat import (
    Attribute,
    Edge,
    attribute_feat,
    fatigue,
    feat,
    first_to_act,
    initiative,
    opposed,
    race,
    recover,
    rest,
    shock,
    skill_feat,
)
from wyrd.rules.feat.events import (
    EdgeActivated,
    FatigueTested,
    FeatRolled,
    InitiativeDecided,
    OpposedDecided,
    Rested,
    ShockTested,
    StepUpRolled,
)


def test_an_attribute_named_as_a_skill_reads_as_it_is(new) -> None:
    """Seed 003: "The Attribute or Skill is deducted from the Difficulty to give a Feat level", and a
    search is "a Feat level of Difficulty - Wit": `try Ada wit 6` and `test Ada wit 6` are one feat,
    Wit 5 at 6 (level +1), with no d100 (today `try` read Wit as an untrained 1/99 skill)."""
    t = new("Ada", faces=[7, 1, 1])
    tried = t.do(skill_feat, "Ada", "wit", 6)
    assert not t.of(StepUpRolled, tried)
    (rolled,) = t.of(FeatRolled, tried)
    assert (rolled.trait, rolled.effective, rolled.level, rolled.success) == ("wit", 5, 1, True)
    t.faces(7, 1, 1)
    (tested,) = t.of(FeatRolled, t.do(attribute_feat, "Ada", Attribute.WIT, 6))
    assert tested == rolled
    # `with` names the attribute behind a skill the character lacks; an attribute needs none.
    t.refuse("feat.skill.attribute-with", skill_feat, "Ada", "wit", 6, attribute=Attribute.VIGOUR)


def test_an_opponent_without_the_skill_reads_as_untrained(new) -> None:
    """Seed 003: "Where the opposing character does not have skill in the area being tested the
    difficulty may be arrived at from a relevant Attribute of the opposing character ... the Skill
    Rank table for a skill of 0". [ours] The relevant attribute is the one behind the active
    skill: the Victim resists cut-purse (Vigour) with Vigour 4, rank 0: 0/25 (today: refused)."""
    t = new("Thief", "Victim", faces=[10, 10, 8, 1, 1])
    events = t.do(opposed, "Thief", "Victim", "cut-purse")
    steps = t.of(StepUpRolled, events)
    assert [(s.character, s.trait, s.level, s.modifier) for s in steps] == [
        ("Thief", "cut-purse", 6, 23), ("Victim", "cut-purse", 0, 25),
    ]
    (decided,) = t.of(OpposedDecided, events)
    assert (decided.opposing_level, decided.level) == (0, -6)
    # The seed's own reading, the Victim's Wit named: 1/99, as before.
    t.faces(10, 10, 1, 1, 8)
    decided = t.of(OpposedDecided, t.do(opposed, "Thief", "Victim", "cut-purse", opposing="wit"))[0]
    assert decided.opposing_trait == "wit" and decided.opposing_level == 1


def test_wyrd_is_checked_against_the_eights_the_level_buys(new) -> None:
    """RULES.md: "5 buy an automatic 8 on one die read"; [ours] only what the level can use is
    bought. At level 0 ("any" die) one 8 settles the feat: asking for 3 costs 5, so 5 Wyrd is
    enough (today: refused as if 3 cost 15). At +3 (7,7) two are bought: 10, which the Climber has."""
    t = new("Ada", faces=[1, 1, 1])
    t.state.characters["Ada"].wyrd = 5
    (rolled,) = t.of(FeatRolled, t.do(feat, "Ada", 0, eights=3))
    assert rolled.bought == [0] and rolled.wyrd_spent == 5 and rolled.success and rolled.wyrd_after == 0
    c = new("Climber", faces=[1, 1, 1])
    (rolled,) = t.of(FeatRolled, c.do(feat, "Climber", 3, eights=3))
    assert rolled.wyrd_spent == 10 and rolled.success
    # A skill feat may land at either of two levels: the dearer is checked before the d100.
    # Climber 6/81 at Difficulty 9: +3 (two 8s) or, stepped up, +2 (one 8); 5 Wyrd is short of 10.
    c.state.characters["Climber"].wyrd = 5
    c.refuse("feat.wyrd.not-enough", skill_feat, "Climber", "climbing", 9, eights=2)
    c.state.characters["Climber"].wyrd = 10
    c.faces(90, 1, 1, 1)
    (rolled,) = c.of(FeatRolled, c.do(skill_feat, "Climber", "climbing", 9, eights=3))
    assert rolled.level == 2 and rolled.wyrd_spent == 5


def test_a_passed_shock_test_leaves_the_character_able(new) -> None:
    """Seed 003, Mettle: "If the roll is successful the character continues as the player or GM
    wishes." Ada, out of action after a failed shock, holds the next one and acts on (today she
    stayed out of action)."""
    t = new("Ada", faces=[1, 1, 1])
    t.do(shock, "Ada")
    assert t.char("Ada").out_of_action
    t.faces(7, 7, 1)  # Mettle 5 at 8: level +3, 7,7
    (held,) = t.of(ShockTested, t.do(shock, "Ada"))
    assert held.success and not held.out_of_action and not t.char("Ada").out_of_action
    t.faces(50, 8, 1, 1)
    t.do(skill_feat, "Ada", "climbing", 5)  # able to act again
    t.refuse("feat.recover.not-out", recover, "Ada")


# -- item 11: Edges, and the Mettle roll against fatigue and a heavy load ---------------------------


def _fast(t, name: str) -> None:
    t.state.characters[name].edges = [Edge.SPEED]


def test_an_edge_of_speed_ensures_its_holder_acts_first(new) -> None:
    """Seed 003, Vigour: "If a character has an Edge of speed he may activate it in this situation
    to ensure that he acts first." Cora (Vigour 4) activates hers: first before Bram (7) and Ada
    (6), with no dice; without the Edge she can't; [ours] two activated against each other cancel
    and the Vigour feat decides."""
    t = new("Ada", "Bram", "Cora")
    t.refuse("feat.edge.none", initiative, ["Ada", "Cora"], edges=["Cora"])
    _fast(t, "Cora")
    events = t.do(initiative, ["Ada", "Bram", "Cora"], edges=["Cora"])
    (used,) = t.of(EdgeActivated, events)
    (order,) = t.of(InitiativeDecided, events)
    assert used.character == "Cora" and order.order == ["Cora", "Bram", "Ada"] and order.edges == ["Cora"]
    events = t.do(first_to_act, "Bram", "Cora", edges=["Cora"])  # no faces scripted: no roll
    assert t.of(InitiativeDecided, events)[0].order == ["Cora", "Bram"] and not t.of(FeatRolled, events)
    _fast(t, "Bram")
    t.faces(8, 1, 1)  # Bram 7 against Cora 4: level -3, one of two dice reaching 3
    events = t.do(first_to_act, "Bram", "Cora", edges=["Cora", "Bram"])
    assert all(e.cancelled for e in t.of(EdgeActivated, events)) and t.of(FeatRolled, events)
    assert t.of(InitiativeDecided, events)[0].order == ["Bram", "Cora"]


def test_a_failed_fatigue_roll_exhausts_until_rest(new) -> None:
    """Seed 003, Mettle: "A character's ability to overcome fatigue ... is determined by a
    Mettle-based Feat roll"; "if the player is pushing a heavily encumbered character to continue
    physical activity the GM may decide that the character is exhausted and require the player to
    take a Mettle roll or rest". [ours] Failed, Ada (Mettle 5) does no physical feat until she rests."""
    t = new("Ada", "Bram", faces=[1, 1, 1])
    (tired,) = t.of(FatigueTested, t.do(fatigue, "Ada", 9, encumbered=True, cause="the packs"))
    assert (tired.encumbered, tired.success, tired.exhausted) == (True, False, True)
    t.refuse("feat.able.exhausted", attribute_feat, "Ada", Attribute.VIGOUR, 5)
    t.refuse("feat.able.exhausted", skill_feat, "Ada", "climbing", 5)  # a Vigour skill
    t.refuse("feat.able.exhausted", race, "Ada", "Bram")
    t.faces(5, 1, 1)
    t.do(attribute_feat, "Ada", Attribute.WIT, 5)  # a mental feat is still hers
    (rested,) = t.of(Rested, t.do(rest, "Ada"))
    assert rested.character == "Ada" and not t.char("Ada").exhausted
    t.refuse("feat.rest.not-exhausted", rest, "Ada")
    t.faces(3, 1, 1)  # Mettle 5 at 4: level -1, a 3 pushes on
    (pushed,) = t.of(FatigueTested, t.do(fatigue, "Ada", 4))
    assert pushed.success and not t.char("Ada").exhausted


def test_sheets_without_edges_or_fatigue_dump_as_before(new) -> None:
    """Saves written before Edges and fatigue resume to the very same sheets: the new fields are
    left out of a sheet's JSON while empty."""
    t = new("Ada")
    assert "edges" not in t.char("Ada").model_dump(mode="json")
    assert "exhausted" not in t.char("Ada").model_dump(mode="json")
    _fast(t, "Ada")
    assert t.char("Ada").model_dump(mode="json")["edges"] == ["speed"]
