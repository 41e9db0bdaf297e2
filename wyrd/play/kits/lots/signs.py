"""Thaeborn's signs of fate as the narrator's: twists, the scene test, and the oracle's tension.

The Abacus has its Wyrd rolls; Thaeborn has none. What stands in for them here is
the ruleset's own sign of fate, the lots (seed 004: "heightened benefits of a WEAL
result", "the heightened consequences of the WOE result", and Portents, "a glimpse of
the future"). [ours] The simplest reading consistent with that text:

* a heightened WOE (a FUMBLE) brings the one who cast it a **dark** twist, a heightened
  WEAL (a CRIT) a **fortunate** one; spending a Portent (a Re-tell, a Blot-out) opens a
  **portent** twist for the one who spent it. At most one twist a command (the first
  sign in it), and none for someone who is out of it (incapacitated) or for the world's
  own casts. A Mettle test's FUMBLE brings none: it has already incapacitated.
* the scene test: when a scene opens, each player's character able to act casts lots
  (the narration's own two d4). The first CRIT or FUMBLE interrupts the scene with that
  character's fortunate or dark twist; else a WASTE alters it (something ordinary
  intrudes); else it goes as expected. (Its ``results`` read WEAL face x 10 + WOE face.)
* the oracle's tension (its chaos): 1 while a fight is on, and 1 for each player's
  character reeling or incapacitated.
* a doubled oracle answer casts lots for the asker: a WEAL 4 brings a fortunate twist,
  else a WOE 1 a dark one, else a portent twist.

Twists come from the story's own tables (``twists: dark / fortunate / portent / ordinary``)
first, else Thaeborn's own (``lots/twist/...`` in ``oracle/tables/lots-twists.yaml``). Their dice are the narration's
own, saved as added events, so the rules' faces and old saves are untouched.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from wyrd.oracle.events import SceneTested, TwistDrawn
from wyrd.oracle.text import Layered
from wyrd.oracle.twists import draw_twist
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.lots import GameState
from wyrd.stories.lots import ScenarioPlay

__all__ = ["GENERIC", "answer_twist", "scene_test", "sign_twists", "tension", "twist_for"]

# Thaeborn's kinds of twist and the oracle's twist category each is drawn as from a story's own tables.
GENERIC = {"dark": "threat", "fortunate": "friendly", "portent": "eerie", "ordinary": "mundane"}
_SIDES = 4


def _story(follower: Any) -> tuple[str, dict[str, list[str]]]:
    scenario = follower.scenario if isinstance(follower, ScenarioPlay) else None
    if scenario is None:
        return "story", {}
    twists = scenario.twists
    own = {"threat": twists.dark, "friendly": twists.fortunate, "eerie": twists.portent, "mundane": twists.ordinary}
    return scenario.id, {k: list(v) for k, v in own.items() if v}


def twist_for(character: str, kind: str, dice: Dice, follower: Any = None, *,
              context: Mapping[str, object] | None = None, tables: Any = None, deck: Any = None) -> TwistDrawn:
    """One twist of Thaeborn's ``kind`` (dark, fortunate, portent, ordinary) for ``character``."""
    story, own = _story(follower)
    if GENERIC[kind] in own:
        drawn = draw_twist(character, GENERIC[kind], dice, story_tables=own, context=context, deck_state=deck,
                           generic=f"lots/twist/{kind}",
                           tables=tables, story=story)
        return drawn.model_copy(update={"category": kind})
    from wyrd.oracle.tables import roll

    found = roll(f"lots/twist/{kind}", dice, Layered({"character": character}, context or {}), deck, tables=tables)
    return TwistDrawn(character=character, result=0, category=kind, text=found.text, table=found.table, row=found.row)


def _able(state: Any, name: object) -> bool:
    if not isinstance(state, GameState) or not isinstance(name, str) or name not in state.characters:
        return False
    char = state.characters[name]
    return not char.npc and not char.condition.incapacitated


def sign_twists(events: Sequence[Event], after: Any, dice: Dice, follower: Any = None, **options: Any) -> list[Event]:
    """The twist the command's first sign of fate brings (see the module docstring), if any."""
    for event in events:
        data = dict(event)
        kind = data.get("kind")
        if kind == "portent_spent" and _able(after, data.get("character")):
            return [twist_for(str(data["character"]), "portent", dice, follower, **options)]
        if kind in ("check_cast", "lots_cast") and data.get("form") != "mettle":
            fortune = data.get("fortune")
            which = {"great_weal": "fortunate", "great_woe": "dark"}.get(str(fortune))
            if which is not None and _able(after, data.get("character")):
                return [twist_for(str(data["character"]), which, dice, follower, **options)]
    return []


def _cast(dice: Dice, who: str) -> tuple[int, int]:
    faces = dice.roll(2, _SIDES, f"lots for {who} (the narrator's)").faces
    return faces[0], faces[1]


def scene_test(events: Sequence[Event], after: Any, dice: Dice, follower: Any = None, **options: Any) -> list[Event]:
    """When a scene opens: its test, and the twist an interrupted scene brings (see the module docstring)."""
    opened = next((e for e in events if e.kind == "scene_opened"), None)
    if opened is None or not isinstance(after, GameState):
        return []
    able = [n for n in after.characters if _able(after, n)]
    if not able:
        return []
    casts = {n: _cast(dice, n) for n in able}
    results = {n: weal * 10 + woe for n, (weal, woe) in casts.items()}
    scene = str(dict(opened).get("scene"))
    for name, (weal, woe) in casts.items():
        if weal == woe and weal in (1, _SIDES):
            test = SceneTested(scene=scene, outcome="interrupted", best=results[name], results=results,
                               interrupted_by=[name])
            kind = "fortunate" if weal == _SIDES else "dark"
            return [test, twist_for(name, kind, dice, follower, **options)]
    wasted = [n for n, (weal, woe) in casts.items() if weal == _SIDES and woe == 1]
    best = max(results.values())
    if wasted:
        test = SceneTested(scene=scene, outcome="altered", best=best, results=results, interrupted_by=[])
        return [test, twist_for(wasted[0], "ordinary", dice, follower, **options)]
    return [SceneTested(scene=scene, outcome="expected", best=best, results=results, interrupted_by=[])]


def tension(state: Any) -> int:
    """The oracle's chaos in Thaeborn: a fight on, and each player's character reeling or down."""
    if not isinstance(state, GameState):
        return 0
    strained = sum(1 for c in state.characters.values()
                   if not c.npc and (c.condition.incapacitated or c.condition.loses_action))
    return (1 if state.fight is not None else 0) + strained


def answer_twist(answer: Event, asker: str, state: Any, dice: Dice, follower: Any) -> list[Event]:
    """A doubled answer's twist: the asker's lots choose it (see the module docstring)."""
    if not _able(state, asker):
        return []
    weal, woe = _cast(dice, asker)
    kind = "fortunate" if weal == _SIDES else ("dark" if woe == 1 else "portent")
    return [twist_for(asker, kind, dice, follower)]
