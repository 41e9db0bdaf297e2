"""Issue 17, rules fidelity: each outcome decided as seed 000 (000_e418bfdb0e315e34.txt) says."""

from __future__ import annotations

from wyrd.rules.abacus import (
    Ability,
    Casting,
    ChallengeSpec,
    ChallengeType,
    Clock,
    Effect,
    EffectKind,
    Lasts,
    MagicForm,
    StageRule,
    Template,
    TemplateKind,
    Threshold,
    add_challenge,
    antagonist,
    attempt,
    cast,
    end_scene,
    roll,
    sabotage,
    scratch_out,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import (
    ChallengeModified,
    ChallengePlaced,
    ChallengeRolled,
    Damage,
    PointsSpent,
    ServantLoose,
    WyrdDrawn,
)
from wyrd.rules.abacus.story import install

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL
WHY = "the horseshoes over the old man's door"


def by(*shares: tuple[str, Ability, int]) -> list[Casting]:
    return [Casting(character=c, ability=a, points=p) for c, a, p in shares]


def servant(name: str) -> Template:
    return Template(kind=TemplateKind.SERVANT, name=name)


# -- 1. a servant's id is its own for the whole game ---------------------------------------


def test_second_servant_never_takes_a_living_servants_id(new) -> None:
    """RULES.md (Magic, ours): a servant is "usable on challenges" and "breaks loose on a Wyrd 6":
    a servant conjured in a later scene must not replace one still bound, pool and all."""
    t = new("Ada", "Bram", "Cora", scene=["Ada", "Bram", "Cora"])
    t.do(add_challenge, "Gate", "obstruction", 5)
    t.do(cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)  # scene-long rules, gone at scene end
    t.do(cast, MagicForm.SPELL, by(("Bram", SOUL, 2)), WHY)
    t.do(cast, MagicForm.CONJURATION, by(("Cora", SOUL, 2)), WHY, template=servant("Hob"))
    t.faces(3, 3)  # the scene-end Wyrd roll: Bram's and Cora's one die each, no servant loosed
    t.do(end_scene)
    t.do(start_scene, ["Ada", "Bram", "Cora"])
    t.do(cast, MagicForm.CONJURATION, by(("Bram", SOUL, 2)), WHY, template=servant("Nix"))
    assert sorted(s.name for s in t.state.servants.values()) == ["Hob", "Nix"]
    t.do(add_challenge, "Wall", "obstruction", 9)
    t.do(attempt, "wall", "Ada")
    t.do(spend, "Hob", 4)
    t.faces(5)
    assert t.of(ChallengeRolled, t.do(roll))[0].points == 4


# -- 4. sabotage: one influence roll per character per challenge -----------------------------


def test_sabotage_once_per_character_per_challenge(duo) -> None:
    """Seed 000: "increase the challenge's value by the number of 6s the character achieved on
    the influence roll": one roll, so a second sabotage of the same challenge is refused."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.faces(6, 1, 1, 1)  # Bram's Mind 4
    duo.do(sabotage, "Bram", "cipher", MIND)
    duo.refuse("abacus.sabotage.once", sabotage, "Bram", "cipher", MIND)
    duo.refuse("abacus.sabotage.once", sabotage, "Bram", "cipher", BODY)
    assert duo.scene.challenges["cipher"].sabotage == 1
    duo.faces(6, 1, 1, 1, 1)  # Ada's Mind 5: another character may still work against it
    events = duo.do(sabotage, "Ada", "cipher", MIND)
    assert duo.of(ChallengeModified, events)[0].value == 7


def test_sabotage_from_elsewhere_costs_a_wyrd_point(duo) -> None:
    """Seed 000: "a player can take a single point from the scene Wyrd pool to allow their
    character to assign points ... despite being elsewhere"; [ours] working against a challenge
    from elsewhere costs the same point."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.faces(6, 1, 1, 1, 1)  # Cora's Mind 5
    events = duo.do(sabotage, "Cora", "cipher", MIND)
    assert [(d.character, d.n) for d in duo.of(WyrdDrawn, events)] == [("Cora", 1)]
    assert duo.scene.pool == 2 and duo.char("Cora").wyrd == 1
    assert duo.scene.challenges["cipher"].sabotage == 1


def test_sabotage_from_elsewhere_refused_with_an_empty_pool(duo) -> None:
    """Seed 000: with no point to take, the absent character cannot reach into the scene."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.scene.pool = 0
    duo.refuse("abacus.wyrd.pool-empty", sabotage, "Cora", "cipher", MIND)


# -- 13. the Abacus choices that contradicted the text ------------------------------------------


def test_each_different_ability_costs_its_own_wyrd_point(duo) -> None:
    """Seed 000: "a player can take a single point from the scene Wyrd pool to allow their
    character to spend points from a different ability": one point buys one ability, so a
    second different ability on the same roll costs another point."""
    duo.do(add_challenge, "Lock", "logic", 9)  # Mind
    duo.do(attempt, "lock", "Ada")
    spent = duo.of(PointsSpent, duo.do(spend, "Ada", 1, BODY))
    assert spent[0].wyrd_cost == 1
    assert duo.of(PointsSpent, duo.do(spend, "Ada", 1, BODY))[0].wyrd_cost == 0  # Body already paid for
    assert duo.of(PointsSpent, duo.do(spend, "Ada", 1, SOUL))[0].wyrd_cost == 1
    assert duo.scene.pool == 1 and duo.char("Ada").wyrd == 2


def test_default_damage_is_half_the_value_as_rolled(duo) -> None:
    """Seed 000: "damage should be equal to about half the value of the challenge": the value
    the roll was made against (here 8 after sabotage), not its base of 4; [ours] rounded up."""
    duo.do(add_challenge, "Cipher", "logic", 4)
    duo.faces(6, 6, 6, 6)  # Bram's Mind 4: +4
    duo.do(sabotage, "Bram", "cipher", MIND)
    duo.do(attempt, "cipher", "Ada")
    duo.faces(1)
    events = duo.do(roll)  # 1 against 8, with a pool of 3: the failure stands at once
    assert [(d.character, d.n) for d in duo.of(Damage, events)] == [("Ada", 4)]


def test_default_damage_after_a_spell_uses_the_lowered_value(duo) -> None:
    """Seed 000: half "the value of the challenge" as it stood for the roll: a Spell's -3 counts."""
    duo.do(add_challenge, "Seal", "invocation", 7)
    duo.do(cast, MagicForm.SPELL, by(("Bram", MIND, 2)), WHY,
           template=Template(kind=TemplateKind.SPELL, challenge="seal"))
    duo.do(attempt, "seal", "Ada")
    duo.faces(1)
    events = duo.do(roll)  # 1 against 4, with a pool of 2 left: the failure stands at once
    assert [(d.character, d.n) for d in duo.of(Damage, events)] == [("Ada", 2)]


def test_a_charm_ends_with_its_scene(new) -> None:
    """Seed 000: "Charms are usually brief and direct in their impact, rather than lasting for
    some time"; [ours] a Charm's +2 unused at the scene's end is gone with the scene."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(cast, MagicForm.CHARM, by(("Ada", MIND, 1)), WHY,
         template=Template(kind=TemplateKind.CHARM, type="obstruction"))
    t.faces(3)  # the scene-end Wyrd roll: Ada's one die
    t.do(end_scene)
    assert not any(r.name == "charm" for r in t.state.stage_rules.values())
    t.do(start_scene, ["Ada", "Bram"])
    t.do(add_challenge, "Door", "obstruction", 6)
    t.do(attempt, "door", "Bram")
    t.faces(4)
    rolled = t.of(ChallengeRolled, t.do(roll))[0]
    assert (rolled.bonus, rolled.total) == (0, 4)


# -- 2. what a clock or the scene-end roll places waits for the next scene -------------------


def wakes(scene_end_only: bool = False) -> dict:
    """A clock like The Hollow Fair's Fair Wakes: at 1 it places a Pursuit challenge."""
    return {
        "clocks": [Clock(id="wakes", name="Fair Wakes", scene_end_only=scene_end_only, thresholds=[
            Threshold(at=1, effects=[Effect(do=EffectKind.PLACE, challenge="crowd")])])],
        "catalogue": [ChallengeSpec(id="crowd", name="The Crowd Closes In", type=ChallengeType.PURSUIT, value=5)],
    }


def test_a_threshold_crossed_between_scenes_places_its_challenge_in_the_next_scene(new) -> None:
    """Seed 000: "After the count has reached 10 ... every scene involves an additional Pursuit
    challenge": a threshold reached between scenes (where there are no challenges) is met in the
    next scene, not lost."""
    t = new("Ada", scene=None, wyrd=1)
    t.do(install, **wakes())
    t.faces(5)
    t.do(wyrd, ["Ada"])  # between scenes: the clock reaches 1
    assert t.state.clocks["wakes"].reached == [1]
    events = t.do(start_scene, ["Ada"])
    assert [p.id for p in t.of(ChallengePlaced, events)] == ["crowd"]
    assert t.scene.challenges["crowd"].type == ChallengeType.PURSUIT


def test_what_the_scene_end_roll_places_goes_to_the_next_scene(new) -> None:
    """Seed 000: "roll their Wyrd at the end of each scene and count every 5 or 6": the challenge
    the closing roll calls for belongs to the next scene, not to the one that is ending."""
    t = new("Ada", scene=None, wyrd=1)
    t.do(install, **wakes(scene_end_only=True))
    t.do(start_scene, ["Ada"])
    t.faces(6)
    events = t.do(end_scene)
    assert t.of(ChallengePlaced, events) == []
    events = t.do(start_scene, ["Ada"])
    assert [p.id for p in t.of(ChallengePlaced, events)] == ["crowd"]


def test_a_servant_loosed_by_the_scene_end_roll_threatens_the_next_scene(new) -> None:
    """RULES.md (Magic, ours): a servant "breaks loose on a Wyrd 6 ... and becomes a Threat equal to
    what is left of its pool"; loosed by the scene-end roll, it is a Threat in the next scene."""
    t = new("Ada", scene=["Ada"])
    t.do(cast, MagicForm.CONJURATION, by(("Ada", SOUL, 2)), WHY, template=servant("Hob"))
    t.faces(6)
    events = t.do(end_scene)
    assert t.of(ServantLoose, events) == [ServantLoose(servant="servant-1", challenge=None, value=4)]
    events = t.do(start_scene, ["Ada"])
    placed = t.of(ChallengePlaced, events)
    assert [(p.name, p.type, p.value) for p in placed] == [("Hob", ChallengeType.THREAT, 4)]


# -- 9. a stage rule may lift the one act of magic a scene ----------------------------------------


def test_a_stage_rule_lifts_the_one_act_of_magic_limit(duo) -> None:
    """Seed 000: "Characters can only attempt an act of magic once per scene, unless a stage rule
    states otherwise": a ``magic_limit`` effect says how many (none: no limit)."""
    duo.do(cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)
    duo.refuse("abacus.magic.once-per-scene", cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)
    duo.do(install, rules=[StageRule(id="thin-veil", name="The Veil Is Thin", effects=[
        Effect(do=EffectKind.MAGIC_LIMIT, n=2)])])
    duo.do(cast, MagicForm.WARD, by(("Ada", BODY, 1)), WHY)
    duo.refuse("abacus.magic.once-per-scene", cast, MagicForm.WARD, by(("Ada", MIND, 1)), WHY)
    duo.do(install, rules=[StageRule(id="witching-hour", name="Witching Hour", lasts=Lasts.SCENE, effects=[
        Effect(do=EffectKind.MAGIC_LIMIT)])])
    duo.do(cast, MagicForm.WARD, by(("Ada", MIND, 1)), WHY)
    duo.faces(3)
    duo.do(end_scene)  # the scene's rule is gone; the story's 2 stands
    duo.do(start_scene, ["Ada", "Bram"])
    duo.do(cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)
    duo.do(cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)
    duo.refuse("abacus.magic.once-per-scene", cast, MagicForm.WARD, by(("Ada", SOUL, 1)), WHY)


def test_the_story_format_takes_a_magic_limit_rule() -> None:
    """Seed 000's "unless a stage rule states otherwise", written in a story's YAML."""
    from wyrd.stories.abacus.schema import StoryStageRule

    rule = StoryStageRule.model_validate({"id": "witching-hour", "name": "Witching Hour",
                                          "effects": [{"do": "magic_limit", "n": 3}]})
    assert rule.effects[0].do == EffectKind.MAGIC_LIMIT and rule.effects[0].n == 3


# -- 8. a defeated character turned antagonist --------------------------------------------------


def defeated(t, name: str, wyrd_face: int) -> None:
    """Scratch ``name``'s Body twice; the defeat's Wyrd roll shows ``wyrd_face``."""
    t.do(scratch_out, name, BODY)
    t.faces(wyrd_face)
    t.do(scratch_out, name, BODY)
    assert t.char(name).defeated


def test_a_turned_character_is_a_challenge_of_a_former_score(new) -> None:
    """Seed 000: "if the result is a 6, the character will become a significant impediment", and
    as "an antagonistic denizen" its challenge value is "one of the character's former ability
    scores"."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"], wyrd=1)
    defeated(t, "Bram", 6)
    events = t.do(antagonist, "Bram", ChallengeType.THREAT)
    assert [(p.id, p.name, p.type, p.value) for p in t.of(ChallengePlaced, events)] == [
        ("bram", "Bram", ChallengeType.THREAT, 7)]  # Bram's Body score, though scratched out
    events = t.do(antagonist, "Bram", ChallengeType.PRESSURE, SOUL)
    assert [(p.id, p.value) for p in t.of(ChallengePlaced, events)] == [("bram-2", 4)]


def test_only_a_character_the_wyrd_turned_becomes_an_antagonist(new) -> None:
    """Seed 000: the impediment needs the defeat's Wyrd roll to be a 6; a standing character is no
    antagonist at all."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"], wyrd=1)
    t.refuse("abacus.antagonist.impediment", antagonist, "Ada", ChallengeType.THREAT)
    defeated(t, "Bram", 5)
    t.refuse("abacus.antagonist.impediment", antagonist, "Bram", ChallengeType.THREAT)
