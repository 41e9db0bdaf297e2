"""Challenge rolls (rules/abacus/challenge.py): attempt, spend, roll, draw, accept."""

from __future__ import annotations

from fractions import Fraction

import pytest

from wyrd.rules.abacus import (
    Ability,
    ChallengeSpec,
    ChallengeStatus,
    ChallengeType,
    Denizen,
    Effect,
    EffectKind,
    GameState,
    Needs,
    Target,
    accept,
    add_challenge,
    attempt,
    create_character,
    draw,
    end_scene,
    enlist,
    install,
    place_spec,
    roll,
    slug,
    spend,
    start_scene,
)
from wyrd.rules.abacus.events import (
    ChallengePlaced,
    ChallengeResolved,
    ChallengeRolled,
    Damage,
    PointsSpent,
    RollOpened,
    WyrdDrawn,
)
from wyrd.rules.dice import Dice
from wyrd.rules.odds import challenge_odds

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL

ABILITY_OF = {
    ChallengeType.OBSTRUCTION: BODY,
    ChallengeType.PURSUIT: BODY,
    ChallengeType.THREAT: BODY,
    ChallengeType.LOGIC: MIND,
    ChallengeType.PRESSURE: MIND,
    ChallengeType.WITS: MIND,
    ChallengeType.FOREBODING: SOUL,
    ChallengeType.INVOCATION: SOUL,
    ChallengeType.TAINT: SOUL,
}


def open_roll(t, value: int = 6, type: ChallengeType = ChallengeType.THREAT, lead: str = "Ada",
              involved: tuple[str, ...] = (), name: str = "Knife") -> str:
    t.do(add_challenge, name, type, value)
    ident = slug(name)
    t.do(attempt, ident, lead, list(involved))
    return ident


# -- the nine types -------------------------------------------------------------


def test_nine_types_three_per_ability() -> None:
    """Seed 000: challenges come in nine types, three belonging to each ability."""
    assert set(ChallengeType) == set(ABILITY_OF)
    for ability in Ability:
        assert sum(1 for t in ChallengeType if t.ability == ability) == 3


@pytest.mark.parametrize(("ctype", "ability"), list(ABILITY_OF.items()))
def test_type_ability(ctype: ChallengeType, ability: Ability) -> None:
    """Seed 000: Body covers Obstruction, Pursuit, Threat; Mind covers Logic,
    Pressure, Wits; Soul covers Foreboding, Invocation, Taint."""
    assert ctype.ability == ability


@pytest.mark.parametrize(("ctype", "ability"), list(ABILITY_OF.items()))
def test_spend_takes_the_types_ability(new, ctype: ChallengeType, ability: Ability) -> None:
    """Seed 000: normally only points of the ability tied to the challenge type
    can be assigned, at no Wyrd cost."""
    t = new("Ada", scene=["Ada"])
    open_roll(t, type=ctype)
    events = t.do(spend, "Ada", 2)
    assert t.char("Ada").points[ability] == 3
    assert [e.ability for e in t.of(PointsSpent, events)] == [ability]
    assert t.of(PointsSpent, events)[0].wyrd_cost == 0
    assert t.scene.pool == 2


# -- placing and attempting -------------------------------------------------------


def test_add_challenge_places_it(duo) -> None:
    """Seed 000: a challenge is placed with a type and a value."""
    events = duo.do(add_challenge, "Old Barn Door", "obstruction", 4)
    assert events == [ChallengePlaced(id="old-barn-door", name="Old Barn Door",
                                      type=ChallengeType.OBSTRUCTION, value=4)]
    assert duo.scene.challenges["old-barn-door"].status == ChallengeStatus.OPEN


def test_duplicate_challenge_names_get_fresh_ids(duo) -> None:
    """[ours, effects.place] a second challenge of the same name gets a new id."""
    duo.do(add_challenge, "Hound", "pursuit", 4)
    duo.do(add_challenge, "Hound", "threat", 5)
    assert set(duo.scene.challenges) == {"hound", "hound-2"}


def test_negative_value_refused(duo) -> None:
    """Seed 000: a challenge value is a number to equal or beat, never below 0."""
    duo.refuse("abacus.challenge.value", add_challenge, "Oddity", "wits", -1)


