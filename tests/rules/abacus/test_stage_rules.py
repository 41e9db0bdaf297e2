"""Stage rules, clocks and counters (rules/abacus/stage.py, effects.py), written as a
story would write them: the published examples must be expressible."""

from __future__ import annotations

from wyrd.rules.abacus import (
    Ability,
    ChallengeSpec,
    ChallengeType,
    Clock,
    Counter,
    Effect,
    EffectKind,
    Lasts,
    Match,
    StageRule,
    Target,
    Threshold,
    Trigger,
    TriggerKind,
    accept,
    add_challenge,
    attempt,
    effective_value,
    end_scene,
    harm,
    install,
    place_spec,
    roll,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import (
    ChallengePlaced,
    ChallengeRolled,
    ClockAdvanced,
    CounterChanged,
    CounterFired,
    Damage,
    InfluenceRolled,
    RollOpened,
    StageRuleFired,
    WyrdDrawn,
)

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL

# -- the published examples -------------------------------------------------------------

BLOODY = StageRule(
    id="bloody", name="Bloody",
    trigger=Trigger(on=TriggerKind.DAMAGE, match=Match(type=ChallengeType.THREAT)),
    effects=[Effect(do=EffectKind.DAMAGE, target=Target.OTHER)],
)

SHUTTERS = StageRule(
    id="shutters", name="Close the Shutters",
    trigger=Trigger(on=TriggerKind.ALWAYS, match=Match(type=ChallengeType.PRESSURE)),
    effects=[Effect(do=EffectKind.ATTEMPT_COST, n=1)],
)


def fail_threat(t, lead: str = "Ada", value: int = 6, type: str = "threat") -> list:
    t.faces(1)
    t.do(add_challenge, "Cleaver", type, value)
    t.do(attempt, "cleaver", lead)
    events = t.do(roll)
    if t.state.pending is not None:
        events += t.do(accept)
    return events


def test_bloody_second_character_loses_as_many(duo) -> None:
    """RULES.md [pub] Bloody: when a failed Threat costs a character points, a second
    character loses as many."""
    duo.do(install, rules=[BLOODY])
    events = fail_threat(duo, value=6)
    assert [(d.character, d.ability, d.n) for d in duo.of(Damage, events)] == [
        ("Ada", BODY, 3), ("Bram", BODY, 3)]
    assert duo.of(StageRuleFired, events)[0].rule == "bloody"


def test_bloody_second_character_singled_out_by_wyrd(trio) -> None:
    """RULES.md [pub] Bloody, with several others present: one of them (the Wyrd
    singles out the highest) loses as many; the rule fires once, not in a chain."""
    trio.do(install, rules=[BLOODY])
    trio.state.characters["Bram"].wyrd = 1
    trio.state.characters["Cora"].wyrd = 1
    trio.faces(1, 2, 5)  # the failed roll; then Bram's Wyrd 2, Cora's 5
    trio.do(add_challenge, "Cleaver", "threat", 7)
    trio.do(attempt, "cleaver", "Ada")
    events = trio.do(roll)
    assert [(d.character, d.n) for d in trio.of(Damage, events)] == [("Ada", 4), ("Cora", 4)]
    assert [r.character for r in trio.of(InfluenceRolled, events)] == ["Bram", "Cora"]


def test_bloody_not_for_other_types(duo) -> None:
    """RULES.md [pub] Bloody is about Threat challenges only."""
    duo.do(install, rules=[BLOODY])
    events = fail_threat(duo, type="pursuit")
    assert [d.character for d in duo.of(Damage, events)] == ["Ada"]


def test_bloody_needs_points_lost(duo) -> None:
    """RULES.md [pub] Bloody fires when the failure *costs* points; ad hoc harm and
    a Threat failing with no damage don't set it off."""
    duo.do(install, rules=[BLOODY])
    duo.do(harm, "Ada", BODY, 2)
    duo.do(place_spec, ChallengeSpec(id="cleaver", name="Cleaver", type=ChallengeType.THREAT,
                                     value=6, on_fail=[]))
    duo.do(attempt, "cleaver", "Ada")
    duo.faces(1)
    events = duo.do(roll)
    assert duo.of(Damage, events) == []
    assert duo.char("Bram").points[BODY] == 7


def test_close_the_shutters_costs_one_wyrd_to_attempt(duo) -> None:
    """RULES.md [pub] Close the Shutters: a Pressure challenge costs one scene Wyrd
    point just to attempt, with no other benefit."""
    duo.do(install, rules=[SHUTTERS])
    duo.do(add_challenge, "Mob", "pressure", 5)
    events = duo.do(attempt, "mob", "Ada")
    drawn = duo.of(WyrdDrawn, events)
    assert [(d.character, d.n, d.pool_after, d.personal_after) for d in drawn] == [("Ada", 1, 2, 1)]
    duo.faces(4)
    rolled = duo.of(ChallengeRolled, duo.do(roll))[0]
    assert (rolled.total, rolled.bonus) == (4, 0)


def test_close_the_shutters_only_pressure(duo) -> None:
    """RULES.md [pub] Close the Shutters touches Pressure challenges only."""
    duo.do(install, rules=[SHUTTERS])
    duo.do(add_challenge, "Lock", "logic", 5)
    assert duo.of(WyrdDrawn, duo.do(attempt, "lock", "Ada")) == []


def test_close_the_shutters_refused_with_empty_pool(new) -> None:
    """Seed 000: the Wyrd point must be drawn from the scene pool; with none left,
    the attempt can't be made."""
    t = new("Ada", scene=["Ada"])
    t.do(install, rules=[SHUTTERS])
    t.state.scene.pool = 0  # type: ignore[union-attr]
    t.do(add_challenge, "Mob", "pressure", 5)
    t.refuse("abacus.wyrd.pool-empty", attempt, "mob", "Ada")


def devils_due() -> dict:
    return {
        "clocks": [Clock(id="devil", name="Devil's Due", faces=[6],
                         thresholds=[Threshold(at=3, effects=[
                             Effect(do=EffectKind.PLACE, challenge="fiend")])])],
        "catalogue": [ChallengeSpec(id="fiend", name="The Fiend", type=ChallengeType.THREAT,
                                    value=10)],
    }


def test_devils_due_three_sixes_over_the_story(new) -> None:
    """RULES.md [pub] Devil's Due: three 6s on Wyrd rolls over the story summon a
    fiend (a clock counting only 6s, with a threshold at 3)."""
    t = new("Ada", "Bram", scene=None, wyrd=1)
    t.do(install, **devils_due())
    t.do(start_scene, ["Ada", "Bram"])
    t.faces(6, 5)
    t.do(wyrd, ["Ada", "Bram"])  # one 6; the 5 does not count
    assert t.state.clocks["devil"].value == 1
    t.do(end_scene)
    t.faces(6, 3)
    t.do(wyrd, ["Ada", "Bram"])  # between scenes: two
    t.do(start_scene, ["Ada", "Bram"])
    assert "fiend" not in t.scene.challenges
    t.faces(2, 6)
    events = t.do(wyrd, ["Ada", "Bram"])
    assert t.of(ClockAdvanced, events) == [
        ClockAdvanced(clock="devil", value=3, change=1, thresholds=[3])]
    assert t.of(ChallengePlaced, events)[0].id == "fiend"
    assert t.scene.challenges["fiend"].value == 10
    t.faces(6, 6)
    assert t.of(ChallengePlaced, t.do(wyrd, ["Ada", "Bram"])) == []  # only once


def test_killers_count(new) -> None:
    """Seed 000: when the characters fail to stop the murderer, her Kill Count rises
    by 1; whenever a Wyrd result is at or under the count, another denizen is
    hurt, killed or turned away."""
    t = new("Ada", "Bram", scene=None)
    t.do(install, counters=[Counter(id="kills", name="Kill Count")], rules=[StageRule(
        id="killer", name="The Killer Strikes",
        trigger=Trigger(on=TriggerKind.WYRD_ROLL, at_or_under="kills"),
        effects=[Effect(do=EffectKind.MARK, text="another denizen is found dead")],
    )])
    t.do(start_scene, ["Ada", "Bram"])
    t.state.characters["Bram"].wyrd = 1
    t.faces(2)
    assert t.of(StageRuleFired, t.do(wyrd, ["Bram"])) == []  # count 0
    t.do(place_spec, ChallengeSpec(
        id="stop-her", name="Stop Her", type=ChallengeType.PURSUIT, value=9,
        on_fail=[Effect(do=EffectKind.COUNTER, counter="kills", n=1)]))
    t.do(attempt, "stop-her", "Ada")
    t.faces(1)
    events = t.do(roll)
    assert t.of(CounterChanged, events) == [CounterChanged(counter="kills", value=1, change=1)]
    t.faces(2)
    events = t.do(wyrd, ["Ada", "Bram"])  # Ada: no Wyrd, a 1; Bram: 2
    assert [(e.character, e.result) for e in t.of(CounterFired, events)] == [("Ada", 1)]
    assert [(e.rule, e.subject) for e in t.of(StageRuleFired, events)] == [("killer", "Ada")]


ORDNANCE = ChallengeSpec(id="ordnance", name="Unexploded Ordnance",
                         type=ChallengeType.LOGIC, value=4, on_fail=[])


def test_untackled_challenge_strikes_on_a_wyrd_six(new) -> None:
    """Seed 000: if the old ordnance has not been defused before a Wyrd roll shows a
    6, it goes up and scratches out a character's Body."""
    rule = StageRule(
        id="boom", name="It Goes Off", lasts=Lasts.USES, uses=1,
        trigger=Trigger(on=TriggerKind.WYRD_SIX, match=Match(challenge="ordnance", untackled=True)),
        effects=[Effect(do=EffectKind.SCRATCH, ability=BODY, target=Target.SUBJECT)],
    )
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(place_spec, ORDNANCE)
    t.do(install, rules=[rule])
    t.state.characters["Bram"].wyrd = 1
    t.faces(5)
    t.do(wyrd, ["Bram"])
    assert t.char("Bram").scratched == []
    t.faces(6)
    events = t.do(wyrd, ["Bram"])
    assert [(e.rule, e.subject) for e in t.of(StageRuleFired, events)] == [("boom", "Bram")]
    assert t.char("Bram").scratched == [BODY]
    t.faces(6)
    t.do(wyrd, ["Bram"])
    assert not t.char("Bram").defeated  # it went off once


def test_tackled_challenge_does_not_strike(new) -> None:
    """Seed 000: the danger strikes only while the challenge has *not* been dealt with."""
    rule = StageRule(
        id="boom", name="It Goes Off",
        trigger=Trigger(on=TriggerKind.WYRD_SIX, match=Match(challenge="ordnance", untackled=True)),
        effects=[Effect(do=EffectKind.SCRATCH, ability=BODY, target=Target.SUBJECT)],
    )
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(place_spec, ORDNANCE)
    t.do(install, rules=[rule])
    t.do(attempt, "ordnance", "Ada")
    t.faces(4)
    t.do(roll)
    t.state.characters["Bram"].wyrd = 1
    t.faces(6)
    assert t.of(StageRuleFired, t.do(wyrd, ["Bram"])) == []
    assert t.char("Bram").scratched == []


def test_untackled_challenge_strikes_at_scene_end(new) -> None:
    """Seed 000: leaving a challenge alone can hurt as much as failing it;
    DESIGN.md: an untackled challenge may strike when the scene ends."""
    rule = StageRule(
        id="creeps", name="The Damp Creeps In",
        trigger=Trigger(on=TriggerKind.SCENE_END, match=Match(challenge="ordnance", untackled=True)),
        effects=[Effect(do=EffectKind.DAMAGE, n=2, ability=SOUL, target=Target.PRESENT)],
    )
    t = new("Ada", "Bram", scene=None)
    t.do(start_scene, ["Ada", "Bram"], challenges=[ORDNANCE], rules=[rule])
    events = t.do(end_scene)
    assert [(d.character, d.ability, d.n) for d in t.of(Damage, events)] == [
        ("Ada", SOUL, 2), ("Bram", SOUL, 2)]


# -- the engine ---------------------------------------------------------------------------


def test_standing_modifier(duo) -> None:
    """Seed 000: stage rules can raise a challenge's value (the dark forest's
    Foreboding is higher at night)."""
    night = StageRule(id="night", name="Night", effects=[
        Effect(do=EffectKind.MODIFY, n=2, match=Match(type=ChallengeType.FOREBODING))])
    duo.do(install, rules=[night])
    events = duo.do(add_challenge, "Dark Forest", "foreboding", 4)
    assert duo.of(ChallengePlaced, events)[0].value == 6
    assert effective_value(duo.state, duo.scene.challenges["dark-forest"]) == 6
    assert duo.of(RollOpened, duo.do(attempt, "dark-forest", "Ada"))[0].value == 6


def test_modifier_never_below_zero(duo) -> None:
    """[ours, effects.effective_value] a value never drops below 0."""
    duo.do(install, rules=[StageRule(id="calm", name="Calm", effects=[
        Effect(do=EffectKind.MODIFY, n=-9)])])
    duo.do(add_challenge, "Door", "obstruction", 3)
    assert effective_value(duo.state, duo.scene.challenges["door"]) == 0


def test_free_ability_rule(duo) -> None:
    """Seed 000: a stage rule may change what a challenge lets characters spend."""
    duo.do(install, rules=[StageRule(id="brute", name="Brute Force", effects=[
        Effect(do=EffectKind.FREE_ABILITY, match=Match(type=ChallengeType.LOGIC))])])
    duo.do(add_challenge, "Lock", "logic", 6)
    duo.do(attempt, "lock", "Bram")
    assert duo.of(WyrdDrawn, duo.do(spend, "Bram", 3, BODY)) == []


def test_roll_bonus_with_uses(new) -> None:
    """Seed 000: stage rules can help a roll; [ours, stage.Lasts] a rule with uses is
    gone once used."""
    t = new("Ada", faces=[2, 2, 2], scene=["Ada"])
    t.do(install, rules=[StageRule(id="luck", name="Luck", lasts=Lasts.USES, uses=2, effects=[
        Effect(do=EffectKind.ROLL_BONUS, n=1)])])
    bonuses = []
    for name in ("A", "B", "C"):
        t.do(add_challenge, name, "wits", 2)
        t.do(attempt, name.lower(), "Ada")
        bonuses.append(t.of(ChallengeRolled, t.do(roll))[0].bonus)
    assert bonuses == [1, 1, 0]


def test_overcome_trigger_and_place(new) -> None:
    """Seed 000: overcoming a challenge can open the next (the darkness behind the
    barrow door): a rule places a challenge from the story's catalogue."""
    t = new("Ada", faces=[6], scene=None)
    t.do(install, catalogue=[ChallengeSpec(id="darkness", name="The Darkness",
                                           type=ChallengeType.FOREBODING, value=5)],
         rules=[StageRule(id="inside", name="Inside",
                          trigger=Trigger(on=TriggerKind.OVERCOME, match=Match(challenge="door")),
                          effects=[Effect(do=EffectKind.PLACE, challenge="darkness")])])
    t.do(start_scene, ["Ada"])
    t.do(add_challenge, "Door", "obstruction", 3)
    t.do(attempt, "door", "Ada")
    events = t.do(roll)
    assert t.of(ChallengePlaced, events)[0].id == "darkness"


def test_fail_can_call_a_wyrd_roll(new) -> None:
    """Seed 000: crashing a car may also bring a Wyrd roll to see who notices."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.do(place_spec, ChallengeSpec(id="crash", name="Crash", type=ChallengeType.PURSUIT,
                                   value=5, on_fail=[
                                       Effect(do=EffectKind.DAMAGE, n=2),
                                       Effect(do=EffectKind.WYRD_ROLL, target=Target.INVOLVED)]))
    t.do(attempt, "crash", "Ada", ["Bram"])
    t.faces(1)
    events = t.do(roll)
    assert [e.reason for e in t.of(InfluenceRolled, events)] == ["called by a stage rule"] * 2
    assert t.scene.wyrd_rolls == 1


def test_scene_start_trigger(new) -> None:
    """Seed 000: stage rules may set up challenges in each scene (every scene brings
    an extra Pursuit once the beast is close)."""
    t = new("Ada", scene=None)
    t.do(install, catalogue=[ChallengeSpec(id="ahead", name="Stay Ahead",
                                           type=ChallengeType.PURSUIT, value=4)],
         rules=[StageRule(id="hunted", name="Hunted",
                          trigger=Trigger(on=TriggerKind.SCENE_START),
                          effects=[Effect(do=EffectKind.PLACE, challenge="ahead")])])
    t.do(start_scene, ["Ada"])
    assert "ahead" in t.scene.challenges


def test_install_checks_names(new) -> None:
    """[ours, story.install] a story's rules name only counters, clocks and
    challenges it defines."""
    t = new("Ada")
    t.refuse("abacus.unknown.counter", install, rules=[StageRule(id="r", name="R", effects=[
        Effect(do=EffectKind.COUNTER, counter="nope")])])
    t.refuse("abacus.unknown.clock", install, rules=[StageRule(id="r", name="R", effects=[
        Effect(do=EffectKind.CLOCK, clock="nope")])])
    t.refuse("abacus.unknown.challenge", install, rules=[StageRule(id="r", name="R", effects=[
        Effect(do=EffectKind.PLACE, challenge="nope")])])


def test_clock_effect_moves_a_clock(new) -> None:
    """Seed 000: a consequence may move a countdown."""
    t = new("Ada", scene=None)
    t.do(install, clocks=[Clock(id="c", name="C")], rules=[StageRule(
        id="r", name="R", trigger=Trigger(on=TriggerKind.FAIL),
        effects=[Effect(do=EffectKind.CLOCK, clock="c", n=2)])])
    t.do(start_scene, ["Ada"])
    fail_threat(t, value=9)
    assert t.state.clocks["c"].value == 2


def test_no_consequences_between_scenes() -> None:
    """Seed 000: characters never suffer consequences between scenes, so a rule that
    harms on a Wyrd 6 fires at the finale (between scenes) but takes no points."""
    from wyrd.rules.abacus import (
        Effect,
        EffectKind,
        GameState,
        StageRule,
        Target,
        Trigger,
        TriggerKind,
        add_character,
        finale,
        install,
    )
    from wyrd.rules.dice import Dice

    dice = Dice.scripted([6])
    harmful = StageRule(id="cold", name="Cold", trigger=Trigger(on=TriggerKind.WYRD_SIX),
                        effects=[Effect(do=EffectKind.DAMAGE, n=1, ability="soul", target=Target.SUBJECT)])
    state = install(GameState(), dice, rules=[harmful]).state
    state = add_character(state, dice, "Ada", 5, 5, 5, wyrd=1).state
    outcome = finale(state, dice)
    kinds = [e.kind for e in outcome.events]  # type: ignore[attr-defined]
    assert "stage_rule_fired" in kinds and "damage" not in kinds
    assert outcome.state.characters["Ada"].points == state.characters["Ada"].points
