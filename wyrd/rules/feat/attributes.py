"""The attribute feats seed 003 describes, and what Mettle means for life and death.

* **Shock** (Mettle): the pain and shock of a serious injury are resisted by a
  Mettle feat at Difficulty 8; on a failure the character is unable to act
  (:func:`shock`) until the players decide they recover (:func:`recover`) or a
  later shock test is held; on a success they act on.
* **Survival** (Mettle): surviving a serious injury, an illness or a poison is a
  Mettle feat at a Difficulty set by its severity; a failure kills (:func:`survive`).
* **Losing Mettle**: injury and sickness may lower Mettle; at 0 the character
  dies (:func:`wound`).
* **Searching** (Wit): Difficulty - Wit, the Difficulty being how well the thing
  is hidden; one roll per search unless circumstances change (:func:`search`).
* **Reactions** (Glamour): a desired reaction gets a Difficulty, and the Glamour
  feat decides whether the response is warmer or colder than expected
  (:func:`reaction`).
* **Who acts first** (Vigour): in order of Vigour (:func:`initiative`); when it
  matters between two, the acting character B rolls at Vigour A - Vigour B
  (:func:`first_to_act`).
* **Races** (Vigour): Vigour against Vigour over short distances, Vigour + Mettle
  against Vigour + Mettle over long ones (:func:`race`).
* **Edges**: an Edge of speed, activated, ensures its holder acts first
  (:func:`initiative`, :func:`first_to_act`).
* **Fatigue** (Mettle): overcoming fatigue, or a heavy load pushed on, is a Mettle
  feat at a Difficulty from the circumstances; a failure leaves the character
  exhausted, doing no physical feat until they rest (:func:`fatigue`, :func:`rest`).

Attribute feats use the attribute as it is, with no d100 step-up: only skills
carry a modifier. Every roll may buy 8s with Wyrd points, as any feat may.
"""

from __future__ import annotations

from collections.abc import Sequence

from wyrd.rules.feat.characters import Character, skill_key
from wyrd.rules.feat.enums import Attribute, Edge
from wyrd.rules.feat.errors import FeatError, NotAble
from wyrd.rules.feat.events import (
    CharacterKilled,
    CharacterRecovered,
    EdgeActivated,
    FatigueTested,
    InitiativeDecided,
    MettleLost,
    RaceDecided,
    ReactionTested,
    Rested,
    SearchMade,
    ShockTested,
    SurvivalTested,
)
from wyrd.rules.feat.feats import attribute_roll, roll_feat
from wyrd.rules.feat.turn import Turn, action

__all__ = [
    "SHOCK_DIFFICULTY",
    "fatigue",
    "first_to_act",
    "initiative",
    "kill",
    "race",
    "reaction",
    "recover",
    "rest",
    "search",
    "shock",
    "survive",
    "wound",
]

SHOCK_DIFFICULTY = 8
"""Seed 003: the Difficulty of resisting the shock of an injury."""


def kill(turn: Turn, name: str, cause: str) -> None:
    """``name`` dies (no more feats; nothing else changes on the sheet)."""
    char = turn.character(name)
    if char.dead:
        return
    char.dead = True
    char.out_of_action = False
    turn.emit(CharacterKilled(character=char.name, cause=cause))


@action
def shock(turn: Turn, name: str, difficulty: int = SHOCK_DIFFICULTY, *, eights: int = 0) -> None:
    """A Mettle feat against shock; a failure leaves the character out of action, a success able to act."""
    read = attribute_roll(turn, name, Attribute.METTLE, difficulty, eights=eights, reason="shock", able=False)
    char = turn.character(name)
    # Seed 003: "If the roll is successful the character continues as the player or GM wishes":
    # a shock held leaves them able to act, even if an earlier one had taken them out.
    # The first reading (commands saved before it changed) left a character already out of action out.
    char.out_of_action = not read.success or (turn.legacy and char.out_of_action)
    turn.emit(
        ShockTested(character=char.name, difficulty=difficulty, success=read.success, out_of_action=char.out_of_action)
    )


@action
def survive(turn: Turn, name: str, difficulty: int, *, cause: str = "", eights: int = 0) -> None:
    """A Mettle feat to live through an injury, illness or poison; a failure kills."""
    read = attribute_roll(
        turn, name, Attribute.METTLE, difficulty, eights=eights, reason=f"survival: {cause}" if cause else "survival",
        able=False,
    )
    char = turn.character(name)
    turn.emit(SurvivalTested(character=char.name, difficulty=difficulty, survived=read.success, cause=cause))
    if not read.success:
        kill(turn, char.name, cause or "did not survive")