def test_no_challenge_between_scenes(new) -> None:
    """Seed 000: characters never face challenges between scenes."""
    t = new("Ada")
    t.refuse("abacus.scene.between-scenes", add_challenge, "Door", "obstruction", 3)


def test_attempt_opens_roll(duo) -> None:
    """Seed 000: a lead character attempts the challenge; others may act in tandem."""
    duo.do(add_challenge, "Knife", "threat", 6)
    events = duo.do(attempt, "knife", "Ada", ["Bram"])
    assert events == [RollOpened(challenge="knife", name="Knife", lead="Ada", involved=["Ada", "Bram"], value=6)]
    assert duo.state.pending is not None
    assert duo.scene.challenges["knife"].tackled


def test_attempt_finds_challenge_by_name(duo) -> None:
    """[ours, Turn.challenge] a challenge may be named by id or name, any case."""
    duo.do(add_challenge, "The Knife", "threat", 6)
    duo.do(attempt, "THE KNIFE", "ada")
    assert duo.state.pending is not None and duo.state.pending.lead == "Ada"


def test_one_roll_at_a_time(duo) -> None:
    """[ours, challenge.attempt] a roll must be settled before another opens."""
    open_roll(duo)
    duo.do(add_challenge, "Chase", "pursuit", 3)
    duo.refuse("abacus.roll.one-at-a-time", attempt, "chase", "Bram")


def test_unknown_challenge_refused(duo) -> None:
    """[ours, Turn.challenge] only challenges placed in the scene can be attempted."""
    duo.refuse("abacus.unknown.challenge", attempt, "dragon", "Ada")


def test_unknown_character_refused(duo) -> None:
    """[ours, Turn.character] only characters of the story can act."""
    duo.do(add_challenge, "Knife", "threat", 6)
    duo.refuse("abacus.unknown.character", attempt, "knife", "Zed")


def test_lead_must_be_present(duo) -> None:
    """Seed 000: the lead acts in the scene; someone elsewhere can only help through
    the Wyrd (Cora is not in the scene)."""
    duo.do(add_challenge, "Knife", "threat", 6)
    duo.refuse("abacus.roll.lead-present", attempt, "knife", "Cora")


def test_closed_challenge_cannot_be_attempted(new) -> None:
    """Seed 000: a challenge represents the entire obstacle; once overcome or failed
    it is not rolled again."""
    t = new("Ada", faces=[6], scene=["Ada"])
    open_roll(t, value=3)
    t.do(roll)
    assert t.scene.challenges["knife"].status == ChallengeStatus.OVERCOME
    t.refuse("abacus.challenge.closed", attempt, "knife", "Ada")


# -- spending ----------------------------------------------------------------------


def test_roll_total_die_plus_points_meets_value(new) -> None:
    """Seed 000: the die plus the points assigned, equal to or above the value, overcomes."""
    t = new("Ada", faces=[2], scene=["Ada"])
    open_roll(t, value=6)
    t.do(spend, "Ada", 4)
    events = t.do(roll)
    rolled = t.of(ChallengeRolled, events)[0]
    assert (rolled.die, rolled.points, rolled.total, rolled.value) == (2, 4, 6, 6)
    assert rolled.overcome
    assert t.scene.challenges["knife"].status == ChallengeStatus.OVERCOME
    assert t.state.pending is None


def test_one_short_fails(new) -> None:
    """Seed 000: a total below the value does not overcome the challenge."""
    t = new("Ada", faces=[2], scene=["Ada"])
    open_roll(t, value=7)
    t.do(spend, "Ada", 4)
    events = t.do(roll)
    assert not t.of(ChallengeRolled, events)[0].overcome


def test_unlimited_points(new) -> None:
    """Seed 000: there is no limit to the points spent at once; a value of 10+
    can be beaten with certainty by points alone."""
    t = new("Bram", faces=[1], scene=["Bram"])
    open_roll(t, value=8, lead="Bram")
    t.do(spend, "Bram", 7)
    assert t.char("Bram").points[BODY] == 0
    assert t.of(ChallengeRolled, t.do(roll))[0].overcome


def test_points_in_several_lots_add_up(trio) -> None:
    """Seed 000: any involved character assigns points; each point adds 1."""
    trio.faces(1)
    open_roll(trio, value=9, involved=("Bram",))
    trio.do(spend, "Ada", 3)
    trio.do(spend, "Bram", 2)
    trio.do(spend, "Ada", 2)
    rolled = trio.of(ChallengeRolled, trio.do(roll))[0]
    assert rolled.points == 7 and rolled.total == 8


