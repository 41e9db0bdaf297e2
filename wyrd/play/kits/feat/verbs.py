"""Heroes of the Fall verbs: characters, feats, Mettle, the senses, who goes first, movement.

Each verb reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.feat`; the docstrings are the in-game help (``help VERB``). Every
roll shows its exact odds first: a verb that rolls puts an ``odds_shown`` event
before the rules' own, worked out from the state the roll was made in, so the
reply reads odds, then dice, then the result (and a replay gives the same).

Physical dice: ``dice F F F`` after a rolling verb types the faces of real dice
in the order the command rolls them (the d100s first, then the three d8). Each
face is checked against its die; a face too many is refused.

Every command read now carries ``edition`` (:data:`EDITION`): the rules as seed
003 has them. A saved command without it was played before Wyrd followed the
text on an attribute named in `try` and on a shock held, and replays under that
first reading (:func:`wyrd.rules.feat.turn.first_reading`), so old saves resume
to the state they were left in.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any, ClassVar, Literal

from pydantic import Field

import wyrd.rules.feat as F
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import SHARED, Args, Verb, VerbTable
from wyrd.play.engine.words import UsageError, Words, parse_int, resolve
from wyrd.rules.actions import Event
from wyrd.rules.defaults import empty_list
from wyrd.rules.dice import Dice
from wyrd.rules.feat import Attribute, Character, GameState, Outcome, Tier
from wyrd.rules.feat.characters import skill_key
from wyrd.rules.feat.feats import opposed_traits
from wyrd.rules.feat.odds import attribute_odds, feat_odds, opposed_odds, skill_odds
from wyrd.rules.feat.turn import Turn, first_reading

__all__ = [
    "ATTRIBUTES",
    "EDITION",
    "VERBS",
    "AttributeFeat",
    "FeatVerb",
    "OddsShown",
    "StakeDecided",
    "attribute_shown",
    "feat_state",
    "take_trait",
    "take_who",
    "with_odds",
]

# This kit's verbs (SHARED's help, undo, log ... included): every verb module of the kit registers here.
VERBS = VerbTable(shared=SHARED)

ATTRIBUTES = [a.value for a in Attribute]
TIERS = [t.value for t in Tier] + ["none"]
EDITION = 2
"""The reading of the rules a command is played under (a saved command without one: the first)."""


class OddsShown(Event):
    """The exact chance of a roll about to be made (fractions as text, such as ``"3/10"``)."""

    kind: Literal["odds_shown"] = "odds_shown"
    character: str
    trait: str
    rating: str  # "6/81" for a skill, "5" for an attribute, "" for a Feat level given outright
    difficulty: int | None = None
    level: int | None = None  # the Feat level, when no d100 can change it
    opponent: str | None = None
    opposing: str | None = None  # the opponent's trait and rating, "wit 1/99"
    extra: int = 0
    p_step_up: str | None = None
    p_success: str
    eights: int = 0


class StakeDecided(Event):
    """A roll settled one of the scene's stakes (Issue 18, point 3): how it went and what that changes."""

    kind: Literal["stake_decided"] = "stake_decided"
    stake: str
    name: str
    won: bool
    text: str  # what winning or losing it changes, in the story's words
    opens: list[str] = Field(default_factory=empty_list)  # the titles of the ways on open now


def stakes_settled(verb: str, args: Mapping[str, Any], events: list[Event], follower: Any) -> list[Event]:
    """The stakes of the scene in play that this command settles, as events (none outside a story)."""
    from wyrd.stories.feat import FeatProgress
    from wyrd.stories.feat.branching import settled_by

    if not isinstance(follower, FeatProgress) or follower.story is None or follower.current is None:
        return []
    story = follower.story
    others = [c.name for c in story.others]
    out: list[Event] = []
    outcomes = dict(follower.outcomes)
    for stake in follower.open_stakes():
        won = settled_by(stake, verb, args, events, others)
        if won is None:
            continue
        outcomes[stake.id] = won
        now = {**{s.id: False for s in story.scene(follower.current).stakes}, **outcomes}
        opens = [story.scene(i).title for i in story.open_exits(follower.current, now)]
        out.append(StakeDecided(stake=stake.id, name=stake.name, won=won, text=stake.won if won else stake.lost,
                                opens=opens))
    return out


def feat_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise UsageError("this is not a Heroes of the Fall game")
    return state


