"""Commands saved before issue 17's fixes replay under the first reading of the rules.

Inside :func:`wyrd.rules.abacus.turn.first_reading` each rule issue 17 changed decides as it did
(so an old save resumes to the game it was); outside it, as seed 000 (000_e418bfdb0e315e34.txt)
says. The whole saves are in tests/play/test_abacus_first_reading.py; here each rule alone, both ways.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.rules.abacus.conftest import Table
from wyrd.rules.abacus import (
    Ability,
    Casting,
    ChallengeSpec,
    ChallengeType,
    Effect,
    EffectKind,
    MagicForm,
    StageRule,
    Target,
    Template,
    TemplateKind,
    add_challenge,
    attempt,
    cast,
    end_scene,
    roll,
    sabotage,
    spend,
    start_scene,
)
from wyrd.rules.abacus.events import Damage, PointsSpent, RecoveryRefused, WyrdDrawn
from wyrd.rules.abacus.stage import Trigger, TriggerKind
from wyrd.rules.abacus.turn import first_reading

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL


def old(table: Table, action: Callable[..., Any], *args: Any, **kwargs: Any) -> list[Any]:
    """``action`` as a command saved before the fixes replays it."""
    with first_reading():
        return table.do(action, *args, **kwargs)


def test_first_reading_sabotage_again_and_from_elsewhere_for_nothing(duo: Table) -> None:
    """First reading: any number of sabotages, free from elsewhere. Today: seed 000's "the 6s the
    character achieved on the influence roll" is one roll, and from elsewhere it costs a point."""
    duo.do(add_challenge, "Cipher", "logic", 5)
    duo.faces(6, 1, 1, 1, 1, 6, 1, 1, 1, 1)  # Cora's Mind 5, twice
    events = old(duo, sabotage, "Cora", "cipher", MIND) + old(duo, sabotage, "Cora", "cipher", MIND)
    assert not duo.of(WyrdDrawn, events)
    assert duo.scene.challenges["cipher"].sabotage == 2 and duo.scene.pool == 3
    duo.faces(6, 1, 1, 1, 1)
    duo.do(sabotage, "Ada", "cipher", MIND)
    duo.refuse("abacus.sabotage.once", sabotage, "Ada", "cipher", MIND)


def test_first_reading_one_point_pays_for_every_other_ability(duo: Table) -> None:
    """First reading: one Wyrd point let Ada spend any other ability. Today: seed 000 prices
    "a different ability" at a point each."""
    duo.do(add_challenge, "Lock", "logic", 9)  # Mind
    duo.do(attempt, "lock", "Ada")
    costs = [duo.of(PointsSpent, old(duo, spend, "Ada", 1, a))[0].wyrd_cost for a in (BODY, SOUL)]
    assert costs == [1, 0]
    assert duo.of(PointsSpent, duo.do(spend, "Bram", 1, BODY))[0].wyrd_cost == 1
    assert duo.of(PointsSpent, duo.do(spend, "Bram", 1, SOUL))[0].wyrd_cost == 1


def test_first_reading_failure_damage_from_the_base_value(duo: Table) -> None:
    """First reading: half the base value. Today: "about half the value of the challenge", as rolled."""
    for played in (old, Table.do):
        duo.do(add_challenge, f"Gate {played is old}", "obstruction", 9)
        gate = next(c for c in duo.scene.challenges.values() if c.status == "open")
        gate.sabotage = -4  # rolled against 5
        duo.do(attempt, gate.id, "Ada")
        duo.faces(1)
        played(duo, roll)  # type: ignore[operator]
    assert [d.n for d in duo.of(Damage)] == [5, 3]


def _charm(table: Table, played: Callable[..., Any]) -> StageRule:
    played(table, cast, MagicForm.CHARM, [Casting(character="Ada", ability=BODY, points=1)], "a candle",
           template=Template(kind=TemplateKind.CHARM, type=ChallengeType.OBSTRUCTION))
    return next(r for r in table.state.stage_rules.values() if r.name == "charm")