def test_spending_joins_the_roll(trio) -> None:
    """Seed 000: everyone taking part may put points in; [ours, challenge.spend] a
    present character who spends joins the roll."""
    open_roll(trio)
    trio.do(spend, "Cora", 1)
    assert trio.state.pending is not None and "Cora" in trio.state.pending.involved


def test_cannot_spend_more_than_you_have(duo) -> None:
    """Seed 000: points come from the character's current points."""
    open_roll(duo, type=ChallengeType.LOGIC, lead="Bram")
    duo.refuse("abacus.spend.not-enough-points", spend, "Bram", 5)


@pytest.mark.parametrize("n", [0, -2])
def test_spend_positive(duo, n: int) -> None:
    """[ours, challenge.spend] points are assigned one or more at a time."""
    open_roll(duo)
    duo.refuse("abacus.spend.positive", spend, "Ada", n)


def test_spend_needs_an_open_roll(duo) -> None:
    """Seed 000: points are assigned to a roll, before it is made."""
    duo.refuse("abacus.roll.none-open", spend, "Ada", 1)


def test_no_points_after_the_roll(new) -> None:
    """Seed 000: points are assigned *before* throwing the die; afterwards only Wyrd helps."""
    t = new("Ada", faces=[1], scene=["Ada"])
    open_roll(t, value=3)
    t.do(roll)
    t.refuse("abacus.roll.points-before-roll", spend, "Ada", 1)


def test_other_ability_costs_one_wyrd(duo) -> None:
    """Seed 000: one point from the scene pool lets a character spend a different
    ability on this challenge; the point goes into their personal pool."""
    open_roll(duo, type=ChallengeType.LOGIC)
    events = duo.do(spend, "Ada", 2, BODY)
    assert duo.char("Ada").points == {BODY: 3, MIND: 5, SOUL: 5}
    assert duo.scene.pool == 2
    assert duo.char("Ada").wyrd == 1
    assert duo.of(PointsSpent, events)[0].wyrd_cost == 1
    drawn = duo.of(WyrdDrawn, events)
    assert [(d.character, d.n, d.pool_after, d.personal_after) for d in drawn] == [("Ada", 1, 2, 1)]


def test_other_ability_paid_once_per_character_per_roll(duo) -> None:
    """Seed 000: the single Wyrd point covers that character's use of another
    ability for the whole challenge."""
    open_roll(duo, type=ChallengeType.LOGIC)
    duo.do(spend, "Ada", 1, BODY)
    events = duo.do(spend, "Ada", 1, BODY)
    assert duo.of(WyrdDrawn, events) == []
    assert duo.scene.pool == 2


def test_other_ability_each_character_pays(duo) -> None:
    """Seed 000: the point allows *their* character to switch; a second character pays too."""
    open_roll(duo, type=ChallengeType.LOGIC, involved=("Bram",))
    duo.do(spend, "Ada", 1, BODY)
    duo.do(spend, "Bram", 1, BODY)
    assert duo.scene.pool == 1
    assert (duo.char("Ada").wyrd, duo.char("Bram").wyrd) == (1, 1)


def test_absent_helper_costs_one_wyrd(duo) -> None:
    """Seed 000: a character not in the scene can assign points of a relevant
    ability for one scene Wyrd point."""
    open_roll(duo)
    events = duo.do(spend, "Cora", 2)
    assert duo.char("Cora").points[BODY] == 1
    assert duo.char("Cora").wyrd == 1
    assert duo.scene.pool == 2
    assert duo.of(PointsSpent, events)[0].wyrd_cost == 1
    duo.do(spend, "Cora", 1)
    assert duo.scene.pool == 2  # paid once for this roll


def test_absent_with_other_ability_costs_two(duo) -> None:
    """Seed 000: both options together take two points from the pool."""
    open_roll(duo)
    events = duo.do(spend, "Cora", 3, SOUL)
    assert duo.of(PointsSpent, events)[0].wyrd_cost == 2
    assert duo.scene.pool == 1
    assert duo.char("Cora").wyrd == 2
    assert duo.char("Cora").points[SOUL] == 4


