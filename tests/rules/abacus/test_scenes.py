"""Scenes, the scene Wyrd pool, recovery and rest (rules/abacus/scenes.py, steps.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.abacus import (
    Ability,
    ChallengeSpec,
    ChallengeType,
    Clock,
    Effect,
    EffectKind,
    Lasts,
    StageRule,
    Step,
    add_challenge,
    attempt,
    draw,
    due,
    end_scene,
    harm,
    install,
    rest,
    roll,
    scratch_out,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import (
    InfluenceRolled,
    PointsRecovered,
    RecoveryRefused,
    SceneEnded,
    SceneStarted,
)
from wyrd.rules.abacus.steps import StepKind

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL


def face_a_challenge(t, who: str, value: int = 3, points: int = 0, face: int = 6,
                     type: str = "threat", name: str = "Brawl") -> None:
    """``who`` attempts a challenge, spends ``points`` and rolls ``face`` (overcome)."""
    t.faces(face)
    t.do(add_challenge, name, type, value)
    t.do(attempt, name.lower(), who)
    if points:
        t.do(spend, who, points)
    t.do(roll)
    assert t.state.pending is None


# -- the scene pool ------------------------------------------------------------------


@pytest.mark.parametrize("present", [["Ada"], ["Ada", "Bram"], ["Ada", "Bram", "Cora"]])
def test_pool_is_present_plus_one(new, present: list[str]) -> None:
    """Seed 000: at the start of each scene the Wyrd pool is the number of
    characters (present, RULES.md) plus one."""
    t = new("Ada", "Bram", "Cora")
    events = t.do(start_scene, present)
    assert t.scene.pool == len(present) + 1
    assert events[0] == SceneStarted(
        scene="scene-1", number=1, present=present, pool=len(present) + 1
    )


def test_defeated_cannot_be_present(new) -> None:
    """RULES.md: the pool counts player characters present and not defeated; a
    defeated character no longer acts, so cannot be brought into a scene."""
    t = new("Ada", "Bram", faces=[3], scene=["Ada", "Bram"])
    t.do(scratch_out, "Bram", BODY)
    t.do(scratch_out, "Bram", BODY)  # defeated; rolls Wyrd 0: no dice
    t.do(end_scene)
    t.refuse("abacus.defeat.no-actions", start_scene, ["Ada", "Bram"])
    t.do(start_scene, ["Ada"])
    assert t.scene.pool == 2


def test_scene_needs_someone(new) -> None:
    """Seed 000: a scene opens by choosing who is in it; [ours, scenes.start_scene]
    somebody must be."""
    new("Ada").refuse("abacus.scene.present", start_scene, [])


def test_one_scene_at_a_time(duo) -> None:
    """Seed 000: one scene is resolved before the action moves to a new scene."""
    duo.refuse("abacus.scene.one-at-a-time", start_scene, ["Cora"])


def test_pool_lost_at_scene_end(duo) -> None:
    """Seed 000: unused scene Wyrd vanishes when the scene closes; personal pools
    carry on."""
    duo.faces(1)
    duo.do(add_challenge, "Knife", "threat", 3)
    duo.do(attempt, "knife", "Ada")
    duo.do(roll)
    duo.do(draw, "Ada", 1)
    duo.do(draw, "Ada", 1)  # overcome: pool 1 left, Ada has 2
    duo.faces(3, 3)  # the scene-end Wyrd roll: Ada's 2 dice, Bram's none
    events = duo.do(end_scene)
    assert duo.of(SceneEnded, events) == [SceneEnded(scene="scene-1", pool_lost=1)]
    assert duo.state.scene is None
    assert duo.char("Ada").wyrd == 2
    assert duo.state.scenes_played == 1


def test_pool_refreshed_next_scene(duo) -> None:
    """Seed 000: each new scene gets a fresh pool."""
    duo.do(end_scene)
    duo.do(start_scene, ["Ada", "Bram", "Cora"], "the-pub")
    assert (duo.scene.id, duo.scene.number, duo.scene.pool) == ("the-pub", 2, 4)


def test_no_pool_and_no_challenges_between_scenes(new) -> None:
    """Seed 000: between scenes there are no challenges and the scene pool can't
    be reached."""
    t = new("Ada")
    t.refuse("abacus.scene.between-scenes", add_challenge, "Door", "obstruction", 3)
    t.refuse("abacus.scene.between-scenes", attempt, "door", "Ada")
    t.refuse("abacus.roll.none-open", draw, "Ada", 1)
    t.refuse("abacus.scene.between-scenes", end_scene)


def test_no_consequences_between_scenes(new) -> None:
    """Seed 000: characters never experience consequences between scenes."""
    t = new("Ada")
    t.refuse("abacus.scene.between-scenes", harm, "Ada", BODY, 1)
    t.refuse("abacus.scene.between-scenes", scratch_out, "Ada", BODY)


def test_scene_rules_last_the_scene(new) -> None:
    """Seed 000: a scene's stage rules belong to it; [ours, scenes.start_scene]
    they end with the scene."""
    rule = StageRule(id="fog", name="Fog", effects=[Effect(do=EffectKind.MODIFY, n=1)])
    t = new("Ada", scene=None)
    t.do(start_scene, ["Ada"], rules=[rule],
         challenges=[ChallengeSpec(id="lane", name="Lane", type=ChallengeType.PURSUIT, value=3)])
    assert "fog" in t.state.stage_rules
    assert "lane" in t.scene.challenges
    t.do(end_scene)
    assert t.state.stage_rules == {}


# -- the scene's Wyrd roll -------------------------------------------------------------


def test_wyrd_roll_made_at_scene_end_when_none_made(new) -> None:
    """RULES.md: at least one Wyrd roll a scene; [ours] if none was made, one is
    made for everyone present at scene end."""
    t = new("Ada", "Bram", "Cora", faces=[2, 5], scene=["Ada", "Bram"], wyrd=1)
    events = t.do(end_scene)
    rolls = t.of(InfluenceRolled, events)
    assert [(r.character, r.trait, r.dice, r.reason) for r in rolls] == [
        ("Ada", "wyrd", [2], "scene end"), ("Bram", "wyrd", [5], "scene end")]


def test_no_extra_wyrd_roll_when_one_was_made(new) -> None:
    """RULES.md: the scene-end roll stands in only when the scene had none."""
    t = new("Ada", faces=[4], scene=["Ada"], wyrd=1)
    t.do(wyrd, ["Ada"])
    events = t.do(end_scene)
    assert t.of(InfluenceRolled, events) == []
    assert t.faces_left == 0


def test_due_lists_the_owed_wyrd_roll(new) -> None:
    """Seed 000: a scene should see a Wyrd roll; the engine lists one as owed until made."""
    t = new("Ada", "Bram", faces=[3, 3], scene=["Ada", "Bram"], wyrd=1)
    assert Step(kind=StepKind.WYRD_ROLL, who=("Ada", "Bram")) in due(t.state)
    t.do(wyrd, ["Ada"])
    assert all(s.kind != StepKind.WYRD_ROLL for s in due(t.state))


def test_due_lists_the_open_roll(duo) -> None:
    """Seed 000: an open roll waits for points and the die, then for Wyrd or acceptance."""
    duo.faces(1)
    duo.do(add_challenge, "Knife", "threat", 3)
    duo.do(attempt, "knife", "Ada")
    assert due(duo.state)[0] == Step(kind=StepKind.ASSIGN_OR_ROLL, who=("Ada",), challenge="knife")
    duo.do(roll)
    assert due(duo.state)[0].kind == StepKind.DRAW_OR_ACCEPT


# -- recovery ------------------------------------------------------------------------


def test_recovery_for_those_who_faced_a_challenge(duo) -> None:
    """Seed 000: a character who took on a challenge during the scene gets one spent
    point back, in an ability the player picks, when it closes."""
    face_a_challenge(duo, "Ada", points=3)
    duo.do(harm, "Bram", BODY, 2)  # Bram was hurt but faced no challenge
    events = duo.do(end_scene, {"Ada": BODY})
    assert duo.of(PointsRecovered, events) == [
        PointsRecovered(character="Ada", ability=BODY, n=1, points_after=3, reason="scene end")]
    assert duo.char("Bram").points[BODY] == 5


def test_recovery_choice_for_someone_who_faced_nothing_refused(duo) -> None:
    """Seed 000: only a character who faced at least one challenge recovers."""
    face_a_challenge(duo, "Ada", points=1)
    refused_alone(duo, "abacus.recovery.faced-a-challenge", {"Bram": BODY, "Ada": BODY})
    assert duo.char("Ada").points[BODY] == 5


def refused_alone(t, rule: str, recover, connections=None) -> list[object]:
    """[ours, README rules notes] a wrong recovery refuses only that name: the scene still ends."""
    events = t.do(end_scene, recover, connections)
    wrong = t.of(RecoveryRefused, events)
    assert [r.rule for r in wrong] == [rule]
    assert t.of(SceneEnded, events) and t.state.scene is None
    return events


def test_recovery_explicit_choice(duo) -> None:
    """Seed 000: *you pick* the ability that recovers."""
    face_a_challenge(duo, "Ada", points=3)
    duo.do(harm, "Ada", MIND, 1)
    duo.do(end_scene, {"ada": "mind"})
    assert duo.char("Ada").points == {BODY: 2, MIND: 5, SOUL: 5}


def test_recovery_default_most_spent(duo) -> None:
    """[ours, scenes._default_recovery] with no choice made, the usable ability with
    the most points spent recovers."""
    face_a_challenge(duo, "Ada", points=1)
    duo.do(harm, "Ada", SOUL, 3)
    duo.do(end_scene)
    assert duo.char("Ada").points == {BODY: 4, MIND: 5, SOUL: 3}


def test_recovery_default_skips_scratched(duo) -> None:
    """Seed 000: a scratched ability can't regain points, so the default passes it by."""
    face_a_challenge(duo, "Ada", points=1)
    duo.do(harm, "Ada", SOUL, 6)  # past 0: scratched
    duo.do(end_scene)
    assert duo.char("Ada").points == {BODY: 5, MIND: 5, SOUL: 0}


