"""Heroes of the Fall's narrator's looks: the scene framed, its rules, the ways on, the spotlight, odds first.

The hooks the shared looks call (Issue 18, points 1, 2, 4, 5 and 9): :func:`frame` (``look``),
:func:`stage_rules` (``rules``), :func:`exits` (``exits``), :func:`spotlight` (``turn``),
:func:`preview` (``odds COMMAND``), the lines after each change (:func:`follower_hints`:
who is next, and the ways on once a scene's stakes are settled), and the oracle's tension.
They read the rules state and the story follower (:class:`~wyrd.stories.feat.FeatProgress`)
and change nothing.

Odds are read by carrying the command out on a copy with dice of its own and keeping
only its ``odds_shown`` event: the same figures the roll will show, before any die is cast.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wyrd.play.engine.verbs import Command
from wyrd.play.engine.words import UsageError
from wyrd.play.kits.feat.texts import TEXTS, first_name
from wyrd.play.kits.feat.verbs import VERBS
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.errors import RuleError
from wyrd.rules.feat import Attribute, GameState
from wyrd.stories.feat import FeatProgress, FeatStory
from wyrd.stories.feat.branching import FeatStake, touches

__all__ = [
    "READING", "exits", "follower_hints", "frame", "preview", "spotlight", "stage_rules", "tension", "waiting",
    "when_words",
]

EIGHT_PRICE = 5  # RULES.md: 5 Wyrd points buy an automatic 8
# The moment of a model's reading of an answer, a twist or an inspiration (FeatMoment.INTERPRETATION),
# told by no table: only the prompt prompts/feat/interpretation.yaml claims it.
READING = "feat/interpretation"


def _story(follower: Any) -> tuple[FeatProgress, FeatStory] | None:
    if isinstance(follower, FeatProgress) and follower.story is not None:
        return follower, follower.story
    return None


def when_words(story: FeatStory, conditions: Sequence[str]) -> str:
    """``["cobb-caught won"]`` as ``catching Cobb is won``."""
    parts = []
    for condition in conditions:
        ident, outcome = condition.split()
        stake = story.stake(ident)
        parts.append(f"{stake.name if stake else ident} is {outcome}")
    return " and ".join(parts)


def _odds_of(state: GameState, command: Command) -> list[Event]:
    """The ``odds_shown`` events the command would show, carried out on a copy (nothing kept)."""
    outcome = command.verb.apply(state.model_copy(deep=True), Dice(), {**command.args, "faces": []})
    return [e for e in outcome.events if e.kind == "odds_shown"]


def _chance(state: GameState, line: str) -> str:
    """The chance of a scene's ask as a percentage ("" when it rolls nothing or cannot be made now)."""
    try:
        shown = _odds_of(state, VERBS.parse(line, state))
    except (UsageError, RuleError, ValueError):
        return ""
    if not shown:
        return ""
    text = TEXTS["odds_shown"](shown[0].model_dump(mode="json"))
    return text.split(": ", 1)[1].split(" (", 1)[0] if ": " in text else ""


def _stake_line(state: GameState, progress: FeatProgress, stake: FeatStake) -> str:
    if stake.id in progress.outcomes:
        won = progress.outcomes[stake.id]
        return f"  {stake.name}: {'won' if won else 'lost'}. {stake.won if won else stake.lost}"
    chance = _chance(state, stake.ask) if stake.ask else ""
    ask = f" `{stake.ask}`" + (f", {chance} now" if chance else "") if stake.ask else ""
    return f"  {stake.name}:{ask}. If lost: {stake.lost}"


def _present(state: GameState, names: Sequence[str]) -> str:
    parts = []
    for char in (state.characters[n] for n in names if n in state.characters):
        if char.dead:
            continue
        parts.append(char.name + (" (out of action)" if char.out_of_action else "")
                     + (" (exhausted)" if char.exhausted else ""))
    return ", ".join(parts) or "no one"


