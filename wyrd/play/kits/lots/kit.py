"""Playing Thaeborn: the sheet and story verbs, and the hooks the shared play layer calls.

Importing this module registers every Thaeborn verb: those that cast lots are
in :mod:`wyrd.play.kits.lots.checks`, :mod:`wyrd.play.kits.lots.harm` and
:mod:`wyrd.play.kits.lots.portents`; here are ``pc``, ``award``, ``convert`` and
``develop`` (the sheet), and ``story`` and ``scene`` (a scenario of
:mod:`wyrd.stories.lots`, followed by a :class:`~wyrd.stories.lots.ScenarioPlay` the
session keeps in step). It also registers the :class:`~wyrd.play.engine.kits.PlayHooks`
of ``lots``: after each change, what is due (which casts Portents may still
change and what each player would pay, who loses their next action, who may
try again and at what exact odds); the status, the sheets and the one-line
toolbar; the text of each event (:mod:`wyrd.play.kits.lots.texts`) and the
narration hook (:mod:`wyrd.play.kits.lots.narration`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import wyrd.rules.lots as L
from wyrd.oracle.narrators.telling import LazyNarration
from wyrd.play.engine.events import ORACLE_ADDED, ORACLE_EVENTS, EventKinds, StoryChosen
from wyrd.play.engine.kits import Move, OracleHooks, PlayHooks
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import UsageError, Words, parse_int, pick_names, resolve
from wyrd.play.frontends.view import short_names
from wyrd.play.kits.lots import (
    checks,  # noqa: F401  (registers the verbs of checks, lots and assessment)
    harm,  # noqa: F401  (registers the verbs of blows, fights, Pain and rest)
    looks,
    portents,  # noqa: F401  (registers the verbs that spend Portents)
    signs,
)
from wyrd.play.kits.lots import words as vocabulary
from wyrd.play.kits.lots.looks import fight_won
from wyrd.play.kits.lots.preview import preview
from wyrd.play.kits.lots.texts import RECALL, TEXTS, disciplines, fraction, n_of
from wyrd.play.kits.lots.verbs import DISCIPLINES, STATS, VERBS, LotsVerb, take_discipline, take_text, take_who
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.lots import GameState, Outcome, check_odds, portent_cost
from wyrd.rules.lots.counts import now as fight_count
from wyrd.rules.lots.counts import up_next
from wyrd.stories.lots import (
    END,
    Scenario,
    ScenarioError,
    ScenarioPlay,
    Scene,
    Sheet,
    close_story,
    find_scenario,
    open_scene,
)
from wyrd.stories.lots.events import SceneCall, SceneOpened, StoryClosed
from wyrd.stories.modelkept import dumped

__all__ = ["KIT"]


def _scenario(ctx: Any) -> ScenarioPlay:
    follower = ctx.follower
    if not isinstance(follower, ScenarioPlay) or follower.scenario is None:
        raise UsageError("no story is being played: `story ID` chooses one")
    return follower


@VERBS.register
class StoryVerb(LotsVerb):
    """story ID

    Play the Thaeborn scenario ID (a file in a `lots` folder of the stories):
    its pregenerated characters can be taken with `pc take`, and `scene` moves
    through its scenes. The whole scenario goes into the save.
    """

    key = "story"
    completes = ("story",)

    def read(self, words: Words, state: GameState) -> Args:
        ident = words.take("ID")
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: Any) -> Args:
        follower = ctx.follower
        if isinstance(follower, ScenarioPlay) and follower.scenario is not None:
            raise UsageError(f"this session already follows {follower.scenario.id}")
        try:
            scenario = find_scenario(str(args["id"]), ctx.dirs)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None
        return {"id": scenario.id, "story": dumped(scenario)}

    def play(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return Outcome(state, [])

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: Any,
              state: Any) -> list[Event]:
        story = args["story"]
        return [StoryChosen(story=story["id"], title=story["title"], premise=story["premise"],
                            pregens=[p["name"] for p in story["pregens"]])]


@VERBS.register
class SceneVerb(LotsVerb):
    """scene [ID]

    Move on in the story: the next scene opens, its NPCs come in, and it says
    what it calls for (suggestions, with WHO for you to fill in), who is here and
    what failing costs. Where the story branches, the first way open from here
    is taken (`exits` shows them all; `scene ID` takes another open one): a
    check not made counts as failed, a foe still standing as a fight lost. A
    fight on ends when the scene is left. At the end, `scene` brings the ending.
    """

    key = "scene"
    completes = ("scene",)

    def read(self, words: Words, state: GameState) -> Args:
        ident = words.take_optional()
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: Any) -> Args:
        if "story" in args:
            return args
        follower = _scenario(ctx)
        scenario = follower.scenario
        assert scenario is not None
        if follower.ended:
            raise UsageError(f"{scenario.title} has ended")
        settled = follower.settle(fight_won(ctx.state, follower))
        known = {**follower.outcomes, **settled}
        left = follower.unplayed()
        current = follower.current
        if current is not None and current.exits:
            ways = [w for w in current.exits if (w.when is None or w.when.holds(known))
                    and (w.to == END or w.to not in follower.played)]
            targets = [w.to for w in ways]
            if args["id"] is not None and targets:
                chosen = resolve(str(args["id"]), targets, "way open from here")
                ways = [w for w in ways if w.to == chosen]
            if ways:
                left = [s for s in left if s.id == ways[0].to]
                if ways[0].to == END:
                    return {**self._ending(scenario, known, settled), **self._fight_over(ctx.state)}
        elif args["id"] is not None:
            chosen = resolve(str(args["id"]), [s.id for s in left], "scene not yet played")
            left = [s for s in left if s.id == chosen]
        if not left:
            return {**self._ending(scenario, known, settled), **self._fight_over(ctx.state)}
        scene = left[0]
        present = {n.casefold() for n in ctx.state.characters}
        names = [*scene.enters, *([scene.fight.npc] if scene.fight else [])]
        npcs = [scenario.npc(n).model_dump(mode="json") for n in dict.fromkeys(names) if n.casefold() not in present]
        told = scene.model_copy(update={"text": scene.text_for(known)})
        return {"id": scene.id, "story": scenario.id, "number": len(follower.played) + 1,
                "scene": told.model_dump(mode="json"), "npcs": npcs, "settled": settled,
                **self._fight_over(ctx.state)}

    @staticmethod
    def _fight_over(state: Any) -> Args:
        """A fight does not follow the story into its next scene: leaving ends it."""
        return {"end_fight": True} if isinstance(state, GameState) and state.fight is not None else {}

    @staticmethod
    def _ending(scenario: Scenario, known: Mapping[str, str], settled: Mapping[str, str]) -> Args:
        return {"id": None, "story": scenario.id, "title": scenario.title, "ending": scenario.ending_for(known),
                "settled": dict(settled)}

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: Any, state: Any) -> list[Event]:
        if args.get("id") is None or "scene" not in args:
            return []
        return list(looks.framing(state, ctx.follower, Scene.model_validate(args["scene"])))

    def play(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        ended: list[Event] = []
        if args.get("end_fight") and state.fight is not None:  # saved since issue 18; older scenes kept the fight
            done = L.end_fight(state, dice)
            state, ended = done.state, list(done.events)
        outcome = close_story(state, args) if args["id"] is None else open_scene(state, dice, args)
        return Outcome(outcome.state, ended + list(outcome.events))


@VERBS.register
class Pc(LotsVerb):
    """pc add NAME prowess=N willpower=N ... [mettle=N] [capacity=N ...] [armour=N] [portents=N] [npc] [concept="..."]
    pc take NAME [NAME ...] | pc take all
    pc [NAME]

    Disciplines run 0 to 10 (prowess, willpower, survival, subterfuge, intuition,
    ingenuity; one left out is 0). Mettle (1 to 10) is what Pain is tested
    against; it defaults to the Willpower. The other Stats (capacity, bulk,
    hindrance, mobility; 0 to 10) are tracked for reference, and `check` can use
    them. Armour takes its share off each hit.
    `npc` makes a non-player character: only players roll, so it casts no lots
    (players cast against it with `attack` and `defend`).
    `pc take NAME` or `pc take all` brings in the story's pregenerated characters
    (`pregens` shows their sheets first).
    `pc` alone lists everyone; `pc NAME` shows one sheet.
    """

    key = "pc"
    aliases = ("character",)
    completes = ("add", "character")
    _STATS = ("mettle", "armour", "armor", "portents", "concept")

    def read(self, words: Words, state: L.GameState) -> Args:
        if words.keyword("take"):
            return {"take": [words.take("NAME"), *words.until()]}
        if not words.keyword("add"):
            name = take_who(words, state, "NAME") if not words.empty else None
            words.done()
            return {"view": name}
        name = words.take("NAME")
        if "=" in name:
            raise words.fail("the name comes first")
        sheet: dict[str, Any] = {"name": name, "disciplines": {}, "mettle": None, "armour": 0, "portents": 0,
                                 "npc": False, "concept": ""}
        while not words.empty:
            word = words.take("OPTION")
            if word.casefold() == "npc":
                sheet["npc"] = True
                continue
            key, eq, value = word.partition("=")
            if not eq or not value:
                raise words.fail(f"did not understand {word!r}")
            which = resolve(key, [*DISCIPLINES, *STATS, *self._STATS], "Discipline, Stat or option")
            if which in STATS:
                sheet.setdefault("stats", {})[which] = parse_int(value, which, low=0, high=99)
            elif which == "concept":
                sheet["concept"] = value
            elif which in DISCIPLINES:
                sheet["disciplines"][which] = parse_int(value, which, low=0, high=99)
            else:
                sheet["armour" if which == "armor" else which] = parse_int(value, which, low=0, high=99)
        return {"add": sheet}

    def is_change(self, args: Mapping[str, Any]) -> bool:
        return "add" in args or "take" in args

    def prepare(self, args: Args, ctx: Any) -> Args:
        if "take" not in args or (args["take"] and isinstance(args["take"][0], dict)):
            return args
        follower = ctx.follower
        if not isinstance(follower, ScenarioPlay) or follower.scenario is None:
            raise UsageError("no story is being played, so there are no pregenerated characters")
        pregens = {p.name: p for p in follower.scenario.pregens}
        names = pick_names(args["take"], list(pregens), "pregenerated character", taken=ctx.state.characters)
        return {"take": [pregens[n].model_dump(mode="json") for n in names]}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        if "take" in args:
            events: list[Event] = []
            for data in args["take"]:
                outcome = L.enlist(state, dice, Sheet.model_validate(data).character())
                state = outcome.state
                events += outcome.events
            return L.Outcome(state, events)
        a = args["add"]
        return L.add_character(state, dice, a["name"], a["disciplines"], mettle=a["mettle"], armour=a["armour"],
                               portents=a["portents"], npc=a["npc"], concept=a["concept"], stats=a.get("stats"))


@VERBS.register
class Award(LotsVerb):
    """award WHO N ["why"]

    The table awards WHO N Story Points, for a self-prescribed result that was
    entertaining, or for sharing in another's horrendous failure.
    """

    key = "award"
    completes = ("character", "number", "")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N", low=-99, high=99)
        return {"who": who, "n": n, "why": take_text(words, "reason")}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.award(state, dice, args["who"], args["n"], args["why"])


@VERBS.register
class Convert(LotsVerb):
    """convert WHO N portents|dp

    WHO turns N Story Points into as many Portents, or Development Points (dp).
    At any time: converting does not close a cast to Portents.
    """

    key = "convert"
    completes = ("character", "number", "points")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        n = words.take_int("N", low=-99, high=99)
        into = resolve(words.take("portents|dp"), ["portents", "dp", "development"], "kind of point")
        words.done()
        return {"who": who, "n": n, "into": "portents" if into == "portents" else "development"}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.convert(state, dice, args["who"], args["n"], L.Conversion(args["into"]))


@VERBS.register
class Develop(LotsVerb):
    """develop WHO DISCIPLINE

    WHO raises a Discipline by one, paying its new value in Development Points
    (from 3 to 4 costs 4).
    """

    key = "develop"
    completes = ("character", "discipline")

    def read(self, words: Words, state: L.GameState) -> Args:
        who = take_who(words, state)
        discipline = take_discipline(words)
        words.done()
        return {"who": who, "discipline": discipline}

    def play(self, state: L.GameState, dice: Dice, args: Mapping[str, Any]) -> L.Outcome:
        return L.develop(state, dice, args["who"], L.Discipline(args["discipline"]))


# -- what is due, the status, the sheets, the toolbar --------------------------------


def _window_lines(state: GameState) -> list[str]:
    players = [c for c in state.characters.values() if not c.npc]
    out: list[str] = []
    for record in state.window:
        roller = record.spec.roller or "the world"
        costs = ", ".join(f"{c.name} {portent_cost(state, c.name, record.id)} (has {c.portents})" for c in players)
        what = record.spec.form.value.replace("bare", "lots").replace("mettle", "Mettle test")
        out.append(f"Portents may still change cast {record.id} ({roller}'s {what}) until the next action: "
                   f"retell or blot WHO {record.id} costs {costs or 'no one'}.")
    return out


def _hints(state: Any, events: Sequence[Event] = ()) -> list[str]:
    if not isinstance(state, GameState):
        return []
    if not state.characters:
        return ["No one yet: pc add NAME prowess=5 willpower=4 survival=3 ... (or story ID, then pc take all)."]
    lines = _window_lines(state)
    at = fight_count(state)
    if at is not None:
        up = up_next(state)
        npcs = [n for n in up if state.characters[n].npc]
        tie = " together (a tie at the same Count: any of them may go first)" if len(up) > 1 else ""
        lines.append(f"Count {at}: {', '.join(up) or 'no one'} up{tie}"
                     + "".join(f"; {n} strikes: defend WHO against {n} effort=N" for n in npcs) + ".")
    for char in state.characters.values():
        condition = char.condition
        if condition.incapacitated:
            if not char.npc:
                lines.append(f"{char.name} is incapacitated: `rest {char.name}` eases {char.mettle} Pain.")
        elif condition.loses_action:
            lines.append(f"{char.name} loses their next action, reeling (a defence is still allowed).")
        spec = condition.retry
        just_now = any(r.spec.roller == char.name for r in state.window)  # offered after the check, not forever
        if spec is not None and spec.attribute is not None and spec.difficulty is not None and just_now:
            odds = check_odds(spec.attribute, spec.difficulty, proficiency=spec.rule_proficiency, tier=spec.rule_tier)
            lines.append(f"{char.name} may try again (again {char.name}): success {fraction(odds.p_success)}.")
        if char.story_points and not char.npc:
            lines.append(f"{char.name} holds {n_of(char.story_points, 'Story Point')}: "
                         f"convert {char.name} N portents|dp.")
    return lines


def _summary(state: GameState, name: str) -> str:
    char = state.characters[name]
    condition = char.condition
    flags = [w for w, on in (("incapacitated", condition.incapacitated), ("reeling", condition.loses_action),
                             ("may try again", condition.retry is not None)) if on]
    points = "" if char.npc else f", {n_of(char.portents, 'Portent')}, {char.story_points} SP, {char.development} DP"
    return (f"{char.name}{' (NPC)' if char.npc else ''}: Pain {condition.pain} (Mettle {char.mettle}, "
            f"armour {char.armour}){points}" + (f" [{', '.join(flags)}]" if flags else ""))


def _status(state: Any) -> list[str]:
    if not isinstance(state, GameState):
        return []
    lines = [_summary(state, name) for name in state.characters]
    return lines + _hints(state) if lines else _hints(state)


def _sheets(state: Any, name: str | None) -> list[str]:
    if not isinstance(state, GameState):
        return []
    lines: list[str] = []
    for who in [name] if name else list(state.characters):
        char = state.characters[who]
        condition = char.condition
        lines.append(f"{char.name}" + (f", {char.concept}" if char.concept else "")
                     + (" (NPC: casts no lots; players cast against them)" if char.npc else ""))
        lines.append(f"  {disciplines(char.disciplines)}")
        if char.stats:
            lines.append("  " + ", ".join(f"{s.value.title()} {v}" for s, v in char.stats.items()))
        lines.append(f"  Mettle {char.mettle}, armour {char.armour}; Pain {condition.pain}"
                     + ("; incapacitated" if condition.incapacitated else "")
                     + ("; loses their next action" if condition.loses_action else ""))
        if not char.npc:
            lines.append(f"  Portents {char.portents}, Story Points {char.story_points}, "
                         f"Development Points {char.development}")
        lines.append(f"  effort spent {condition.effort_spent} (lost {condition.effort_lost})")
    return lines


def _pregens(state: Any, follower: Any) -> list[str]:
    """Each pregen of the scenario with their whole sheet, marked taken or not (``pregens``)."""
    found = follower.scenario if isinstance(follower, ScenarioPlay) else None
    if not isinstance(state, GameState) or found is None:
        return []
    lines: list[str] = []
    for spec in found.pregens:
        char = spec.character()
        shown = _sheets(state.model_copy(update={"characters": {char.name: char}}), char.name)
        shown[0] += " (taken)" if char.name in state.characters else " (not taken yet)"
        lines += shown
    return lines


def _toolbar(state: Any) -> str:
    if not isinstance(state, GameState):
        return ""
    parts = []
    short = short_names(state.characters)
    for char in state.characters.values():
        mark = " down" if char.condition.incapacitated else (" reeling" if char.condition.loses_action else "")
        points = "" if char.npc else f" P{char.portents}"
        parts.append(f"{short[char.name]} pain {char.condition.pain}/{char.mettle}{points}{mark}")
    if state.fight is not None:
        parts.append(f"Count {fight_count(state)}")
    if state.window:
        parts.append("open to Portents: " + ", ".join(r.id for r in state.window))
    return " | ".join(parts) or "no one yet: pc add NAME ..."


def _askers(state: L.GameState) -> list[str]:
    return [n for n, c in state.characters.items() if not c.npc]


def _able(state: L.GameState) -> list[str]:
    return [n for n, c in state.characters.items() if not (c.npc or c.condition.incapacitated)]


ORACLE = OracleHooks(askers=_askers, present=_able, tension=signs.tension,
                     tension_words="the strain on the party (1 for a fight on, 1 for each character reeling or down)",
                     twist=signs.answer_twist, reading="lots/interpretation")

# The common moves, as buttons at the shared table: a check (the player names who, what and against what),
# in a fight an attack, else the next scene.
MOVES = (
    Move("Check...", "check ", send=False, when=lambda state, follower: bool(state.characters)),
    Move("Attack...", "attack ", send=False, when=lambda state, follower: state.fight is not None),
    Move("Next scene", "scene", when=lambda state, follower: state.fight is None and bool(state.characters)),
    Move("Rest...", "rest ", send=False, when=lambda state, follower: state.fight is None and bool(state.characters)),
)

KIT = PlayHooks(
    ruleset="lots", verbs=VERBS, hints=_hints, status=_status, sheet=_sheets, toolbar=_toolbar,
    tell=LazyNarration(f"{__package__}.narration:NARRATION"), texts=TEXTS, recall=RECALL, follow=ScenarioPlay.follow,
    added_kinds=frozenset({"story_chosen", "scene_framed"}) | ORACLE_ADDED,
    events=EventKinds(L.LotsEvent, SceneOpened, SceneCall, StoryClosed, StoryChosen, looks.SceneFramed,
                      *ORACLE_EVENTS),
    words=vocabulary.words, complete=vocabulary.complete, quick_start="harrow-mere",
    scene_opens=frozenset({"scene_opened"}), oracle=ORACLE, follower_hints=looks.story_hints,
    frame=looks.frame, stage_rules=looks.stage_rules, exits=looks.exits, spotlight=looks.spotlight,
    preview=preview, pregens=_pregens, moves=MOVES,
)