@action
def wound(turn: Turn, name: str, n: int, *, cause: str = "") -> None:
    """``name`` loses ``n`` Mettle to injury or sickness; at 0 they die."""
    char = turn.alive(name)
    if n <= 0:
        raise FeatError(f"Mettle lost is at least 1, not {n}", rule="feat.mettle.positive")
    after = max(0, char.attribute(Attribute.METTLE) - n)
    char.attributes[Attribute.METTLE] = after
    turn.emit(MettleLost(character=char.name, n=n, mettle_after=after, cause=cause))
    if after == 0:
        kill(turn, char.name, cause or "Mettle fell to 0")


@action
def recover(turn: Turn, name: str) -> None:
    """A character out of action after a shock is able to act again."""
    char = turn.alive(name)
    if not char.out_of_action:
        raise NotAble(f"{char.name} is not out of action", rule="feat.recover.not-out")
    char.out_of_action = False
    turn.emit(CharacterRecovered(character=char.name))


@action
def search(
    turn: Turn, name: str, target: str, concealment: int, *, again: bool = False, eights: int = 0
) -> None:
    """A Wit feat against how well ``target`` is hidden; ``again`` only when circumstances changed."""
    char = turn.able(name)
    key = skill_key(target)
    if not key:
        raise FeatError("name what is searched for", rule="feat.search.target")
    if char.name in turn.state.searches.get(key, []) and not again:
        raise FeatError(
            f"{char.name} has already searched for {key}; only a change of circumstances allows another roll",
            rule="feat.search.once",
        )
    read = attribute_roll(turn, char.name, Attribute.WIT, concealment, eights=eights, reason=f"search: {key}")
    searchers = turn.state.searches.setdefault(key, [])
    if char.name not in searchers:
        searchers.append(char.name)
    turn.emit(SearchMade(character=char.name, target=key, concealment=concealment, found=read.success, again=again))


@action
def reaction(turn: Turn, name: str, difficulty: int, *, toward: str = "", eights: int = 0) -> None:
    """A Glamour feat for the reaction hoped for: success warmer, failure colder than expected."""
    char = turn.able(name)
    why = f"reaction: {toward}" if toward else "reaction"
    read = attribute_roll(turn, char.name, Attribute.GLAMOUR, difficulty, eights=eights, reason=why)
    turn.emit(ReactionTested(character=char.name, toward=toward, difficulty=difficulty, favourable=read.success))


def _activating(turn: Turn, names: Sequence[str], among: Sequence[str]) -> list[str]:
    """The characters of ``among`` who activate their Edge of speed (each must have one)."""
    found: list[str] = []
    for name in names:
        char = turn.alive(name)
        if char.name not in among:
            raise FeatError(f"{char.name} is not one of those acting", rule="feat.edge.not-acting")
        if not char.has_edge(Edge.SPEED):
            raise NotAble(f"{char.name} has no Edge of speed", rule="feat.edge.none")
        if char.name not in found:
            found.append(char.name)
    return found


@action
def initiative(turn: Turn, names: Sequence[str], *, edges: Sequence[str] = ()) -> None:
    """Who acts first, in order of Vigour; characters of equal Vigour are listed as tied.

    Seed 003: "If a character has an Edge of speed he may activate it in this situation to
    ensure that he acts first": those in ``edges`` activate theirs and go before everyone
    else ([ours] in order of Vigour among themselves).
    """
    chars: list[Character] = []
    for name in names:
        char = turn.able(name)
        if all(c.name != char.name for c in chars):
            chars.append(char)
    if not chars:
        raise FeatError("name who is acting", rule="feat.initiative.who")
    fast = _activating(turn, edges, [c.name for c in chars])
    for name in fast:
        turn.emit(EdgeActivated(character=name, edge=Edge.SPEED))
    vigour = {c.name: c.attribute(Attribute.VIGOUR) for c in chars}
    order: list[str] = []
    tied: list[list[str]] = []
    for group in ([n for n in vigour if n in fast], [n for n in vigour if n not in fast]):
        ranked = sorted(group, key=lambda n: -vigour[n])
        order += ranked
        for v in sorted({vigour[n] for n in ranked}, reverse=True):
            same = [n for n in ranked if vigour[n] == v]
            if len(same) > 1:
                tied.append(same)
    turn.emit(InitiativeDecided(order=order, vigour=vigour, rolled=False, tied=tied, edges=fast))


