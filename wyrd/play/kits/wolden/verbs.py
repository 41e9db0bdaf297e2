"""The Wolden verbs for rolls and their consequences, and what every Wolden verb shares.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.wolden`; the docstrings are the in-game help (``help VERB``). The
encounters (``extended``, ``montage``, ``fight``) are in
:mod:`wyrd.play.kits.wolden.encounters`, characters, scenarios and downtime in
:mod:`wyrd.play.kits.wolden.story`. What a verb takes from a scenario or a cult file goes
into its arguments in ``prepare``, so a replay needs no file; where the scenario
is followed lives in :class:`wyrd.stories.wolden.ScenarioProgress`, which the session
keeps (:attr:`wyrd.play.engine.storyplay.PlayContext.follower`).

Every command read now carries ``edition`` (:data:`EDITION`): the rules as
seed 001 has them since issue 17. A saved command without it was played before
(:func:`corrected`): one saved by the release before the corrections carries
none of the arguments they added, and replays under the first reading (downtime
anywhere and in any session, `session` at will, a free pass in a fight); one
saved after them carries those arguments and replays as it was played. Pools
past four dice were refused by the first reading, so no saved command asks for
one: capping them changes no old save.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal

import wyrd.rules.wolden as W
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import SHARED, Args, Verb, VerbTable
from wyrd.play.engine.words import UsageError, Words, resolve
from wyrd.play.kits.wolden.enemies import enemy_actions
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.wolden import Scenario, ScenarioProgress

__all__ = [
    "ABILITIES",
    "ACTIVITIES",
    "EDITION",
    "VERBS",
    "ScenarioEnded",
    "SceneBegun",
    "WoldenVerb",
    "chain",
    "corrected",
    "pick",
    "progress",
    "scenario",
    "take_ability",
    "take_names",
    "take_who",
    "wolden",
]

# This kit's verbs (SHARED's help, undo, log ... included): every verb module of the kit registers here.
VERBS = VerbTable(shared=SHARED)

ABILITIES = [a.value for a in W.Ability]
ACTIVITIES = [c.value for c in W.DowntimeChoice]
_CHECK_WORDS = ("gift", "adv", "advantage", "with", "vs", "defend", "plain")
EDITION = 2
"""The reading of the rules a command is played under (a saved command without one: see :func:`corrected`)."""


def corrected(args: Mapping[str, Any], *added: str) -> bool:
    """Whether a saved command is played under the rules as corrected by issue 17.

    Yes if it carries an ``edition`` (every command read since), or, saved before
    editions, if it carries any of ``added``: the arguments the corrected verb puts
    in (commands saved by the release before the corrections have none of them).
    """
    return int(args.get("edition", 1)) >= EDITION or any(key in args for key in added)


def wolden(state: Any) -> W.GameState:
    """The state as a Wolden game (the session hands verbs its own, untyped)."""
    if not isinstance(state, W.GameState):
        raise TypeError(f"a Wolden verb was given a {type(state).__name__}")
    return state


class SceneBegun(Event):
    """The play layer's own event: a scenario's scene begins (replayed like the rules' events)."""

    kind: Literal["scene_begun"] = "scene_begun"
    number: int
    id: str
    title: str
    text: str
    encounter: str | None
    settled: bool
    last: bool
    # where it is, and what the way taken to it said (the last outcome's change); none in older saves
    place: str = ""
    way: str = ""
    fail: str = ""  # what losing its encounter costs, in the story's words


class ScenarioEnded(Event):
    kind: Literal["scenario_ended"] = "scenario_ended"
    story: str
    title: str
    lines: list[str]
    way: str = ""  # what the way taken to the ending said


class WoldenVerb(Verb):
    """A verb of Wolden: ``read`` and ``run`` see the state typed as a Wolden game."""

    def parse(self, words: Words, state: Any) -> Args:
        return {**self.read(words, wolden(state)), "edition": EDITION}

    def read(self, words: Words, state: W.GameState) -> Args:
        words.done()
        return {}

    def apply(self, state: Any, dice: Dice, args: Mapping[str, Any]) -> Any:
        return self.run(wolden(state), dice, args)

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        raise NotImplementedError

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        """When a round of a fight begins, each enemy standing acts from its table (``enemy_acted``)."""
        return enemy_actions(events, wolden(state), progress(ctx).scenario, ctx.dice)


def chain(state: W.GameState, steps: Iterable[Callable[[W.GameState], W.Outcome]],
          first: Iterable[Event] = ()) -> W.Outcome:
    """Several actions as one: each sees the state the one before left (any refusal refuses all)."""
    events: list[Event] = list(first)
    for step in steps:
        out = step(state)
        state, events = out.state, events + out.events
    return W.Outcome(state, events)


def progress(ctx: PlayContext) -> ScenarioProgress:
    found = ctx.follower
    return found if isinstance(found, ScenarioProgress) else ScenarioProgress()


def scenario(ctx: PlayContext, what: str) -> Scenario:
    found = progress(ctx).scenario
    if found is None:
        raise UsageError(f"no scenario is being played (`story ID`), so there are no {what}")
    return found


def take_who(words: Words, state: W.GameState, what: str = "WHO") -> str:
    return words.take_name(what, list(state.characters))


def take_names(words: Words, state: W.GameState, stops: tuple[str, ...] = ()) -> list[str]:
    names: list[str] = []
    while not words.empty and str(words.peek()).casefold() not in stops:
        names.append(take_who(words, state, "NAME"))
    return names


def pick(word: str, choices: Mapping[str, str], what: str) -> str:
    """The id ``word`` names among ``choices`` (id -> name), by id or name, or a unique beginning."""
    try:
        return resolve(word, list(choices), what)
    except UsageError:
        by_name = {name: ident for ident, name in choices.items()}
        return by_name[resolve(word, list(by_name), what)]


def take_ability(words: Words) -> str:
    return resolve(words.take("ABILITY"), ABILITIES, "ability")


# -- rolls ---------------------------------------------------------------------------


def _gift(word: str, state: W.GameState, lead: str) -> str:
    """The lead's gift ``word`` names (id, name or a unique beginning); else the word, for the rules to refuse."""
    try:
        return pick(word, {g.id: g.name for g in state.characters[lead].gifts}, "gift")
    except UsageError:
        return word


def _target(words: Words, state: W.GameState) -> str:
    found = state.encounter
    if isinstance(found, W.Fight):
        by_name = {e.name: e.id for e in found.enemies.values()} | {e.id: e.id for e in found.enemies.values()}
        return by_name[words.take_name("TARGET", list(by_name), "enemy")]
    word = words.take("TARGET")
    if isinstance(found, W.Extended):
        try:
            return pick(word, {found.id: found.name}, "challenge")
        except UsageError:
            pass
    return word  # the rules say why it is not there


def _default_target(state: W.GameState, lead: str) -> str | None:
    """What a participant's roll is against unless said: the challenge under way, or the one enemy left."""
    found = state.encounter
    if found is None or lead not in found.rounds.participants:
        return None
    if isinstance(found, W.Extended):
        return found.id
    standing = found.standing
    return standing[0].id if len(standing) == 1 else None


@VERBS.register
class Check(WoldenVerb):
    """check WHO ABILITY [gift G] [adv] [with A, B] [vs TARGET] [defend] [plain]

    Open a roll: WHO rolls a pool of d12 and adds ABILITY (might, agility, mind,
    graces) to the highest die: 6 or less fails, 7 to 12 is a partial success,
    13 or more a success; a pair makes a failure or a success critical. The pool
    is 1d12, +1 for a gift of WHO's that helps (gift G), +1 for an advantage
    (adv), +1 per helper (with A, B: they share the consequences), at most 4d12:
    past four, the last helpers named add no die and stay out of the roll.
    The exact odds are shown; then `roll` (or `cancel`). In an encounter a
    participant's roll is against the challenge under way, or in a fight against
    an enemy (vs ENEMY; needless when one is left); `defend` is a roll in a fight
    that deals no harm, `plain` a roll outside the encounter.
    """

    key = "check"
    completes = ("character", "ability", "vs", "target")

    def read(self, words: Words, state: W.GameState) -> Args:
        lead = take_who(words, state)
        args: Args = {"lead": lead, "ability": take_ability(words), "gift": None, "advantage": False,
                      "helpers": [], "against": None, "attack": True}
        plain = False
        while not words.empty:
            if words.keyword("gift"):
                args["gift"] = _gift(words.take("GIFT"), state, lead)
            elif words.keyword("adv") or words.keyword("advantage"):
                args["advantage"] = True
            elif words.keyword("with"):
                args["helpers"] = take_names(words, state, _CHECK_WORDS)
            elif words.keyword("vs"):
                args["against"] = _target(words, state)
            elif words.keyword("defend"):
                args["attack"] = False
            elif words.keyword("plain"):
                plain = True
            else:
                raise words.fail(f"did not understand {words.peek()!r}")
        if args["against"] is None and not plain:
            args["against"] = _default_target(state, lead)
        return args

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.attempt(state, dice, args["lead"], W.Ability(args["ability"]), gift=args["gift"],
                         advantage=args["advantage"], helpers=args["helpers"], against=args["against"],
                         attack=args["attack"])


@VERBS.register
class Roll(WoldenVerb):
    """roll [FACE...]

    Roll the open roll's pool and apply what follows: the rating moves, enemies
    take harm and strike back, the round moves on. With FACEs you rolled real
    d12s: type one face per die of the pool.
    """

    key = "roll"

    def read(self, words: Words, state: W.GameState) -> Args:
        faces: list[int] = []
        while not words.empty:
            faces.append(words.take_int("FACE", low=1, high=W.SIDES))
        pending = state.pending
        if faces and pending is not None and len(faces) != pending.dice:
            raise words.fail(f"the pool is {pending.dice}d{W.SIDES}: type {pending.dice} faces, or none")
        return {"faces": faces}

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        return list(args["faces"])

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.roll(state, dice)


@VERBS.register
class Cancel(WoldenVerb):
    """cancel

    Call off the open roll before it is rolled: nothing was risked yet.
    """

    key = "cancel"

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.cancel(state, dice)


# -- consequences --------------------------------------------------------------------


@VERBS.register
class Harm(WoldenVerb):
    """harm WHO ABILITY N

    A consequence the rules did not deal by themselves: WHO takes N harm to
    ABILITY. What the ability cannot absorb becomes wounds, each filling a free
    gift slot; a wound with no free slot takes WHO out until a downtime.
    """

    key = "harm"
    completes = ("character", "ability", "number")

    def read(self, words: Words, state: W.GameState) -> Args:
        who = take_who(words, state)
        ability = take_ability(words)
        n = words.take_int("N")
        words.done()
        return {"who": who, "ability": ability, "n": n}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.harm(state, dice, args["who"], W.Ability(args["ability"]), args["n"])


@VERBS.register
class Wound(WoldenVerb):
    """wound WHO [N]

    A consequence that goes straight to wounds (a fall, a failed step of a
    journey): N wounds (default 1), each filling a free gift slot; one with no
    free slot takes WHO out until a downtime.
    """

    key = "wound"
    completes = ("character", "number")

    def read(self, words: Words, state: W.GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N") if not words.empty else 1
        words.done()
        return {"who": who, "n": n}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.wound(state, dice, args["who"], args["n"])
