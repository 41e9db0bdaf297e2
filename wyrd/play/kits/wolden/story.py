"""The Wolden verbs between encounters: characters, the scenario and its scenes, downtime, sessions.

``story ID`` copies a scenario and its cults into its arguments and installs the
cults; ``pc take`` enlists its pregenerated characters; ``scene`` takes the way on
that the last encounter's outcome opened (or the one the players name) into the
next scene and starts the encounter the scene brings (the players need not type it:
the scenario has already said what it is). Without a scenario, ``pc add`` finds
its cult in the cult files and brings it into play with the character.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any

import wyrd.rules.wolden as W
from wyrd.oracle.events import Narrated
from wyrd.play.engine.events import StoryChosen
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import Args
from wyrd.play.engine.words import UsageError, Words, parse_int, pick_names
from wyrd.play.kits.wolden import sittings
from wyrd.play.kits.wolden.encounters import encounter_args, start_encounter
from wyrd.play.kits.wolden.verbs import (
    ABILITIES,
    ACTIVITIES,
    EDITION,
    VERBS,
    ScenarioEnded,
    SceneBegun,
    WoldenVerb,
    chain,
    corrected,
    pick,
    progress,
    scenario,
    take_names,
    take_who,
    wolden,
)
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.modelkept import validated
from wyrd.stories.wolden import ExitSpec, ScenarioError, ScenarioProgress, load_cults, scenario_args

__all__ = ["settled"]


def _cult(word: str, state: W.GameState) -> str:
    """The cult in play that ``word`` names, else the word (``prepare`` looks in the cult files)."""
    try:
        return pick(word, {c.id: c.name for c in state.cults.values()}, "cult") if state.cults else word
    except UsageError:
        return word


def _add(words: Words, state: W.GameState) -> Args:
    name = words.take("NAME")
    cult = _cult(words.take("CULT"), state)
    scores: dict[str, int] = {}
    gifts: list[str] | None = None
    concept = ""
    while not words.empty:
        word = words.take("OPTION")
        key, eq, value = word.partition("=")
        if not eq:
            if gifts is None:  # a gift after `gifts=a` (commas split words)
                raise words.fail(f"did not understand {word!r}")
            gifts.append(word)
        elif key.casefold() in ABILITIES:
            scores[key.casefold()] = parse_int(value, key.casefold(), low=0, high=W.ABILITY_MAX)
        elif key.casefold() == "gifts":
            gifts = [g.strip() for g in value.split(",") if g.strip()]
        elif key.casefold() == "concept":
            concept = value
        else:
            raise words.fail(f"unknown option {key}=")
    missing = [a for a in ABILITIES if a not in scores]
    if missing:
        raise words.fail(f"missing {', '.join(f'{a}=N' for a in missing)}")
    return {"add": {"name": name, "cult": cult, **scores, "gifts": gifts, "concept": concept}}


@VERBS.register
class Pc(WoldenVerb):
    """pc add NAME CULT might=N agility=N mind=N graces=N [gifts=A,B] [concept="..."]
    pc take NAME [NAME ...] | pc take all
    pc [NAME]

    Make a character: the four abilities take 3, 2, 1 and 0 in any order, and
    two of the cult's gifts fill two of the four gift slots (gifts= may be left
    out when the cult offers just two). CULT is a cult in play, or one of the
    cult files' (lantern-wardens, brine-choir), brought into play with it.
    `pc take NAME` or `pc take all` enlists the scenario's pregenerated
    characters (`pregens` shows their sheets first). `pc` alone shows every
    sheet; `pc NAME` one.
    """

    key = "pc"
    aliases = ("character",)

    def read(self, words: Words, state: W.GameState) -> Args:
        if words.keyword("take"):
            names = words.until()
            if not names:
                raise words.fail("say whom to take: `pc take NAME` or `pc take all`")
            return {"take": names}
        if words.keyword("add"):
            return _add(words, state)
        name = take_who(words, state, "NAME") if not words.empty else None
        words.done()
        return {"view": name}

    def is_change(self, args: Mapping[str, Any]) -> bool:
        return "add" in args or "take" in args

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        state = wolden(ctx.state)
        if "take" in args:
            if args["take"] and isinstance(args["take"][0], dict):
                return args
            story = scenario(ctx, "pregenerated characters")
            names = pick_names(args["take"], [p.name for p in story.pregens], "pregenerated character",
                               taken=state.characters)
            return {"take": [p.model_dump(mode="json") for p in story.pregens if p.name in names]}
        add = args["add"]
        if add["cult"] in state.cults or "install" in args:
            return args
        found = load_cults(ctx.dirs)
        if not found:
            raise UsageError("there are no cult files to find the cult in")
        ident = pick(add["cult"], {c.id: c.name for c in found.values()}, "cult")
        return {"add": {**add, "cult": ident}, "install": [found[ident].model_dump(mode="json")]}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        cults = [W.Cult.model_validate(c) for c in args.get("install", [])]
        people = args["take"] if "take" in args else [args["add"]]
        steps = [lambda s: W.install(s, dice, cults)] * bool(cults) + [_adder(dice, p) for p in people]
        return chain(state, steps)


def _adder(dice: Dice, p: Mapping[str, Any]) -> Callable[[W.GameState], W.Outcome]:
    return lambda s: W.add_character(s, dice, p["name"], p["cult"], might=p["might"], agility=p["agility"],
                                     mind=p["mind"], graces=p["graces"], gifts=p["gifts"], concept=p["concept"])


@VERBS.register
class Story(WoldenVerb):
    """story ID

    Play the Wolden scenario ID (the bundled one is the-drowned-bell; your own go
    in a `wolden` folder of your stories). Its cults come into play, `pc take all`
    enlists its pregenerated characters, and `scene` follows its scenes.
    """

    key = "story"
    completes = ("story",)

    def read(self, words: Words, state: W.GameState) -> Args:
        ident = words.take("ID")
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "scenario" in args:
            return args
        current = progress(ctx).scenario
        if current is not None:
            raise UsageError(f"this session already follows {current.id}")
        try:
            return scenario_args(str(args["id"]), ctx.dirs)
        except ScenarioError as exc:
            raise UsageError(str(exc)) from None

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        return W.install(state, dice, [validated(W.Cult, c) for c in args["cults"]])

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        found = args["scenario"]
        return [StoryChosen(story=found["id"], title=found["title"], premise=found["premise"],
                            pregens=[p["name"] for p in found["pregens"]])]


@VERBS.register
class Scene(WoldenVerb):
    """scene [TO] [with A, B]

    Go on to the scenario's next scene: where the way on goes follows how the
    scene's encounter came out (`exits` lists the ways and which are open);
    where several are open, TO picks one (the first otherwise). What the scene
    brings is shown, and its encounter (an extended challenge, a travel montage
    or a fight) begins at once, with everyone standing or those named. Only
    once the encounter under way is over; a way to the end tells the ending.
    """

    key = "scene"
    completes = ("exit", "with", "character")

    def read(self, words: Words, state: W.GameState) -> Args:
        to = None if words.empty or str(words.peek()).casefold() == "with" else words.take("TO")
        who = take_names(words, state) if words.keyword("with") else []
        words.done()
        return {"participants": who} | ({"to": to} if to else {})

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "scene" in args or "end" in args:
            return args
        story = scenario(ctx, "scenes")
        place = progress(ctx)
        if place.ended:
            raise UsageError(f"{story.title} has ended")
        way = _way(place, args.get("to"))
        found = story.scene(way.to) if way is not None else None
        told = _fill(way.text) if way is not None else ""
        if found is None:
            return {"end": True, "story": story.id, "title": story.title, "lines": place.ending(), "way": told}
        number = len(place.played) + 1
        scene = {"number": number, "id": found.id, "title": found.title, "text": found.text,
                 "encounter": found.encounter, "settled": found.settled, "last": place.is_last(found),
                 "place": found.place, "way": told,
                 "fail": _fill(story.encounters[found.encounter].fail) if found.encounter else ""}
        encounter = None
        if found.encounter is not None:
            encounter = {**encounter_args(story.encounters[found.encounter], story),
                         "participants": args["participants"]}
        return {"scene": scene, "encounter": encounter, "seeds": [*found.narration, *story.narration]}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        if state.pending is not None:
            raise W.OutOfTurn(f"{state.pending.lead}'s roll is still open", rule="wolden.check.one-at-a-time")
        if state.encounter is not None:
            raise W.OutOfTurn(f"{state.encounter.name} is still going: see it through, or `abandon` it",
                              rule="wolden.encounter.one-at-a-time")
        if args.get("end"):
            return W.Outcome(state, [ScenarioEnded(story=args["story"], title=args["title"], lines=args["lines"],
                                                   way=args.get("way", ""))])
        begun = SceneBegun(**args["scene"])
        encounter = args["encounter"]
        return chain(state, [lambda s: start_encounter(s, dice, encounter)] * bool(encounter), first=[begun])

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: Any) -> list[Event]:
        seeds = args.get("seeds") or []
        told: list[Event] = []
        if seeds:
            face = ctx.dice.roll(1, len(seeds), "scene narration").faces[0]
            told = [Narrated(text=seeds[face - 1], source="story", moment="scene")]
        return told + super().after(args, events, ctx, state)


def _fill(text: str) -> str:
    return " ".join(text.split())


def _way(place: ScenarioProgress, to: str | None) -> ExitSpec | None:
    """The way on the players take: the one TO names among those open, else the first open (None: the end)."""
    if to is None:
        found = place.open_exits()
        return found[0] if found else None
    names = place.exit_names()
    chosen = pick(to, names, "way on")
    way = next(w for w in place.exits() if w.to == chosen)
    if not way.opens(place.outcomes):
        if way.encounter is not None and way.encounter not in place.outcomes:
            raise UsageError(f"the way to {names[chosen]} is not open yet: it opens on how "
                             f"{_encounter_name(place, way.encounter)} comes out")
        raise UsageError(f"the way to {names[chosen]} is shut: it opens on another outcome")
    return way


def _encounter_name(place: ScenarioProgress, ident: str) -> str:
    spec = place.scenario.encounters.get(ident) if place.scenario is not None else None
    return spec.name if spec is not None else ident


@VERBS.register
class Downtime(WoldenVerb):
    """downtime WHO training|shopping ITEM|rest|carouse

    Once a session at most, somewhere settled: WHO's ability damage heals, 4
    wounds mend, 4 new gift slots open (and one taken out is back on their
    feet); then one activity. Training rolls on the cult's table of powers,
    shopping takes ITEM from the cult's equipment list, rest heals 2d4 more
    wounds, carouse rolls on the cult's carousing table. In a scenario, only in
    a scene the scenario calls settled; a session is one run of `wyrd play` or
    `wyrd resume`, and the first downtime of a new one begins the next session.
    """

    key = "downtime"
    completes = ("character", "downtime")

    def read(self, words: Words, state: W.GameState) -> Args:
        who = take_who(words, state)
        activity = pick(words.take("ACTIVITY"), {a: a for a in ACTIVITIES}, "downtime activity")
        rest = words.until()
        item = " ".join(rest) if rest else None
        cult = state.cults.get(state.characters[who].cult)
        if item is not None and cult is not None:
            with contextlib.suppress(UsageError):  # if not, the rules name what the list holds
                item = pick(item, {i.id: i.name for i in cult.equipment}, "item")
        return {"who": who, "activity": activity, "item": item}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "run" in args:
            return args
        return {**args, "settled": settled(progress(ctx)), "run": sittings.current()}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        choice = W.DowntimeChoice(args["activity"])
        if not corrected(args, "settled", "run"):
            # the first reading: a downtime anywhere, once a session however the session was called
            return W.downtime(state, dice, args["who"], choice, item=args["item"])
        # Since editions, downtimes an old save took with no play session named count as an
        # earlier session's, so the first downtime after resuming it begins the next one.
        return W.downtime(state, dice, args["who"], choice, item=args["item"],
                          settled=bool(args.get("settled", True)), run=args.get("run"),
                          unnamed_earlier=int(args.get("edition", 1)) >= EDITION)


def settled(place: ScenarioProgress) -> bool:
    """Whether the party is somewhere a downtime fits.

    In a scenario, the scene under way says (none begun yet: not arrived anywhere);
    without one, nobody but the players knows where they are, so they say by
    taking it.
    """
    if place.scenario is None:
        return True
    scene = place.current
    return scene is not None and scene.settled


@VERBS.register
class Session(WoldenVerb):
    """session

    Say that a new session of play has begun, so everyone may take a downtime
    again. A session is one run of `wyrd play` or `wyrd resume`: this is refused
    in the session under way (resume the game another time), and needless after
    a resume, where the first downtime begins the new session by itself.
    """

    key = "session"

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        return args if "run" in args else {**args, "run": sittings.current()}

    def run(self, state: W.GameState, dice: Dice, args: Mapping[str, Any]) -> W.Outcome:
        if not corrected(args, "run"):
            return W.new_session(state, dice)  # the first reading: a new session at will
        return W.new_session(state, dice, run=args.get("run"))
