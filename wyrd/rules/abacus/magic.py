"""Magic: Ward, Charm, Spell and Conjuration.

Seed 000: magic needs an inspiration from the story so far; a character attempts
it at most once a scene; each caster pays at least 1 point of any ability (Ward,
Charm) or 2 (Spell, Conjuration). A Ward's casters may not draw on the scene pool
for the rest of the scene; Charm and Spell casters must each draw 1 or cannot cast;
Conjuration casters draw 1 if they can, and the binding is weaker if they can't.
Every form makes a new stage rule.

[ours, RULES.md] A caster may pick a mechanical template beside the free text:
Ward, -2 to one challenge type or denizen; Charm, +2 to the next roll of one type;
Spell, -3 to one challenge or free change of ability on it; Conjuration, a servant
with a pool of twice the points spent, usable on challenges, which breaks loose on
a Wyrd 6 (5 or 6 if no Wyrd was drawn) and becomes a Threat of what it has left.
"""

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, Field

from wyrd.rules.abacus.enums import Ability, ChallengeType, MagicForm, WyrdDraw
from wyrd.rules.abacus.errors import MagicError, NotEnoughPoints, NotEnoughWyrd
from wyrd.rules.abacus.events import MagicCast, PointsSpent
from wyrd.rules.abacus.reasons import DrawReason
from wyrd.rules.abacus.scenes import add_rule
from wyrd.rules.abacus.stage import Effect, EffectKind, Lasts, Match, StageRule
from wyrd.rules.abacus.standing import magic_limit
from wyrd.rules.abacus.state import Servant
from wyrd.rules.abacus.turn import Turn, action

__all__ = ["Casting", "Template", "TemplateKind", "cast"]


class TemplateKind(StrEnum):
    WARD = "ward"  # -2 to a challenge type or a denizen
    CHARM = "charm"  # +2 to the next roll of a challenge type
    SPELL = "spell"  # -3 to one challenge
    SPELL_ABILITY = "spell_ability"  # any ability may be spent on one challenge
    SERVANT = "servant"  # a conjured servant


_FORM_OF: dict[TemplateKind, MagicForm] = {
    TemplateKind.WARD: MagicForm.WARD,
    TemplateKind.CHARM: MagicForm.CHARM,
    TemplateKind.SPELL: MagicForm.SPELL,
    TemplateKind.SPELL_ABILITY: MagicForm.SPELL,
    TemplateKind.SERVANT: MagicForm.CONJURATION,
}


class Template(BaseModel):
    kind: TemplateKind
    type: ChallengeType | None = None
    denizen: str | None = None
    challenge: str | None = None
    name: str = ""  # a servant's name


class Casting(BaseModel):
    """One caster's share: the points they pay, and from which ability."""

    character: str
    ability: Ability
    points: int = Field(ge=0)


def _template_rule(ident: str, form: MagicForm, template: Template, text: str, casters: list[str],
                   legacy: bool = False) -> StageRule:
    source = "+".join(casters)
    kind = template.kind
    if kind == TemplateKind.WARD:
        if template.type is None and template.denizen is None:
            raise MagicError("a Ward template names a challenge type or a denizen", rule="abacus.magic.template")
        match = Match(type=template.type, denizen=template.denizen)
        effect = Effect(do=EffectKind.MODIFY, n=-2, match=match)
        return StageRule(id=ident, name="ward", text=text, effects=[effect], lasts=Lasts.SCENE, source=source)
    if kind == TemplateKind.CHARM:
        if template.type is None:
            raise MagicError("a Charm template names a challenge type", rule="abacus.magic.template")
        effect = Effect(do=EffectKind.ROLL_BONUS, n=2, match=Match(type=template.type))
        return StageRule(id=ident, name="charm", text=text, effects=[effect], lasts=Lasts.USES, uses=1, source=source,
                         scene_only=not legacy)
    if template.challenge is None:
        raise MagicError("a Spell template names one challenge", rule="abacus.magic.template")
    do = EffectKind.MODIFY if kind == TemplateKind.SPELL else EffectKind.FREE_ABILITY
    effect = Effect(do=do, n=-3 if do == EffectKind.MODIFY else None, match=Match(challenge=template.challenge))
    return StageRule(id=ident, name="spell", text=text, effects=[effect], lasts=Lasts.SCENE, source=source)


