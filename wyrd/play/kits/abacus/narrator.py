"""The Wyrd Abacus's answers to the narrator's looks: `look`, `rules`, `exits`, `turn`, `odds COMMAND`.

A narrator frames each scene, says what the rules in force do, where the story can go,
whose move it is, and what a choice will cost before it is made. Each function here
takes the rules state and the kit's story follower (a
:class:`~wyrd.play.kits.abacus.following.StoryFollower`, or None) and returns lines,
names never ids. The hints after a command (:func:`after_lines`) use the same words:
the stakes of each challenge as a scene opens, who has not acted yet, and, once a
scene's business is done, its ways on.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb
from typing import Any

from wyrd.play.frontends.view import clean
from wyrd.play.kits.abacus.following import StoryFollower, StoryPlay
from wyrd.play.kits.abacus.stakes import (
    bearing_rules,
    challenge_stakes,
    fail_words,
    held_chance,
    percent,
    price_line,
    rule_words,
)
from wyrd.rules.abacus import GameState, RollStage, effective_value, roll_terms
from wyrd.rules.abacus.enums import Ability, ChallengeStatus
from wyrd.rules.abacus.stage import StageRule
from wyrd.rules.abacus.standing import attempt_cost
from wyrd.stories.abacus import flow

__all__ = ["changed_lines", "exits", "frame", "odds_lines", "preview", "price_lines", "spotlight",
           "stage_rules", "stakes_lines", "story_lines"]


def _play(follower: Any) -> StoryPlay | None:
    return follower.play if isinstance(follower, StoryFollower) else None


def _standing(state: GameState, names: Sequence[str]) -> list[str]:
    return [n for n in names if n in state.characters and not state.characters[n].defeated]


def _and(items: Sequence[str]) -> str:
    words = list(items)
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


# -- look -------------------------------------------------------------------------


def frame(state: GameState, follower: Any) -> list[str]:
    """The scene framed again: title, place, what the story says, who is there, what is in the way."""
    scene = state.scene
    play = _play(follower)
    if scene is None:
        if state.ended:
            return ["The story has ended."]
        return [f"Between scenes ({state.scenes_played} played).", *exits(state, follower)]
    lines: list[str] = []
    framed = play.framed(scene.id, state) if play is not None else []
    if framed:
        f = framed[0]
        lines.append(f"{clean(f.title)} (scene {scene.number})" + (f", at {clean(f.place)}" if f.place else "") + ".")
        if f.text:
            lines.append(f"  {clean(f.text)}")
    else:
        lines.append(f"Scene {scene.number} ({clean(scene.id)}).")
    present = _standing(state, scene.present)
    out = [n for n in scene.present if n not in present]
    lines.append(f"Present: {_and([clean(n) for n in present]) or 'nobody standing'}"
                 + (f" ({_and([clean(n) for n in out])} defeated, giving Wyrd from outside)" if out else "")
                 + f". The Wyrd pool holds {scene.pool}.")
    stakes = stakes_lines(state, follower)
    if stakes:
        lines += ["In the way:", *stakes]
    done = [c for c in scene.challenges.values() if c.status != ChallengeStatus.OPEN]
    if done:
        lines.append("Settled: " + "; ".join(f"{clean(c.name)} {c.status.value}" for c in done) + ".")
    rules = bearing_rules(state)
    if rules:
        lines.append(f"Stage rules in force here: {_and([clean(r.name) for r in rules])} (`rules` for what they do).")
    spec = play.scene_spec(scene.id) if play is not None else None
    if spec is not None and spec.wyrd:
        lines.append(f"This scene's Wyrd roll decides: {clean(spec.wyrd)}")
    return lines


# -- rules -------------------------------------------------------------------------


def _rule_line(rule: StageRule, state: GameState) -> str:
    text = " ".join(rule.text.split()) if rule.text else rule_words(rule, state)
    return f"  {clean(rule.name)}: {clean(text)}"


def stage_rules(state: GameState, follower: Any) -> list[str]:
    """The text of every stage rule in force now: those bearing on this scene first."""
    active = [r for r in state.stage_rules.values() if r.active]
    if not active:
        return []
    if state.scene is None:
        return ["Stage rules in force in the story:", *(_rule_line(r, state) for r in active)]
    here = bearing_rules(state)
    lines = ["Stage rules in force in this scene:", *(_rule_line(r, state) for r in here)] if here else []
    rest = [r for r in active if r not in here]
    if rest:
        lines.append("Standing in the story, touching nothing in this scene now: "
                     + _and([clean(r.name) for r in rest]) + ".")
    return lines


# -- exits -------------------------------------------------------------------------


def _scene_title(play: StoryPlay, ident: str) -> str:
    spec = play.scene_spec(ident)
    return clean(spec.title) if spec is not None else clean(ident)


def exits(state: GameState, follower: Any) -> list[str]:
    """Where the story can go from here: each way, what opens it, which are open now."""
    play = _play(follower)
    if play is None or play.story.freeform:
        if play is not None:
            names = _and([clean(loc.name) for loc in play.story.locations])
            return [f"A freeform setting: any place may come next ({names}); `scene` draws one, `scene ID` picks it."]
        return []
    if state.ended:
        return ["The story has ended."]
    here = play.last_scene()
    if here is None:
        first = play.story.scenes[0]
        return [f"The story opens with {clean(first.title)}: `scene` begins it."]
    spec = play.scene_spec(here)
    progress = play.progress(state)
    title = _scene_title(play, here)
    if spec is None:
        return []
    if spec.finale and not spec.next:
        return [f"{title} is the finale: after `end scene`, `finale` ends the story."
                if state.scene is not None else f"{title} was the finale: `finale` ends the story."]
    lines = [f"Ways on from {title}:"]
    seen: set[str] = set()
    opened = flow.exits(play.story, here, progress)
    for way in spec.next:
        if way.scene in seen:
            continue
        ways = [w for w in spec.next if w.scene == way.scene]
        seen.add(way.scene)
        conditions = [w.when for w in ways]
        is_open = way.scene in opened
        finale = " (a finale)" if (target := play.scene_spec(way.scene)) is not None and target.finale else ""
        if any(c == "always" for c in conditions):
            lines.append(f"  {_scene_title(play, way.scene)}{finale}: always open.")
            continue
        opens = " or ".join(flow.when_words(c, play.story) for c in conditions)
        lines.append(f"  {_scene_title(play, way.scene)}{finale}: opens if {opens}; "
                     + ("open now." if is_open else "shut for now."))
    if opened:
        what = "`end scene`, then `scene`" if state.scene is not None else "`scene`"
        lines.append(f"Next by default: {_scene_title(play, opened[0])} ({what}, or `scene ID` for another open way).")
    else:
        lines.append("No way on is open yet.")
    return lines


def changed_lines(state: GameState, follower: Any) -> list[str]:
    """What the last outcome changed of the ways on ("Hester's Grief overcome: The Struck Prayers opens")."""
    play = _play(follower)
    if play is None or play.story.freeform or not play.settled:
        return []
    spec = play.scene_spec(play.last_scene())
    if spec is None:
        return []
    names = {i: s.name for i, s in flow.challenge_specs(play.story).items()}
    opened = set(flow.exits(play.story, spec.id, play.progress(state)))
    lines = []
    for ident, overcome in play.settled:
        base = ident if ident in names else ident.rpartition("-")[0]
        for way in spec.next:
            mentioned = getattr(way.when, "overcome", None) or getattr(way.when, "failed", None)
            if mentioned != base:
                continue
            word = "overcome" if overcome else "failed"
            now = "opens" if way.scene in opened else "stays shut"
            lines.append(f"{clean(names.get(base, base))} {word}: the way to "
                         f"{_scene_title(play, way.scene)} {now}.")
    return lines


# -- turn ------------------------------------------------------------------------------


def spotlight(state: GameState, follower: Any) -> list[str]:
    """Whose move it is, and who has not acted this scene."""
    scene = state.scene
    if state.ended:
        return ["The story has ended."]
    if scene is None:
        return ["Between scenes: `scene` begins the next (anyone may `rest` first)."]
    pending = state.pending
    lines = []
    if pending is not None:
        name = clean(scene.challenges[pending.challenge].name)
        helpers = [clean(n) for n in pending.involved if n != pending.lead]
        step = "roll, or assign points first" if pending.stage == RollStage.ASSIGNING else "draw Wyrd, or accept"
        lines.append(f"{clean(pending.lead)} leads against {name}"
                     + (f" with {_and(helpers)}" if helpers else "") + f": {step}.")
    standing = _standing(state, scene.present)
    waiting = [n for n in standing if n not in scene.faced]
    if waiting:
        lines.append(f"Not yet acted this scene: {_and([clean(n) for n in waiting])}"
                     + (f"; next in the spotlight: {clean(waiting[0])}." if pending is None else "."))
    elif standing:
        lines.append("Everyone present has faced a challenge this scene; anyone may take the next.")
    ghosts = [n for n in scene.present if n in state.characters and state.characters[n].defeated]
    if ghosts:
        lines.append(f"{_and([clean(n) for n in ghosts])} (defeated) may still give Wyrd from outside.")
    return lines


def odds_lines(state: GameState) -> list[str]:
    """The exact chances of the open roll, as points stand now and with one more."""
    pending = state.pending
    terms = roll_terms(state)
    if pending is None or state.scene is None or terms is None:
        return []
    from wyrd.rules.odds import challenge_odds  # not before a roll is open: the first prompt has none

    challenge = state.scene.challenges[pending.challenge]
    if pending.stage == RollStage.ROLLED:
        short = terms.value - ((pending.die or 0) + terms.points + terms.bonus)
        return [f"Short by {short}: draw that much Wyrd ({terms.drawable} can be drawn) or accept the failure."]
    # The same terms the roll will use: a Charm's bonus counts, and the pool only if someone may draw.
    value, points, pool = terms.value, terms.points, terms.drawable
    now = challenge_odds(max(0, value - terms.bonus), points, pool)
    more = challenge_odds(max(0, value - terms.bonus), points + 1, pool)
    bonus = f" and +{terms.bonus}" if terms.bonus else ""
    return [
        f"Odds against {clean(challenge.name)} ({value}) with {points} points{bonus}: "
        f"{percent(now.p_overcome)} ({now.p_overcome}); one more point: {percent(more.p_overcome)}; "
        f"{percent(now.p_with_pool)} ({now.p_with_pool}) if you draw on the pool of {pool} after a short roll."
    ]


def price_lines(state: GameState) -> list[str]:
    """Beside the odds, the price of the Wyrd that would carry the roll: each drawer's chance of
    being held by the Vale at the finale, now and after the draw (Issue 18, point 4)."""
    pending = state.pending
    terms = roll_terms(state)
    if pending is None or state.scene is None or terms is None or not terms.drawable:
        return []
    drawers = [n for n in pending.involved if n in state.characters and not state.characters[n].defeated
               and n not in state.scene.warded]
    if pending.stage == RollStage.ROLLED:
        short = terms.value - ((pending.die or 0) + terms.points + terms.bonus)
        if short > terms.drawable or short <= 0:
            return []
        line = price_line(state, drawers, short)
        accept = f"To accept: {fail_words(state, state.scene.challenges[pending.challenge])}."
        return [line, accept] if line else [accept]
    from wyrd.rules.odds import challenge_odds

    odds = challenge_odds(max(0, terms.value - terms.bonus), terms.points, terms.drawable)
    if odds.p_with_pool <= odds.p_overcome:
        return []  # the pool cannot help this roll: nothing to pay for
    line = price_line(state, drawers, 1)
    return [line] if line else []


# -- odds COMMAND -----------------------------------------------------------------------


def _best_table(n: int) -> dict[tuple[int, int], Fraction]:
    """An influence roll of ``n`` dice: the chance of each (best face, how many show it); 0 dice is a 1."""
    if n <= 0:
        return {(1, 1): Fraction(1)}
    total = 6 ** n
    return {(b, c): Fraction(comb(n, c) * (b - 1) ** (n - c), total)
            for b in range(1, 7) for c in range(1, n + 1) if comb(n, c) * (b - 1) ** (n - c)}


def _beats(a: int, b: int) -> Fraction:
    """The chance that ``a`` dice beat ``b`` dice in a contest (dead heats re-roll evenly)."""
    ta, tb = _best_table(a), _best_table(b)
    win = sum((pa * pb for ka, pa in ta.items() for kb, pb in tb.items() if ka > kb), Fraction(0))
    tie = sum((pa * pb for ka, pa in ta.items() for kb, pb in tb.items() if ka == kb), Fraction(0))
    return win + tie / 2


def _wyrd_odds(state: GameState, names: Sequence[str]) -> list[str]:
    lines = []
    for name in names:
        w = state.characters[name].wyrd
        six = held_chance(w)
        low = Fraction(1) if w == 0 else Fraction(1, 3) ** w
        lines.append(f"  {clean(name)} ({w} Wyrd): a 6, a twist: {percent(six)}; "
                     f"a best of 1 or 2, an intrusion: {percent(low)}.")
    return lines


def _challenge_odds_line(state: GameState, ident: str, points: int = 0) -> list[str]:
    from wyrd.rules.odds import challenge_odds

    scene = state.scene
    if scene is None or ident not in scene.challenges:
        return []
    challenge = scene.challenges[ident]
    value = effective_value(state, challenge)
    odds = challenge_odds(value, points, scene.pool)
    return [challenge_stakes(state, challenge),
            f"Odds with {points} points: {percent(odds.p_overcome)}; with the pool of {scene.pool} behind you: "
            f"{percent(odds.p_with_pool)}."]


def _spend_odds(state: GameState, n: int) -> list[str]:
    from wyrd.rules.odds import challenge_odds

    terms = roll_terms(state)
    if terms is None:
        return []
    value = max(0, terms.value - terms.bonus)
    now = challenge_odds(value, terms.points, terms.drawable)
    after = challenge_odds(value, terms.points + n, terms.drawable)
    return [f"Spending {n} more: {percent(now.p_overcome)} -> {percent(after.p_overcome)} on the die alone; "
            f"{percent(now.p_with_pool)} -> {percent(after.p_with_pool)} with the pool behind you."]


def preview(state: GameState, follower: Any, command: Any) -> list[str]:
    """The chances of a command before it is carried out, with what it costs."""
    key, args = command.key, command.args
    if key == "attempt":
        lead, ident = args.get("lead"), str(args.get("challenge"))
        lines = _challenge_odds_line(state, ident)
        if lines and lead in state.characters and state.scene is not None:
            cost = attempt_cost(state, state.scene.challenges[ident])
            lines.append(price_line(state, [lead], cost or 1))
        return [line for line in lines if line]
    if key == "spend" and state.pending is not None and state.pending.stage == RollStage.ASSIGNING:
        return _spend_odds(state, int(args.get("n") or 0)) + price_lines(state)
    if key == "roll" and state.pending is not None:
        return odds_lines(state) + price_lines(state)
    if key == "draw":
        who, n = str(args.get("who")), int(args.get("n") or 1)
        line = price_line(state, [who], n) if who in state.characters else ""
        gift = f"{clean(who)}'s Wyrd gift goes to no personal pool: it costs nothing at the finale."
        return [line] if line else [gift]
    if key == "wyrd":
        names = list(args.get("who") or []) or _standing(state, state.scene.present if state.scene else [])
        return ["A Wyrd roll:", *_wyrd_odds(state, [n for n in names if n in state.characters])]
    if key == "finale":
        wyrds = {n: state.characters[n].wyrd for n in _standing(state, list(state.characters))}
        return ["The finale: each rolls their Wyrd; a 6 and the Vale holds them.",
                *(f"  {clean(n)} ({w} Wyrd): held {percent(held_chance(w))}." for n, w in wyrds.items())]
    if key == "contest":
        ability = Ability(args["ability"])
        a, b = state.characters[args["a"]], state.characters[args["b"]]
        p = _beats(a.scores[ability], b.scores[ability])
        return [f"{clean(a.name)} ({a.scores[ability]} dice) against {clean(b.name)} ({b.scores[ability]} dice) "
                f"in {ability.value.title()}: {clean(a.name)} wins {percent(p)}, {clean(b.name)} {percent(1 - p)} "
                "(highest die, then how many show it, then re-rolls)."]
    if key == "sabotage":
        char = state.characters.get(str(args.get("who")))
        if char is None:
            return []
        n = char.scores[Ability(args["ability"])]
        return [f"{clean(char.name)} rolls {n} dice: the value rises by each 6; at least one 6: "
                f"{percent(held_chance(n))}."]
    return []


# -- hints after a command -----------------------------------------------------------


def _way_stakes(state: GameState, follower: Any, ident: str) -> str:
    """What a challenge's outcome does to the ways on ("overcome, it opens the way to The Struck Prayers")."""
    play = _play(follower)
    spec = play.scene_spec(play.last_scene()) if play is not None else None
    if play is None or spec is None:
        return ""
    known = flow.challenge_specs(play.story)
    base = ident if ident in known else ident.rpartition("-")[0]  # a second placing is ID-2
    parts = []
    for way in spec.next:
        if getattr(way.when, "overcome", None) == base:
            parts.append(f"overcome, it opens the way to {_scene_title(play, way.scene)}")
        elif getattr(way.when, "failed", None) == base:
            parts.append(f"failed, it opens the way to {_scene_title(play, way.scene)}")
    return "; ".join(parts)


