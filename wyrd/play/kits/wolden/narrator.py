"""Wolden's narrator looks: the scene framed, the rules standing in it, the ways on, and whose move it is.

These answer the shared verbs ``look`` (:func:`frame`), ``rules`` (:func:`stage_rules`),
``exits`` (:func:`exits`) and ``turn`` (:func:`spotlight`) from the game and the scenario
being followed (:class:`~wyrd.stories.wolden.ScenarioProgress`); :func:`opening_lines`
frames a scene as it opens and :func:`way_hint` says where the story can go once a scene's
business is done. They only read: nothing here changes the game.

Seed 001 gives the costs they name: a failed roll in a fight lets the enemy hit, a critical
failure at its maximum; an extended challenge's rating moves +4, +2, -1, -2, -4 by result.
Nobody who is taken out is ever named as one who may act.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.frontends.view import clean
from wyrd.play.kits.wolden.verbs import SceneBegun, wolden
from wyrd.rules.actions import Event
from wyrd.stories.wolden import END, ExitSpec, ExtendedSpec, Scenario, ScenarioProgress, SceneSpec

__all__ = ["able", "exits", "frame", "opening_lines", "present", "spotlight", "stage_rules", "way_hint"]

_OUTCOME_WORDS = {"done": "done", "lost": "lost", "abandoned": "abandoned", "won": "won",
                  "withdrew": "left (the party withdrew)"}


def _progress(follower: Any) -> ScenarioProgress:
    return follower if isinstance(follower, ScenarioProgress) else ScenarioProgress()


def _names(names: Sequence[str]) -> str:
    listed = [clean(n) for n in names]
    if len(listed) <= 1:
        return "".join(listed) or "nobody"
    return ", ".join(listed[:-1]) + " and " + listed[-1]


def able(game: W.GameState) -> list[str]:
    """Everyone who can act (not taken out), in the party's order."""
    return [n for n, c in game.characters.items() if not c.out]


def present(game: W.GameState) -> list[str]:
    """Who is in the scene and able to act: the encounter's participants standing, else everyone standing."""
    found = game.encounter
    if found is not None:
        return [n for n in found.rounds.participants if not game.characters[n].out]
    return able(game)


def _present_line(game: W.GameState) -> str:
    here = present(game)
    out = [n for n, c in game.characters.items() if c.out]
    line = f"Present: {_names(here)}." if here else "Nobody present can act."
    return line + (f" Taken out until a downtime: {_names(out)}." if out else "")


def _fail_text(story: Scenario | None, ident: str | None) -> str:
    spec = story.encounters.get(ident or "") if story is not None else None
    return " ".join(spec.fail.split()) if spec is not None else ""


def _stakes(game: W.GameState, story: Scenario | None) -> list[str]:
    """What stands in the way now, and what failing costs (a roll, and the whole encounter)."""
    found = game.encounter
    if found is None:
        return []
    losing = _fail_text(story, found.id)
    if isinstance(found, W.Fight):
        foes = "; ".join(f"{clean(e.name)} ({e.taken}/{e.harm} harm, hits for {e.damage.notation})"
                         for e in found.standing)
        lines = [f"In the way: {foes}.",
                 "Failing a roll costs: 6 or less, the enemy you face hits you and each helper for its damage "
                 "against the ability rolled (the most it can on a critical failure); 7 to 12 it hits you as "
                 "you hit it. Harm past an ability becomes wounds; a wound with no free slot takes you out."]
    else:
        kind = "a travel montage" if found.montage else "an extended challenge"
        lines = [f"In the way: {clean(found.name)}, {kind}, rating {found.rating} (from {found.start}; done at 0, "
                 f"lost at {W.LOST_AT * found.start})."]
        cost = "Failing a roll costs: the rating rises (+2, +4 on a critical failure)"
        if found.danger is not None:
            cost += (f", and {found.danger.notation} damage to the ability rolled, for the roller and each helper "
                     "(a partial success too)")
        lines.append(cost + ".")
    if losing:
        lines.append(f"Losing it: {clean(losing)}")
    return lines


def _scene_head(number: int, scene: SceneSpec) -> str:
    return f"Scene {number}: {clean(scene.title)}" + (f", {clean(scene.place)}." if scene.place else ".")


