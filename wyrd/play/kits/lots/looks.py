"""The narrator's looks in Thaeborn: the scene framed, its standing rules, the ways on, whose move it is.

These answer the shared verbs ``look``, ``rules``, ``exits`` and ``turn`` (the kit's
``frame``, ``stage_rules``, ``exits`` and ``spotlight`` hooks) and add the one-line hints
after a command: what the last outcome changed, the ways on once the scene's business is
done, and who is next when two or more play. They read the rules state and the
scenario's follower (:class:`~wyrd.stories.lots.ScenarioPlay`) and change nothing.

Spotlight: in a fight, Thaeborn's Counts say who acts (the earliest Count among those able
to act; several at the same Count are a tie, which the rules leave to the table: they are
listed in the order they joined the fight, and any of them may go first). Out of a fight,
who has not acted since the scene opened, in the order they came into the story. A
character who is incapacitated is named only as out of it, never as acting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from wyrd.rules.actions import Event
from wyrd.rules.lots import Discipline, GameState, check_odds
from wyrd.rules.lots.counts import now as fight_count
from wyrd.rules.lots.counts import up_next
from wyrd.rules.lots.odds import attack_odds
from wyrd.stories.lots import END, CheckCall, Exit, ScenarioPlay, Scene, When

__all__ = ["SceneFramed", "exits", "fight_won", "frame", "framing", "percent", "spotlight", "stage_rules",
           "story_hints"]


class SceneFramed(Event):
    """One line of a scene's frame as it opened: where it is, who is present, what stands in the way."""

    kind: Literal["scene_framed"] = "scene_framed"
    scene: str
    text: str


def percent(p: Any) -> str:
    """A chance as players read it: ``88%`` (``none``, ``certain`` at the ends)."""
    if p == 0:
        return "none"
    return "certain" if p == 1 else f"{float(p):.0%}"


def _play(follower: Any) -> ScenarioPlay | None:
    return follower if isinstance(follower, ScenarioPlay) and follower.scenario is not None else None


def fight_won(state: Any, follower: Any) -> bool | None:
    """Whether the current scene's fight is won as things stand (its NPC down); None with no fight."""
    play = _play(follower)
    scene = play.current if play is not None else None
    if scene is None or scene.fight is None or not isinstance(state, GameState):
        return None
    npc = state.characters.get(scene.fight.npc)
    return npc is not None and npc.condition.incapacitated


def _players(state: Any, *, able: bool) -> list[str]:
    if not isinstance(state, GameState):
        return []
    return [c.name for c in state.characters.values() if not c.npc and not (able and c.condition.incapacitated)]


def _best(state: Any, discipline: Discipline) -> tuple[str, int] | None:
    able = [state.characters[n] for n in _players(state, able=True)]
    if not able:
        return None
    best = max(able, key=lambda c: c.discipline(discipline))
    return best.name, best.discipline(discipline)


def _check_line(state: Any, call: CheckCall) -> str:
    what = f"{call.discipline.value.title()} vs {call.difficulty}: {call.purpose}"
    best = _best(state, call.discipline)
    chance = ""
    if best is not None:
        odds = check_odds(best[1], call.difficulty)
        chance = f" (best: {best[0]}, {call.discipline.value.title()} {best[1]}, success {percent(odds.p_success)})"
    cost = f"; failing costs: {call.fails}" if call.fails else ""
    return f"  - a check, {what}{chance}{cost}"


def _fight_odds(state: Any, npc: str) -> str:
    """The best attacker's chance to land a blow on the NPC, actively defended (seed 004: Offense against
    Defense + 1), from the NPC's sheet as it stands."""
    foe = state.characters.get(npc) if isinstance(state, GameState) else None
    best = _best(state, Discipline.PROWESS)
    if foe is None or best is None:
        return ""
    odds = attack_odds(best[1], foe.discipline(Discipline.PROWESS))
    return f" (best: {best[0]} lands a blow {percent(odds.p_success)})"


def _check_called(play: ScenarioPlay, check: str) -> str:
    """A check of the story as a sentence names it: "the check to find the firm stones"."""
    assert play.scenario is not None
    call = next((c for s in play.scenario.scenes for c in s.checks if c.id == check), None)
    return f"the check to {call.purpose}" if call is not None else f"the check {check}"