def _names(state: GameState) -> list[str]:
    return list(state.characters)


def take_who(words: Words, state: GameState, what: str = "WHO") -> str:
    return words.take_name(what, _names(state))


def take_trait(words: Words, char: Character | None, what: str = "SKILL") -> str:
    """A skill the character has (several words, or a unique beginning), an attribute, or a new word."""
    skills = list(char.skills) if char is not None else []
    for k in range(min(len(words.words), 3), 1, -1):
        joined = skill_key(" ".join(words.words[:k]))
        if joined in skills:
            del words.words[:k]
            return joined
    word = skill_key(words.take(what))
    choices = [*skills, *ATTRIBUTES]
    if word in choices:
        return word
    hits = sorted({c for c in choices if c.startswith(word)})
    if len(hits) > 1:
        raise UsageError(f"{word!r} could be any of {', '.join(hits)}; say more of the skill")
    return hits[0] if hits else word


class FeatVerb(Verb):
    """A Heroes of the Fall verb: ``read`` and ``run`` work on the feat game's own state."""

    # The dice the command rolls, in order, for faces typed after `dice`.
    sides: ClassVar[tuple[int, ...]] = ()

    def parse(self, words: Words, state: Any) -> Args:
        return {**self.read(words, feat_state(state)), "edition": EDITION}

    def read(self, words: Words, state: GameState) -> Args:
        words.done()
        return {}

    def apply(self, state: Any, dice: Dice, args: Mapping[str, Any]) -> Any:
        with nullcontext() if args.get("edition") == EDITION else first_reading():
            outcome = self.run(feat_state(state), dice, args)
        if dice.queued:
            raise UsageError(f"{len(dice.queued)} typed face(s) left over: this roll did not use them")
        return outcome

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        raise NotImplementedError

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        return [int(f) for f in args.get("faces", [])]

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        # Only a rolling verb can settle a stake; saved with the command, never replayed.
        return stakes_settled(self.key, args, events, ctx.follower) if self.sides else []

    def options(self, words: Words, *, attribute: bool = False, text: bool = False,
                sides: tuple[int, ...] | None = None) -> Args:
        """``with ATTRIBUTE``, ``eights N``, ``dice F ...`` in any order, and free text if allowed.

        ``sides`` are the dice this command rolls when they differ from the verb's own.
        """
        out: Args = {"eights": 0, "faces": []}
        if attribute:
            out["attribute"] = None
        free: list[str] = []
        while not words.empty:
            if self.sides and words.keyword("eights"):
                out["eights"] = words.take_int("N (bought 8s)", low=0, high=3)
            elif self.sides and words.keyword("dice"):
                out["faces"] = self._faces(words, self.sides if sides is None else sides)
            elif attribute and words.keyword("with"):
                out["attribute"] = resolve(words.take("ATTRIBUTE"), ATTRIBUTES, "attribute")
            elif text:
                free.append(words.take("text"))
            else:
                raise words.fail(f"did not understand {' '.join(words.words)!r}")
        if text:
            out["text"] = " ".join(free)
        return out

    def _faces(self, words: Words, sides: tuple[int, ...]) -> list[int]:
        faces: list[int] = []
        while not words.empty and str(words.peek()).lstrip("-").isdigit():
            at = len(faces)
            if at >= len(sides):
                raise words.fail(f"this roll takes {len(sides)} dice; too many faces typed")
            faces.append(parse_int(words.take("FACE"), f"a d{sides[at]} face", low=1, high=sides[at]))
        if not faces:
            raise words.fail("type the faces after `dice`")
        return faces


def with_odds(outcome: Outcome, odds: OddsShown) -> Outcome:
    """The outcome with its odds told first."""
    return Outcome(outcome.state, [odds, *outcome.events])


def rating_of(state: GameState, who: str, trait: str, attribute: str | None = None) -> tuple[str, F.SkillRating]:
    turn = Turn(state, Dice())
    return turn.rating(turn.character(who), trait, Attribute(attribute) if attribute else None)


def _plain_attribute(state: GameState, who: str, trait: str) -> Attribute | None:
    """The attribute ``trait`` names when the character has no skill of that name (used as it is)."""
    char = state.characters.get(who)
    named = Attribute.lookup(trait)
    return named if named is not None and (char is None or char.skill(trait) is None) else None


