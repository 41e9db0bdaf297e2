"""Magic: Ward, Charm, Spell, Conjuration (rules/abacus/magic.py)."""

from __future__ import annotations

import pytest

from wyrd.rules.abacus import (
    Ability,
    Casting,
    ChallengeType,
    MagicForm,
    Template,
    TemplateKind,
    add_challenge,
    attempt,
    cast,
    draw,
    end_scene,
    roll,
    spend,
    start_scene,
    wyrd,
)
from wyrd.rules.abacus.events import (
    ChallengePlaced,
    ChallengeRolled,
    MagicCast,
    PointsSpent,
    RollOpened,
    ServantLoose,
    StageRuleAdded,
    WyrdDrawn,
)

BODY, MIND, SOUL = Ability.BODY, Ability.MIND, Ability.SOUL
WARD, CHARM, SPELL, CONJ = MagicForm.WARD, MagicForm.CHARM, MagicForm.SPELL, MagicForm.CONJURATION
WHY = "the horseshoes over the old man's door"


def by(*shares: tuple[str, Ability, int]) -> list[Casting]:
    return [Casting(character=c, ability=a, points=p) for c, a, p in shares]


@pytest.mark.parametrize(("form", "cost"), [(WARD, 1), (CHARM, 1), (SPELL, 2), (CONJ, 2)])
def test_minimum_costs(form: MagicForm, cost: int) -> None:
    """Seed 000: each caster pays a point or more for a Ward or a Charm, two or more
    for a Spell or a Conjuration."""
    assert form.min_cost == cost


@pytest.mark.parametrize(("form", "cost"), [(WARD, 1), (CHARM, 1), (SPELL, 2), (CONJ, 2)])
def test_below_minimum_refused(duo, form: MagicForm, cost: int) -> None:
    """Seed 000: magic always costs at least its minimum from each caster."""
    duo.refuse("abacus.magic.cost", cast, form, by(("Ada", SOUL, cost - 1)), WHY)


@pytest.mark.parametrize(("form", "cost"), [(WARD, 1), (CHARM, 1), (SPELL, 2), (CONJ, 2)])
def test_cost_paid_from_any_ability(duo, form: MagicForm, cost: int) -> None:
    """Seed 000: the caster picks which ability pays, and may pay above the minimum."""
    events = duo.do(cast, form, by(("Ada", MIND, cost + 1)), WHY)
    assert duo.char("Ada").points[MIND] == 5 - cost - 1
    assert duo.of(PointsSpent, events) == [
        PointsSpent(character="Ada", ability=MIND, n=cost + 1, challenge=None,
                    points_after=4 - cost)]
    assert duo.of(MagicCast, events)[0].form == form
    assert len(duo.of(StageRuleAdded, events)) == 1


def test_each_caster_pays(duo) -> None:
    """Seed 000: the cost is paid by *each* character creating the magic."""
    duo.do(cast, SPELL, by(("Ada", SOUL, 2), ("Bram", BODY, 3)), WHY)
    assert duo.char("Ada").points[SOUL] == 3
    assert duo.char("Bram").points[BODY] == 4
    assert duo.scene.pool == 1  # each drew one


def test_cannot_pay_more_than_you_have(duo) -> None:
    """Seed 000: the cost comes from the caster's current points."""
    duo.refuse("abacus.magic.cost", cast, SPELL, by(("Bram", MIND, 5)), WHY)


def test_once_per_scene(duo) -> None:
    """Seed 000: a character attempts magic only once per scene."""
    duo.do(cast, WARD, by(("Ada", SOUL, 1)), WHY)
    duo.refuse("abacus.magic.once-per-scene", cast, CHARM, by(("Ada", SOUL, 1)), WHY)
    duo.do(cast, CHARM, by(("Bram", SOUL, 1)), WHY)  # someone else may
    duo.faces(4)  # the scene-end Wyrd roll: Bram's one die
    duo.do(end_scene)
    duo.do(start_scene, ["Ada"])
    duo.do(cast, CHARM, by(("Ada", SOUL, 1)), WHY)  # and next scene again