def test_wyrd_cost_needs_the_pool(duo) -> None:
    """Seed 000: the extra options are paid from the scene pool; with too little
    left they can't be used, and nothing is spent."""
    open_roll(duo, type=ChallengeType.LOGIC)
    duo.do(spend, "Ada", 1, BODY)
    duo.do(spend, "Bram", 1, BODY)  # Bram joins and pays: pool 1
    duo.refuse("abacus.wyrd.pool-empty", spend, "Cora", 1, SOUL)  # would need 2


def test_wyrd_cost_paid_by_the_spender_not_by_another_player(duo) -> None:
    """Seed 000: a player takes the Wyrd point to let *their* character use another
    ability; only a defeated character's player spends Wyrd for others."""
    open_roll(duo, type=ChallengeType.LOGIC)
    duo.refuse("abacus.spend.payer", spend, "Ada", 1, BODY, paid_by="Bram")
    duo.do(spend, "Ada", 1, BODY)
    assert (duo.char("Ada").wyrd, duo.char("Bram").wyrd) == (1, 0)


def test_points_lost_on_success(new) -> None:
    """Seed 000: points spent on a roll are lost, whether it succeeds..."""
    t = new("Ada", faces=[6], scene=["Ada"])
    open_roll(t, value=3)
    t.do(spend, "Ada", 2)
    t.do(roll)
    assert t.char("Ada").points[BODY] == 3


def test_points_lost_on_failure(new) -> None:
    """Seed 000: ...or fails."""
    t = new("Ada", faces=[1], scene=["Ada"])
    open_roll(t, value=12)
    t.do(spend, "Ada", 2)
    t.do(roll)  # 1 + 2 against 12: out of the pool's reach, the failure stands
    assert t.of(PointsSpent)[0].points_after == 3
    assert t.of(Damage)[0] == Damage(
        character="Ada", ability=BODY, n=6, points_after=0, source="knife"
    )


def test_points_lost_on_failure_without_damage(new) -> None:
    """Seed 000: spent points are lost on a failure (here the failure costs nothing else)."""
    t = new("Ada", faces=[1], scene=["Ada"])
    spec = ChallengeSpec(id="lock", name="Lock", type=ChallengeType.LOGIC, value=5, on_fail=[])
    t.do(place_spec, spec)
    t.do(attempt, "lock", "Ada")
    t.do(spend, "Ada", 2)
    t.do(roll)
    t.do(accept)
    assert t.char("Ada").points[MIND] == 3


# -- after the roll: draw or accept --------------------------------------------------


def test_draw_adds_one_per_point(trio) -> None:
    """Seed 000: after a failed roll, every scene Wyrd point taken by someone in
    the attempt raises the result by 1."""
    trio.faces(2)
    open_roll(trio, value=5, involved=("Bram",))
    trio.do(roll)
    assert trio.state.pending is not None and trio.state.pending.stage == "rolled"
    trio.do(draw, "Ada", 1)
    events = trio.do(draw, "Bram", 2)
    resolved = trio.of(ChallengeResolved, events)[0]
    assert resolved.overcome and resolved.boost == 3 and resolved.total == 5
    assert trio.scene.pool == 1
    assert (trio.char("Ada").wyrd, trio.char("Bram").wyrd) == (1, 2)
    assert trio.scene.challenges["knife"].status == ChallengeStatus.OVERCOME


def test_draw_only_by_involved(trio) -> None:
    """Seed 000: the post-roll Wyrd is taken by an *involved* character."""
    trio.faces(2)
    open_roll(trio, value=5)
    trio.do(roll)
    trio.refuse("abacus.draw.involved", draw, "Cora", 1)


def test_may_draw_more_than_needed(trio) -> None:
    """Seed 000: "for every point of Wyrd that any involved character takes from the scene's
    Wyrd pool, add 1": any number may be taken, even more than the roll still needs."""
    trio.faces(3)
    open_roll(trio, value=5)
    trio.do(roll)
    events = trio.do(draw, "Ada", 3)
    assert trio.of(ChallengeResolved, events)[0].overcome
    assert trio.char("Ada").wyrd == 3 and trio.scene.pool == 1


