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
    spend,
    start_scene,
)
from wyrd.rules.abacus.events import ChallengeRolled

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
