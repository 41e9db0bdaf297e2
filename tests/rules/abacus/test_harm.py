"""Damage, scratch-out, defeat and the defeated player's Wyrd (rules/abacus/harm.py)."""

from __future__ import annotations

from wyrd.rules.abacus import (
    Ability,
    Step,
    add_challenge,
    attempt,
    draw,
    due,
    end_scene,
    harm,
    roll,
    scratch_out,
    spend,
    start_scene,
)
from wyrd.rules.abacus.events import (
    AbilityScratched,
    ChallengeResolved,
    CharacterDefeated,
    Damage,
    InfluenceRolled,
    SceneStarted,
    WyrdDrawn,
)
from wyrd.rules.abacus.steps import StepKind

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL


def test_damage_lowers_current_points(duo) -> None:
    """Seed 000: damage takes away current ability points."""
    events = duo.do(harm, "Ada", MIND, 2)
    assert events == [Damage(character="Ada", ability=MIND, n=2, points_after=3)]
    assert duo.char("Ada").points[MIND] == 3
    assert duo.char("Ada").scores[MIND] == 5


def test_damage_to_exactly_zero_does_not_scratch(duo) -> None:
    """RULES.md [ours]: only damage *beyond* 0 current points scratches the ability."""
    events = duo.do(harm, "Ada", MIND, 5)
    assert duo.of(AbilityScratched, events) == []
    assert duo.char("Ada").points[MIND] == 0
    assert duo.char("Ada").scratched == []


def test_damage_past_zero_scratches(duo) -> None:
    """RULES.md [ours]: damage beyond 0 current points scratches the ability out."""
    events = duo.do(harm, "Ada", MIND, 6)
    assert duo.of(AbilityScratched, events) == [AbilityScratched(character="Ada", ability=MIND)]
    assert duo.char("Ada").points[MIND] == 0
    assert duo.char("Ada").scratched == [MIND]


def test_damage_at_zero_scratches(duo) -> None:
    """RULES.md [ours]: with 0 points left, any damage goes past 0."""
    duo.do(harm, "Ada", MIND, 5)
    duo.do(harm, "Ada", MIND, 1)
    assert duo.char("Ada").scratched == [MIND]


def test_damage_must_be_positive(duo) -> None:
    """[ours, harm.harm] an ad hoc consequence deals at least 1 damage."""
    duo.refuse("abacus.harm.positive", harm, "Ada", BODY, 0)


def test_scratch_does_not_change_points(duo) -> None:
    """Seed 000: a scratch marks the ability as damaged (the circle filled in)."""
    duo.do(scratch_out, "Ada", SOUL)
    assert duo.char("Ada").scratched == [SOUL]
    assert duo.char("Ada").points[SOUL] == 5


def test_scratched_still_spends_what_is_left(duo) -> None:
    """RULES.md: a scratched ability still spends what it has left (it only can't recover)."""
    duo.do(scratch_out, "Ada", BODY)
    duo.do(add_challenge, "Knife", "threat", 3)
    duo.do(attempt, "knife", "Ada")
    duo.do(spend, "Ada", 2)
    assert duo.char("Ada").points[BODY] == 3


def test_second_scratch_defeats(duo) -> None:
    """Seed 000: a consequence that would scratch out an already scratched ability
    defeats the character."""
    duo.do(scratch_out, "Bram", SOUL)
    events = duo.do(scratch_out, "Bram", SOUL)
    assert duo.char("Bram").defeated
    assert duo.of(CharacterDefeated, events) == [
        CharacterDefeated(character="Bram", wyrd_result=1, impediment=False)]
    assert duo.char("Bram").scratched == [SOUL]


def test_scratches_on_different_abilities_do_not_defeat(duo) -> None:
    """Seed 000: defeat needs the *same* ability scratched twice."""
    duo.do(scratch_out, "Bram", SOUL)
    duo.do(scratch_out, "Bram", MIND)
    duo.do(scratch_out, "Bram", BODY)
    assert not duo.char("Bram").defeated


def test_damage_past_zero_on_a_scratched_ability_defeats(duo) -> None:
    """Seed 000 + RULES.md [ours]: damage past 0 on an already scratched ability is a
    second scratch, which defeats."""
    duo.do(harm, "Bram", MIND, 5)  # Mind 4: scratched
    events = duo.do(harm, "Bram", MIND, 1)
    assert duo.char("Bram").defeated
    assert len(duo.of(CharacterDefeated, events)) == 1