def _condition(play: ScenarioPlay, when: When) -> str:
    """How a condition reads: "'find the firm stones' succeeds", "Corve is brought down"."""
    scenario = play.scenario
    assert scenario is not None
    if when.check is not None:
        return f"{_check_called(play, when.check)} {'succeeds' if when.outcome == 'success' else 'fails'}"
    scene = next((s for s in scenario.scenes if s.id == when.fight), None)
    npc = scene.fight.npc if scene is not None and scene.fight is not None else "the foe"
    return f"{npc} is brought down" if when.outcome == "won" else f"{npc} still stands when you leave"


def _now(play: ScenarioPlay, when: When) -> str:
    """What holds now that opens a way: "Old Hoarfrost still stands", "the check to ... failed"."""
    if when.check is not None:
        return f"{_check_called(play, when.check)} {'succeeded' if when.outcome == 'success' else 'failed'}"
    return _condition(play, when).removesuffix(" when you leave").replace(" is brought down", " is down")


def frame(state: Any, follower: Any) -> list[str]:
    """The scene as the story frames it: title, place, text, who is here, what stands in the way."""
    play = _play(follower)
    scene = play.current if play is not None else None
    if play is None or scene is None:
        if play is not None and play.scenario is not None:
            return [f"{play.scenario.title}: no scene yet. {play.scenario.premise}", "`scene` opens the first."]
        return []
    lines = [f"Scene {len(play.played)}: {scene.title}" + (f", {scene.where}" if scene.where else "") + "."]
    lines.append(play.text or scene.text)
    lines += _present(state, scene)
    lines += _in_the_way(state, play, scene)
    rules = _rules(play, scene)
    if rules:
        lines.append("Standing rules here: " + ", ".join(r.name for r in rules) + " (`rules` reads them).")
    return lines


def framing(state: Any, play: Any, scene: Scene) -> list[SceneFramed]:
    """The frame of a scene just opened (its title and text are already told), as events to keep."""
    lines = [f"Here: {scene.where}."] if scene.where else []
    lines += _present(state, scene)
    if isinstance(play, ScenarioPlay) and play.scenario is not None:
        lines += _in_the_way(state, play, scene)
        rules = [*play.scenario.rules, *scene.rules]
        if rules:
            lines.append("Standing rules here: " + ", ".join(r.name for r in rules) + " (`rules` reads them).")
    return [SceneFramed(scene=scene.id, text=line) for line in lines]


def _present(state: Any, scene: Scene) -> list[str]:
    """The players' characters, and the NPCs this scene brings in; who of them is out of it."""
    if not isinstance(state, GameState):
        return []
    here = {*scene.enters, *([scene.fight.npc] if scene.fight is not None else [])}
    chars = [c for c in state.characters.values() if not c.npc or c.name in here]
    able = [c.name for c in chars if not c.condition.incapacitated]
    players = [n for n in able if not state.characters[n].npc]
    npcs = [n for n in able if state.characters[n].npc]
    out = [c.name for c in chars if c.condition.incapacitated]
    line = "Present: " + (", ".join(players) or "none of the players' characters")
    line += (f"; and {', '.join(npcs)} (NPC{'s' if len(npcs) > 1 else ''}: only players roll)" if npcs else "")
    line += f". Out of it: {', '.join(out)}." if out else "."
    return [line]


def _in_the_way(state: Any, play: ScenarioPlay, scene: Scene) -> list[str]:
    lines: list[str] = []
    for call in scene.checks:
        lines.append(_check_line(state, call))
    if scene.fight is not None:
        fight = scene.fight
        cost = f"; losing costs: {fight.fails}" if fight.fails else ""
        down = isinstance(state, GameState) and fight.npc in state.characters and \
            state.characters[fight.npc].condition.incapacitated
        lines.append(f"  - a fight: {fight.npc} strikes with effort {fight.effort}"
                     + (" (brought down)" if down else _fight_odds(state, fight.npc)) + cost)
    for a in scene.assess:
        lines.append(f"  - worth assessing: {a.subject} ({a.discipline.value.title()}, Tier {a.tier})")
    for why in scene.lots:
        lines.append(f"  - the world's secret cast: {why}")
    return (["In the way:", *lines]) if lines else []


def _rules(play: ScenarioPlay, scene: Scene | None) -> list[Any]:
    scenario = play.scenario
    assert scenario is not None
    return [*scenario.rules, *(scene.rules if scene is not None else [])]


def stage_rules(state: Any, follower: Any) -> list[str]:
    """The text of every standing rule in force now: the story's own, then the scene's."""
    play = _play(follower)
    if play is None or play.ended:
        return []
    rules = _rules(play, play.current)
    return [f"{r.name}: {r.text}" for r in rules]