def test_inspiration_needed(duo) -> None:
    """Seed 000: magic needs a narrative justification from the story."""
    duo.refuse("abacus.magic.inspiration", cast, WARD, by(("Ada", SOUL, 1)), "   ")


def test_casters_needed_and_distinct(duo) -> None:
    """[ours, magic.cast] magic has at least one caster, each named once."""
    duo.refuse("abacus.magic.casters", cast, WARD, [], WHY)
    duo.refuse("abacus.magic.casters", cast, WARD, by(("Ada", SOUL, 1), ("ada", MIND, 1)), WHY)


def test_casters_present(duo) -> None:
    """[ours, magic.cast] casters take part in the scene."""
    duo.refuse("abacus.magic.present", cast, WARD, by(("Cora", SOUL, 1)), WHY)


def test_no_magic_between_scenes(new) -> None:
    """Seed 000: there is no scene pool between scenes, and magic is done in scenes."""
    new("Ada").refuse("abacus.scene.between-scenes", cast, WARD, by(("Ada", SOUL, 1)), WHY)


# -- Ward -----------------------------------------------------------------------------


def test_ward_draws_nothing_and_bans_drawing(duo) -> None:
    """Seed 000: whoever makes a Ward is cut off from the scene pool until the scene
    is over, whatever the purpose."""
    events = duo.do(cast, WARD, by(("Ada", SOUL, 1)), WHY)
    assert duo.of(WyrdDrawn, events) == []
    assert duo.scene.pool == 3
    assert duo.scene.warded == ["Ada"]
    duo.do(add_challenge, "Cipher", "logic", 3)
    duo.do(attempt, "cipher", "Ada", ["Bram"])
    duo.refuse("abacus.magic.ward-no-draw", spend, "Ada", 1, BODY)  # another ability
    duo.faces(1)
    duo.do(roll)
    duo.refuse("abacus.magic.ward-no-draw", draw, "Ada", 1)  # after the roll
    duo.do(draw, "Bram", 1)  # the others still can


def test_ward_lead_fails_at_once_with_no_drawer(new) -> None:
    """Seed 000: if the only involved character can't draw, no Wyrd can rescue the roll."""
    t = new("Ada", faces=[1], scene=["Ada"])
    t.do(cast, WARD, by(("Ada", SOUL, 1)), WHY)
    t.do(add_challenge, "Knife", "threat", 2)
    t.do(attempt, "knife", "Ada")
    t.do(roll)
    assert t.state.pending is None
    assert t.scene.challenges["knife"].status == "failed"


def test_ward_lifts_at_scene_end(duo) -> None:
    """Seed 000: the Ward's ban ends with the scene it was made in."""
    duo.do(cast, WARD, by(("Ada", SOUL, 1)), WHY)
    duo.do(end_scene)
    duo.do(start_scene, ["Ada"])
    duo.do(cast, CHARM, by(("Ada", SOUL, 1)), WHY)
    assert duo.char("Ada").wyrd == 1


# -- Charm and Spell ------------------------------------------------------------------


@pytest.mark.parametrize("form", [CHARM, SPELL])
def test_charm_and_spell_draw_one_per_caster(duo, form: MagicForm) -> None:
    """Seed 000: Charm and Spell casters must each draw one point from the scene
    pool, into their personal pool."""
    events = duo.do(cast, form, by(("Ada", SOUL, 2), ("Bram", BODY, 2)), WHY)
    assert [(d.character, d.n) for d in duo.of(WyrdDrawn, events)] == [("Ada", 1), ("Bram", 1)]
    assert duo.scene.pool == 1
    assert (duo.char("Ada").wyrd, duo.char("Bram").wyrd) == (1, 1)


@pytest.mark.parametrize("form", [CHARM, SPELL])
def test_charm_and_spell_refused_without_wyrd(new, form: MagicForm) -> None:
    """Seed 000: if the casters cannot each draw a point, they cannot do it."""
    t = new("Ada", "Bram", scene=["Ada", "Bram"])
    t.state.scene.pool = 1  # type: ignore[union-attr]
    t.refuse("abacus.magic.wyrd-required", cast, form,
             by(("Ada", SOUL, 2), ("Bram", SOUL, 2)), WHY)