def test_recovery_nothing_spent_nothing_recovered(duo) -> None:
    """Seed 000: recovery restores *spent* points; with none spent, nothing happens."""
    face_a_challenge(duo, "Ada")
    events = duo.do(end_scene)
    assert duo.of(PointsRecovered, events) == []


def test_recovery_of_unspent_ability_refused(duo) -> None:
    """Seed 000: recovery restores spent points, never above the score."""
    face_a_challenge(duo, "Ada", points=1)
    refused_alone(duo, "abacus.recovery.nothing-spent", {"Ada": MIND})
    assert duo.char("Ada").points == {BODY: 5, MIND: 5, SOUL: 5}  # recovered where it was spent


def test_recovery_of_scratched_ability_refused(duo) -> None:
    """Seed 000: a scratched-out ability gets no points back."""
    face_a_challenge(duo, "Ada", points=1)
    duo.do(harm, "Ada", BODY, 9)
    refused_alone(duo, "abacus.recovery.scratched", {"Ada": BODY})
    assert duo.char("Ada").points[BODY] == 0


def test_connection_bonus_needs_the_optional_rule(new) -> None:
    """Seed 000: the connection recovery rule is optional, used only if the group
    agrees (state.connections)."""
    t = new("Ada", scene=None)
    from wyrd.rules.abacus import add_character

    t.do(add_character, "Bram", 7, 4, 4, connection="Ada")
    t.do(start_scene, ["Ada", "Bram"])
    face_a_challenge(t, "Bram", points=3)
    t.refuse("abacus.recovery.connection-off", end_scene, {"Bram": BODY}, {"Bram": BODY})