def stakes_lines(state: GameState, follower: Any) -> list[str]:
    """Each open challenge with what it costs to attempt and to fail, and where its outcome leads."""
    scene = state.scene
    if scene is None:
        return []
    lines = []
    for c in scene.challenges.values():
        if c.status != ChallengeStatus.OPEN:
            continue
        way = _way_stakes(state, follower, c.id)
        lines.append(f"  {challenge_stakes(state, c)}" + (f" {way[0].upper()}{way[1:]}." if way else ""))
    return lines


def story_lines(state: GameState, follower: Any) -> list[str]:
    """After a command: what the last outcome changed; as a scene opens, what stands in the way and
    what each costs; who is next in the spotlight once a challenge is settled; and once the scene's
    challenges are all settled, its ways on."""
    kinds = follower.last_kinds if isinstance(follower, StoryFollower) else frozenset()
    scene = state.scene
    if scene is None or state.ended or not kinds & {"challenge_resolved", "scene_started"}:
        return []
    lines = changed_lines(state, follower) if "challenge_resolved" in kinds else []
    if "scene_started" in kinds:
        stakes = stakes_lines(state, follower)
        lines += ["What stands in the way, and what each costs:", *stakes] if stakes else []
    if state.pending is not None:
        return lines
    standing = _standing(state, scene.present)
    waiting = [n for n in standing if n not in scene.faced]
    if any(c.status == ChallengeStatus.OPEN for c in scene.challenges.values()):
        if len(standing) >= 2 and waiting:
            lines.append(f"Next in the spotlight: {clean(waiting[0])}"
                         + (f" (yet to act: {_and([clean(n) for n in waiting[1:]])})." if waiting[1:] else "."))
    elif "challenge_resolved" in kinds:
        lines.append("This scene's challenges are settled.")
        lines += exits(state, follower)
    return lines