def frame(state: Any, follower: Any) -> list[str]:
    """`look`: the scene under way as the story frames it."""
    game, place = wolden(state), _progress(follower)
    story, scene = place.scenario, place.current
    if story is None:
        return [_present_line(game), *_stakes(game, None)] if game.encounter is not None else []
    if place.ended:
        return [f"{clean(story.title)} has ended: `exits` and `log` tell how."]
    if scene is None:
        first = story.scenes[0]
        return [f"{clean(story.title)}: {clean(story.premise)}", f"No scene has begun: `scene` begins "
                f"{clean(first.title)}."]
    lines = [_scene_head(len(place.played), scene), clean(" ".join(scene.text.split())), _present_line(game)]
    lines += _stakes(game, story)
    found = game.encounter
    spec = story.encounters.get(found.id) if found is not None else None
    if isinstance(spec, ExtendedSpec) and spec.approaches:
        lines.append("Ways to tackle it (ideas, never required): " + "; ".join(
            clean(a).rstrip(".") for a in spec.approaches) + ".")
    if isinstance(found, W.Extended) and found.montage and found.situation is not None:
        text = next((s.text for s in found.situations if s.id == found.situation), found.situation)
        lines.append(f"The situation: {clean(text)}")
    if game.encounter is None and scene.encounter is not None and scene.encounter in place.outcomes:
        spec = story.encounters.get(scene.encounter)
        name = spec.name if spec is not None else scene.encounter
        lines.append(f"{clean(name)} is over: {_OUTCOME_WORDS.get(place.outcomes[scene.encounter], '')}.")
    if scene.settled:
        lines.append("A settled place: a downtime fits here (`rules` says what it does).")
    return lines


def opening_lines(game: W.GameState, events: Sequence[Event]) -> list[str]:
    """When a scene opens: who is present, what stands in the way and what failing costs."""
    begun = next((e for e in events if isinstance(e, SceneBegun)), None)
    if begun is None:
        return []
    lines = [_present_line(game), *_stakes(game, None)]
    return lines + ([f"Losing it: {clean(begun.fail)}"] if begun.fail and game.encounter is not None else [])


def _downtime_rule(game: W.GameState) -> str:
    taken = f" Taken this session: {_names(game.downtime)}." if game.downtime else ""
    return ("Settled place (downtime): once a session each character may take a downtime here: all ability "
            "damage and 4 wounds heal, 4 new gift slots open (one taken out is back on their feet), then "
            f"training, shopping, rest (2d4 more wounds heal) or carouse.{taken}")


def stage_rules(state: Any, follower: Any) -> list[str]:
    """`rules`: every rule standing now: the story's own, the place's, and the encounter's."""
    game, place = wolden(state), _progress(follower)
    story, scene = place.scenario, place.current
    lines: list[str] = []
    if story is not None:
        for rule in [*story.rules, *(scene.rules if scene is not None else [])]:
            lines.append(f"{clean(rule.name)}: {clean(' '.join(rule.text.split()))}")
        if scene is not None and not place.ended:
            lines.append(_downtime_rule(game) if scene.settled
                         else "Not a settled place: no downtime can be taken here.")
    found = game.encounter
    if isinstance(found, W.Fight):
        lines.append("The fight: a roll of 6 or less, the enemy you face hits you (its damage, to the ability "
                     "rolled; the most it can on a critical failure); 7 to 12, it takes 1 harm and hits you; "
                     "13 or more, it takes 1 harm (2 on a critical success) and misses. A `defend` roll deals "
                     "no harm. One who passes is struck by every enemy going for them.")
    elif found is not None:
        lines.append(f"{'The montage' if found.montage else 'The extended challenge'}: each roll moves the rating "
                     f"(critical failure +4, failure +2, partial -1, success -2, critical success -4); done at 0, "
                     f"lost at {W.LOST_AT * found.start}.")
        if found.danger is not None:
            lines.append(f"Danger {found.danger.notation}: a failure or a partial success deals it to the ability "
                         "rolled of the roller and each helper; a critical failure deals the most it can.")
    if found is not None:
        lines.append("Rounds: a round ends once everyone standing has rolled, helped or passed, in any order. "
                     "Harm past an ability becomes wounds, each filling a free gift slot; a wound with no slot "
                     "left takes the character out until a downtime.")
    return lines


def _opens_when(way: ExitSpec, story: Scenario) -> str:
    if way.encounter is None:
        return "always open"
    spec = story.encounters.get(way.encounter)
    name = clean(spec.name) if spec is not None else way.encounter
    return f"if {name} is " + " or ".join(_OUTCOME_WORDS.get(o.value, o.value) for o in way.outcomes)


def _way_state(way: ExitSpec, place: ScenarioProgress, game: W.GameState) -> str:
    if way.opens(place.outcomes):
        return "open"
    if way.encounter is not None and way.encounter not in place.outcomes:
        going = game.encounter is not None and game.encounter.id == way.encounter
        return "waiting: the encounter is under way" if going else "not yet"
    return "shut"


