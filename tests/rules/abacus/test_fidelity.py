"""Issue 17, rules fidelity: each outcome decided as seed 000 (000_e418bfdb0e315e34.txt) says."""

from __future__ import annotations

from wyrd.rules.abacus import (
    Ability,
    Casting,
    MagicForm,
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
from wyrd.rules.abacus.events import ChallengeModified, ChallengeRolled, WyrdDrawn

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