def frame(state: Any, follower: Any) -> list[str]:
    """`look`: the scene as the story frames it, who is here, what stands in the way and its price."""
    found = _story(follower)
    if found is None or not isinstance(state, GameState):
        return []
    progress, story = found
    if progress.current is None:
        return [f"{story.title}: the story has ended."] if progress.ended else [
            f"{story.title}. {story.premise}", f"Begin with `scene`: {story.scenes[0].title}."]
    scene = story.scene(progress.current)
    lines = [f"Scene {len(progress.played)}: {scene.title}" + (f", {scene.place}" if scene.place else "") + ".",
             story.opening(scene.id, progress.outcomes), f"Present: {_present(state, story.present(scene.id))}."]
    if scene.stakes:
        lines.append("In the way:")
        lines += [_stake_line(state, progress, st) for st in scene.stakes]
    if scene.rules or story.rules:
        lines.append("Standing rules: " + ", ".join(r.name for r in [*story.rules, *scene.rules])
                     + " (`rules` reads them).")
    return lines + _ways(progress, story)


def _ways(progress: FeatProgress, story: FeatStory) -> list[str]:
    if progress.current is None:
        return []
    ways = story.ways(progress.current)
    if not ways:
        return ["Ways on: none; `scene` ends the story."]
    now = progress.next_scenes()
    lines = ["Ways on:"]
    for way in ways:
        how = f"if {when_words(story, way.when)}" if way.when else "always"
        lines.append(f"  {story.scene(way.to).title} ({how}): {'open now' if way.to in now else 'shut'}.")
    if progress.open_stakes():
        lines.append("  (a stake nobody has rolled for counts as lost when the scene is left)")
    return lines


def exits(state: Any, follower: Any) -> list[str]:
    """`exits`: each way on, what opens it, which are open now, and what the last outcomes changed."""
    found = _story(follower)
    if found is None:
        return []
    progress, story = found
    if progress.ended:
        return [f"{story.title} has ended."]
    if progress.current is None:
        return [f"The story begins with {story.scenes[0].title}: `scene`."]
    lines = []
    for ident in [st.id for st in story.scene(progress.current).stakes if st.id in progress.outcomes]:
        stake = story.stake(ident)
        if stake is not None:
            won = progress.outcomes[ident]
            said = stake.won if won else stake.lost
            lines.append(f"{stake.name[:1].upper()}{stake.name[1:]}: {'won' if won else 'lost'}. {said}")
    return lines + _ways(progress, story)


def stage_rules(state: Any, follower: Any) -> list[str]:
    """`rules`: the story's standing rules, the scene's, and the rules of the game that bite now."""
    lines: list[str] = []
    found = _story(follower)
    if found is not None:
        progress, story = found
        scene = story.scene(progress.current) if progress.current else None
        for rule in [*story.rules, *(scene.rules if scene else [])]:
            lines.append(f"{rule.name}: {rule.text.strip()}")
    if isinstance(state, GameState):
        rich = [f"{first_name(c.name)} {c.wyrd}" for c in state.characters.values()
                if not c.dead and c.wyrd >= EIGHT_PRICE]
        if rich:
            lines.append(f"Wyrd points: {EIGHT_PRICE} buy an automatic 8 on one die of a feat (`eights N`); "
                         f"enough now: {', '.join(rich)}.")
        for char in state.characters.values():
            if char.out_of_action and not char.dead:
                lines.append(f"Out of action: {char.name} cannot act until `recover {first_name(char.name)}`.")
            if char.exhausted and not char.dead:
                lines.append(f"Exhausted: {char.name} makes no physical feat until `rest {first_name(char.name)}`.")
            if not char.dead and char.attribute(Attribute.METTLE) == 1:
                lines.append(f"Mettle 1: {char.name} dies of one more wound.")
    return lines


def _heroes(state: GameState, follower: Any) -> tuple[list[str], list[str]]:
    """The heroes (a story's cast, else everyone) and who of them has acted, in order (repeats kept)."""
    found = _story(follower)
    heroes = [c.name for c in found[1].cast] if found else list(state.characters)
    acted = list(follower.acted) if isinstance(follower, FeatProgress) else []
    return [n for n in heroes if n in state.characters], acted


