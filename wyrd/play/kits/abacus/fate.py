"""The Wyrd Abacus verbs for consequences, influence, the Wyrd and magic.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.abacus`. The docstrings are the in-game help (``help VERB``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import wyrd.rules.abacus as A
from wyrd.play.engine.verbs import Args, Verb
from wyrd.play.engine.words import Words, resolve
from wyrd.play.kits.abacus.verbs import (
    ABILITIES,
    TYPES,
    VERBS,
    WhoAbility,
    character_names,
    present_names,
    resolve_challenge,
    take_ability,
    take_challenge,
    take_character,
    take_names,
)
from wyrd.rules.abacus import (
    Ability,
    Casting,
    ChallengeType,
    GameState,
    MagicForm,
    Outcome,
    Template,
    TemplateKind,
)
from wyrd.rules.dice import Dice

__all__: list[str] = []


@VERBS.register
class Harm(Verb):
    """harm WHO ABILITY N

    An ad hoc consequence: WHO loses N points of ABILITY. Damage past 0 scratches
    the ability out; a second scratch defeats the character.
    """

    key = "harm"
    aliases = ("damage",)
    completes = ("character", "ability", "number")

    def parse(self, words: Words, state: GameState) -> Args:
        who = take_character(words, state, "WHO")
        ability = take_ability(words)
        n = words.take_int("N", low=1)
        words.done()
        return {"who": who, "ability": ability, "n": n}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.harm(state, dice, args["who"], Ability(args["ability"]), args["n"])


@VERBS.register
class Antagonist(Verb):
    """antagonist WHO TYPE [ABILITY]

    A defeated character whose Wyrd roll was a 6 stands against the others: place
    them in the scene as a challenge of TYPE whose value is one of their former
    ability scores (ABILITY's, by default the one TYPE belongs to).
    """

    key = "antagonist"
    completes = ("character", "type", "ability")

    def parse(self, words: Words, state: GameState) -> Args:
        who = take_character(words, state, "WHO")
        kind = resolve(words.take("TYPE"), TYPES, "challenge type")
        ability = None if words.empty else take_ability(words, "ABILITY")
        words.done()
        return {"who": who, "type": kind, "ability": ability}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        ability = Ability(args["ability"]) if args["ability"] else None
        return A.antagonist(state, dice, args["who"], ChallengeType(args["type"]), ability)


@VERBS.register
class Scratch(WhoAbility):
    """scratch WHO ABILITY

    An ad hoc consequence: scratch out WHO's ABILITY (if it already is, WHO is defeated).
    """

    key = "scratch"

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.scratch_out(state, dice, args["who"], Ability(args["ability"]))


@VERBS.register
class Influence(Verb):
    """influence ABILITY [A, B ...]

    An influence roll: as many dice as the ability's score, the highest counts;
    ties go to whoever shows it more often. Everyone present rolls if no one is named.
    """

    key = "influence"
    completes = ("ability", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        ability = take_ability(words, "ABILITY")
        names = take_names(words, state) or present_names(state)
        words.done()
        return {"ability": ability, "who": names}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.influence(state, dice, Ability(args["ability"]), args["who"])


@VERBS.register
class WyrdVerb(Verb):
    """wyrd [A, B ...]

    A Wyrd roll: each character rolls their personal Wyrd pool (no Wyrd counts as
    a 1). A 6 brings a twist for that character; a best of 1 or 2, a mundane or
    friendly intrusion. Everyone present rolls if no one is named.
    """

    key = "wyrd"
    completes = ("character",)

    def parse(self, words: Words, state: GameState) -> Args:
        names = take_names(words, state) or present_names(state)
        words.done()
        return {"who": names}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.wyrd(state, dice, args["who"])


@VERBS.register
class Contest(Verb):
    """contest ABILITY A B

    Character against character: an influence roll each, the highest wins.
    """

    key = "contest"
    completes = ("ability", "character", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        ability = take_ability(words, "ABILITY")
        a = take_character(words, state, "A")
        b = take_character(words, state, "B")
        words.done()
        return {"ability": ability, "a": a, "b": b}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.contest(state, dice, Ability(args["ability"]), args["a"], args["b"])


@VERBS.register
class Sabotage(Verb):
    """sabotage WHO CHALLENGE ABILITY

    WHO works against CHALLENGE: an influence roll of ABILITY, and the challenge's
    value rises by the number of 6s. Once per character per challenge; from outside
    the scene it costs 1 scene Wyrd, as helping from elsewhere does.
    """

    key = "sabotage"
    completes = ("character", "challenge", "ability")

    def parse(self, words: Words, state: GameState) -> Args:
        who = take_character(words, state, "WHO")
        challenge = take_challenge(words, state)
        ability = take_ability(words, "ABILITY")
        words.done()
        return {"who": who, "challenge": challenge, "ability": ability}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.sabotage(state, dice, args["who"], args["challenge"], Ability(args["ability"]))


FORMS = [f.value for f in MagicForm]


def _is_ability(word: str, state: GameState) -> bool:
    folded = word.casefold()
    if any(n.casefold().startswith(folded) for n in character_names(state)):
        return folded in ABILITIES
    return any(a.startswith(folded) for a in ABILITIES)


@VERBS.register
class Cast(Verb):
    """cast ward|charm|spell|conjuration by A[, B] ABILITY N "INSPIRATION" [template]

    Work magic, once a scene per caster (unless a stage rule allows more), inspired
    by something from the story so far. Each caster pays N points of ABILITY: at
    least 1 for a Ward or Charm, 2 for a Spell or Conjuration. A Ward's casters
    can't draw Wyrd for the rest of the scene; Charm and Spell casters must each
    draw 1; a Conjuration draws 1 if it can. Optional templates:
      ward ... against=TYPE or denizen=ID     -2 to that type or denizen this scene
      charm ... for=TYPE                      +2 to the next roll of that type this scene
      spell ... on=CHALLENGE [any_ability=yes] -3 to it, or any ability may be spent
      conjuration ... servant="NAME"          a servant with twice the points spent
    Add text="..." to say what the magic does in the story.
    """

    key = "cast"
    completes = ("form", "by", "character")

    def parse(self, words: Words, state: GameState) -> Args:
        form = resolve(words.take("FORM"), FORMS, "form of magic")
        if not words.keyword("by"):
            raise words.fail("say who casts: `by NAME`")
        template = self._template(form, words, state)
        text = words.option("text", "") or ""
        casters = []
        # Casters run until the ability; a shortened ability (`so`) ends them too,
        # unless it is also the start of a character's name.
        while not words.empty and not _is_ability(str(words.peek()), state):
            casters.append(words.take_name("caster", character_names(state)))
        if not casters:
            raise words.fail("name at least one caster")
        ability = take_ability(words, "ABILITY")
        n = words.take_int("N", low=0)
        inspiration = " ".join(words.until())
        return {"form": form, "casters": casters, "ability": ability, "n": n, "inspiration": inspiration,
                "template": template, "text": text}

    @staticmethod
    def _template(form: str, words: Words, state: GameState) -> dict[str, Any] | None:
        if form == "ward":
            against, denizen = words.option("against"), words.option("denizen")
            if against is None and denizen is None:
                return None
            kind = resolve(against, TYPES, "challenge type") if against else None
            return {"kind": "ward", "type": kind, "denizen": denizen}
        if form == "charm":
            kind = words.option("for")
            return {"kind": "charm", "type": resolve(kind, TYPES, "challenge type")} if kind else None
        if form == "spell":
            target = words.option("on")
            if target is None:
                return None
            any_ability = (words.option("any_ability") or "").casefold() in ("yes", "true", "1")
            challenge = resolve_challenge(target, state)
            return {"kind": "spell_ability" if any_ability else "spell", "challenge": challenge}
        name = words.option("servant")
        return {"kind": "servant", "name": name} if name is not None else None

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        castings = [Casting(character=c, ability=Ability(args["ability"]), points=args["n"]) for c in args["casters"]]
        raw = args["template"]
        template = None
        if raw is not None:
            template = Template(
                kind=TemplateKind(raw["kind"]), type=ChallengeType(raw["type"]) if raw.get("type") else None,
                denizen=raw.get("denizen"), challenge=raw.get("challenge"), name=raw.get("name") or "",
            )
        return A.cast(state, dice, MagicForm(args["form"]), castings, args["inspiration"], template=template,
                      text=args["text"])


@VERBS.register
class Option(Verb):
    """option connections on|off

    Turn the optional connection rule on or off: at a scene's end, a character
    who drew strongly on their connection recovers one more point
    (`end scene connection NAME=ABILITY`).
    """

    key = "option"
    completes = ("connections",)

    def parse(self, words: Words, state: GameState) -> Args:
        resolve(words.take("OPTION"), ["connections"], "option")
        value = resolve(words.take("on or off"), ["on", "off"], "setting")
        words.done()
        return {"connections": value == "on"}

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return A.install(state, dice, connections=args["connections"])
