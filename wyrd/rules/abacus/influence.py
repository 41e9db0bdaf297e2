"""Influence rolls: several d6, the highest counts, ties broken by how many show it.

Seed 000: an influence roll takes as many dice as the trait (an ability's score,
never its current points; the personal pool for a Wyrd roll); the result is the
highest die; between characters with the same result, the one whose pool shows
it more often comes first. A trait of 0 counts as a roll of 1. [ours, RULES.md]
Still tied after that: the tied characters roll again, only to order themselves.

This module holds the dice arithmetic and the actions built only on it:
ability influence rolls, contests between characters, and sabotage.
"""

from collections.abc import Sequence
from typing import NamedTuple

from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.errors import OutOfTurn
from wyrd.rules.abacus.events import ChallengeModified, ContestDecided, InfluenceRolled
from wyrd.rules.abacus.reasons import DrawReason
from wyrd.rules.abacus.standing import effective_value
from wyrd.rules.abacus.turn import Turn, action
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError

__all__ = [
    "Ranking",
    "TraitRoll",
    "contest",
    "influence",
    "rank",
    "roll_trait",
    "sabotage",
]

# Re-rolls to break a tie are bounded so a scripted source cannot loop forever.
MAX_TIE_ROUNDS = 50


# Made by the rules from faces the dice recorded: named tuples, not validated models.
class TraitRoll(NamedTuple):
    character: str
    dice: tuple[int, ...]
    result: int
    ties: int  # how many dice show the result

    @property
    def sixes(self) -> int:
        return self.dice.count(6)

    @property
    def key(self) -> tuple[int, int]:
        return (self.result, self.ties)


class Ranking(NamedTuple):
    order: tuple[str, ...]  # first is the winner (or the one singled out)
    rerolls: int


def roll_trait(dice: Dice, character: str, n: int, purpose: str) -> TraitRoll:
    """Roll ``n`` dice for ``character``; with no dice the result is a 1."""
    if n <= 0:
        return TraitRoll(character=character, dice=(), result=1, ties=1)
    roll = dice.d6(n, purpose)
    best = roll.highest
    return TraitRoll(character=character, dice=roll.faces, result=best, ties=roll.faces.count(best))


def rank(
    rolls: Sequence[TraitRoll], dice: Dice, *, lowest: bool = False, purpose: str = "tie-break"
) -> Ranking:
    """Order characters by result, then by ties; dead heats roll a d6 each until settled.

    With ``lowest`` the lowest result comes first (a story may single out the
    least touched), ties then counting against.
    """
    sign = -1 if lowest else 1
    groups: dict[tuple[int, int], list[str]] = {}
    for r in rolls:
        groups.setdefault((sign * r.result, sign * r.ties), []).append(r.character)
    order: list[str] = []
    rounds = [0]

    def settle(tied: list[str]) -> None:
        # Each group that re-rolls the same face settles its own order; the others keep theirs.
        if len(tied) == 1:
            order.append(tied[0])
            return
        rounds[0] += 1
        if rounds[0] > MAX_TIE_ROUNDS:
            raise RuleError("a tie would not break", rule="abacus.influence.tie")
        faces = {name: dice.d6(1, f"{purpose}: {name}").faces[0] for name in tied}
        for face in sorted(set(faces.values()), reverse=True):
            settle([n for n in tied if faces[n] == face])

    for key in sorted(groups, reverse=True):
        settle(groups[key])
    rerolls = rounds[0]
    return Ranking(order=tuple(order), rerolls=rerolls)


def _ability_rolls(turn: Turn, ability: Ability, names: Sequence[str], reason: str) -> list[TraitRoll]:
    rolls = []
    for name in turn.names(names):
        char = turn.active(name)
        roll = roll_trait(turn.dice, char.name, char.scores[ability], f"{ability.value} influence")
        turn.emit(
            InfluenceRolled(
                character=char.name, trait=ability.value, dice=list(roll.dice),
                result=roll.result, ties=roll.ties, reason=reason,
            )
        )
        rolls.append(roll)
    return rolls


def _decided(ability: Ability, rolls: Sequence[TraitRoll], ranking: Ranking) -> ContestDecided:
    return ContestDecided(trait=ability.value, ranking=list(ranking.order), winner=ranking.order[0],
                          rerolls=ranking.rerolls, results={r.character: r.result for r in rolls},
                          ties={r.character: r.ties for r in rolls})


@action
def influence(turn: Turn, ability: Ability, names: Sequence[str], reason: str = "") -> None:
    """An influence roll of ``ability`` (its score, never its current points).

    Allowed in a scene or between scenes; with several characters, the contest of
    who comes out on top is decided too.
    """
    turn.not_ended()
    if not names:
        raise OutOfTurn("an influence roll needs at least one character", rule="abacus.influence.who")
    rolls = _ability_rolls(turn, Ability(ability), names, reason)
    if len(rolls) > 1:
        ranking = rank(rolls, turn.dice)
        turn.emit(_decided(Ability(ability), rolls, ranking))


@action
def contest(turn: Turn, ability: Ability, a: str, b: str) -> None:
    """Character against character: an influence roll each, the highest wins."""
    turn.not_ended()
    if turn.character(a).name == turn.character(b).name:
        raise OutOfTurn("a contest needs two different characters", rule="abacus.contest.two")
    rolls = _ability_rolls(turn, Ability(ability), [a, b], "contest")
    ranking = rank(rolls, turn.dice)
    turn.emit(_decided(Ability(ability), rolls, ranking))


@action
def sabotage(turn: Turn, saboteur: str, challenge: str, ability: Ability) -> None:
    """A character works against a challenge: its value rises by the 6s they roll."""
    turn.not_ended()
    target = turn.challenge(challenge)
    if target.status != "open":
        raise OutOfTurn(
            f"{target.name} is already {target.status}", rule="abacus.sabotage.open-challenge"
        )
    pending = turn.state.pending
    if pending is not None and pending.challenge == target.id and pending.die is not None:
        raise OutOfTurn(
            f"{target.name} has already been rolled", rule="abacus.sabotage.before-roll"
        )
    char = turn.active(saboteur)
    # Seed 000: the value rises by the 6s "on the influence roll": one roll per character.
    # (The first reading let a character sabotage again, from anywhere, at no cost.)
    if char.name in target.saboteurs and not turn.legacy:
        raise OutOfTurn(f"{char.name} has already worked against {target.name}", rule="abacus.sabotage.once")
    if not turn.legacy:
        target.saboteurs.append(char.name)
    scene = turn.in_scene()
    if char.name not in scene.present and not turn.legacy:
        # [ours] Reaching into a scene from elsewhere costs what helping from elsewhere costs.
        turn.draw(char.name, 1, DrawReason.SPEND.said(f"{char.name} to work against {target.name} from elsewhere"))
    (roll,) = _ability_rolls(turn, Ability(ability), [char.name], f"sabotage of {target.id}")
    if roll.sixes:
        target.sabotage += roll.sixes
        turn.emit(
            ChallengeModified(
                challenge=target.id, change=roll.sixes,
                value=effective_value(turn.state, target), reason=f"sabotage by {roll.character}",
                name=target.name,
            )
        )