def test_connection_bonus_one_more_point(new) -> None:
    """Seed 000: with the connection rule, a character who drew strongly on their
    connection regains one additional spent point of any ability."""
    t = new("Ada", scene=None)
    from wyrd.rules.abacus import add_character

    t.do(add_character, "Bram", 7, 4, 4, connection="Ada")
    t.do(install, connections=True)
    t.do(start_scene, ["Ada", "Bram"])
    face_a_challenge(t, "Bram", points=3)
    t.do(harm, "Bram", MIND, 1)
    events = t.do(end_scene, {"Bram": BODY}, {"Bram": MIND})
    assert [(r.ability, r.reason) for r in t.of(PointsRecovered, events)] == [
        (BODY, "scene end"), (MIND, "connection")]
    assert t.char("Bram").points == {BODY: 5, MIND: 4, SOUL: 4}


def test_connection_bonus_needs_a_connection(duo) -> None:
    """Seed 000: the bonus is for drawing on the connection chosen at creation."""
    duo.do(install, connections=True)
    face_a_challenge(duo, "Ada", points=2)
    refused_alone(duo, "abacus.recovery.connection", {"Ada": BODY}, {"Ada": BODY})
    assert duo.char("Ada").points[BODY] == 4


# -- rest ---------------------------------------------------------------------------


