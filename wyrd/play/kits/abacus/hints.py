"""What the Wyrd Abacus shows beside its events: the odds of an open roll, the steps due, the toolbar.

After every change the players see the exact chances of the open roll, as points stand and
with one more (:func:`odds_lines`), and what the rules say is owed now (:func:`steps_lines`).
The scene's Wyrd roll is called for only when a scene opens and after a challenge is settled
(:func:`hints`), not after every command. :func:`toolbar` is the table at a glance, as
styled pieces any front-end can draw; :data:`LOOKS` answer the look-only verbs ``challenges``
and ``chances``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from wyrd.play.frontends.view import Line, clean, short_names
from wyrd.play.kits.abacus.narrator import odds_lines, price_lines
from wyrd.rules.abacus import Ability, GameState, Step, due, effective_value
from wyrd.rules.abacus.characters import Character
from wyrd.rules.abacus.steps import StepKind
from wyrd.rules.actions import Event

__all__ = ["LOOKS", "character_pieces", "hints", "odds_lines", "opening", "steps_lines", "toolbar"]


_STEP_TEXT: dict[StepKind, Callable[[Step], str]] = {
    StepKind.ASSIGN_OR_ROLL: lambda s: "Assign points (spend WHO N) or roll.",
    StepKind.DRAW_OR_ACCEPT: lambda s: f"The roll fell short: draw WHO N, or accept ({', '.join(s.who)} may draw).",
    StepKind.WYRD_ROLL: lambda s: "No Wyrd roll yet this scene: `wyrd` rolls for everyone present.",
    StepKind.GHOST_WYRD: lambda s: f"{', '.join(s.who)}'s player may still give Wyrd (spend ... via NAME, draw NAME).",
    StepKind.FINALE: lambda s: "Everyone has fallen: `finale` ends the story.",
}


def steps_lines(state: GameState, *, wyrd_roll: bool = True) -> list[str]:
    """What the rules say is owed now; ``wyrd_roll=False`` leaves out the scene's Wyrd roll."""
    return [_STEP_TEXT[s.kind](s) for s in due(state) if wyrd_roll or s.kind != StepKind.WYRD_ROLL]


def hints(state: Any, events: Sequence[Event] = ()) -> list[str]:
    """The hints after a command: the scene's Wyrd roll is called for when a scene opens and
    after each challenge is settled, not after every keystroke of play."""
    kinds = {e.kind for e in events}
    return (odds_lines(state) + price_lines(state)
            + steps_lines(state, wyrd_roll=bool(kinds & {"scene_started", "challenge_resolved"})))


def opening(state: Any, follower: Any) -> list[str]:
    """How to begin, for a game with no story and no characters yet."""
    if state.characters or getattr(follower, "play", None) is not None:
        return []
    return ["Make a character: pc add NAME body=5 mind=5 soul=5 (15 points, each 3 to 9).",
            "Then: scene, challenge add \"NAME\" TYPE VALUE, attempt NAME. `help` lists commands."]


def _challenges(state: GameState, args: Mapping[str, Any]) -> list[str]:
    scene = state.scene
    if scene is None:
        return ["Between scenes there are no challenges."]
    rows = [f"  {c.id}: {clean(c.name)}, {c.type.value} {effective_value(state, c)} ({c.status.value})"
            for c in scene.challenges.values()]
    return rows or ["No challenges in this scene."]


LOOKS: dict[str, Callable[[Any, Mapping[str, Any]], list[str]]] = {
    "challenges": _challenges,
}


# -- the toolbar: pieces styled from the toolbar's palette (pool, roll, name, points, low, ...) --

_SEP = Line(text=" | ", style="sep")


def character_pieces(char: Character, name: str | None = None) -> list[Line]:
    """One character: their (short) name, then B/M/S points (``/score`` when spent below it, ``x``
    scratched), then personal Wyrd."""
    shown = clean(char.name) if name is None else name
    if char.defeated:
        return [Line(text=f"{shown} defeated", style="defeated")]
    out = [Line(text=shown, style="name")]
    for ability in Ability:
        letter = ability.value[0].upper()
        if char.is_scratched(ability):
            out.append(Line(text=f" {letter}x/{char.scores[ability]}", style="scratched"))
            continue
        points, score = char.points[ability], char.scores[ability]
        figure = f"{points}" if points == score else f"{points}/{score}"
        out.append(Line(text=f" {letter}{figure}", style="low" if points <= 1 else "points"))
    out.append(Line(text=f" W{char.wyrd}", style="wyrd"))
    return out


def _scene_pieces(state: GameState) -> list[Line]:
    scene = state.scene
    if state.ended:
        return [Line(text="the story has ended", style="pool")]
    if scene is None:
        return [Line(text=f"between scenes ({state.scenes_played} played)", style="pool")]
    ghost = sum(scene.ghost.values())
    extra = f" (+{ghost} given)" if ghost else ""
    return [Line(text=f"scene {scene.number} pool {scene.pool}{extra}", style="pool")]


def _roll_pieces(state: GameState) -> list[Line]:
    pending = state.pending
    if pending is None or state.scene is None:
        return []
    challenge = state.scene.challenges.get(pending.challenge)
    name = clean(challenge.name) if challenge is not None else clean(pending.challenge)
    lead = short_names(state.characters).get(pending.lead, clean(pending.lead))
    return [_SEP, Line(text=f"{lead} vs {name}: {pending.points} pts, {pending.stage.value}", style="roll")]


def toolbar(state: Any) -> list[Line]:
    """The pool, the open roll and each character; the odds of an open roll on a second line."""
    parts = _scene_pieces(state) + _roll_pieces(state)
    short = short_names(state.characters)
    for char in state.characters.values():
        parts += [_SEP, *character_pieces(char, short[char.name])]
    for line in odds_lines(state):
        parts += [Line(text="\n "), Line(text=line, style="odds")]
    return parts