def test_first_reading_charm_outlasts_its_scene(duo: Table) -> None:
    """First reading: a Charm cast and unused stayed for later scenes. Today: it ends with its scene."""
    assert not _charm(duo, old).scene_only
    duo.faces(4, 4)  # the scene-end Wyrd roll
    duo.do(end_scene)
    assert [r.name for r in duo.state.stage_rules.values()] == ["charm"]
    duo.faces(4, 4)  # the scene test
    duo.do(start_scene, ["Ada", "Bram"])
    duo.state.stage_rules.clear()
    assert _charm(duo, Table.do).scene_only


def test_first_reading_servant_takes_the_count_as_it_comes(new: Callable[..., Table]) -> None:
    """First reading: a servant conjured in a later scene could take a living one's id. Today:
    a servant is "usable on challenges" until it breaks loose, so its id is its own."""
    def conjure(t: Table, played: Callable[..., Any], who: str, name: str) -> None:
        played(t, cast, MagicForm.CONJURATION, [Casting(character=who, ability=SOUL, points=2)], "a hob",
               template=Template(kind=TemplateKind.SERVANT, name=name))

    for played, kept in ((old, ["Nix"]), (Table.do, ["Hob", "Nix"])):
        t = new("Ada", "Bram", "Cora", scene=["Ada", "Bram", "Cora"])
        t.do(add_challenge, "Gate", "obstruction", 5)
        t.do(cast, MagicForm.WARD, [Casting(character="Ada", ability=SOUL, points=1)], "rowan")  # scene-long
        t.do(cast, MagicForm.SPELL, [Casting(character="Bram", ability=SOUL, points=2)], "hinge")
        conjure(t, played, "Cora", "Hob")
        t.faces(3, 3)
        t.do(end_scene)
        t.do(start_scene, ["Ada", "Bram", "Cora"])
        conjure(t, played, "Bram", "Nix")
        assert sorted(s.name for s in t.state.servants.values()) == kept
        assert t.state.conjured == ([] if played is old else sorted(t.state.servants))


def test_first_reading_places_nothing_between_scenes_nor_waits(duo: Table) -> None:
    """First reading: a closing scene's placing went into it and vanished. Today: the next scene
    begins with it (seed 000: "every scene involves an additional Pursuit challenge")."""
    spec = ChallengeSpec(id="chase", name="The Chase", type=ChallengeType.PURSUIT, value=3)
    duo.state.catalogue["chase"] = spec
    duo.state.stage_rules["close"] = StageRule(id="close", name="close", trigger=Trigger(on=TriggerKind.SCENE_END),
                                               effects=[Effect(do=EffectKind.PLACE, challenge="chase")])
    duo.faces(4, 4, 4, 4, 4, 4)
    old(duo, end_scene)
    assert duo.state.waiting == []
    old(duo, start_scene, ["Ada", "Bram"])
    assert "chase" not in duo.scene.challenges
    duo.do(end_scene)
    assert [s.id for s in duo.state.waiting] == ["chase"]
    duo.do(start_scene, ["Ada", "Bram"])
    assert "chase" in duo.scene.challenges


def test_first_reading_a_recovery_named_for_one_the_closing_roll_defeated_goes_quietly(new: Callable[..., Table],
                                                                                         ) -> None:
    """First reading: names were checked before the scene-end roll, so one it defeated simply
    recovered nothing. Today the refusal is told ([ours], README rules notes)."""
    told = []
    for played in (old, Table.do):
        t = new("Ada", "Bram", scene=["Ada", "Bram"])
        ada = t.char("Ada")
        ada.scratched.append(BODY)
        ada.points[MIND] -= 1
        t.scene.faced.append("Ada")
        t.scene.wyrd_rolls = 1
        t.state.stage_rules["fall"] = StageRule(
            id="fall", name="fall", trigger=Trigger(on=TriggerKind.SCENE_END),
            effects=[Effect(do=EffectKind.SCRATCH, ability=BODY, target=Target.PRESENT)])
        t.faces(3, 3, 3, 3)
        events = played(t, end_scene, recover={"Ada": MIND})  # type: ignore[operator]
        assert t.char("Ada").defeated
        told.append(len(t.of(RecoveryRefused, events)))
    assert told == [0, 1]