def test_charm_template_next_roll_plus_two(new) -> None:
    """RULES.md [ours]: a Charm template gives +2 to the next roll of a named type."""
    t = new("Ada", faces=[3, 3], scene=["Ada"])
    template = Template(kind=TemplateKind.CHARM, type=ChallengeType.THREAT)
    t.do(cast, CHARM, by(("Ada", SOUL, 1)), WHY, template=template)
    t.do(add_challenge, "Knife", "threat", 5)
    t.do(attempt, "knife", "Ada")
    first = t.of(ChallengeRolled, t.do(roll))[0]
    assert (first.die, first.bonus, first.total, first.overcome) == (3, 2, 5, True)
    t.do(add_challenge, "Brute", "threat", 4)
    t.do(attempt, "brute", "Ada")
    second = t.of(ChallengeRolled, t.do(roll))[0]
    assert second.bonus == 0  # used up


def test_charm_template_other_type_untouched(new) -> None:
    """RULES.md [ours]: the Charm's bonus is for the named type only."""
    t = new("Ada", faces=[3], scene=["Ada"])
    t.do(cast, CHARM, by(("Ada", SOUL, 1)), WHY,
         template=Template(kind=TemplateKind.CHARM, type=ChallengeType.THREAT))
    t.do(add_challenge, "Lock", "logic", 3)
    t.do(attempt, "lock", "Ada")
    assert t.of(ChallengeRolled, t.do(roll))[0].bonus == 0


def test_spell_template_minus_three(duo) -> None:
    """RULES.md [ours]: a Spell template takes 3 off one challenge."""
    duo.do(add_challenge, "Seven Names", "invocation", 9)
    duo.do(cast, SPELL, by(("Ada", SOUL, 2)), WHY,
           template=Template(kind=TemplateKind.SPELL, challenge="seven-names"))
    opened = duo.of(RollOpened, duo.do(attempt, "seven-names", "Ada"))[0]
    assert opened.value == 6


def test_spell_template_free_ability(duo) -> None:
    """RULES.md [ours]: a Spell template may let any ability be spent on one challenge
    without paying the Wyrd point."""
    duo.do(add_challenge, "Seven Names", "invocation", 9)
    duo.do(cast, SPELL, by(("Ada", SOUL, 2)), WHY,
           template=Template(kind=TemplateKind.SPELL_ABILITY, challenge="seven-names"))
    duo.do(attempt, "seven-names", "Bram")
    events = duo.do(spend, "Bram", 5, BODY)
    assert duo.of(WyrdDrawn, events) == []
    assert duo.of(PointsSpent, events)[0].wyrd_cost == 0


def test_ward_template_minus_two(duo) -> None:
    """RULES.md [ours]: a Ward template takes 2 off a challenge type while it lasts."""
    duo.do(cast, WARD, by(("Ada", SOUL, 1)), WHY,
           template=Template(kind=TemplateKind.WARD, type=ChallengeType.TAINT))
    events = duo.do(add_challenge, "Whispers", "taint", 5)
    assert duo.of(ChallengePlaced, events)[0].value == 3
    duo.do(end_scene)
    duo.do(start_scene, ["Ada"])
    assert duo.of(ChallengePlaced, duo.do(add_challenge, "Whispers", "taint", 5))[0].value == 5


def test_template_must_fit_the_form(duo) -> None:
    """[ours, magic.cast] a template belongs to one form of magic."""
    duo.refuse("abacus.magic.template", cast, WARD, by(("Ada", SOUL, 1)), WHY,
               template=Template(kind=TemplateKind.CHARM, type=ChallengeType.THREAT))
    duo.refuse("abacus.magic.template", cast, WARD, by(("Ada", SOUL, 1)), WHY,
               template=Template(kind=TemplateKind.WARD))
    duo.refuse("abacus.magic.template", cast, CHARM, by(("Ada", SOUL, 1)), WHY,
               template=Template(kind=TemplateKind.CHARM))
    duo.refuse("abacus.magic.template", cast, SPELL, by(("Ada", SOUL, 2)), WHY,
               template=Template(kind=TemplateKind.SPELL))


