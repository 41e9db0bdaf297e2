"""The Thaeborn verbs: characters, checks and lots, assessment, harm, Portents and Story Points.

Each class reads its words into canonical arguments and applies them to
:mod:`wyrd.rules.lots`; its docstring is the in-game help (``help VERB``). Every verb
that casts lots takes physical dice too: end the line with ``roll W O`` (the
WEAL face, then the WOE face, for each cast it makes, d4s); faces typed are
used first, and anything cast beyond them (the Mettle test a blow sets off)
is cast by the engine.

Every command read now carries ``edition`` (:data:`EDITION`): the rules as
seed 004 has them. A saved command without it was played before Wyrd followed
the text on who rolls, damage, the Rule of Fours and second tries, and replays
under that first reading (:func:`wyrd.rules.lots.turn.first_reading`), so old
saves resume to the state they were left in.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any, ClassVar

import wyrd.rules.lots as L
from wyrd.play.engine.verbs import SHARED, Args, Verb, VerbTable
from wyrd.play.engine.words import UsageError, Words, parse_int, resolve
from wyrd.rules.dice import Dice
from wyrd.rules.lots.events import ActionLost
from wyrd.rules.lots.fate import SIDES
from wyrd.rules.lots.turn import first_reading

__all__ = [
    "DISCIPLINES", "EDITION", "STATS", "VERBS", "LotsVerb", "lots_state", "take_discipline", "take_faces", "take_text",
    "take_who",
]

# This kit's verbs (SHARED's help, undo, log ... included): every verb module of the kit registers here.
VERBS = VerbTable(shared=SHARED)

DISCIPLINES = [d.value for d in L.Discipline]
STATS = [s.value for s in L.Stat]
_MOD = re.compile(r"^(off|def)([+-]\d+)=(.+)$", re.IGNORECASE)
EDITION = 2
"""The reading of the rules a command is played under (a saved command without one: the first)."""
_CAST_ID = re.compile(r"^c\d+$", re.IGNORECASE)


def lots_state(state: object) -> L.GameState:
    """The Thaeborn state a verb was handed (the session's state is typed for every ruleset)."""
    if not isinstance(state, L.GameState):
        raise UsageError("this command belongs to Thaeborn (wyrd play --ruleset lots)")
    return state


def take_who(words: Words, state: L.GameState, what: str = "WHO") -> str:
    """A character's name (any case, a unique beginning, several words)."""
    return words.take_name(what, list(state.characters))


def take_discipline(words: Words, what: str = "DISCIPLINE") -> str:
    """A Discipline by name or a unique beginning (``pro`` for prowess)."""
    return resolve(words.take(what), DISCIPLINES, "Discipline")


def take_faces(words: Words) -> list[int]:
    """A trailing ``roll W O [W O ...]``: faces of real d4s, WEAL then WOE for each cast."""
    faces: list[str] = []
    at = len(words.words)
    while at > 0 and words.words[at - 1].lstrip("+-").isdigit():
        at -= 1
        faces.insert(0, words.words[at])
    if at == 0 or words.words[at - 1].casefold() != "roll":
        return []
    if not faces or len(faces) % 2:
        raise words.fail("`roll` takes two d4 faces for each cast, the WEAL face first (roll 4 2)")
    del words.words[at - 1 :]
    return [parse_int(f, "a d4 face", low=1, high=SIDES) for f in faces]


def take_modifier(words: Words) -> int:
    """An optional ``+N`` or ``-N`` next."""
    word = words.peek()
    if word is not None and word[:1] in "+-" and word[1:].isdigit():
        words.take("MOD")
        return parse_int(word, "the modifier", low=-20, high=20)
    return 0


def take_text(words: Words, what: str) -> str:
    """One optional free word (quote it to keep spaces): a purpose, a reason, a source."""
    text = words.take_optional() or ""
    if not words.empty:
        raise words.fail(f'put the {what} in quotes ("...") or leave it out')
    return text


class LotsVerb(Verb):
    """A Thaeborn verb: ``read`` and ``play`` see the Thaeborn state, typed."""

    casts: ClassVar[bool] = False  # whether it takes `roll W O`

    def parse(self, words: Words, state: Any) -> Args:
        """The physical dice at the end of the line first, then the verb's own words."""
        faces = take_faces(words) if self.casts else []
        args = {**self.read(words, lots_state(state)), "edition": EDITION}
        return {**args, "faces": faces} if self.casts else args

    def read(self, words: Words, state: L.GameState) -> Args:
        """The canonical arguments of the words after the verb."""
        words.done()
        return {}

    def typed_faces(self, args: Mapping[str, Any]) -> list[int]:
        return [int(f) for f in args.get("faces", [])]

    def apply(self, state: Any, dice: Dice, args: Mapping[str, Any]) -> Any:
        """Play the verb; faces typed and never cast are refused, not silently dropped.

        An action lost to a failed Mettle test casts nothing, so the faces typed
        for it are not asked for: the character spends the action reeling.
        """
        with nullcontext() if args.get("edition") == EDITION else first_reading():
            outcome = self.play(lots_state(state), dice, args)
        if dice.queued and any(isinstance(e, ActionLost) for e in outcome.events):
            return outcome
        if dice.queued:
            used = len(args.get("faces", [])) - len(dice.queued)
            raise UsageError(f"{len(args.get('faces', []))} faces were typed, but only {used} were cast")
        return outcome

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        """Apply the arguments to the rules core."""
        raise NotImplementedError


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


def _portent_args(words: Words, state: L.GameState) -> Args:
    who = take_who(words, state)
    cast = words.take("CAST").casefold() if _CAST_ID.match(words.peek() or "") else None
    words.done()
    return {"who": who, "cast": cast}


@VERBS.register
class Retell(LotsVerb):
    """retell WHO [CAST] [roll W O ...]

    WHO spends Portents to have a cast told again (the latest, or CAST such as c3,
    while it is still open: until the next action). Only the new telling happens,
    and what the old one set off is gone; the effort still counts. A Re-tell can
    be re-told. It costs 1 for WHO's own cast, 2 for another player's, 3 for an
    NPC's or the world's. Not an undo: both casts stay in the record.
    """

    key = "retell"
    aliases = ("re-tell",)
    casts = True
    completes = ("character", "cast")

    def read(self, words: Words, state: L.GameState) -> Args:
        return _portent_args(words, state)

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.retell(state, dice, args["who"], args["cast"])


@VERBS.register
class Blot(LotsVerb):
    """blot WHO [CAST]

    WHO spends Portents to blot out a cast (the latest, or CAST such as c3, while
    it is still open): the act never happened, and its effort is lost. Same cost
    as a Re-tell. Nobody in the story knows but WHO.
    """

    key = "blot"
    aliases = ("blot-out",)
    completes = ("character", "cast")

    def read(self, words: Words, state: L.GameState) -> Args:
        return _portent_args(words, state)

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.blot_out(state, dice, args["who"], args["cast"])
