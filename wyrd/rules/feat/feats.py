"""Feats: the d100 step-up, the three d8 on the Feat table, and the actions built on them.

Seed 003, in order:

1. A skill feat starts with a d100; at or above the skill's modifier, the skill
   works one level higher for this feat (:func:`step_up`).
2. The character's level (that stepped-up skill, or an attribute as it is) is
   taken from the Difficulty to give the Feat level, clamped to -8..+8 (RULES.md).
3. Three d8 are read on the Feat table (:mod:`wyrd.rules.feat.table`); Wyrd points may
   buy automatic 8s first (:func:`roll_feat`).

An opposed feat takes its difficulty from the other character: both roll the
d100, and the opponent's effective level (plus anything the circumstances add)
is the difficulty. An opponent untrained in the matter is read through the
rank-0 row of the attribute that resists it (the seed's victim resists a
cut-purse with Wit 5, which reads 1/99).

Actions: :func:`add_character`, :func:`feat` (a Feat level set directly),
:func:`skill_feat`, :func:`attribute_feat`, :func:`opposed`, :func:`award`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from wyrd.rules.feat.characters import Character, Skill, create_character, skill_key
from wyrd.rules.feat.enums import Attribute, Edge, Tier
from wyrd.rules.feat.errors import CreationError, FeatError, UnknownName
from wyrd.rules.feat.events import CharacterCreated, FeatRolled, OpposedDecided, StepUpRolled, WyrdAwarded
from wyrd.rules.feat.skills import STEP_UP_SIDES, SkillRating, steps_up
from wyrd.rules.feat.table import DICE_ROLLED, FEAT_MAX, FEAT_MIN, SIDES, FeatRead, clamp_level, read_feat
from wyrd.rules.feat.turn import Turn, action

__all__ = [
    "add_character",
    "attribute_feat",
    "attribute_roll",
    "award",
    "check_difficulty",
    "feat",
    "opposed",
    "opposed_traits",
    "roll_feat",
    "skill_feat",
    "step_up",
]


def check_difficulty(difficulty: int) -> None:
    """A Difficulty is 0 or more (the seed's guide runs from 2, routine, upwards)."""
    if difficulty < 0:
        raise FeatError(f"a Difficulty can't be negative (got {difficulty})", rule="feat.difficulty.range")


def step_up(turn: Turn, who: str, trait: str, rating: SkillRating) -> int:
    """Roll the d100 for ``who``'s ``trait``; the level for this feat, stepped up or not."""
    d100 = turn.dice.roll(1, STEP_UP_SIDES, f"step-up: {who}, {trait}").faces[0]
    stepped = steps_up(rating.modifier, d100)
    effective = rating.level + (1 if stepped else 0)
    turn.emit(
        StepUpRolled(
            character=who, trait=trait, level=rating.level, modifier=rating.modifier,
            d100=d100, stepped=stepped, effective=effective,
        )
    )
    return effective


def roll_feat(
    turn: Turn,
    who: str,
    trait: str,
    raw_level: int,
    *,
    difficulty: int | None = None,
    effective: int | None = None,
    eights: int = 0,
    reason: str = "",
) -> FeatRead:
    """Roll 3d8 for ``who`` at ``raw_level`` (clamped), buying up to ``eights`` 8s first.

    Callers check the Wyrd (:meth:`Turn.check_wyrd`) before rolling anything; only
    the 8s the level can use are paid for.
    """
    char = turn.alive(who)
    level = clamp_level(raw_level)
    faces = turn.dice.roll(DICE_ROLLED, SIDES, f"feat: {char.name}, {trait or 'level ' + str(level)}").faces
    read = read_feat(level, faces, eights)
    char.wyrd -= read.wyrd_spent
    turn.emit(
        FeatRolled(
            character=char.name, trait=trait, difficulty=difficulty, effective=effective,
            raw_level=raw_level, level=level, dice=list(read.dice), read=list(read.read),
            minimums=list(read.minimums), needs=read.needs, bought=list(read.bought),
            wyrd_spent=read.wyrd_spent, wyrd_after=char.wyrd, success=read.success, reason=reason,
        )
    )
    return read


@action
def add_character(
    turn: Turn,
    name: str,
    attributes: Mapping[Attribute, int],
    *,
    skills: Mapping[str, Skill] | None = None,
    tier: Tier | None = Tier.NOVICE,
    wyrd: int | None = None,
    concept: str = "",
    edges: Sequence[Edge] = (),
) -> None:
    """A new character joins (see :func:`wyrd.rules.feat.characters.create_character`)."""
    char = create_character(name, attributes, skills=skills, tier=tier, wyrd=wyrd, concept=concept, edges=edges)
    if any(key.casefold() == char.name.casefold() for key in turn.state.characters):
        raise CreationError(f"there is already a character called {char.name}", rule="feat.character.taken")
    turn.state.characters[char.name] = char
    turn.emit(
        CharacterCreated(
            name=char.name, tier=char.tier, attributes=dict(char.attributes), skills=dict(char.skills),
            wyrd=char.wyrd, concept=char.concept, edges=list(char.edges),
        )
    )


@action
def feat(turn: Turn, name: str, level: int, *, eights: int = 0, trait: str = "", reason: str = "") -> None:
    """A feat at a Feat level worked out at the table (-8 to +8), straight to the dice."""
    char = turn.able(name)
    if not FEAT_MIN <= level <= FEAT_MAX:
        raise FeatError(
            f"a Feat level runs from {FEAT_MIN} to +{FEAT_MAX}, not {level}", rule="feat.level.range"
        )
    turn.check_wyrd(char, eights, [level])
    roll_feat(turn, char.name, trait, level, eights=eights, reason=reason)


@action
def skill_feat(
    turn: Turn,
    name: str,
    skill: str,
    difficulty: int,
    *,
    attribute: Attribute | None = None,
    eights: int = 0,
    reason: str = "",
) -> None:
    """A skill against a Difficulty: the d100 step-up, then the Feat table.

    ``skill`` may name a skill the character lacks if ``attribute`` says what to use
    instead: it is read through the rank-0 row (an inherent skill with no training).
    An attribute named instead of a skill is used as it is, with no d100, exactly as
    :func:`attribute_feat` (seed 003: "The Attribute or Skill is deducted from the
    Difficulty"), so a feat of Wit has one reading whichever way it is asked for.
    """
    char = turn.able(name)
    check_difficulty(difficulty)
    named = Attribute.lookup(skill)
    # The first reading (commands saved before it changed) took the attribute through the rank-0 row.
    if named is not None and char.skill(skill) is None and not turn.legacy:
        if attribute is not None:
            raise FeatError(
                f"{named.value} is an attribute, used as it is; `with` names the attribute behind a skill "
                f"{char.name} lacks",
                rule="feat.skill.attribute-with",
            )
        attribute_roll(turn, char.name, named, difficulty, eights=eights, reason=reason)
        return
    label, rating = turn.rating(char, skill, attribute)
    turn.fresh(char, _drawn_on(char, skill, attribute))
    turn.check_wyrd(char, eights, [difficulty - rating.level, difficulty - rating.level - 1])
    effective = step_up(turn, char.name, label, rating)
    roll_feat(
        turn, char.name, label, difficulty - effective, difficulty=difficulty, effective=effective,
        eights=eights, reason=reason,
    )


def attribute_roll(
    turn: Turn, name: str, attribute: Attribute, difficulty: int, *, eights: int, reason: str, able: bool = True
) -> FeatRead:
    """An attribute feat: the attribute as it is (no d100) taken from the Difficulty."""
    char = turn.able(name) if able else turn.alive(name)
    if able:
        turn.fresh(char, attribute)
    check_difficulty(difficulty)
    value = char.attribute(attribute)
    turn.check_wyrd(char, eights, [difficulty - value])
    return roll_feat(
        turn, char.name, attribute.value, difficulty - value, difficulty=difficulty, effective=value,
        eights=eights, reason=reason,
    )


@action
def attribute_feat(
    turn: Turn, name: str, attribute: Attribute, difficulty: int, *, eights: int = 0, reason: str = ""
) -> None:
    """Seed 003: an attribute deducted from the Difficulty (picking a lock with Wit, say)."""
    attribute_roll(turn, name, Attribute(attribute), difficulty, eights=eights, reason=reason)


def _drawn_on(char: Character, trait: str, attribute: Attribute | None) -> Attribute | None:
    """The attribute a trait draws on: the attribute itself, the one behind a skill, or the stand-in."""
    trained = char.skill(trait)
    if trained is not None:
        return trained.attribute
    return Attribute.lookup(trait) or attribute


def _behind(doer: Character, resist: str, skill: str, attribute: Attribute | None) -> Attribute | None:
    """The attribute an opponent untrained in ``resist`` resists with: the one behind the doer's skill."""
    trained = doer.skill(resist)
    if trained is not None:
        return trained.attribute
    return attribute if skill_key(resist) == skill_key(skill) else None


def opposed_traits(
    turn: Turn, doer: Character, resister: Character, skill: str, opposing: str | None, attribute: Attribute | None
) -> tuple[str, SkillRating, str, SkillRating]:
    """The two sides of an opposed feat as level/modifier, with their labels (the odds shown read these too)."""
    label, rating = turn.rating(doer, skill, attribute)
    resist = opposing if opposing is not None else skill
    behind = _behind(doer, resist, skill, attribute)
    if behind is None and resister.skill(resist) is None and Attribute.lookup(resist) is None:
        raise UnknownName(
            f"{resister.name} has no training in {skill_key(resist)!r}; name what they resist with: vs ATTRIBUTE",
            rule="feat.skill.untrained",
        )
    opposing_label, opposing_rating = turn.rating(resister, resist, behind)
    return label, rating, opposing_label, opposing_rating


@action
def opposed(
    turn: Turn,
    active: str,
    opponent: str,
    skill: str,
    *,
    opposing: str | None = None,
    attribute: Attribute | None = None,
    extra: int = 0,
    eights: int = 0,
    reason: str = "",
) -> None:
    """``active`` tries ``skill`` against ``opponent``, who resists with ``opposing``.

    Both roll the d100; the difficulty is the opponent's effective level plus
    ``extra`` (what the circumstances add). ``opposing`` is a skill or an attribute
    of the opponent (by default the same skill); an attribute, or a skill the
    opponent lacks, is read through the rank-0 row (seed 003: "Where the opposing
    character does not have skill in the area being tested the difficulty may be
    arrived at from a relevant Attribute"). [ours] The relevant attribute of an
    opponent who lacks the skill is the one behind the active character's skill
    (or ``attribute``, for an active character untrained too); ``opposing`` names
    another. ``attribute`` stands in for an active character untrained in ``skill``.
    """
    doer = turn.able(active)
    _, resister = turn.two(doer.name, opponent)
    label, rating, opposing_label, opposing_rating = opposed_traits(turn, doer, resister, skill, opposing, attribute)
    turn.fresh(doer, _drawn_on(doer, skill, attribute))
    difficulty_plain = opposing_rating.level + extra
    turn.check_wyrd(
        doer, eights,
        [difficulty_plain + up - rating.level - mine_up for up in (0, 1) for mine_up in (0, 1)],
    )
    mine = step_up(turn, doer.name, label, rating)
    theirs = step_up(turn, resister.name, opposing_label, opposing_rating)
    difficulty = theirs + extra
    read = roll_feat(
        turn, doer.name, label, difficulty - mine, difficulty=difficulty, effective=mine,
        eights=eights, reason=reason or f"against {resister.name}",
    )
    turn.emit(
        OpposedDecided(
            active=doer.name, opponent=resister.name, trait=label, opposing_trait=opposing_label,
            active_level=mine, opposing_level=theirs, extra=extra, level=read.level,
            success=read.success, winner=doer.name if read.success else resister.name,
        )
    )


@action
def award(turn: Turn, name: str, n: int, reason: str = "") -> None:
    """Wyrd points for good play (seed 003: a player who out-thinks their character's Wit)."""
    char = turn.alive(name)
    if n <= 0:
        raise FeatError(f"an award is at least 1 Wyrd point, not {n}", rule="feat.wyrd.award-positive")
    char.wyrd += n
    turn.emit(WyrdAwarded(character=char.name, n=n, wyrd_after=char.wyrd, reason=reason))
