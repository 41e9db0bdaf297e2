"""Feats: the d100 step-up, the Feat table, Wyrd-bought 8s, opposed feats (rules/feat/feats.py).

Scripted faces go to the rolls in order: for a skill feat the d100, then the three d8.
"""

from __future__ import annotations

from wyrd.rules.feat import Attribute, NotAble, SkillRating, award, feat, opposed, skill_feat
from wyrd.rules.feat.attributes import wound
from wyrd.rules.feat.events import FeatRolled, OpposedDecided, StepUpRolled, WyrdAwarded
from wyrd.rules.feat.feats import attribute_feat


def test_the_climb_steps_up_on_85(new) -> None:
    """Seed 003: the 6/81 climber at Difficulty 7 rolls 85, climbs as level 7: Feat level 0."""
    t = new("Climber", faces=[85, 5, 1, 1])
    events = t.do(skill_feat, "Climber", "climbing", 7)
    (step,) = t.of(StepUpRolled, events)
    assert (step.kind, step.d100, step.level, step.modifier, step.stepped, step.effective) == (
        "step_up_rolled", 85, 6, 81, True, 7,
    )
    (rolled,) = t.of(FeatRolled, events)
    assert rolled.kind == "feat_rolled"
    assert (rolled.difficulty, rolled.effective, rolled.raw_level, rolled.level) == (7, 7, 0, 0)
    assert rolled.dice == [5, 1, 1] and rolled.read == [5] and rolled.minimums == [5]
    assert rolled.needs == "any" and rolled.success
    assert rolled.bought == [] and rolled.wyrd_spent == 0 and rolled.wyrd_after == 10
    assert t.faces_left == 0


def test_the_climb_without_the_step_up(new) -> None:
    """Seed 003: below 81 the climber stays at 6: Feat level 7 - 6 = +1 (one die, 7 or more)."""
    t = new("Climber", faces=[80, 6, 8, 8])
    rolled = t.of(FeatRolled, t.do(skill_feat, "Climber", "climbing", 7))[0]
    assert rolled.level == 1 and rolled.read == [6] and not rolled.success
    assert not t.of(StepUpRolled)[0].stepped


def test_the_texts_5_73_example(new) -> None:
    """Seed 003: skill 5/73 at Difficulty 8 rolls 93, adds one, and 8 - 6 gives Feat level 2."""
    t = new("Scholar", faces=[93, 8, 1, 1])
    rolled = t.of(FeatRolled, t.do(skill_feat, "Scholar", "LORE", 8))[0]
    assert rolled.level == 2 and rolled.success and rolled.trait == "lore"


def test_level_is_clamped(new) -> None:
    """RULES.md: Difficulty - level is clamped to -8..+8; the event keeps the raw figure."""
    t = new("Scholar", faces=[1, 8, 8, 8])
    rolled = t.of(FeatRolled, t.do(skill_feat, "Scholar", "lore", 20))[0]
    assert (rolled.raw_level, rolled.level, rolled.success) == (15, 8, True)  # 20 - 5, no step-up
    t.faces(99, 1, 1, 1)
    rolled = t.of(FeatRolled, t.do(skill_feat, "Scholar", "lore", 0))[-1]
    assert (rolled.raw_level, rolled.level, rolled.success) == (-6, -6, False)  # 1,1,1 vs 2,2,5


def test_table_rated_skill(new) -> None:
    """RULES.md: a novice's rank-3 climbing with Vigour 6 is 4/25 (Skill Rank table)."""
    t = new("Ada", faces=[24, 7, 1, 1])
    step = t.of(StepUpRolled, t.do(skill_feat, "Ada", "climbing", 5))[0]
    assert (step.level, step.modifier, step.stepped) == (4, 25, False)
    assert t.of(FeatRolled)[0].level == 1


def test_untrained_skill_needs_an_attribute(new) -> None:
    """Seed 003: a skill with no training is read through the rank-0 row of an attribute;
    [ours] the player must name which (Vigour 6 -> 1/75)."""
    t = new("Ada")
    t.refuse("feat.skill.untrained", skill_feat, "Ada", "swimming", 5)
    t.faces(75, 8, 1, 1)
    events = t.do(skill_feat, "Ada", "swimming", 5, attribute=Attribute.VIGOUR)
    step = t.of(StepUpRolled, events)[0]
    assert (step.trait, step.level, step.modifier, step.effective) == ("swimming", 1, 75, 2)
    t.faces(5, 5, 5)  # an attribute named as the skill is used as it is: no d100 (see test_fidelity)
    events = t.do(skill_feat, "Ada", "wit", 5)
    assert not t.of(StepUpRolled, events) and t.of(FeatRolled, events)[0].level == 0


def test_attribute_feat_has_no_d100(new) -> None:
    """Seed 003: an attribute is deducted from the Difficulty as it is (Wit 5 at 7: level +2)."""
    t = new("Ada", faces=[8, 1, 1])
    rolled = t.of(FeatRolled, t.do(attribute_feat, "Ada", Attribute.WIT, 7))[0]
    assert rolled.level == 2 and rolled.success and not t.of(StepUpRolled)


def test_feat_at_a_given_level(new) -> None:
    """RULES.md: a Feat level runs -8..+8; one outside is refused (feat.level.range)."""
    t = new("Ada", faces=[1, 1, 2])
    rolled = t.of(FeatRolled, t.do(feat, "Ada", -7))[0]
    assert rolled.difficulty is None and rolled.effective is None
    assert rolled.read == [1, 1, 2] and not rolled.success  # 2,2,3: all three short
    t.refuse("feat.level.range", feat, "Ada", 9)
    t.refuse("feat.level.range", feat, "Ada", -9)