def exits(state: Any, follower: Any) -> list[str]:
    """`exits`: the ways on from here, what opens each, which are open now, and what the last outcome changed."""
    game, place = wolden(state), _progress(follower)
    story = place.scenario
    if story is None:
        return []
    if place.ended:
        return [f"{clean(story.title)} has ended."]
    scene = place.current
    names = place.exit_names()
    lines = [f"Ways on from {clean(scene.title)}:" if scene is not None else "The story begins with:"]
    for way in place.exits():
        lines.append(f"  {clean(names[way.to])}: {_opens_when(way, story)} [{_way_state(way, place, game)}]")
    if game.encounter is not None:
        lines.append(f"{clean(game.encounter.name)} is under way: `scene` goes on once it is over.")
    elif scene is not None:
        open_now = [w for w in place.exits() if w.opens(place.outcomes)]
        if len({w.to for w in open_now}) > 1:
            lines.append("More than one way is open: `scene TO` chooses (`scene` alone takes the first).")
    lines += _changed(game, place)
    if place.way:
        lines.append(f"The way here: {clean(place.way)}")
    return lines


def _changed(game: W.GameState, place: ScenarioProgress) -> list[str]:
    """What the scene's encounter's outcome changed: which ways it opened and which it shut."""
    story, scene = place.scenario, place.current
    if story is None or scene is None or scene.encounter is None or game.encounter is not None:
        return []
    outcome = place.outcomes.get(scene.encounter)
    if outcome is None:
        return []
    spec = story.encounters.get(scene.encounter)
    names = place.exit_names()
    ways = [w for w in place.exits() if w.encounter == scene.encounter]
    opened = sorted({names[w.to] for w in ways if w.opens(place.outcomes)})
    shut = sorted({names[w.to] for w in ways if not w.opens(place.outcomes)} - set(opened))
    said = f"{clean(spec.name if spec else scene.encounter)} is {_OUTCOME_WORDS.get(outcome, outcome)}"
    if opened:
        said += f": the way to {_names(opened)} is open"
    if shut:
        said += f"{'; ' if opened else ': '}the way to {_names(shut)} is shut"
    return [said + "."]


def way_hint(state: Any, follower: Any) -> list[str]:
    """Once a scene's business is done: what its outcome changed and where `scene` goes next."""
    game, place = wolden(state), _progress(follower)
    story, scene = place.scenario, place.current
    if story is None or scene is None or place.ended or game.encounter is not None or game.pending is not None:
        return []
    ways = place.open_exits()
    names = place.exit_names()
    if not ways:
        return ["No way on is open: `scene` tells the ending."]
    nxt = ways[0]
    where = "the ending" if nxt.to == END else clean(names[nxt.to])
    others = sorted({names[w.to] for w in ways[1:] if w.to != nxt.to})
    line = f"`scene` goes on to {where}" + (f" (or `scene TO`: {_names(others)})" if others else "") + "."
    return [" ".join([*_changed(game, place), line])]


def spotlight(state: Any, follower: Any) -> list[str]:
    """`turn`: whose move it is, and who has not acted yet this round (in an encounter) or this scene."""
    game, place = wolden(state), _progress(follower)
    if not game.characters:
        return ["Nobody plays yet: `pc take all` or `pc add` makes the party."]
    out = [n for n, c in game.characters.items() if c.out]
    tail = [f"Taken out, and not acting until a downtime: {_names(out)}."] if out else []
    pending = game.pending
    if pending is not None:
        return [f"{clean(pending.lead)}'s roll is open: `roll` (or `cancel`).", *tail]
    found = game.encounter
    if found is not None:
        waiting = [n for n in found.rounds.participants if n not in found.rounds.acted and not game.characters[n].out]
        acted = [n for n in found.rounds.acted if not game.characters[n].out]
        if not waiting:
            return [f"Round {found.rounds.number} of {clean(found.name)}: everyone standing has acted.", *tail]
        line = (f"Round {found.rounds.number} of {clean(found.name)}: {clean(waiting[0])}'s move; still to act: "
                f"{_names(waiting)}" + (f"; acted: {_names(acted)}" if acted else "") + ".")
        return [line, "Any order the table likes: `check WHO ABILITY`, or `pass WHO`.", *tail]
    here = able(game)
    not_yet = [n for n in here if n not in place.acted]
    if place.current is None:
        return [f"Between scenes: anyone may act ({_names(here)}).", *tail]
    if not not_yet:
        return [f"Everyone standing has acted in {clean(place.current.title)}.", *tail]
    return [f"{clean(not_yet[0])}'s move; not yet acted this scene: {_names(not_yet)}.", *tail]
