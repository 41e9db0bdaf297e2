"""The Thaeborn verbs that cast for a deed or judge one: ``check``, ``again``, ``lots`` and ``assess``.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.lots`; its docstring is the in-game help (``help VERB``).
Importing this module registers them in :data:`~wyrd.play.kits.lots.verbs.VERBS`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from typing import Any

import wyrd.rules.lots as L
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import UsageError, Words, parse_int, resolve
from wyrd.play.kits.lots.verbs import (
    DISCIPLINES,
    STATS,
    VERBS,
    LotsVerb,
    take_discipline,
    take_modifier,
    take_text,
    take_who,
)
from wyrd.rules.dice import Dice

__all__: list[str] = []


@VERBS.register
class Check(LotsVerb):
    """check WHO DISCIPLINE|STAT|VALUE vs D [+N|-N] [effort=N] [tier=N] ["purpose"] [roll W O]

    WHO checks a Discipline, a Stat (capacity, bulk, hindrance, mobility) or any
    VALUE the table agrees on against the Difficulty D, then casts lots: a WEAL d4 and a WOE d4. The line shows the
    exact odds before the faces. CRIT (4,4) lifts a failure, FUMBLE (1,1) sinks a
    success, within the Rule of Fours: a Tier 4 or more above the Proficiency
    cannot succeed at all, a Proficiency 4 or more above the Tier cannot fumble;
    WASTE (WEAL 4, WOE 1) makes it neither and loses the effort; a WEAL 4 brings
    a benefit, a WOE 1 a consequence, whatever the result. `tier=N` (and
    `proficiency=N`) set the Rule of Fours' numbers when they are not D (and the
    Attribute before +N). Only players roll: an NPC makes no checks. The check
    also assesses the Tier.
    """

    key = "check"
    casts = True
    completes = ("character", "discipline", "vs", "number")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        what = words.take("DISCIPLINE or VALUE")
        discipline, stat, value = None, None, None
        if what.lstrip("-").isdigit():
            value = parse_int(what, "VALUE")
        else:
            chosen = resolve(what, [*DISCIPLINES, *STATS], "Discipline or Stat")
            discipline, stat = (chosen, None) if chosen in DISCIPLINES else (None, chosen)
        words.keyword("vs")
        difficulty = words.take_int("D", low=0, high=99)
        modifier = take_modifier(words)
        effort = words.option_int("effort", 0, low=0, high=99)
        tier = words.option_int("tier", low=0, high=99)
        proficiency = words.option_int("proficiency", low=0, high=99)
        purpose = take_text(words, "purpose")
        return {"who": who, "discipline": discipline, **({"stat": stat} if stat else {}), "value": value,
                "difficulty": difficulty,
                "modifier": modifier, "effort": effort, "tier": tier, "proficiency": proficiency, "purpose": purpose}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        discipline = L.Discipline(args["discipline"]) if args["discipline"] else None
        stat = L.Stat(args["stat"]) if args.get("stat") else None
        return L.check(state, dice, args["who"], args["difficulty"], discipline=discipline, stat=stat,
                       value=args["value"],
                       modifier=args["modifier"], effort=args["effort"], tier=args["tier"],
                       proficiency=args["proficiency"], purpose=args["purpose"])


@VERBS.register
class Again(LotsVerb):
    """again WHO [+N|-N] [roll W O]

    Try, try again: WHO makes their check again, right after it, when they were
    able enough for it but fate spoiled it (a WASTE, or a FUMBLE that sank it)
    and time and means allow. A lot may give the new attempt a modifier.
    """

    key = "again"
    aliases = ("retry",)
    casts = True
    completes = ("character", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        modifier = take_modifier(words)
        words.done()
        return {"who": who, "modifier": modifier}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.retry(state, dice, args["who"], modifier=args["modifier"])


@VERBS.register
class Lots(LotsVerb):
    """lots [WHO] ["why"] [roll W O]

    Cast lots with no check: only the lot matters. With WHO, their cast (to see
    whether the Thae touches them, whether they hear the horn); without, the
    world's own secret cast (the weather, what stirs in the dark). These are
    the rules' own lots: Portents may change them, and a CRIT or a FUMBLE
    brings a twist. `ask` is the oracle's yes or no for what no lot decides
    (whether the door is locked); its dice are the narrator's, not fate's.
    """

    key = "lots"
    aliases = ("cast",)
    casts = True
    completes = ("character", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = None
        if words.peek():  # a character's name, else the world's cast and this is its reason
            with contextlib.suppress(UsageError):
                who = resolve(str(words.peek()), list(state.characters), "character")
                words.take("WHO")
        return {"who": who, "purpose": take_text(words, "reason")}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.cast_lots(state, dice, args["who"], args["purpose"])


@VERBS.register
class Assess(LotsVerb):
    """assess WHO DISCIPLINE TIER [observe|touch|aggressive] [for MIN] [rushed] [living] ["what"]

    Judge a target's Tier without casting lots: the Proficiency meets it and the
    Tier is known exactly; otherwise only the size of the gap. Observing only
    counts 1 lower, prodding and prying (aggressive) 1 higher. A thing takes 4
    minutes + 2 a Tier - the Proficiency; `for MIN` (willing to spend longer than
    that) gives +1, `rushed` -1. `living` for a creature (no time formula).
    """

    key = "assess"
    completes = ("character", "discipline", "number")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        discipline = take_discipline(words)
        tier = words.take_int("TIER", low=0, high=99)
        commitment, minutes, rushed, living, subject = "touch", None, False, False, ""
        while not words.empty:
            word = words.take("OPTION")
            folded = word.casefold()
            if folded in ("observe", "touch", "aggressive"):
                commitment = folded
            elif folded == "for":
                minutes = words.take_int("MIN", low=0, high=600)
            elif folded in ("rushed", "living"):
                rushed, living = rushed or folded == "rushed", living or folded == "living"
            elif subject:
                raise words.fail('put what is assessed in quotes ("...")')
            else:
                subject = word
        return {"who": who, "discipline": discipline, "tier": tier, "commitment": commitment, "minutes": minutes,
                "rushed": rushed, "living": living, "subject": subject}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.assess(state, dice, args["who"], L.Discipline(args["discipline"]), args["tier"],
                        commitment=L.Commitment(args["commitment"]), living=args["living"],
                        willing_minutes=args["minutes"], rushed=args["rushed"], subject=args["subject"])