def test_pickpocket_opposed(new) -> None:
    """Seed 003: the 6/23 thief against a victim with Wit 5 (rank-0 row: 1/99); both roll the
    d100; both failing, the Feat level is 1 - 6 = -5 and only a double 1 fails."""
    t = new("Thief", "Victim", faces=[10, 50, 1, 1, 8])
    events = t.do(opposed, "Thief", "Victim", "cut-purse", opposing="wit")
    steps = t.of(StepUpRolled, events)
    assert [(s.character, s.level, s.modifier, s.stepped) for s in steps] == [
        ("Thief", 6, 23, False), ("Victim", 1, 99, False),
    ]
    (decided,) = t.of(OpposedDecided, events)
    assert decided.kind == "opposed_decided"
    assert (decided.active_level, decided.opposing_level, decided.level) == (6, 1, -5)
    assert not decided.success and decided.winner == "Victim"
    t.faces(30, 99, 1, 2, 1)  # thief up to 7, victim up to 2: level -5 again, a 2 on die two
    decided = t.of(OpposedDecided, t.do(opposed, "Thief", "Victim", "cut-purse", opposing="wit"))[0]
    assert (decided.level, decided.success, decided.winner) == (-5, True, "Thief")


def test_opposed_extra_difficulty(new) -> None:
    """Seed 003: circumstances may add to the difficulty an opponent gives."""
    t = new("Thief", "Victim", faces=[10, 50, 8, 1, 1])
    decided = t.of(OpposedDecided, t.do(opposed, "Thief", "Victim", "cut-purse", opposing="wit", extra=7))[0]
    assert decided.level == 2 and decided.extra == 7 and decided.success


def test_opposed_refusals(new) -> None:
    """Seed 003: an opponent untrained in the matter resists with an attribute; [ours] one that no
    skill in play points to must be named; a feat against oneself makes no sense."""
    t = new("Thief", "Victim")
    t.refuse("feat.skill.untrained", opposed, "Thief", "Victim", "cut-purse", opposing="awareness")
    t.refuse("feat.opposed.two", opposed, "Thief", "thief", "cut-purse", opposing="wit")
    t.refuse("feat.unknown.character", opposed, "Thief", "Nobody", "cut-purse", opposing="wit")


def test_wyrd_buys_eights(new) -> None:
    """RULES.md [pub]: 5 Wyrd points buy an automatic 8 on one die read; [ours] only the 8s the
    level uses are paid for. The climber (10 Wyrd) at Difficulty 9 without the step-up is at +3
    (7,7): two 8s, 10 points, certain."""
    t = new("Climber", faces=[1, 1, 1, 1])
    rolled = t.of(FeatRolled, t.do(skill_feat, "Climber", "climbing", 9, eights=2))[0]
    assert rolled.level == 3 and rolled.bought == [0, 1] and rolled.read == [8, 8]
    assert rolled.success and rolled.wyrd_spent == 10 and rolled.wyrd_after == 0
    assert t.char("Climber").wyrd == 0


def test_wyrd_only_what_the_level_uses(new) -> None:
    """[ours] Stepped up to +2 the climb reads one die: one 8 is bought, 5 points."""
    t = new("Climber", faces=[90, 1, 1, 1])
    rolled = t.of(FeatRolled, t.do(skill_feat, "Climber", "climbing", 9, eights=2))[0]
    assert rolled.level == 2 and rolled.bought == [0] and rolled.wyrd_after == 5


def test_wyrd_refusals(new) -> None:
    """RULES.md: 5 points an 8; [ours] at most one per die (three dice), paid up front."""
    t = new("Climber", "Ada")
    t.refuse("feat.wyrd.one-per-die", feat, "Climber", 3, eights=4)
    t.refuse("feat.wyrd.one-per-die", feat, "Climber", 3, eights=-1)
    t.refuse("feat.wyrd.not-enough", feat, "Climber", 6, eights=3)  # 8,8,5 buys three: 15 > 10
    t.refuse("feat.wyrd.not-enough", skill_feat, "Ada", "climbing", 4, eights=1)


def test_award(new) -> None:
    """Seed 003: the GM rewards a player who solves what their character could not with Wyrd."""
    t = new("Ada")
    (given,) = t.of(WyrdAwarded, t.do(award, "Ada", 5, "solved the riddle"))
    assert given.kind == "wyrd_awarded" and given.wyrd_after == 5 and t.char("Ada").wyrd == 5
    t.refuse("feat.wyrd.award-positive", award, "Ada", 0)


def test_who_may_act(new) -> None:
    """Seed 003: a Difficulty is set from the circumstances (never below 0, [ours]); the dead
    make no feats (Mettle 0 kills)."""
    t = new("Ada", "Bram")
    t.refuse("feat.difficulty.range", skill_feat, "Ada", "climbing", -1)
    t.refuse("feat.unknown.character", skill_feat, "Zed", "climbing", 4)
    t.do(wound, "Bram", 6)
    error = t.refuse("feat.able.dead", feat, "Bram", 0)
    assert isinstance(error, NotAble)
    assert SkillRating(level=1, modifier=99).p_step_up == SkillRating.parse("1/99").p_step_up