def _way(play: ScenarioPlay, way: Exit, is_open: bool | None) -> str:
    # the word `scene` takes follows the title, as a command, never in its place
    label = f", {way.label}" if way.label else ""
    where = "the ending" if way.to == END else f"{play.title_of(way.to)}"
    label += "" if way.to == END else f" (`scene {way.to}`)"
    if way.when is None:
        return f"  - to {where}{label}: open"
    cond = _condition(play, way.when)
    if is_open:
        return f"  - to {where}{label}: open now: {_now(play, way.when)}"
    if is_open is None:
        return f"  - to {where}{label}: opens if {cond} (not settled yet)"
    return f"  - to {where}{label}: shut (it opens only if {cond})"


def exits(state: Any, follower: Any) -> list[str]:
    """Where the story can go from the current scene, what opens each way, which are open now."""
    play = _play(follower)
    if play is None:
        return []
    if play.ended:
        return ["The story has ended: there is no way on."]
    scene = play.current
    if scene is None:
        first = play.unplayed()
        return [f"The story opens with {first[0].title}: `scene`."] if first else []
    ways = play.ways(fight_won(state, follower))
    lines = [f"Ways on from {scene.title}:", *(_way(play, w, o) for w, o in ways)]
    if any(o is None for _, o in ways):
        lines.append("Leaving now settles what is open: a check not made counts as failed, a foe still "
                     "standing as a fight lost.")
    lines.append("`scene` takes the first open way; `scene ID` chooses another open one.")
    return lines


def spotlight(state: Any, follower: Any) -> list[str]:
    """Whose move it is: the Counts in a fight; otherwise who has not acted since the scene opened."""
    if not isinstance(state, GameState):
        return []
    out = [n for n in _players(state, able=False) if state.characters[n].condition.incapacitated]
    tail = [f"Out of it (incapacitated): {', '.join(out)}."] if out else []
    at = fight_count(state)
    if at is not None and state.fight is not None:
        up = up_next(state)
        if not up:
            return ["The fight stands still: no one able is left in it.", *tail]
        later = sorted(((state.fight.ready[n], n) for n in state.fight.ready
                          if n in state.characters and not state.characters[n].condition.incapacitated
                          and n not in up), key=lambda x: x[0])
        lines = [f"Count {at}: {_tie(up)} to act."]
        if later:
            lines.append("Then: " + ", ".join(f"{n} at Count {c}" for c, n in later) + ".")
        unacted = [n for n, c in state.fight.ready.items() if c == 0 and n in up]
        if unacted and at == 0 and unacted != list(up):
            lines.append(f"Not yet acted in this fight: {', '.join(unacted)}.")
        return lines + tail
    able = _players(state, able=True)
    if not able:
        return ["No one of the players' characters is able to act.", *tail]
    play = _play(follower)
    if play is not None and play.current is None and not play.ended:
        return ["No scene yet: `scene` opens the first, and then anyone may go first.", *tail]
    acted = play.acted if play is not None else []
    unacted = [n for n in able if n not in acted]
    if unacted:
        lines = [f"{unacted[0]}'s move: not yet acted this scene: {', '.join(unacted)}."]
    else:
        lines = [f"Everyone able has acted this scene ({', '.join(able)}): anyone may go, or `scene` moves on."]
    return lines + tail


def _tie(up: Sequence[str]) -> str:
    if len(up) == 1:
        return f"{up[0]} is up"
    return (f"{', '.join(up)} are up together (a tie at the same Count: listed in the order they joined the "
            "fight; any of them may go first)")


def story_hints(state: Any, follower: Any) -> list[str]:
    """After a command: what the last outcome changed, the ways on once the scene's business is done,
    and who is next when two or more characters play (one line each, at most)."""
    play = _play(follower)
    if play is None or not isinstance(state, GameState) or play.ended:
        return []
    scene = play.current
    lines = list(play.news)
    able = _players(state, able=True)
    if scene is not None and state.fight is None and len(able) >= 2 and play.moved:
        waiting = [n for n in able if n not in play.acted]
        if waiting:
            lines.append(f"Next: {waiting[0]} has not acted this scene (`turn`).")
    if scene is not None and play.done_now:
        ways = [w for w, o in play.ways(fight_won(state, follower)) if o]
        if ways:
            names = ", ".join(play.title_of(w.to) for w in ways)
            lines.append(f"This scene's business is done: `scene` goes on to {names} (`exits` shows every way).")
    return lines