# -- Conjuration ----------------------------------------------------------------------


def servant(**extra):
    return Template(kind=TemplateKind.SERVANT, name="the mycelium", **extra)


def test_conjuration_draws_if_able(duo) -> None:
    """Seed 000: Conjuration casters draw one point from the pool if they can."""
    events = duo.do(cast, CONJ, by(("Ada", SOUL, 2)), WHY, template=servant())
    assert duo.scene.pool == 2 and duo.char("Ada").wyrd == 1
    assert duo.of(MagicCast, events)[0].wyrd_bound
    assert duo.state.servants["servant-1"].loose_at == 6


def test_conjuration_without_wyrd_still_works_unbound(new) -> None:
    """Seed 000: with no Wyrd to draw the Conjuration still happens, but the Wyrd's
    bindings are weaker; RULES.md [ours]: it breaks loose on a 5 or 6."""
    t = new("Ada", scene=["Ada"])
    t.state.scene.pool = 0  # type: ignore[union-attr]
    events = t.do(cast, CONJ, by(("Ada", SOUL, 2)), WHY, template=servant())
    assert not t.of(MagicCast, events)[0].wyrd_bound
    assert t.of(WyrdDrawn, events) == []
    assert t.state.servants["servant-1"].loose_at == 5


def test_servant_pool_twice_the_points_and_usable(duo) -> None:
    """RULES.md [ours]: a conjured servant has a pool of twice the points spent,
    usable on challenges."""
    duo.do(cast, CONJ, by(("Ada", SOUL, 3)), WHY, template=servant())
    assert duo.state.servants["servant-1"].pool == 6
    duo.do(add_challenge, "Wall", "obstruction", 9)
    duo.do(attempt, "wall", "Bram")
    duo.do(spend, "servant-1", 4)
    duo.refuse("abacus.magic.servant-pool", spend, "the mycelium", 3)
    duo.faces(5)
    rolled = duo.of(ChallengeRolled, duo.do(roll))[0]
    assert rolled.points == 4 and rolled.overcome
    assert duo.state.servants["servant-1"].pool == 2


def test_bound_servant_breaks_loose_on_a_six(new) -> None:
    """RULES.md [ours]: a bound servant breaks loose on a Wyrd 6 and becomes a
    Threat equal to what is left of its pool."""
    t = new("Ada", scene=["Ada"])
    t.do(cast, CONJ, by(("Ada", SOUL, 2)), WHY, template=servant())  # Ada: 1 Wyrd
    t.faces(5)
    assert t.of(ServantLoose, t.do(wyrd, ["Ada"])) == []
    t.faces(6)
    events = t.do(wyrd, ["Ada"])
    assert t.of(ServantLoose, events) == [
        ServantLoose(servant="servant-1", challenge="servant-1", value=4)]
    assert t.state.servants == {}
    loose = t.scene.challenges["servant-1"]
    assert (loose.type, loose.value) == (ChallengeType.THREAT, 4)


def test_unbound_servant_breaks_loose_on_a_five(new) -> None:
    """RULES.md [ours]: without a Wyrd point to bind it, a 5 is enough."""
    t = new("Ada", scene=["Ada"], wyrd=1)
    t.state.scene.pool = 0  # type: ignore[union-attr]
    t.do(cast, CONJ, by(("Ada", SOUL, 2)), WHY, template=servant())
    t.faces(5)
    assert len(t.of(ServantLoose, t.do(wyrd, ["Ada"]))) == 1


def test_free_text_magic_makes_a_stage_rule(duo) -> None:
    """Seed 000: whatever its form, magic puts a fresh stage rule on the table."""
    events = duo.do(cast, SPELL, by(("Ada", SOUL, 2)), WHY, text="the fog parts")
    added = duo.of(StageRuleAdded, events)[0]
    assert duo.state.stage_rules[added.rule].text == "the fog parts"
    assert duo.of(MagicCast, events)[0].rule == added.rule
