"""Playing Thaeborn: its story verbs, and the hooks the shared play layer calls.

Importing this module registers the Thaeborn verbs (:mod:`play.lots_verbs`,
and here ``story`` and ``scene``) and its :class:`~play.rulesets.PlayHooks`:
after each change, the exact odds of a second try and what is due (which
casts Portents may still change and at what price, who loses their next
action); the status, the sheets and the toolbar; one line of text for each
Thaeborn event; and narration from the ``lots/...`` tables of the oracle, one
or two lines a command. The scenario followed is a :class:`stories.lots.ScenarioPlay`.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import play.lots_verbs  # noqa: F401  (registers the verbs)
from oracle.tables import roll
from play.lots_text import TEXTS, disciplines, n_of
from play.lots_verbs import LotsVerb
from play.rulesets import PlayHooks, register_hooks
from play.verbs import Args, register
from play.words import UsageError, Words, resolve
from rules.dice import Dice
from rules.lots import GameState, Outcome, check_odds, portent_cost
from stories.lots import ScenarioError, ScenarioPlay, close_story, find_scenario, open_scene

__all__ = ["HOOKS", "fraction"]


def fraction(p: Fraction) -> str:
    """A chance as it reads: ``7/8 (88%)``, or ``none`` and ``certain``."""
    if p == 0:
        return "none"
    return "certain" if p == 1 else f"{p} ({float(p):.0%})"


def _scenario(ctx: Any) -> ScenarioPlay:
    follower = ctx.follower
    if not isinstance(follower, ScenarioPlay) or follower.scenario is None:
        raise UsageError("no story is being played: `story ID` chooses one")
    return follower


@register
class StoryVerb(LotsVerb):
    """story ID

    Play the Thaeborn scenario ID (a file in a `lots` folder of the stories):
    its pregenerated characters can be taken with `pc take`, and `scene` moves
    through its scenes. The whole scenario goes into the save.
    """

    key = "story"

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
        return {"id": scenario.id, "story": scenario.model_dump(mode="json")}

    def play(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return Outcome(state, [])

    def after(self, args: Mapping[str, Any], events: list[dict[str, Any]], ctx: Any,
              state: Any) -> list[dict[str, Any]]:
        story = args["story"]
        return [{"kind": "story_chosen", "story": story["id"], "title": story["title"],
                 "premise": story["premise"], "pregens": [p["name"] for p in story["pregens"]]}]


@register
class SceneVerb(LotsVerb):
    """scene [ID]

    Move on in the story: the next scene (or scene ID, one not played yet) opens,
    its NPCs come in, and it says what it calls for (suggestions, with WHO for
    you to fill in). After the last scene, `scene` brings the ending.
    """

    key = "scene"

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
        left = follower.unplayed()
        if args["id"] is not None:
            chosen = resolve(str(args["id"]), [s.id for s in left], "scene not yet played")
            scene = next(s for s in left if s.id == chosen)
        elif left:
            scene = left[0]
        else:
            return {"id": None, "story": scenario.id, "title": scenario.title, "ending": scenario.ending}
        present = {n.casefold() for n in ctx.state.characters}
        names = [*scene.enters, *([scene.fight.npc] if scene.fight else [])]
        npcs = [scenario.npc(n).model_dump(mode="json") for n in dict.fromkeys(names) if n.casefold() not in present]
        return {"id": scene.id, "story": scenario.id, "number": len(follower.played) + 1,
                "scene": scene.model_dump(mode="json"), "npcs": npcs}

    def play(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        return close_story(state, args) if args["id"] is None else open_scene(state, dice, args)


# -- what is due, the status, the sheets, the toolbar --------------------------------


def _window_lines(state: GameState) -> list[str]:
    players = [c for c in state.characters.values() if not c.npc]
    out: list[str] = []
    for record in state.window:
        roller = record.spec.roller or "the world"
        costs = ", ".join(f"{c.name} {portent_cost(state, c.name, record.id)} of {c.portents}" for c in players)
        what = record.spec.form.value.replace("bare", "lots").replace("mettle", "Mettle test")
        out.append(f"Portents may still change cast {record.id} ({roller}'s {what}) until the next action: "
                   f"retell or blot WHO {record.id} costs {costs or 'no one'}.")
    return out


def _hints(state: Any) -> list[str]:
    if not isinstance(state, GameState):
        return []
    if not state.characters:
        return ["No one yet: pc add NAME prowess=5 willpower=4 survival=3 ... (or story ID, then pc take all)."]
    lines = _window_lines(state)
    for char in state.characters.values():
        condition = char.condition
        if condition.incapacitated:
            lines.append(f"{char.name} is incapacitated: `rest {char.name}` eases {char.mettle} Pain.")
        elif condition.loses_action:
            lines.append(f"{char.name} loses their next action, reeling (a defence is still allowed).")
        spec = condition.retry
        if spec is not None and spec.attribute is not None and spec.difficulty is not None:
            odds = check_odds(spec.attribute, spec.difficulty, proficiency=spec.rule_proficiency, tier=spec.rule_tier)
            lines.append(f"{char.name} may try again (again {char.name}): success {fraction(odds.p_success)}.")
        if char.story_points and not char.npc:
            lines.append(f"{char.name} holds {n_of(char.story_points, 'Story Point')}: "
                         f"convert {char.name} N portents|dp.")
    return lines


def _summary(state: GameState, name: str) -> str:
    char = state.characters[name]
    condition = char.condition
    flags = [w for w, on in (("incapacitated", condition.incapacitated), ("reeling", condition.loses_action)) if on]
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
                     + (" (NPC: the engine casts for them)" if char.npc else ""))
        lines.append(f"  {disciplines(char.disciplines)}")
        lines.append(f"  Mettle {char.mettle}, armour {char.armour}; Pain {condition.pain}"
                     + ("; incapacitated" if condition.incapacitated else "")
                     + ("; loses their next action" if condition.loses_action else ""))
        if not char.npc:
            lines.append(f"  Portents {char.portents}, Story Points {char.story_points}, "
                         f"Development Points {char.development}")
        lines.append(f"  effort spent {condition.effort_spent} (lost {condition.effort_lost})")
    return lines


def _toolbar(state: Any) -> str:
    if not isinstance(state, GameState):
        return ""
    parts = []
    for char in state.characters.values():
        mark = " down" if char.condition.incapacitated else (" reeling" if char.condition.loses_action else "")
        points = "" if char.npc else f" P{char.portents}"
        parts.append(f"{char.name} pain {char.condition.pain}/{char.mettle}{points}{mark}")
    if state.window:
        parts.append("open to Portents: " + ", ".join(r.id for r in state.window))
    return " | ".join(parts) or "no one yet: pc add NAME ..."


# -- narration: the oracle's lots/... tables -------------------------------------------

_BLOW = {True: "lots/blow/landed", False: "lots/blow/missed"}
_GAP = {"none": "lots/assess/exact", "small": "lots/assess/small", "large": "lots/assess/large"}


def _moment(event: Mapping[str, Any]) -> tuple[str, dict[str, Any]] | None:
    """The table that tells an event, and what its placeholders are filled with (None: untold)."""
    kind = event.get("kind")
    who = {"character": event.get("character") or event.get("name") or "the world"}
    if kind == "check_cast" and event.get("form") == "check":
        return f"lots/check/{event['outcome']}", {**who, "purpose": event.get("purpose")}
    if kind == "lots_cast":
        return "lots/bare", {**who, "purpose": event.get("purpose")}
    if kind == "attack_resolved":
        return _BLOW[bool(event["landed"])], {"attacker": event["attacker"], "target": event["target"]}
    if kind == "mettle_tested":
        state = "down" if event["incapacitated"] else ("reeling" if event["outcome"] != "success" else "steady")
        return f"lots/mettle/{state}", who
    if kind == "portent_spent":
        return f"lots/portent/{str(event['use']).replace('_', '-')}", who
    if kind == "assessed" and event.get("via") == "assess":
        return _GAP[str(event["gap_size"])], {**who, "subject": event.get("subject")}
    simple = {"rested": "lots/rest", "story_points_awarded": "lots/story-points", "development": "lots/develop",
              "story_closed": "lots/ending"}
    if kind in simple:
        return simple[str(kind)], {**who, "title": event.get("title")}
    if kind == "character_created" and not event.get("npc"):
        return "lots/arrival", {**who, "concept": event.get("concept")}
    if kind == "scene_opened":
        return "lots/scene", {"title": event["title"]}
    return None


def _fortune(events: list[dict[str, Any]]) -> tuple[str, dict[str, Any]] | None:
    """The WEAL or WOE of the command's first cast, to help its player describe it."""
    for event in events:
        if event.get("kind") in ("check_cast", "lots_cast"):
            fortune = str(event.get("fortune", "none"))
            if fortune == "none":
                return None
            return f"lots/fortune/{fortune.replace('_', '-')}", {"character": event.get("character") or "the world"}
    return None


def _tell(before: Any, after: Any, events: list[dict[str, Any]], dice: Dice) -> list[dict[str, Any]]:
    found = [m for m in map(_moment, events) if m is not None]
    fortune = _fortune(events)
    chosen = found[:1] + ([fortune] if fortune else []) + found[1:]
    out: list[dict[str, Any]] = []
    for table, context in chosen[:2]:
        text = roll(table, dice, context).text
        out.append({"kind": "narration", "text": text, "source": "table", "table": table})
    seeds = [s for e in events if e.get("kind") == "scene_opened" for s in e.get("seeds", [])]
    if seeds and len(out) < 2:
        seed = seeds[dice.roll(1, len(seeds), "narration seed").faces[0] - 1]
        out.append({"kind": "narration", "text": seed, "source": "story"})
    return out


HOOKS = register_hooks(PlayHooks(
    ruleset="lots", hints=_hints, status=_status, sheet=_sheets, toolbar=_toolbar, tell=_tell, texts=TEXTS,
    follow=ScenarioPlay.follow,
))