def test_defeated_wyrd_roll_six_makes_an_impediment(new) -> None:
    """Seed 000: on defeat, the character's Wyrd pool is rolled; a 6 turns them into
    a serious obstacle for those still standing."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"], wyrd=1)
    t.do(scratch_out, "Bram", SOUL)
    t.faces(6)
    events = t.do(scratch_out, "Bram", SOUL)
    assert t.of(InfluenceRolled, events)[0].dice == [6]
    assert t.of(CharacterDefeated, events) == [
        CharacterDefeated(character="Bram", wyrd_result=6, impediment=True)]
    assert t.char("Bram").impediment


def test_defeated_wyrd_roll_lower_no_impediment(new) -> None:
    """Seed 000: only a 6 makes the defeated character an impediment."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"], wyrd=1)
    t.do(scratch_out, "Bram", SOUL)
    t.faces(5)
    t.do(scratch_out, "Bram", SOUL)
    assert t.char("Bram").defeated and not t.char("Bram").impediment


def test_defeated_no_longer_acts(duo) -> None:
    """Seed 000: once defeated, a character stops being a player's to act with."""
    duo.do(scratch_out, "Bram", SOUL)
    duo.do(scratch_out, "Bram", SOUL)
    duo.refuse("abacus.defeat.no-actions", harm, "Bram", BODY, 1)
    duo.refuse("abacus.defeat.no-actions", scratch_out, "Bram", BODY)
    duo.do(add_challenge, "Knife", "threat", 3)
    duo.refuse("abacus.defeat.no-actions", attempt, "knife", "Bram")
    duo.do(attempt, "knife", "Ada")
    duo.refuse("abacus.defeat.no-actions", spend, "Bram", 1)


def test_failed_challenge_damage(new) -> None:
    """Seed 000: failing a challenge can hurt; damage lowers current points."""
    t = new("Ada", faces=[1], scene=["Ada"])
    t.do(add_challenge, "Fall", "obstruction", 9)
    t.do(attempt, "fall", "Ada")
    events = t.do(roll)
    assert t.of(Damage, events) == [Damage(character="Ada", ability=BODY, n=5, points_after=0,
                                           source="fall")]
    assert t.char("Ada").scratched == []


# -- the defeated player's Wyrd ------------------------------------------------------


def ghost_table(new):
    """Bram is defeated in scene 1; scene 2 has Ada and Cora, and Bram's player."""
    t = new("Ada", "Bram", "Cora", scene=["Ada", "Bram"])
    t.do(scratch_out, "Bram", BODY)
    t.do(scratch_out, "Bram", BODY)
    t.do(end_scene)
    t.do(start_scene, ["Ada", "Cora"])
    return t


def test_ghost_allowance_two_per_scene(new) -> None:
    """Seed 000: a defeated character's player has two Wyrd points each scene."""
    t = ghost_table(new)
    assert t.scene.ghost == {"Bram": 2}
    assert t.scene.pool == 3
    assert t.of(SceneStarted)[-1].ghost == {"Bram": 2}


def test_ghost_allowance_refreshed_each_scene(new) -> None:
    """Seed 000: the two points come *each scene*."""
    t = ghost_table(new)
    t.faces(1)
    t.do(add_challenge, "Knife", "threat", 3)
    t.do(attempt, "knife", "Ada")
    t.do(roll)
    t.do(draw, "Bram", 2)
    assert t.scene.ghost == {"Bram": 0}
    t.do(end_scene)
    t.do(start_scene, ["Ada"])
    assert t.scene.ghost == {"Bram": 2}


def test_ghost_draw_for_another_goes_to_no_personal_pool(new) -> None:
    """Seed 000: the defeated player spends their points for other players'
    characters, without adding to any personal Wyrd pool."""
    t = ghost_table(new)
    t.faces(1)
    t.do(add_challenge, "Knife", "threat", 3)
    t.do(attempt, "knife", "Ada")
    t.do(roll)
    before = {n: c.wyrd for n, c in t.state.characters.items()}
    events = t.do(draw, "Bram", 2)
    assert t.of(WyrdDrawn, events) == [WyrdDrawn(character="Bram", n=2, reason="to overcome Knife",
                                                 pool_after=3, personal_after=None, ghost=True)]
    assert {n: c.wyrd for n, c in t.state.characters.items()} == before
    assert t.scene.pool == 3
    assert t.of(ChallengeResolved, events)[0].overcome


