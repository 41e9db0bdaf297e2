"""Heroes of the Fall verbs for body and fortune: Mettle, Vigour (who goes first, races, movement), Wyrd awards.

The rolling verbs show their exact odds before the dice, as every feat verb
does (see :mod:`wyrd.play.kits.feat.verbs`); ``wound``, ``recover``, ``initiative``,
``award``, ``rest`` and ``move`` roll nothing, nor does ``first`` settled by an Edge of speed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

import wyrd.rules.feat as F
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import Words, resolve
from wyrd.play.kits.feat.verbs import VERBS, AttributeFeat, FeatVerb, OddsShown, take_who, with_odds
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.feat import Attribute, GameState, Going, NotAble, Outcome, Pace
from wyrd.rules.feat.odds import feat_odds
from wyrd.rules.feat.turn import Turn

__all__ = ["Moved"]


class Moved(Event):
    """How far a character gets at a pace, on the level or a slope (seed 003's movement)."""

    kind: Literal["moved"] = "moved"
    character: str
    pace: Pace
    gradient: str
    going: Going
    feet_per_round: str
    feet: int | None = None
    rounds: int | None = None
    covered: str | None = None



@VERBS.register
class Shock(AttributeFeat):
    """shock WHO [DIFFICULTY] [eights N] [dice D8 D8 D8]

    A Mettle feat against the pain and shock of a serious injury, Difficulty 8
    unless the circumstances say otherwise. A failure leaves WHO unable to act
    until `recover WHO`; a success lets WHO act on (even after an earlier shock).
    """

    key = "shock"
    attribute = Attribute.METTLE

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        difficulty = F.SHOCK_DIFFICULTY
        if str(words.peek() or "").lstrip("-").isdigit():
            difficulty = words.take_int("DIFFICULTY")
        return {"who": who, "difficulty": difficulty, **self.options(words)}

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.shock(state, dice, args["who"], args["difficulty"], eights=args["eights"])


@VERBS.register
class Survive(AttributeFeat):
    """survive WHO DIFFICULTY ["cause"] [eights N] [dice D8 D8 D8]

    A Mettle feat to live through a grave wound, an illness or a poison, at a
    Difficulty set by how bad it is. A failure kills.
    """

    key = "survive"
    attribute = Attribute.METTLE

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.survive(state, dice, args["who"], args["difficulty"], cause=args["text"], eights=args["eights"])


def _between(state: GameState, who: str, other: str, trait: str, mine: int, theirs: int, eights: int) -> OddsShown:
    odds = feat_odds(F.clamp_level(theirs - mine), eights)
    return OddsShown(character=state.characters[who].name, trait=trait, rating=str(mine), difficulty=theirs,
                     level=odds.level, opponent=state.characters[other].name, p_success=str(odds.p_success),
                     eights=eights)


@VERBS.register
class First(FeatVerb):
    """first WHO OTHER [edge NAME] [eights N] [dice D8 D8 D8]

    When it matters which of two acts first: WHO rolls at OTHER's Vigour less
    their own, and acts first on a success. `edge NAME` (WHO or OTHER, or
    both) activates an Edge of speed: its holder acts first, no roll; if both
    activate theirs, they cancel and the roll decides. (`initiative` orders
    everyone by Vigour without a roll.)
    """

    key = "first"
    completes = ("character", "character")
    sides = (8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        other = take_who(words, state, "OTHER")
        edges = _edges(words, state)
        return {"who": who, "other": other, **({"edges": edges} if edges else {}), **self.options(words)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        edges = list(args.get("edges", []))  # commands saved before Edges have none
        outcome = F.first_to_act(state, dice, args["who"], args["other"], eights=args["eights"], edges=edges)
        vigour = {n: state.characters[n].attribute(Attribute.VIGOUR) for n in (args["who"], args["other"])}
        shown = _between(state, args["who"], args["other"], "vigour", vigour[args["who"]], vigour[args["other"]],
                         args["eights"])
        fast = set(edges)
        if len(fast) == 1:  # an Edge of speed settles it: no roll, and the odds say so
            shown = shown.model_copy(update={"p_success": "1" if args["who"] in fast else "0", "eights": 0})
        return with_odds(outcome, shown)


def _edges(words: Words, state: GameState) -> list[str]:
    """``edge NAME ...``: the characters who activate their Edge of speed."""
    names: list[str] = []
    if words.keyword("edge"):
        names.append(take_who(words, state, "NAME"))
        while not words.empty and words.peek() not in ("eights", "dice"):
            names.append(take_who(words, state, "NAME"))
    return names


@VERBS.register
class Race(FeatVerb):
    """race WHO RIVAL [long] [eights N] [dice D8 D8 D8]

    A race over a short distance: WHO rolls at RIVAL's Vigour less their own
    and wins on a success. `long` for long distances and times: Vigour + Mettle
    on both sides.
    """

    key = "race"
    completes = ("character", "character", "long")
    sides = (8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        rival = take_who(words, state, "RIVAL")
        long = words.keyword("long")
        return {"who": who, "rival": rival, "long": long, **self.options(words)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        outcome = F.race(state, dice, args["who"], args["rival"], long=args["long"], eights=args["eights"])

        def score(name: str) -> int:
            char = state.characters[name]
            return char.attribute(Attribute.VIGOUR) + (char.attribute(Attribute.METTLE) if args["long"] else 0)

        trait = "vigour+mettle" if args["long"] else "vigour"
        return with_odds(outcome, _between(state, args["who"], args["rival"], trait, score(args["who"]),
                                           score(args["rival"]), args["eights"]))


@VERBS.register
class Fatigue(AttributeFeat):
    """fatigue WHO DIFFICULTY [encumbered] ["cause"] [eights N] [dice D8 D8 D8]

    A Mettle feat to overcome fatigue, at a Difficulty the circumstances set;
    `encumbered` when a heavily loaded WHO is pushed on. A failure leaves WHO
    exhausted: no physical feat (Vigour, a skill it drives, a race, more than a
    walk) until `rest WHO`. Resting instead of rolling is always allowed.
    """

    key = "fatigue"
    attribute = Attribute.METTLE

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        difficulty = words.take_int("DIFFICULTY")
        encumbered = words.keyword("encumbered")
        return {"who": who, "difficulty": difficulty, "encumbered": encumbered, **self.options(words, text=True)}

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.fatigue(state, dice, args["who"], args["difficulty"], encumbered=args["encumbered"],
                         cause=args["text"], eights=args["eights"])


class _OneHero(FeatVerb):
    """A verb that names one character and nothing more (`rest WHO`, `recover WHO`)."""

    completes = ("character",)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        words.done()
        return {"who": who}


@VERBS.register
class Rest(_OneHero):
    """rest WHO

    WHO, exhausted after a failed fatigue roll, rests and may exert themselves again.
    """

    key = "rest"

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.rest(state, dice, args["who"])


@VERBS.register
class Wound(FeatVerb):
    """wound WHO N ["cause"]

    WHO loses N Mettle to an injury or a sickness. At Mettle 0 a character dies.
    A serious wound calls for a `shock` test, and perhaps `survive`.
    """

    key = "wound"
    completes = ("character", "number")

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N")
        return {"who": who, "n": n, "cause": " ".join(words.until())}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.wound(state, dice, args["who"], args["n"], cause=args["cause"])


@VERBS.register
class Recover(_OneHero):
    """recover WHO

    WHO, out of action after a failed shock test, can act again: the table
    decides when (a breath, a bandage, a rescue).
    """

    key = "recover"

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.recover(state, dice, args["who"])


@VERBS.register
class Initiative(FeatVerb):
    """initiative A, B, C [edge NAME ...]

    Who acts first: in order of Vigour, highest first; equals are listed as
    tied (settle two with `first`). No dice. `edge NAME` activates NAME's Edge
    of speed: they act before all the others.
    """

    key = "initiative"
    aliases = ("order",)
    completes = ("character",)

    def read(self, words: Words, state: GameState) -> Args:
        names: list[str] = []
        while not words.empty and words.peek() != "edge":
            names.append(take_who(words, state, "A"))
        if not names:
            raise words.fail("name who is acting")
        edges = _edges(words, state)
        words.done()
        return {"names": names, **({"edges": edges} if edges else {})}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.initiative(state, dice, list(args["names"]), edges=list(args.get("edges", [])))


@VERBS.register
class Award(FeatVerb):
    """award WHO N ["why"]

    Give WHO N Wyrd points for good play: a player who solves what their
    character's Wit could not, a bold choice, a scene well played.
    """

    key = "award"
    completes = ("character", "number")

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N")
        return {"who": who, "n": n, "reason": " ".join(words.until())}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.award(state, dice, args["who"], args["n"], args["reason"])


@VERBS.register
class Move(FeatVerb):
    """move WHO PACE [up|down GRADIENT] [feet N | rounds N]

    How fast WHO goes, a round being one second: walk 5 ft, jog 10, run 15,
    sprint 20 on the level. A slope (1:5 is a rise of 1 in 5) slows climbers
    more than those going down. `feet N` says how many rounds N feet take;
    `rounds N` how far WHO gets in N rounds.
    """

    key = "move"
    completes = ("character", "pace")

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        pace = resolve(words.take("PACE"), [p.value for p in Pace], "pace")
        going, gradient = Going.UP.value, "0"
        for way in Going:
            if words.keyword(way.value):
                going, gradient = way.value, words.take("GRADIENT (such as 1:5)")
                try:
                    F.parse_gradient(gradient)
                except ValueError as exc:
                    raise words.fail(str(exc)) from None
        feet = words.take_int("N", low=0) if words.keyword("feet") else None
        rounds = words.take_int("N", low=0) if words.keyword("rounds") and feet is None else None
        words.done()
        return {"who": who, "pace": pace, "going": going, "gradient": gradient, "feet": feet, "rounds": rounds}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        char = Turn(state, Dice.scripted(())).able(args["who"])  # a look-up: no die, and no seeding one
        pace, going = Pace(args["pace"]), Going(args["going"])
        if char.exhausted and pace is not Pace.WALK:
            raise NotAble(f"{char.name} is exhausted: no faster than a walk until they rest",
                          rule="feat.able.exhausted")
        gradient = F.parse_gradient(args["gradient"])
        per_round = F.speed(pace, gradient, going)
        rounds = F.rounds_to_cover(args["feet"], pace, gradient, going) if args["feet"] is not None else None
        covered = F.distance(pace, args["rounds"], gradient, going) if args["rounds"] is not None else None
        return Outcome(state, [Moved(
            character=char.name, pace=pace, gradient=args["gradient"], going=going, feet_per_round=str(per_round),
            feet=args["feet"], rounds=rounds if rounds is not None else args["rounds"],
            covered=str(covered) if covered is not None else None)])
