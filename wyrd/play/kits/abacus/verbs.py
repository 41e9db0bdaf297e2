"""The Wyrd Abacus verbs for characters, scenes and challenge rolls.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.abacus`. The docstrings are the in-game help (``help VERB``).
Every verb of the table records the reading of the rules it was read with
(:mod:`wyrd.play.kits.abacus.edition`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import wyrd.rules.abacus as A
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import SHARED, Args, Verb
from wyrd.play.engine.words import UsageError, Words, resolve
from wyrd.play.kits.abacus.edition import EditionTable
from wyrd.play.kits.abacus.events import StageRulesEvident
from wyrd.play.kits.abacus.following import story_of
from wyrd.play.kits.abacus.stakes import bearing_rules
from wyrd.rules.abacus import Ability, ChallengeType, GameState, Outcome
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

__all__ = ["ABILITIES", "TYPES", "VERBS", "WhoAbility", "challenge_ids", "character_names", "present_names"]

# This kit's verbs (SHARED's help, undo, log ... included): every verb module of the kit registers here.
VERBS = EditionTable(shared=SHARED)

ABILITIES = [a.value for a in Ability]
TYPES = [t.value for t in ChallengeType]


def character_names(state: GameState) -> list[str]:
    return list(state.characters)


def present_names(state: GameState) -> list[str]:
    """Those present in the scene and standing; between scenes, everyone standing."""
    standing = [n for n, c in state.characters.items() if not c.defeated]
    if state.scene is None:
        return standing
    return [n for n in state.scene.present if n in standing]


def challenge_ids(state: GameState) -> list[str]:
    return list(state.scene.challenges) if state.scene else []


def take_character(w: Words, state: GameState, what: str = "character") -> str:
    return w.take_name(what, character_names(state))


def take_ability(w: Words, what: str = "ability") -> str:
    return resolve(w.take(what), ABILITIES, "ability")


def take_challenge(w: Words, state: GameState) -> str:
    return resolve_challenge(w.take("challenge"), state)


def resolve_challenge(word: str, state: GameState) -> str:
    """The challenge of the scene ``word`` names: by id, name, or any word of its id."""
    if state.scene is None:
        raise UsageError("there is no scene, so there are no challenges")
    by_name = {c.name: c.id for c in state.scene.challenges.values()}
    ids = challenge_ids(state)
    try:
        return resolve(word, ids, "challenge")
    except UsageError:
        folded = word.casefold()
        for name, ident in by_name.items():
            if name.casefold() == folded:
                return ident
        # Any word of an id or a name will do when it is unambiguous: `dark` for the-dark-within.
        words = {c.id: c.id.split("-") + c.name.casefold().split() for c in state.scene.challenges.values()}
        hits = [i for i in ids if any(part.startswith(folded) for part in words[i])]
        if len(hits) == 1:
            return hits[0]
        raise


def take_names(w: Words, state: GameState) -> list[str]:
    """Character names up to the next keyword (``by``, ``with``, ``via``)."""
    names: list[str] = []
    while not w.empty and str(w.peek()).casefold() not in ("by", "with", "via"):
        names.append(w.take_name("character", character_names(state)))
    return names


@VERBS.register
class Pc(Verb):
    """pc add NAME body=N mind=N soul=N [wyrd=1] [concept="..."] [connection=NAME] [body_facets="a; b"]
    pc take NAME [NAME ...] | pc take all
    pc [NAME]

    `pc take NAME` or `pc take all` takes the story's pregenerated characters
    (`pregens` shows their sheets first). Create a character: 15 points over Body, Mind and Soul, each 3 to 9; two
    facets per ability (optional: body_facets, mind_facets, soul_facets, split by
    ';'); wyrd=1 begins with one point of personal Wyrd. `pc` alone lists the
    cast; `pc NAME` shows one character sheet.
    """

    key = "pc"
    aliases = ("character",)
    completes = ("add", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        if words.keyword("take"):
            names = words.until()
            if not names:
                raise words.fail("say whom to take: `pc take NAME` or `pc take all`")
            return {"take": ["all"] if [n.casefold() for n in names] == ["all"] else names}
        if not words.keyword("add"):
            name = take_character(words, state) if not words.empty else None
            words.done()
            return {"view": name}
        name = words.take("NAME")
        scores = {a: words.option_int(a, low=0, high=99) for a in ABILITIES}
        missing = [a for a, v in scores.items() if v is None]
        if missing:
            raise words.fail(f"missing {', '.join(f'{a}=N' for a in missing)}")
        facets = {}
        for a in ABILITIES:
            text = words.option(f"{a}_facets")
            if text is not None:
                facets[a] = [f.strip() for f in text.replace(",", ";").split(";") if f.strip()]
        wyrd = words.option_int("wyrd", 0, low=0, high=9)
        concept = words.option("concept", "") or ""
        connection = words.option("connection")
        words.done()
        return {"add": {"name": name, **scores, "facets": facets, "wyrd": wyrd, "concept": concept,
                        "connection": connection}}

    def is_change(self, args: Mapping[str, Any]) -> bool:
        return "add" in args or "take" in args

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "take" not in args or (args["take"] and isinstance(args["take"][0], dict)):
            return args
        story = story_of(ctx)
        if story is None:
            raise UsageError("no story is being played, so there are no pregenerated characters")
        return {"take": story.pregens(args["take"], list(ctx.state.characters))}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        if "take" in args:
            return A.enlist_party(state, dice, [A.Character.model_validate(c) for c in args["take"]])
        a = args["add"]
        return A.add_character(
            state, dice, a["name"], a["body"], a["mind"], a["soul"],
            facets={Ability(k): v for k, v in a["facets"].items()}, wyrd=a["wyrd"],
            concept=a["concept"], connection=a["connection"],
        )


def evident(state: GameState) -> list[StageRulesEvident]:
    """The stage rules in force that bear on the scene just begun: the players are told of them."""
    rules = bearing_rules(state)
    if state.scene is None or not rules:
        return []
    return [StageRulesEvident(scene=state.scene.id, rules=[r.id for r in rules], names=[r.name for r in rules])]


@VERBS.register
class SceneVerb(Verb):
    """scene [ID] [with A, B]

    Begin a scene with the named characters present (everyone standing if none
    are named). The scene Wyrd pool holds one point per character present, +1.
    In a story, `scene` alone begins the next scene; `scene ID` picks another
    scene the story has opened (in a freeform setting, ID picks the location).
    Each scene opens with its test: a Wyrd roll of those present who carry any
    Wyrd. A 6 interrupts the scene with that character's twist; a best of 1 or 2
    alters it with an intrusion; otherwise it goes as expected.
    """

    key = "scene"
    completes = ("way", "with", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        ident = None if words.peek() in (None, "with") else words.take("ID")
        present = take_names(words, state) if words.keyword("with") else present_names(state)
        words.done()
        return {"id": ident, "present": present}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "challenges" in args:
            return args
        # Without a narrator every scene opens with its test (DESIGN.md).
        story = story_of(ctx)
        found = story.scene_args(args["id"], ctx.state, ctx.dice) if story is not None else {}
        return {"challenges": [], "rules": [], **args, **found, "test": True}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.start_scene(
            state, dice, args["present"], args["id"],
            challenges=[A.ChallengeSpec.model_validate(c) for c in args.get("challenges", [])],
            rules=[A.StageRule.model_validate(r) for r in args.get("rules", [])],
            test=bool(args.get("test", False)),
        )

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: GameState) -> Sequence[Event]:
        story = story_of(ctx)
        if story is None or state.scene is None:
            return []
        complication = args.get("complication")
        return [*story.framed(state.scene.id, state, str(complication) if complication else None), *evident(state)]


@VERBS.register
class ChallengeVerb(Verb):
    """challenge add "NAME" TYPE VALUE [after ID, ...] [denizen=ID]

    Place an ad hoc challenge in the scene. TYPE is one of obstruction, pursuit,
    threat (Body), logic, pressure, wits (Mind), foreboding, invocation, taint
    (Soul). With `after`, it can only be faced once those are overcome.
    """

    key = "challenge"
    completes = ("add", "", "type", "number")

    def parse(self, words: Words, state: GameState) -> Args:
        if not words.keyword("add"):
            raise words.fail("say `challenge add`")
        name = words.take("NAME")
        kind = resolve(words.take("TYPE"), TYPES, "challenge type")
        value = words.take_int("VALUE", low=0, high=99)
        denizen = words.option("denizen")
        after = [resolve(x, challenge_ids(state), "challenge") for x in words.until()] if words.keyword("after") else []
        words.done()
        return {"name": name, "type": kind, "value": value, "after": after, "denizen": denizen}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.add_challenge(state, dice, args["name"], ChallengeType(args["type"]), args["value"],
                               after=args["after"], denizen=args["denizen"])


@VERBS.register
class Attempt(Verb):
    """attempt CHALLENGE [by LEAD] [with A, B]

    Open a challenge roll led by LEAD (the only character present needs no
    `by`). The exact odds are shown, and change as points are assigned.
    """

    key = "attempt"
    aliases = ("try", "face")
    completes = ("challenge", "by", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        challenge = take_challenge(words, state)
        lead = None
        helpers: list[str] = []
        while not words.empty:
            if words.keyword("by"):
                lead = take_character(words, state, "LEAD")
            elif words.keyword("with"):
                helpers = take_names(words, state)
            else:
                raise words.fail(f"did not understand {words.peek()!r}")
        if lead is None:
            here = present_names(state)
            if len(here) != 1:
                raise words.fail("say who leads: `by NAME`")
            lead = here[0]
        return {"challenge": challenge, "lead": lead, "involved": helpers}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.attempt(state, dice, args["challenge"], args["lead"], args["involved"])


@VERBS.register
class Spend(Verb):
    """spend WHO N [ABILITY] [via PAYER]

    Assign N points of WHO's ABILITY to the open roll (the challenge's own
    ability by default). Each other ability costs 1 scene Wyrd, helping from outside
    the scene costs 1, both 2; WHO draws it, or PAYER (a defeated character's
    player spending their Wyrd for others). A conjured servant spends its pool.
    """

    key = "spend"
    aliases = ("assign",)
    completes = ("character", "number", "ability")

    def parse(self, words: Words, state: GameState) -> Args:
        servants = {s.name: s.id for s in state.servants.values()}
        try:
            who = take_character(words, state, "WHO")
        except UsageError:
            if not servants:
                raise
            who = servants[words.take_name("WHO", list(servants), "character or servant")]
        n = words.take_int("N", low=1)
        ability = None if words.peek() in (None, "via") else take_ability(words)
        payer = take_character(words, state, "PAYER") if words.keyword("via") else None
        words.done()
        return {"who": who, "n": n, "ability": ability, "paid_by": payer}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        ability = Ability(args["ability"]) if args["ability"] else None
        return A.spend(state, dice, args["who"], args["n"], ability, paid_by=args["paid_by"])


@VERBS.register
class RollVerb(Verb):
    """roll [FACE]

    Roll the die for the open challenge roll. With FACE, you rolled a real die:
    the face you type is used.
    """

    key = "roll"

    def parse(self, words: Words, state: GameState) -> Args:
        face = words.take_int("FACE", low=1, high=6) if not words.empty else None
        words.done()
        return {"face": face}

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        return [] if args["face"] is None else [args["face"]]

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.roll(state, dice)


@VERBS.register
class Draw(Verb):
    """draw WHO [N]

    After a failed roll, WHO draws N (default 1) Wyrd from the scene pool into
    their personal pool: +1 to the result each, as many as WHO likes (the pool allowing).
    """

    key = "draw"
    completes = ("character", "number")

    def parse(self, words: Words, state: GameState) -> Args:
        who = take_character(words, state, "WHO")
        n = words.take_int("N", low=1) if not words.empty else 1
        words.done()
        return {"who": who, "n": n}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.draw(state, dice, args["who"], args["n"])


@VERBS.register
class Accept(Verb):
    """accept

    Take the failure of the open roll and its consequences.
    """

    key = "accept"

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.accept(state, dice)


@VERBS.register
class End(Verb):
    """end scene [recover A=ABILITY ...] [connection A=ABILITY ...]

    Close the scene. Its Wyrd roll is made if none was; what is left in the pool
    is lost; each character who faced a challenge recovers one spent point (in
    the ability you name, or where most was spent).
    """

    key = "end"
    completes = ("scene", "recover", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        words.keyword("scene")
        groups: dict[str, dict[str, str]] = {"recover": {}, "connection": {}}
        while not words.empty:
            group = resolve(words.take("recover or connection"), list(groups), "word")
            for name, ability in words.pairs():
                who = resolve(name, character_names(state), "character")
                groups[group][who] = resolve(ability, ABILITIES, "ability")
        return groups

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.end_scene(
            state, dice, {k: Ability(v) for k, v in args["recover"].items()},
            {k: Ability(v) for k, v in args["connection"].items()},
        )


class WhoAbility(Verb):
    """The shape of verbs that take a character and one of their abilities."""

    completes = ("character", "ability")

    def parse(self, words: Words, state: GameState) -> Args:
        who = take_character(words, state, "WHO")
        ability = take_ability(words)
        words.done()
        return {"who": who, "ability": ability}


@VERBS.register
class Rest(WhoAbility):
    """rest WHO ABILITY

    Between scenes, a real rest: an influence roll of ABILITY, +1 point per 6.
    """

    key = "rest"

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.rest(state, dice, args["who"], Ability(args["ability"]))


@VERBS.register
class Finale(Verb):
    """finale

    End the story: every character still standing rolls their Wyrd. A 6 and the
    Vale holds them; anything lower sets them free.
    """

    key = "finale"

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.finale(state, dice)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: GameState) -> Sequence[Event]:
        story = story_of(ctx)
        if story is None:
            return []
        return [*story.endings(state), *story.postscripts(dict(state.results), ctx.dice, state)]