def test_rest_plus_one_per_six(new) -> None:
    """Seed 000: a proper rest is an influence roll of the ability; each 6 regains a point."""
    t = new("Bram", scene=["Bram"])
    face_a_challenge(t, "Bram", points=6, value=3, face=1, name="Wall")
    t.do(end_scene, {"Bram": BODY})  # Body 2 of 7
    t.faces(6, 2, 6, 3, 1, 6, 4)  # Body score 7: seven dice, three 6s
    events = t.do(rest, "Bram", BODY)
    rolled = t.of(InfluenceRolled, events)[0]
    assert rolled.dice == [6, 2, 6, 3, 1, 6, 4] and rolled.reason == "rest"
    assert t.of(PointsRecovered, events)[0].n == 3
    assert t.char("Bram").points[BODY] == 5


def test_rest_rolls_the_score_not_current_points(new) -> None:
    """Seed 000: influence rolls use the ability's score, not its current points."""
    t = new("Bram", scene=["Bram"])
    face_a_challenge(t, "Bram", points=7, value=3, face=1, name="Wall")
    t.do(end_scene)
    t.faces(1, 1, 1, 1, 1, 1, 1)
    t.do(rest, "Bram", BODY)
    assert t.faces_left == 0  # seven dice rolled, though only 1 point was left


def test_rest_never_above_score(new) -> None:
    """Seed 000: the score is the maximum number of points."""
    t = new("Ada", scene=["Ada"])
    face_a_challenge(t, "Ada", points=1)
    t.do(end_scene)  # recovers the 1 point spent
    t.faces(6, 6, 6, 6, 6)
    events = t.do(rest, "Ada", BODY)
    assert t.of(PointsRecovered, events)[0].n == 0
    assert t.char("Ada").points[BODY] == 5


def test_rest_between_scenes_only(duo) -> None:
    """Seed 000: rest is a night's sleep or downtime, between scenes."""
    duo.refuse("abacus.rest.between-scenes", rest, "Ada", BODY)


def test_rest_once_between_scenes(new) -> None:
    """[ours, scenes] a character rests at most once between two scenes; a new
    scene makes rest possible again."""
    t = new("Ada", faces=[1] * 15)
    t.do(rest, "Ada", BODY)
    t.refuse("abacus.rest.once", rest, "Ada", MIND)
    t.do(start_scene, ["Ada"])
    t.do(end_scene)
    t.do(rest, "Ada", MIND)


def test_rest_scratched_refused(new) -> None:
    """Seed 000: a scratched ability cannot regain points, resting or not."""
    t = new("Ada", scene=["Ada"])
    t.do(scratch_out, "Ada", SOUL)
    t.do(end_scene)
    t.refuse("abacus.recovery.scratched", rest, "Ada", SOUL)


def test_scene_end_only_clock_still_rolls(new) -> None:
    """Seed 000: a clock may tally only the Wyrd rolled as each scene closes;
    [ours, scenes] that roll is made even when the scene had its Wyrd roll."""
    t = new("Ada", faces=[5, 6], scene=None, wyrd=1)
    t.do(install, clocks=[Clock(id="beast", name="The Beast", scene_end_only=True)])
    t.do(start_scene, ["Ada"])
    t.do(wyrd, ["Ada"])  # a 5, not counted mid-scene
    assert t.state.clocks["beast"].value == 0
    t.do(end_scene)  # a 6 at scene end, counted
    assert t.state.clocks["beast"].value == 1


def test_scene_rules_given_to_start_scene_end_even_if_story_long(new) -> None:
    """[ours, scenes.start_scene] rules brought in with a scene last the scene."""
    rule = StageRule(id="dark", name="Dark", lasts=Lasts.STORY,
                     effects=[Effect(do=EffectKind.MODIFY, n=1)])
    t = new("Ada")
    t.do(start_scene, ["Ada"], rules=[rule])
    assert t.state.stage_rules["dark"].lasts == Lasts.SCENE
    t.do(end_scene)
    assert "dark" not in t.state.stage_rules