def test_ghost_allowance_limited(new) -> None:
    """Seed 000: two points a scene, no more."""
    t = ghost_table(new)
    t.faces(1)
    t.do(add_challenge, "Knife", "threat", 5)
    t.do(attempt, "knife", "Ada")
    t.do(roll)
    t.do(draw, "Bram", 1)
    t.refuse("abacus.defeat.ghost-wyrd", draw, "Bram", 2)


def test_ghost_pays_another_ability(new) -> None:
    """Seed 000: the defeated player's points have the usual uses, such as letting
    another character spend a different ability."""
    t = ghost_table(new)
    t.do(add_challenge, "Cipher", "logic", 5)
    t.do(attempt, "cipher", "Ada")
    events = t.do(spend, "Ada", 2, BODY, paid_by="Bram")
    assert t.scene.ghost == {"Bram": 1}
    assert t.scene.pool == 3
    assert t.char("Ada").wyrd == 0
    assert t.of(WyrdDrawn, events)[0].ghost


def test_ghost_wyrd_counts_toward_a_rescue(new) -> None:
    """Seed 000: the failure stands at once only when too little Wyrd is left; the
    defeated player's points count toward what is left."""
    t = ghost_table(new)
    t.faces(1)
    t.do(add_challenge, "Wall", "obstruction", 6)  # gap 5 = pool 3 + ghost 2
    t.do(attempt, "wall", "Ada")
    t.do(roll)
    assert t.state.pending is not None
    t.do(draw, "Bram", 2)
    t.do(draw, "Ada", 3)
    assert t.scene.challenges["wall"].status == "overcome"


def test_due_offers_the_ghost_wyrd(new) -> None:
    """Seed 000: a defeated character's player may help with the Wyrd; the engine
    lists it while a roll is open."""
    t = ghost_table(new)
    t.do(add_challenge, "Knife", "threat", 3)
    t.do(attempt, "knife", "Ada")
    assert Step(kind=StepKind.GHOST_WYRD, who=("Bram",), challenge="knife") in due(t.state)


def test_finale_step_when_everyone_is_defeated(new) -> None:
    """Seed 000: with every character defeated, what is left is the story's end."""
    t = new("Ada", scene=["Ada"])
    t.do(scratch_out, "Ada", BODY)
    t.do(scratch_out, "Ada", BODY)
    t.do(end_scene)
    assert due(t.state) == [Step(kind=StepKind.FINALE)]


def test_a_lead_defeated_by_a_failure_takes_no_further_consequence() -> None:
    """Seed 000: a defeated character is out of the player's control; so a failure whose
    damage defeats the lead and then calls for the lead's Wyrd roll settles, and the roll
    closes (found by the simulator: the game used to be stuck here)."""
    from wyrd.rules.abacus import (
        ChallengeSpec,
        Effect,
        EffectKind,
        GameState,
        Target,
        accept,
        add_character,
        attempt,
        place_spec,
        roll,
        scratch_out,
        start_scene,
    )
    from wyrd.rules.dice import Dice

    dice = Dice.scripted([1, 1, 1, 1, 1, 1])
    state = add_character(GameState(), dice, "Ada", 3, 6, 6).state
    state = add_character(state, dice, "Bo", 5, 5, 5).state
    state = start_scene(state, dice, ["Ada", "Bo"]).state
    state = scratch_out(state, dice, "Ada", "body").state
    spec = ChallengeSpec(id="pit", name="Pit", type="threat", value=12, on_fail=[
        Effect(do=EffectKind.DAMAGE, n=9, target=Target.LEAD),
        Effect(do=EffectKind.WYRD_ROLL, target=Target.LEAD),
    ])
    state = place_spec(state, dice, spec).state
    state = attempt(state, dice, "pit", "Ada").state
    outcome = roll(state, dice)  # out of the pool's reach: the failure stands at once
    if outcome.state.pending is not None:
        outcome = accept(outcome.state, dice)
    assert outcome.state.pending is None
    assert outcome.state.characters["Ada"].defeated
