"""Fights (rules/wolden/fight.py): enemies, harm both ways, rounds, the end of a fight."""

from __future__ import annotations

from wyrd.rules.wolden import (
    HARM_DEALT,
    Ability,
    DamageDice,
    EncounterKind,
    EncounterOutcome,
    Enemy,
    Result,
    attempt,
    check,
    end_fight,
    pass_turn,
    start_fight,
)
from wyrd.rules.wolden.events import (
    EnemyHarmed,
    FightEnded,
    FightStarted,
    HarmTaken,
    RoundStarted,
    Struck,
    WoundTaken,
)

MIGHT, AGILITY, MIND, GRACES = Ability.MIGHT, Ability.AGILITY, Ability.MIND, Ability.GRACES

WOLF = Enemy(id="wolf", name="Grey Wolf", harm=2)
RAT = Enemy(id="rat", name="Rat", harm=1, damage=DamageDice(count=1, sides=2, bonus=0))


def fight(t, *enemies: Enemy, **kwargs):
    t.do(start_fight, list(enemies) or [WOLF], **kwargs)
    return t


def test_basic_damage_is_1d4_plus_1() -> None:
    """Seed 001: an ordinary enemy deals 1d4+1 (at most 5)."""
    assert WOLF.damage == DamageDice(count=1, sides=4, bonus=1)
    assert (WOLF.damage.notation, WOLF.damage.maximum) == ("1d4+1", 5)


def test_harm_dealt_by_result() -> None:
    """RULES.md [ours]: a success deals an enemy 1 harm, a critical 2, a partial 1."""
    assert HARM_DEALT == {Result.CRITICAL_FAILURE: 0, Result.FAILURE: 0, Result.PARTIAL: 1, Result.SUCCESS: 1,
                          Result.CRITICAL_SUCCESS: 2}


def test_start(duo) -> None:
    events = fight(duo).events
    assert events[-2:] == [
        FightStarted(id="fight", name="fight", enemies=["wolf"], participants=["Ada", "Bram"]),
        RoundStarted(encounter="fight", type=EncounterKind.FIGHT, number=1, participants=["Ada", "Bram"]),
    ]


def test_success_harms_the_enemy_only(duo) -> None:
    """Seed 001: on a success the enemy gets nothing this round; RULES.md: it takes 1 harm."""
    fight(duo).faces(11)
    events = duo.do(check, "Ada", MIGHT, against="wolf")
    assert duo.of(EnemyHarmed, events) == [EnemyHarmed(enemy="wolf", n=1, taken=1, harm=2, defeated=False)]
    assert duo.of(Struck, events) == []


def test_critical_success_deals_two_and_wins(duo) -> None:
    """RULES.md [ours]: a critical success deals 2; a fight is won when every enemy is beaten."""
    fight(duo).faces(10, 10)
    events = duo.do(check, "Ada", MIGHT, advantage=True, against="Grey Wolf")
    assert duo.of(EnemyHarmed, events)[0].defeated
    assert duo.of(FightEnded, events) == [FightEnded(id="fight", outcome=EncounterOutcome.WON, rounds=1)]
    assert duo.state.encounter is None


def test_partial_hits_both_ways(duo) -> None:
    """Seed 001: on a partial in a fight, both sides land a blow."""
    fight(duo).faces(6, 3)  # 6 + 3 = 9: a partial; then the wolf's d4 shows 3: 4 damage
    events = duo.do(check, "Ada", MIGHT, against="wolf")
    assert duo.of(EnemyHarmed, events)[0].n == 1
    assert duo.of(Struck, events) == [Struck(source="wolf", character="Ada", dice="1d4+1", faces=[3], n=4,
                                             maximum=False)]
    assert duo.of(HarmTaken, events) == [HarmTaken(character="Ada", ability=MIGHT, n=4, ability_after=0, past=1,
                                                   source="wolf")]
    assert duo.of(WoundTaken, events)[0].wounds == 1


def test_failure_the_enemy_hits(duo) -> None:
    """Seed 001: a failing total in a fight lets the enemy land its blow."""
    fight(duo).faces(2, 1)
    events = duo.do(check, "Ada", MIGHT, against="wolf")
    assert duo.of(EnemyHarmed, events) == []
    assert duo.of(Struck, events)[0].n == 2
    assert duo.char("Ada").current(MIGHT) == 1


def test_critical_failure_maximum_damage(duo) -> None:
    """Seed 001: on a critical failure in a fight the enemy hits as hard as it can (no die rolled)."""
    fight(duo).faces(1, 1)
    events = duo.do(check, "Ada", GRACES, advantage=True, against="wolf")
    assert duo.of(Struck, events) == [Struck(source="wolf", character="Ada", dice="1d4+1", faces=[], n=5,
                                             maximum=True)]
    assert duo.faces_left == 0


def test_helpers_share_the_blows(duo) -> None:
    """Seed 001: helpers share what a failure or a partial costs the lead;
    [ours] with a damage roll each, to the ability rolled."""
    fight(duo).faces(3, 2, 1, 4)  # pool 3, 2 (Ada Might 3: 6, a failure); d4s 1 and 4
    events = duo.do(check, "Ada", MIGHT, helpers=["Bram"], against="wolf")
    assert [(s.character, s.n) for s in duo.of(Struck, events)] == [("Ada", 2), ("Bram", 5)]
    bram = duo.of(HarmTaken, events)[1]
    assert (bram.ability, bram.past) == (MIGHT, 5)  # Bram's Might is 0: every point is a wound