def test_draw_positive(trio) -> None:
    """[ours, Turn.draw] Wyrd is drawn a point or more at a time."""
    trio.faces(3)
    open_roll(trio, value=5)
    trio.do(roll)
    trio.refuse("abacus.wyrd.positive", draw, "Ada", 0)


def test_draw_before_roll_refused(trio) -> None:
    """Seed 000: the Wyrd alters a roll after it has been rolled."""
    open_roll(trio)
    trio.refuse("abacus.roll.not-rolled", draw, "Ada", 1)


def test_failure_stands_at_once_when_pool_too_small(new) -> None:
    """Seed 000: when the pool can no longer cover the gap, the challenge is simply
    not overcome; the failure is taken at once."""
    t = new("Ada", faces=[1], scene=["Ada"])  # pool 2
    open_roll(t, value=4)  # needs 3 more
    events = t.do(roll)
    resolved = t.of(ChallengeResolved, events)
    assert [r.overcome for r in resolved] == [False]
    assert t.state.pending is None
    assert t.scene.challenges["knife"].status == ChallengeStatus.FAILED
    assert t.scene.pool == 2


def test_failure_waits_when_pool_could_rescue(new) -> None:
    """Seed 000: with enough Wyrd left, the players choose to draw or not."""
    t = new("Ada", faces=[1], scene=["Ada"])  # pool 2
    open_roll(t, value=3)
    t.do(roll)
    assert t.state.pending is not None


def test_accept_takes_the_failure(new) -> None:
    """Seed 000: declining the Wyrd after a failed roll leaves the challenge
    unbeaten, and its consequences follow."""
    t = new("Ada", faces=[1], scene=["Ada"])
    open_roll(t, value=3)
    t.do(roll)
    events = t.do(accept)
    assert t.of(ChallengeResolved, events)[0].overcome is False
    assert t.scene.challenges["knife"].status == ChallengeStatus.FAILED
    assert t.of(Damage, events) == [
        Damage(character="Ada", ability=BODY, n=2, points_after=3, source="knife")
    ]


def test_accept_needs_a_failed_roll(trio) -> None:
    """Seed 000: a failure is accepted only after the die shows one."""
    open_roll(trio)
    trio.refuse("abacus.roll.not-rolled", accept)


def test_open_roll_blocks_scene_end(trio) -> None:
    """[ours, scenes.end_scene] a scene ends only once its open roll is settled."""
    open_roll(trio)
    trio.refuse("abacus.scene.roll-open", end_scene)


def test_default_damage_goes_to_lead_in_the_types_ability(trio) -> None:
    """Seed 000: a failed challenge hurts; [ours, challenge._resolve] by default the
    lead alone loses half the value (rounded up) from the challenge's ability."""
    trio.faces(1)
    open_roll(trio, value=5, type=ChallengeType.PRESSURE, lead="Cora", involved=("Ada",))
    trio.do(roll)
    trio.do(accept)
    assert [(d.character, d.ability, d.n) for d in trio.of(Damage)] == [("Cora", MIND, 3)]
    assert trio.char("Ada").points == {BODY: 5, MIND: 5, SOUL: 5}


@pytest.mark.parametrize(("value", "damage"), [(2, 1), (3, 2), (5, 3), (6, 3), (7, 4), (11, 6)])
def test_default_damage_table(new, value: int, damage: int) -> None:
    """Seed 000: damage is about half the value; [ours] half rounded up, to the lead."""
    t = new("Bram", "Ada", faces=[1], scene=["Bram", "Ada"])
    open_roll(t, value=value, lead="Bram", involved=("Ada",))
    t.do(roll)
    if t.state.pending is not None:
        t.do(accept)
    assert [(d.character, d.n) for d in t.of(Damage)] == [("Bram", damage)]


def test_custom_consequences_replace_default(new) -> None:
    """Seed 000: a failure can carry several consequences at once (here damage to
    everyone involved and a Soul scratch), replacing the default."""
    t = new("Ada", "Bram", faces=[1], scene=["Ada", "Bram"])
    spec = ChallengeSpec(id="crash", name="Crash", type=ChallengeType.PURSUIT, value=6, on_fail=[
        Effect(do=EffectKind.DAMAGE, n=2, target=Target.INVOLVED),
        Effect(do=EffectKind.SCRATCH, ability=SOUL, target=Target.LEAD),
    ])
    t.do(place_spec, spec)
    t.do(attempt, "crash", "Ada", ["Bram"])
    t.do(roll)
    assert t.state.pending is None  # pool 3 can't cover 5
    assert t.char("Ada").points[BODY] == 3 and t.char("Bram").points[BODY] == 5
    assert t.char("Ada").scratched == [SOUL]