def waiting(able: Sequence[str], acted: Sequence[str]) -> tuple[list[str], int]:
    """Who has not acted yet in the round under way, and which round it is (each ends when all have acted)."""
    done: set[str] = set()
    rounds = 1
    for name in acted:
        if name in able:
            done.add(name)
        if able and set(able) <= done:
            done, rounds = set(), rounds + 1
    return [n for n in able if n not in done], rounds


def spotlight(state: Any, follower: Any) -> list[str]:
    """`turn`: whose move it is and who has not acted this scene (the out and the dead never)."""
    if not isinstance(state, GameState) or not state.characters:
        return []
    found = _story(follower)
    if found is not None and found[0].ended:
        return [f"{found[1].title} has ended: it is nobody's move."]
    heroes, acted = _heroes(state, follower)
    able = [n for n in heroes if not state.characters[n].dead and not state.characters[n].out_of_action]
    left, rounds = waiting(able, acted)
    lines = []
    if not able:
        lines.append("Nobody can act: every hero is out of action or dead.")
    else:
        when = ("this scene" if found else "this round") if rounds == 1 else f"in round {rounds}"
        lines.append(f"{left[0]}'s move. Not yet acted {when}: {', '.join(left)}.")
    unable = [f"{n} ({'dead' if state.characters[n].dead else 'out of action'})" for n in heroes if n not in able]
    if unable:
        lines.append(f"Cannot act: {', '.join(unable)}.")
    lines.append("Nothing enforces the order: the table may play as it likes.")
    return lines


def follower_hints(state: Any, follower: Any) -> list[str]:
    """After each change: who is next when two or more heroes can act, and the ways on once all is settled."""
    if not isinstance(state, GameState):
        return []
    found = _story(follower)
    if found is not None and found[0].current is None:
        return []
    heroes, acted = _heroes(state, follower)
    able = [n for n in heroes if not state.characters[n].dead and not state.characters[n].out_of_action]
    left, rounds = waiting(able, acted)
    lines = []
    if len(able) >= 2:
        when = ("this scene" if found else "this round") if rounds == 1 else f"in round {rounds}"
        lines.append(f"Next: {first_name(left[0])} (yet to act {when}: {', '.join(first_name(n) for n in left)}).")
    if found is not None:
        progress, story = found
        if progress.current is not None and story.scene(progress.current).stakes and not progress.open_stakes():
            now = progress.next_scenes()
            lines.append("Everything here is settled. " + (
                f"Open now: {', '.join(story.scene(i).title for i in now)} (`scene`)." if now
                else "`scene` ends the story."))
    return lines


def preview(state: Any, follower: Any, command: Any) -> list[str]:
    """`odds COMMAND`: its chance as a percentage, what a bought 8 costs, and the stake it settles."""
    if not isinstance(state, GameState) or not isinstance(command, Command) or not getattr(command.verb, "sides", ()):
        return []  # only a verb that rolls the Feat table is weighed (`scene`, `wound` roll nothing)
    try:
        shown = _odds_of(state, command)
    except (RuleError, UsageError) as exc:
        return [f"It could not be made now: {exc}"]
    if not shown:
        return []
    lines = [TEXTS["odds_shown"](e.model_dump(mode="json")) for e in shown]
    who = state.characters.get(str(command.args.get("who", "")))
    if who is not None and not command.args.get("eights"):
        lines.append(f"{first_name(who.name)} has {who.wyrd} Wyrd: "
                     + (f"`eights N` buys automatic 8s at {EIGHT_PRICE} each." if who.wyrd >= EIGHT_PRICE
                        else f"an automatic 8 costs {EIGHT_PRICE}."))
    found = _story(follower)
    if found is not None:
        progress, _ = found
        for stake in progress.open_stakes():
            if touches(stake, command.key, command.args):
                lines.append(f"At stake: {stake.name}. If won: {stake.won} If lost: {stake.lost}")
    return lines


def tension(state: Any) -> int:
    """The oracle's tension in Heroes of the Fall: the heroes laid low (dead, out of action, exhausted)
    and those one wound from death ([ours]: the text has no scene strain; harm stands for it)."""
    if not isinstance(state, GameState):
        return 0
    count = 0
    for char in state.characters.values():
        if char.dead or char.out_of_action or char.exhausted or char.attribute(Attribute.METTLE) <= 1:
            count += 1
    return count
