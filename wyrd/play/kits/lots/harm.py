"""The Thaeborn verbs of harm: ``attack`` and ``defend``, a ``fight``'s Counts, ``pain`` and ``rest``.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.lots`; its docstring is the in-game help (``help VERB``).
Importing this module registers them in :data:`~wyrd.play.kits.lots.verbs.VERBS`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import wyrd.rules.lots as L
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import Words, parse_int
from wyrd.play.kits.lots.verbs import VERBS, LotsVerb, lots_state, take_text, take_who
from wyrd.rules.dice import Dice

__all__: list[str] = []

_MOD = re.compile(r"^(off|def)([+-]\d+)=(.+)$", re.IGNORECASE)


def _mods(words: Words) -> list[dict[str, Any]]:
    """The ``off+N=ADVANTAGE`` and ``def-N=ADVANTAGE`` words, wherever they are."""
    mods: list[dict[str, Any]] = []
    for word in list(words.words):
        found = _MOD.match(word)
        if found:
            words.words.remove(word)
            side = "offense" if found.group(1).casefold() == "off" else "defense"
            n = parse_int(found.group(2), "the Mod", low=-20, high=20)
            mods.append({"reason": found.group(3), "n": n, "on": side})
    return mods


def _blow_options(words: Words) -> dict[str, Any]:
    mods = _mods(words)
    return {"offense": words.option_int("off", low=0, high=99), "defense": words.option_int("def", low=0, high=99),
            "armour": words.option_int("armour", low=0, high=99), **({"mods": mods} if mods else {})}


@VERBS.register
class Attack(LotsVerb):
    """attack A B effort=N [off=N] [def=N] [off+N=WHY] [def-N=WHY] [armour=N] [undefended] ["purpose"] [roll W O ...]

    A strikes B and casts for the attack: Offense (A's Prowess) against Defense
    (B's Prowess), +1 when B actively defends. A CRIT lands it whatever the gap.
    A landed blow deals damage = effort + Accuracy (Offense - Defense) when the
    Accuracy is above 0, the effort alone otherwise; armour takes its share and
    the rest is Pain, and B Tests their Mettle (an NPC's test casts no lots).
    Only players roll: an NPC never casts; when it strikes a player, the player
    casts with `defend`. A Mod adjusts the Offense (`off+1=flank`) or the
    Defense (`def-1="off balance"`), each advantage once: the same one on both
    is refused ("Do not apply the same advantage twice").
    """

    key = "attack"
    casts = True
    completes = ("character", "character", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        attacker = take_who(words, state, "A")
        target = take_who(words, state, "B")
        effort = words.option_int("effort", low=0, high=99)
        if effort is None:
            raise words.fail("say the attack's effort: effort=N")
        options = _blow_options(words)
        undefended = words.keyword("undefended")
        return {"attacker": attacker, "target": target, "effort": effort, **options, "defended": not undefended,
                "purpose": take_text(words, "purpose")}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.attack(state, dice, args["attacker"], args["target"], effort=args["effort"],
                        offense=args["offense"], defense=args["defense"], armour=args["armour"],
                        defended=args["defended"], purpose=args["purpose"],
                        mods=[L.Mod.model_validate(m) for m in args.get("mods", [])])


@VERBS.register
class Defend(LotsVerb):
    """defend B against A effort=N [off=N] [def=N] [off+N=WHY] [def+N=WHY] [armour=N] ["purpose"] [roll W O ...]

    B casts against A's attack (A committed `effort`): Defense against Offense, a
    tie holds. A failure, or a WASTE, lets the blow land. A defence is a
    reaction: it does not use up an action lost to a Mettle test. Only players
    roll: B is a player's character (against a player's attack an NPC casts
    nothing: the attacker's `attack` decides it).
    """

    key = "defend"
    casts = True
    completes = ("character", "against", "character", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        defender = take_who(words, state, "B")
        words.keyword("against")
        attacker = take_who(words, state, "A")
        effort = words.option_int("effort", low=0, high=99)
        if effort is None:
            raise words.fail("say the attack's effort: effort=N")
        options = _blow_options(words)
        return {"defender": defender, "attacker": attacker, "effort": effort, **options,
                "purpose": take_text(words, "purpose")}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.defend(state, dice, args["defender"], args["attacker"], effort=args["effort"],
                        offense=args["offense"], defense=args["defense"], armour=args["armour"],
                        purpose=args["purpose"], mods=[L.Mod.model_validate(m) for m in args.get("mods", [])])


@VERBS.register
class FightVerb(LotsVerb):
    """fight [WHO ...] | fight end

    A fight begins: its Counts start at 0 for WHO (everyone present if no one is
    named: in a story's scene, not the story's NPCs left behind in earlier
    scenes). Then only those whose
    Count has come act: each Action (a check, an attack, a second try) takes
    as many Counts as its effort (at least 1), and the fight moves on to the
    next scheduled resolution. When an NPC is up, the player it strikes casts
    with `defend` (its blow takes the NPC's Counts). `fight end` ends it, and
    so does moving on to the next scene.
    """

    key = "fight"
    completes = ("character",)

    def read(self, words: Words, state: L.GameState) -> Args:
        if words.keyword("end"):
            words.done()
            return {"end": True}
        names: list[str] = []
        while not words.empty:
            names.append(take_who(words, state))
        return {"end": False, "who": names}

    def prepare(self, args: Args, ctx: Any) -> Args:
        # The names go into the saved arguments, so a replay begins the same fight.
        scene = getattr(ctx.follower, "current", None)
        if args["end"] or args["who"] or scene is None:
            return args
        here = {*scene.enters, *([scene.fight.npc] if scene.fight is not None else [])}
        story = getattr(ctx.follower, "scenario", None)
        behind = {n.name for n in story.npcs} - here if story is not None else set()
        state = lots_state(ctx.state)
        names = [c.name for c in state.characters.values() if c.name not in behind]
        return {**args, "who": names}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        if args["end"]:
            return L.end_fight(state, dice)
        return L.begin_fight(state, dice, args["who"])


@VERBS.register
class Pain(LotsVerb):
    """pain WHO N ["source"] [roll W O]

    WHO takes N Pain from something other than a blow (a fall, a fire, the Thae),
    and Tests their Mettle: Mettle against the total Pain, with lots. Failing
    costs the next action; a failing FUMBLE, or Pain of twice the Mettle,
    incapacitates.
    """

    key = "pain"
    casts = True
    completes = ("character", "number", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N", low=-99, high=99)
        return {"who": who, "n": n, "source": take_text(words, "source")}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.suffer(state, dice, args["who"], args["n"], args["source"])


@VERBS.register
class Rest(LotsVerb):
    """rest WHO

    WHO rests: their Pain falls by their Mettle, a lost action is made good, and
    once the Pain is below twice the Mettle they are back on their feet.
    """

    key = "rest"
    completes = ("character", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        words.done()
        return {"who": who}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.rest(state, dice, args["who"])