# -- sequences and denizens ------------------------------------------------------------


def test_sequential_challenges(new) -> None:
    """Seed 000: challenges may come in order, a later one closed until the earlier
    is beaten (the barrow door before the darkness within)."""
    t = new("Ada", faces=[6, 6], scene=["Ada"])
    t.do(add_challenge, "Barrow Door", "obstruction", 3)
    t.do(add_challenge, "Darkness", "foreboding", 3, after=["barrow-door"])
    t.refuse("abacus.challenge.sequential", attempt, "darkness", "Ada")
    t.do(attempt, "barrow-door", "Ada")
    t.do(roll)
    t.do(attempt, "darkness", "Ada")
    assert t.state.pending is not None


def test_sequential_blocked_after_failure(new) -> None:
    """Seed 000: the later challenge needs the earlier one *overcome*."""
    t = new("Ada", faces=[1], scene=["Ada"])
    t.do(add_challenge, "Barrow Door", "obstruction", 6)
    t.do(add_challenge, "Darkness", "foreboding", 3, after=["barrow-door"])
    t.do(attempt, "barrow-door", "Ada")
    t.do(roll)
    t.refuse("abacus.challenge.sequential", attempt, "darkness", "Ada")


def test_sequence_must_name_a_placed_challenge(duo) -> None:
    """[ours, challenge.add_challenge] a challenge can only follow one in the scene."""
    duo.refuse(
        "abacus.unknown.challenge", add_challenge, "Darkness", "foreboding", 3, after=["door"]
    )


def hound(t, needs: Needs) -> None:
    t.do(install, denizens=[Denizen(id="hound", name="Night Hound", needs=needs)])
    t.do(add_challenge, "Hound Pursuit", "pursuit", 3, denizen="hound")
    t.do(add_challenge, "Hound Teeth", "threat", 5, denizen="hound")


def test_denizen_needs_any_bypasses_the_rest(new) -> None:
    """Seed 000: for some denizens one challenge is enough: outrunning the Night
    Hound's Pursuit spares a character its Threat."""
    t = new("Ada", faces=[6], scene=["Ada"])
    hound(t, Needs.ANY)
    t.do(attempt, "hound-pursuit", "Ada")
    events = t.do(roll)
    assert t.scene.challenges["hound-teeth"].status == ChallengeStatus.BYPASSED
    assert [(r.challenge, r.status) for r in t.of(ChallengeResolved, events)] == [
        ("hound-pursuit", "overcome"), ("hound-teeth", "bypassed")]
    t.refuse("abacus.challenge.closed", attempt, "hound-teeth", "Ada")


def test_denizen_needs_all(new) -> None:
    """Seed 000: a powerful denizen may need every one of its challenges overcome."""
    t = new("Ada", faces=[6, 6], scene=["Ada"])
    hound(t, Needs.ALL)
    t.do(attempt, "hound-pursuit", "Ada")
    t.do(roll)
    assert t.scene.challenges["hound-teeth"].status == ChallengeStatus.OPEN
    t.do(attempt, "hound-teeth", "Ada")
    t.do(roll)
    assert t.scene.challenges["hound-teeth"].status == ChallengeStatus.OVERCOME


def test_failing_a_needs_any_challenge_bypasses_nothing(new) -> None:
    """Seed 000: only *overcoming* one challenge of such a denizen is enough."""
    t = new("Ada", faces=[1], scene=["Ada"])
    hound(t, Needs.ANY)
    t.do(attempt, "hound-pursuit", "Ada")
    t.do(roll)
    t.do(accept)
    assert t.scene.challenges["hound-teeth"].status == ChallengeStatus.OPEN


# -- exact odds through the real code path ---------------------------------------------