@action
def cast(
    turn: Turn, form: MagicForm, castings: Sequence[Casting], inspiration: str, *,
    template: Template | None = None, text: str = "",
) -> None:
    """Work magic of ``form`` with every caster paying their share."""
    turn.not_ended()
    scene = turn.in_scene()
    form = MagicForm(form)
    if not inspiration.strip():
        raise MagicError("magic needs an inspiration from the story so far", rule="abacus.magic.inspiration")
    if not castings:
        raise MagicError("magic needs at least one caster", rule="abacus.magic.casters")
    if template is not None and _FORM_OF[template.kind] != form:
        raise MagicError(f"a {template.kind.value} template is not a {form.value}", rule="abacus.magic.template")
    casters: list[str] = []
    for casting in castings:
        char = turn.active(casting.character)
        if char.name in casters:
            raise MagicError(f"{char.name} is named twice", rule="abacus.magic.casters")
        if char.name not in scene.present:
            raise MagicError(f"{char.name} is not in this scene", rule="abacus.magic.present")
        limit = magic_limit(turn.state)
        if limit is not None and scene.cast_magic.count(char.name) >= limit:
            times = "" if limit == 1 else f" {limit} times"
            raise MagicError(f"{char.name} has already worked magic{times} this scene",
                             rule="abacus.magic.once-per-scene")
        if casting.points < form.min_cost:
            raise MagicError(
                f"a {form.value.title()} costs each caster at least {form.min_cost}; "
                f"{char.name} offers {casting.points}",
                rule="abacus.magic.cost",
            )
        if char.points[casting.ability] < casting.points:
            raise NotEnoughPoints(
                f"{char.name} has {char.points[casting.ability]} {casting.ability.value.title()} left "
                f"and can't pay {casting.points}",
                rule="abacus.magic.cost",
            )
        casters.append(char.name)
    bound = True
    if form.wyrd == WyrdDraw.REQUIRED:
        blocked = [n for n in casters if n in scene.warded]
        if blocked or scene.pool < len(casters):
            raise NotEnoughWyrd(
                f"a {form.value.title()} needs 1 scene Wyrd from each caster and it can't be drawn",
                rule="abacus.magic.wyrd-required",
            )
    for casting, name in zip(castings, casters, strict=True):
        char = turn.state.characters[name]
        char.points[casting.ability] -= casting.points
        turn.emit(PointsSpent(character=name, ability=casting.ability, n=casting.points, challenge=None,
                              points_after=char.points[casting.ability]))
        scene.cast_magic.append(name)
        if form.wyrd == WyrdDraw.REQUIRED:
            turn.draw(name, 1, DrawReason.WORK.said(f"a {form.value}"))
        elif form.wyrd == WyrdDraw.IF_ABLE:
            if turn.can_draw(name):
                turn.draw(name, 1, DrawReason.BIND.said(f"a {form.value}"))
            else:
                bound = False
        elif name not in scene.warded:
            scene.warded.append(name)
    number = sum(1 for r in turn.state.stage_rules if r.startswith("magic-")) + len(turn.state.servants) + 1
    ident = f"magic-{form.value}-{number}"
    if template is not None and template.kind == TemplateKind.SERVANT:
        spent = sum(c.points for c in castings)
        # Scene-long rules are gone at scene end, so the count alone could repeat a living servant's id.
        # (The first reading took the count as it came, and kept no list.)
        while not turn.legacy and (f"servant-{number}" in turn.state.servants
                                   or f"servant-{number}" in turn.state.conjured):
            number += 1
        servant = Servant(id=f"servant-{number}", name=template.name or f"servant {number}", pool=2 * spent,
                          casters=casters, loose_at=6 if bound else 5)
        turn.state.servants[servant.id] = servant
        if not turn.legacy:
            turn.state.conjured.append(servant.id)
        rule = StageRule(id=ident, name="conjuration", text=text or servant.name, source="+".join(casters))
    elif template is not None:
        # (the first reading kept a Charm's +2 past its scene)
        rule = _template_rule(ident, form, template, text, casters, legacy=turn.legacy)
    else:
        rule = StageRule(id=ident, name=form.value, text=text, lasts=Lasts.SCENE, source="+".join(casters),
                         effects=[Effect(do=EffectKind.MARK, text=text)])
    placed = add_rule(turn, rule)
    turn.emit(MagicCast(form=form, casters=casters, inspiration=inspiration.strip(), rule=placed, wyrd_bound=bound))