def attribute_shown(state: GameState, who: str, attribute: Attribute, difficulty: int, eights: int) -> OddsShown:
    value = Turn(state, Dice()).character(who).attribute(attribute)
    odds = attribute_odds(value, difficulty, eights)
    return OddsShown(character=who, trait=attribute.value, rating=str(value), difficulty=difficulty,
                     level=odds.level, p_success=str(odds.p_success), eights=eights)


class AttributeFeat(FeatVerb):
    """A feat of one attribute at a Difficulty, its exact odds shown before the dice.

    Subclasses name the ``attribute`` and the rules action (``feat``); the words are
    ``WHO DIFFICULTY`` and then what the feat is about, unless ``read`` says otherwise.
    """

    attribute: ClassVar[Attribute]
    completes: ClassVar[tuple[str, ...]] = ("character", "number")
    sides = (8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        difficulty = words.take_int("DIFFICULTY")
        return {"who": who, "difficulty": difficulty, **self.options(words, text=True)}

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        raise NotImplementedError

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return with_odds(self.feat(state, dice, args),
                         attribute_shown(state, args["who"], self.attribute, args["difficulty"], args["eights"]))


@VERBS.register
class TryVerb(FeatVerb):
    """try WHO SKILL DIFFICULTY [with ATTRIBUTE] [eights N] [dice D100 D8 D8 D8]

    A skill feat against a Difficulty (2 routine, 4 easy, 6 even for the
    trained, 8 unlikely, 10 the best often fail). The exact odds come first;
    then the d100: at or above the skill's modifier it works one level higher;
    then the Feat level (Difficulty less the level) is read on three d8. An
    attribute named instead of a skill is used as it is, with no d100, as
    `test` does (`try Ansel wit 6`, dice D8 D8 D8); a skill the character
    lacks needs `with ATTRIBUTE` and reads as untrained. `eights N` buys up to
    N automatic 8s at 5 Wyrd points each (only what the level can use is
    bought, and only that is needed).
    """

    key = "try"
    completes = ("character", "skill", "number")
    sides = (100, 8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        skill = take_trait(words, state.characters.get(who))
        difficulty = words.take_int("DIFFICULTY")
        plain = _plain_attribute(state, who, skill)
        return {"who": who, "skill": skill, "difficulty": difficulty,
                **self.options(words, attribute=True, sides=(8, 8, 8) if plain else None)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        who, eights, difficulty = args["who"], args["eights"], args["difficulty"]
        outcome = F.skill_feat(state, dice, who, args["skill"], difficulty,
                               attribute=Attribute(args["attribute"]) if args["attribute"] else None, eights=eights)
        # A command saved under the first reading read the attribute as an untrained skill: so did its odds.
        plain = _plain_attribute(state, who, args["skill"]) if args.get("edition") == EDITION else None
        if plain is not None:  # the rules read an attribute as it is: so do the odds
            return with_odds(outcome, attribute_shown(state, who, plain, difficulty, eights))
        label, rating = rating_of(state, who, args["skill"], args["attribute"])
        odds = skill_odds(rating.level, rating.modifier, difficulty, eights)
        return with_odds(outcome, OddsShown(
            character=state.characters[who].name, trait=label, rating=str(rating), difficulty=difficulty,
            p_step_up=str(odds.p_step_up), p_success=str(odds.p_success), eights=eights))


@VERBS.register
class FeatRoll(FeatVerb):
    """feat WHO LEVEL [eights N] [dice D8 D8 D8] ["what for"]

    Roll three d8 at a Feat level you have worked out at the table, -8 to +8
    (at 0 a 5 or more on the first die; each step up halves the chance).
    """

    key = "feat"
    completes = ("character",)
    sides = (8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        level = words.take_int("LEVEL")
        return {"who": who, "level": level, **self.options(words, text=True)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        outcome = F.feat(state, dice, args["who"], args["level"], eights=args["eights"], reason=args["text"])
        odds = feat_odds(args["level"], args["eights"])
        return with_odds(outcome, OddsShown(character=args["who"], trait=args["text"], rating="", level=odds.level,
                                            p_success=str(odds.p_success), eights=args["eights"]))


@VERBS.register
class Test(FeatVerb):
    """test WHO ATTRIBUTE DIFFICULTY [eights N] [dice D8 D8 D8]

    An attribute feat: the attribute as it is (no d100) is taken from the
    Difficulty, as when Wit picks a lock or Vigour forces a door.
    """

    key = "test"
    completes = ("character", "ability")
    sides = (8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        attribute = resolve(words.take("ATTRIBUTE"), ATTRIBUTES, "attribute")
        difficulty = words.take_int("DIFFICULTY")
        return {"who": who, "attribute": attribute, "difficulty": difficulty, **self.options(words)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        attribute = Attribute(args["attribute"])
        outcome = F.attribute_feat(state, dice, args["who"], attribute, args["difficulty"], eights=args["eights"])
        return with_odds(outcome, attribute_shown(state, args["who"], attribute, args["difficulty"], args["eights"]))


@VERBS.register
class Oppose(FeatVerb):
    """oppose WHO TARGET SKILL [vs SKILL|ATTRIBUTE] [+N] [with ATTRIBUTE] [eights N] [dice D100 D100 D8 D8 D8]

    WHO tries SKILL against TARGET, who resists with the same skill or the one
    named after `vs` (an attribute, or a skill TARGET lacks, reads as untrained:
    by default through the attribute behind WHO's SKILL, as a victim's Wit
    resists a cut-purse when named: `vs wit`). Both roll the d100; TARGET's
    level, plus N for the circumstances, is the Difficulty. A success is WHO's;
    a failure TARGET's.
    """

    key = "oppose"
    completes = ("character", "character", "skill", "vs", "skill")
    sides = (100, 100, 8, 8, 8)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        target = take_who(words, state, "TARGET")
        skill = take_trait(words, state.characters.get(who))
        opposing = take_trait(words, state.characters.get(target)) if words.keyword("vs") else None
        ahead = words.peek()
        extra = parse_int(words.take("+N"), "+N", low=-20, high=20) if ahead and ahead[0] in "+-" else 0
        return {"who": who, "target": target, "skill": skill, "opposing": opposing, "extra": extra,
                **self.options(words, attribute=True)}

    def run(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        attribute = Attribute(args["attribute"]) if args["attribute"] else None
        outcome = F.opposed(state, dice, args["who"], args["target"], args["skill"], opposing=args["opposing"],
                            attribute=attribute, extra=args["extra"], eights=args["eights"])
        turn = Turn(state, Dice())
        label, mine, against, theirs = opposed_traits(
            turn, turn.character(args["who"]), turn.character(args["target"]), args["skill"], args["opposing"],
            attribute)
        odds = opposed_odds(mine, theirs, args["extra"], args["eights"])
        return with_odds(outcome, OddsShown(
            character=state.characters[args["who"]].name, trait=label, rating=str(mine),
            opponent=state.characters[args["target"]].name, opposing=f"{against} {theirs}", extra=args["extra"],
            p_step_up=str(mine.p_step_up), p_success=str(odds.p_success), eights=args["eights"]))




@VERBS.register
class Search(AttributeFeat):
    """search WHO THING DIFFICULTY [again] [eights N] [dice D8 D8 D8]

    A Wit feat to find THING (quote it if it is several words, or leave the
    words bare before the number), hidden as well as the Difficulty says. One
    roll per thing; `again` only when the circumstances have changed.
    """

    key = "search"
    attribute = Attribute.WIT
    completes = ("character",)

    def read(self, words: Words, state: GameState) -> Args:
        who = take_who(words, state)
        thing = [words.take("THING")]
        while not words.empty and not str(words.peek()).lstrip("-").isdigit():
            thing.append(words.take("THING"))
        difficulty = words.take_int("DIFFICULTY")
        again = words.keyword("again")
        return {"who": who, "thing": " ".join(thing), "difficulty": difficulty, "again": again,
                **self.options(words)}

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.search(state, dice, args["who"], args["thing"], args["difficulty"], again=args["again"],
                        eights=args["eights"])


@VERBS.register
class React(AttributeFeat):
    """react WHO DIFFICULTY ["toward whom"] [eights N] [dice D8 D8 D8]

    A Glamour feat for the reaction WHO hopes for from someone met, at the
    Difficulty of winning it: a success is warmer than expected, a failure colder.
    """

    key = "react"
    aliases = ("reaction",)
    attribute = Attribute.GLAMOUR

    def feat(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return F.reaction(state, dice, args["who"], args["difficulty"], toward=args["text"], eights=args["eights"])