@action
def first_to_act(turn: Turn, roller: str, other: str, *, eights: int = 0, edges: Sequence[str] = ()) -> None:
    """Between two: ``roller`` makes the feat at Vigour(other) - Vigour(roller); success acts first.

    Seed 003: an Edge of speed activated ensures its holder acts first, with no roll. [ours]
    If both activate one, the Edges cancel out and the Vigour feat decides.
    """
    mover, rival = turn.able(roller), turn.able(other)
    turn.two(mover.name, rival.name)
    fast = _activating(turn, edges, [mover.name, rival.name])
    mine, theirs = mover.attribute(Attribute.VIGOUR), rival.attribute(Attribute.VIGOUR)
    vigour = {mover.name: mine, rival.name: theirs}
    for name in fast:
        turn.emit(EdgeActivated(character=name, edge=Edge.SPEED, cancelled=len(fast) > 1))
    if len(fast) == 1:
        first = fast[0]
        order = [first, rival.name if first == mover.name else mover.name]
        turn.emit(InitiativeDecided(order=order, vigour=vigour, rolled=False, edges=[first]))
        return
    turn.fresh(mover, Attribute.VIGOUR)
    turn.check_wyrd(mover, eights, [theirs - mine])
    read = roll_feat(
        turn, mover.name, Attribute.VIGOUR.value, theirs - mine, difficulty=theirs, effective=mine,
        eights=eights, reason=f"first to act: against {rival.name}",
    )
    order = [mover.name, rival.name] if read.success else [rival.name, mover.name]
    turn.emit(InitiativeDecided(order=order, vigour=vigour, rolled=True))


@action
def race(turn: Turn, runner: str, rival: str, *, long: bool = False, eights: int = 0) -> None:
    """A race: Vigour against Vigour, or Vigour + Mettle for long distances and times."""
    mover, other = turn.able(runner), turn.able(rival)
    turn.two(mover.name, other.name)
    turn.fresh(mover, Attribute.VIGOUR)

    def score(name: str) -> int:
        char = turn.character(name)
        return char.attribute(Attribute.VIGOUR) + (char.attribute(Attribute.METTLE) if long else 0)

    mine, theirs = score(mover.name), score(other.name)
    turn.check_wyrd(mover, eights, [theirs - mine])
    trait = "vigour+mettle" if long else Attribute.VIGOUR.value
    read = roll_feat(
        turn, mover.name, trait, theirs - mine, difficulty=theirs, effective=mine, eights=eights,
        reason=f"race against {other.name}",
    )
    turn.emit(
        RaceDecided(
            runner=mover.name, rival=other.name, long=long, runner_score=mine, rival_score=theirs,
            level=read.level, winner=mover.name if read.success else other.name,
        )
    )


@action
def fatigue(
    turn: Turn, name: str, difficulty: int, *, encumbered: bool = False, cause: str = "", eights: int = 0
) -> None:
    """A Mettle feat to overcome fatigue: a failure leaves the character exhausted until they rest.

    Seed 003: "A character's ability to overcome fatigue ... is determined by a Mettle-based Feat
    roll", at a Difficulty from the circumstances; "if the player is pushing a heavily encumbered
    character to continue physical activity the GM may decide that the character is exhausted
    and require the player to take a Mettle roll or rest" (``encumbered``). A success: the
    character carries on (and is no longer exhausted).
    """
    why = "fatigue" + (", heavily encumbered" if encumbered else "") + (f": {cause}" if cause else "")
    read = attribute_roll(turn, name, Attribute.METTLE, difficulty, eights=eights, reason=why)
    char = turn.character(name)
    char.exhausted = not read.success
    turn.emit(
        FatigueTested(
            character=char.name, difficulty=difficulty, encumbered=encumbered, success=read.success,
            exhausted=char.exhausted, cause=cause,
        )
    )


@action
def rest(turn: Turn, name: str) -> None:
    """An exhausted character rests (seed 003: "take a Mettle roll or rest") and may exert themselves again."""
    char = turn.alive(name)
    if not char.exhausted:
        raise NotAble(f"{char.name} is not exhausted", rule="feat.rest.not-exhausted")
    char.exhausted = False
    turn.emit(Rested(character=char.name))
