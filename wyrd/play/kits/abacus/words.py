"""The Wyrd Abacus's vocabulary for completion, and the choices asked of the players in turn.

:func:`words` gives the words of each kind the verbs' ``completes`` name (characters,
the scene's challenges, abilities, challenge types, forms of magic, the oracle's odds);
:func:`complete` the words of the two verbs that are not positional: ``pc add NAME`` with
its ``key=value`` options, and ``end scene recover NAME=ABILITY`` with only the abilities
that can recover. :func:`recovery_line` is the hot-seat help: a bare ``end scene`` while
several characters faced challenges asks each of them, in turn, which ability to recover
(only where there is a real choice), so the save records what was chosen.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Sequence

from wyrd.play.engine.words import UsageError, split_line
from wyrd.play.kits.abacus.following import StoryFollower
from wyrd.play.kits.abacus.verbs import VERBS
from wyrd.rules.abacus import Ability, ChallengeType, GameState, MagicForm
from wyrd.stories.abacus import flow

__all__ = ["PC_OPTIONS", "Ask", "complete", "recoverable", "recovery_line", "words"]

PC_OPTIONS = ("body=", "mind=", "soul=", "wyrd=", "concept=", "connection=")

# (question, what is asked for, options, default) -> the choice, None to cancel
Ask = Callable[[str, str, Sequence[str], str], str | None]


def words(kind: str, state: GameState, follower: object = None) -> dict[str, str] | None:
    """The words of ``kind``, each with its note; None for a kind the Abacus does not know."""
    if kind == "character":
        return {c.name: "defeated" if c.defeated else "" for c in state.characters.values()}
    if kind == "challenge":
        scene = state.scene
        if scene is None:
            return {}
        return {c.id: f"{c.name}, {c.type.value} {c.value} ({c.status.value})" for c in scene.challenges.values()}
    if kind == "ability":
        return {a.value: "" for a in Ability}
    if kind == "type":
        return {t.value: t.ability.value for t in ChallengeType}
    if kind == "form":
        return {f.value: "" for f in MagicForm}
    if kind == "way":
        return _ways(state, follower)
    return None


def _ways(state: GameState, follower: object) -> dict[str, str]:
    """The scenes `scene ID` may name: the story's ways on from here, the open ones marked."""
    from wyrd.play.kits.abacus.following import StoryFollower
    from wyrd.stories.abacus import flow

    play = follower.play if isinstance(follower, StoryFollower) else None
    if play is None:
        return {}
    story = play.story
    if story.freeform:
        return {loc.id: loc.name for loc in story.locations}
    here = play.last_scene()
    opened = play.open_scenes(state) if state.scene is None else (
        flow.exits(story, here, play.progress(state)) if here else [])
    found: dict[str, str] = {}
    ways = story.scene(here).next if here else []
    for way in ways:
        if way.scene in found:
            continue
        spec = play.scene_spec(way.scene)
        title = spec.title if spec is not None else way.scene
        opens = " or ".join(flow.when_words(w.when, story) for w in ways if w.scene == way.scene)
        found[way.scene] = f"{title} (open)" if way.scene in opened else f"{title} (shut: opens if {opens})"
    if here is None and story.scenes:
        found[story.scenes[0].id] = f"{story.scenes[0].title} (open)"
    return found


def _pregens(follower: object) -> dict[str, str]:
    """The story's pregenerated characters, each with their concept (none without a story)."""
    play = follower.play if isinstance(follower, StoryFollower) else None
    return {c.name: c.concept for c in flow.characters(play.story)} if play is not None else {}


def _pc(done: Sequence[str], fragment: str, state: GameState, follower: object = None) -> dict[str, str]:
    if not done:  # `pc add ...`, `pc take ...` or `pc NAME`
        take = {"take": "the story's pregenerated characters"} if _pregens(follower) else {}
        return {"add": "a new character", **take, **(words("character", state) or {})}
    if done[0].casefold() == "take":
        left = {n: c for n, c in _pregens(follower).items() if n not in state.characters}
        return ({"all": ""} if len(done) == 1 else {}) | left
    if done[0].casefold() != "add":
        return {}
    if len(done) < 2:
        return {}  # the new character's name is the player's to invent
    if fragment.casefold().startswith("connection="):
        return {f"connection={c}": "" for c in state.characters}
    used = {w.split("=", 1)[0].casefold() + "=" for w in done if "=" in w}
    return {o: "" for o in PC_OPTIONS if o not in used}


def recoverable(state: GameState, name: str) -> list[Ability]:
    """The abilities ``name`` could recover at a scene's end: spent and not scratched."""
    char = state.characters.get(name)
    if char is None or char.defeated:
        return []
    return [a for a in Ability if not char.is_scratched(a) and char.spent(a) > 0]


def _end(done: Sequence[str], fragment: str, state: GameState) -> dict[str, str]:
    if not done:
        return {"scene": ""}
    groups = ["recover", *(["connection"] if state.connections else [])]
    said = [w.casefold() for w in done if w.casefold() in ("recover", "connection")]
    group = said[-1] if said else None
    if group is None:
        return dict.fromkeys(groups, "")
    scene = state.scene
    faced = list(scene.faced) if scene is not None else list(state.characters)
    name, eq, _ = fragment.partition("=")
    if eq:
        who = next((n for n in faced if n.casefold() == name.casefold()), None)
        if who is None:
            return {}
        return {f"{name}={a.value}": f"{state.characters[who].spent(a)} spent" for a in recoverable(state, who)}
    chosen = {w.split("=", 1)[0].casefold() for w in done if "=" in w}
    out = {f"{n}=": "" for n in faced if n.casefold() not in chosen and recoverable(state, n)}
    return out | {g: "" for g in groups if g != group}


def complete(verb: str, done: Sequence[str], fragment: str, state: GameState,
             follower: object = None) -> dict[str, str] | None:
    """The choices for ``pc`` and ``end``, whose words are not positional (None for the others)."""
    if verb == "pc":
        return _pc(done, fragment, state, follower)
    if verb == "end":
        return _end(done, fragment, state)
    return None


def recovery_line(line: str, state: GameState, ask: Ask) -> str | None:
    """``line``, or for a bare ``end scene`` the line with each character's recovery asked.

    Only characters who faced a challenge, are standing, and have more than one ability
    that can recover are asked (with one, the rules' own choice is the only one). Returns
    ``line`` unchanged when there is nothing to ask, and None when the player cancels.
    """
    try:
        said = split_line(line)
        if not said or VERBS.find(said[0]).key != "end":
            return line
    except UsageError:
        return line
    if [w.casefold() for w in said[1:]] not in ([], ["scene"]):
        return line  # the player said it all
    scene = state.scene
    if scene is None or state.pending is not None or len(scene.faced) < 2:
        return line  # the rules will refuse or there is no one to ask
    chosen: dict[str, Ability] = {}
    for name in scene.faced:
        options = recoverable(state, name)
        if len(options) < 2:
            continue
        char = state.characters[name]
        default = max(options, key=char.spent)  # as the rules choose when no one does
        answer = ask(f"{name} recovers", "ability", [a.value for a in options], default.value)
        if answer is None:
            return None
        chosen[name] = Ability(answer)
    if not chosen:
        return line
    pairs = " ".join(shlex.quote(f"{name}={ability.value}") for name, ability in chosen.items())
    return f"end scene recover {pairs}"