def outcomes(value: int, points: int, pool: int) -> tuple[Fraction, Fraction]:
    """P(overcome on the die) and P(overcome drawing up to ``pool``), counted over
    the six faces of a scripted die through attempt/spend/roll/draw."""
    wins = rescued = 0
    for face in range(1, 7):
        dice = Dice.scripted([face])
        state = enlist(GameState(), dice, create_character("Bram", 9, 3, 3)).state
        state = start_scene(state, dice, ["Bram"]).state
        state.scene.pool = pool  # type: ignore[union-attr]
        state = add_challenge(state, dice, "C", "threat", value).state
        state = attempt(state, dice, "c", "Bram").state
        if points:
            state = spend(state, dice, "Bram", points).state
        out = roll(state, dice)
        state = out.state
        rolled = next(e for e in out.events if isinstance(e, ChallengeRolled))
        if rolled.overcome:
            wins += 1
            rescued += 1
            continue
        if state.pending is not None:
            short = value - rolled.total
            state = draw(state, dice, "Bram", short).state
            assert state.scene is not None and state.scene.challenges["c"].status == "overcome"
            rescued += 1
    return Fraction(wins, 6), Fraction(rescued, 6)


@pytest.mark.parametrize(("value", "points", "pool"), [
    (1, 0, 0), (4, 0, 0), (4, 1, 2), (6, 0, 2), (7, 0, 3),
    (9, 3, 2), (10, 4, 0), (12, 5, 1), (3, 6, 2),
])
def test_challenge_odds_match_the_code_path(value: int, points: int, pool: int) -> None:
    """Seed 000: d6 + points >= value, then +1 per Wyrd drawn; the engine's outcomes
    over the six faces agree with wyrd.rules.odds' exact fractions."""
    on_die, with_pool = outcomes(value, points, pool)
    odds = challenge_odds(value, points, pool)
    assert on_die == odds.p_overcome
    assert with_pool == odds.p_with_pool


def test_value_four_is_half(new) -> None:
    """Seed 000: a 4-6 challenge still falls to pure luck sometimes: a 4 with no
    points is overcome on 4, 5 or 6, exactly 1/2."""
    assert outcomes(4, 0, 0)[0] == Fraction(1, 2)


def test_value_fixed_once_rolled(duo) -> None:
    """Seed 000: once the die is rolled, the only second chance is the Wyrd; each
    point drawn adds 1 toward the value the roll was made against. A Spell cast
    after the roll (here -3) does not shrink what must be drawn, so draws and the
    failure stay consistent."""
    duo.faces(1)
    duo.do(add_challenge, "Seal", "invocation", 4)
    duo.do(attempt, "seal", "Ada")
    duo.do(roll)  # 1 against 4: 3 short, pool 3
    from wyrd.rules.abacus import Casting, Template, TemplateKind, cast

    duo.do(cast, "spell", [Casting(character="Bram", ability=SOUL, points=2)], "the old book",
           template=Template(kind=TemplateKind.SPELL, challenge="seal"))  # pool 2 now
    duo.refuse("abacus.wyrd.pool-empty", draw, "Ada", 3)
    events = duo.do(draw, "Ada", 2)
    assert duo.state.pending is not None  # still 1 short of the 4 it was rolled against
    events = duo.do(accept)
    assert duo.of(ChallengeResolved, events)[0].overcome is False


def test_absent_helper_draws_only_after_paying(duo) -> None:
    """Seed 000: a character elsewhere takes part only through the Wyrd point that
    lets them help; named at the attempt but unpaid, Cora is not involved and
    can't draw after the roll."""
    duo.faces(1)
    open_roll(duo, value=3, involved=("Cora",))
    duo.do(roll)
    duo.refuse("abacus.draw.involved", draw, "Cora", 1)
    duo.do(draw, "Ada", 2)
    assert duo.char("Cora").wyrd == 0


def test_absent_helper_who_paid_may_draw(trio) -> None:
    """Seed 000: having paid to help from elsewhere, the absent character is involved
    and may draw after a failed roll."""
    trio.do(end_scene)
    trio.do(start_scene, ["Ada", "Bram"])  # Cora elsewhere; pool 3
    trio.faces(1)
    open_roll(trio, value=4, involved=("Cora",))
    trio.do(spend, "Cora", 1)  # pool 2, Cora 1 Wyrd
    trio.do(roll)  # 1 + 1 against 4: 2 short
    trio.do(draw, "Cora", 2)
    assert trio.scene.challenges["knife"].status == ChallengeStatus.OVERCOME
    assert trio.char("Cora").wyrd == 3