def test_partial_blow_lands_even_when_the_hit_wins(duo) -> None:
    """[ours] The partial's two hits are simultaneous."""
    fight(duo, RAT).faces(5, 2)
    events = duo.do(check, "Ada", MIGHT, against="rat")
    assert [e.kind for e in events][-3:] == ["struck", "harm_taken", "fight_ended"]


def test_not_an_attack(duo) -> None:
    """[ours] A roll against an enemy that is not an attack deals it no harm, but still risks its blows."""
    fight(duo).faces(12)
    assert duo.of(EnemyHarmed, duo.do(check, "Ada", AGILITY, against="wolf", attack=False)) == []
    duo.faces(5, 1)
    events = duo.do(check, "Bram", AGILITY, against="wolf", attack=False)
    assert duo.of(EnemyHarmed, events) == [] and duo.of(Struck, events)


def test_every_roll_names_an_enemy(new) -> None:
    """[ours] In a fight, a participant's roll is made against one enemy; others may roll plainly."""
    t = new("Ada", "Bram", "Cora")
    fight(t, participants=["Ada", "Bram"])
    t.refuse("wolden.fight.name-an-enemy", attempt, "Ada", MIGHT)
    t.refuse("wolden.unknown.enemy", attempt, "Ada", MIGHT, against="bear")
    t.faces(4)
    assert [e.kind for e in t.do(check, "Cora", MIND)] == ["check_opened", "check_rolled"]


def test_beaten_enemy_cannot_be_rolled_against(duo) -> None:
    fight(duo, RAT, WOLF).faces(12)
    duo.do(check, "Ada", MIGHT, against="rat")
    duo.refuse("wolden.fight.enemy-beaten", attempt, "Bram", MIGHT, against="rat")


def test_rounds(duo) -> None:
    """Seed 001: a fight's round closes when all the players have acted."""
    fight(duo).faces(8, 3)
    duo.do(check, "Ada", MIGHT, against="wolf")  # partial: the wolf bites for 4
    duo.refuse("wolden.round.acted", attempt, "Ada", MIGHT, against="wolf")
    events = duo.do(pass_turn, "Bram")
    assert duo.of(RoundStarted, events)[0].number == 2


def test_withdraw(duo) -> None:
    """Seed 001: between rounds the fighters decide whether to go on; they may leave."""
    duo.refuse("wolden.fight.none", end_fight)
    fight(duo)
    assert duo.do(end_fight) == [FightEnded(id="fight", outcome=EncounterOutcome.WITHDREW, rounds=1)]


def test_everyone_out_loses(duo) -> None:
    """[ours] A fight with every participant out is lost."""
    ogre = Enemy(id="ogre", name="Ogre", harm=5, damage=DamageDice(count=1, sides=4, bonus=10))
    fight(duo, ogre).faces(2, 1, 1, 1)
    events = duo.do(check, "Ada", MIGHT, helpers=["Bram"], against="ogre")
    assert duo.of(FightEnded, events)[0].outcome == EncounterOutcome.LOST
    assert duo.char("Ada").out and duo.char("Bram").out


def test_start_refusals(duo) -> None:
    duo.refuse("wolden.fight.enemies", start_fight, [])
    duo.refuse("wolden.fight.enemies", start_fight, [WOLF, WOLF])
    duo.refuse("wolden.fight.enemies", start_fight, [WOLF.model_copy(update={"taken": 2})])
    duo.refuse("wolden.unknown.character", start_fight, [WOLF], participants=["Zed"])


def test_caller_enemies_are_copied(duo) -> None:
    """The enemies passed in are not changed by the fight."""
    wolf = WOLF.model_copy(deep=True)
    fight(duo, wolf).faces(11)
    duo.do(check, "Ada", MIGHT, against="wolf")
    assert wolf.taken == 0


# Seed 001 (001_0ed33d63b95f167b.txt): "The GM describes what it looks like the enemy is about to do, and then
# all players describe their actions. ... it is taken as granted that they're at the same time trying to avoid
# any attacks on them." Passing makes no such attempt: what the enemy was about to do to them happens.


def test_passing_in_a_fight_takes_the_blow_of_the_enemy_going_for_you(duo) -> None:
    """[ours] Each enemy going for the one who passes strikes as on a failed roll, against Agility."""
    fight(duo)
    duo.faces(3)  # 1d4+1: 4
    events = duo.do(pass_turn, "Ada", exposed_to=["wolf"])
    assert events[1] == Struck(source="wolf", character="Ada", dice="1d4+1", faces=[3], n=4, maximum=False)
    assert events[2] == HarmTaken(character="Ada", ability=AGILITY, n=4, ability_after=0, past=2, source="wolf")
    assert duo.of(WoundTaken, events)[0].n == 2


def test_passing_when_no_enemy_goes_for_you_costs_nothing(duo) -> None:
    fight(duo)
    events = duo.do(pass_turn, "Ada")
    assert [e.kind for e in events] == ["turn_passed"]
    assert duo.faces_left == 0


def test_a_beaten_enemy_strikes_nobody(duo) -> None:
    fight(duo, RAT, WOLF)
    duo.faces(12)
    duo.do(check, "Bram", AGILITY, against="rat")  # 12 + 3 = 15: the rat is beaten
    events = duo.do(pass_turn, "Ada", exposed_to=["rat"])
    assert not duo.of(Struck, events)
