"""The REPL's bottom toolbar: the table at a glance.

One line for the scene's Wyrd pool, the open roll and every character's points
(``Ada B5/5 M4/6 S4/4 W1``; a scratched ability shows ``x``, a defeated character is
struck through), and, while a challenge roll is open, a second line with its exact
odds (:func:`wyrd.play.frontends.view.odds_lines`). Pure: it reads a state and returns formatted text.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import FormattedText

from wyrd.play.frontends.view import clean, odds_lines
from wyrd.rules.abacus import Ability, GameState
from wyrd.rules.abacus.characters import Character

__all__ = ["character_text", "toolbar_text"]

_SEP = ("class:toolbar.sep", " | ")


def character_text(char: Character) -> list[tuple[str, str]]:
    """One character's fragments: name, then B/M/S points over scores, then personal Wyrd."""
    if char.defeated:
        return [("class:toolbar.defeated", f"{clean(char.name)} defeated")]
    out: list[tuple[str, str]] = [("class:toolbar.name", clean(char.name))]
    for ability in Ability:
        letter = ability.value[0].upper()
        if char.is_scratched(ability):
            out.append(("class:toolbar.scratched", f" {letter}x/{char.scores[ability]}"))
            continue
        points = char.points[ability]
        style = "class:toolbar.low" if points <= 1 else "class:toolbar.points"
        out.append((style, f" {letter}{points}/{char.scores[ability]}"))
    out.append(("class:toolbar.wyrd", f" W{char.wyrd}"))
    return out


def _scene_text(state: GameState) -> list[tuple[str, str]]:
    scene = state.scene
    if state.ended:
        return [("class:toolbar.pool", "the story has ended")]
    if scene is None:
        return [("class:toolbar.pool", f"between scenes ({state.scenes_played} played)")]
    ghost = sum(scene.ghost.values())
    extra = f" (+{ghost} given)" if ghost else ""
    return [("class:toolbar.pool", f"scene {scene.number} pool {scene.pool}{extra}")]


def _roll_text(state: GameState) -> list[tuple[str, str]]:
    pending = state.pending
    if pending is None or state.scene is None:
        return []
    challenge = state.scene.challenges.get(pending.challenge)
    name = clean(challenge.name) if challenge is not None else clean(pending.challenge)
    return [_SEP, ("class:toolbar.roll",
                   f"{clean(pending.lead)} vs {name}: {pending.points} pts, {pending.stage.value}")]


def toolbar_text(state: GameState) -> FormattedText:
    """The toolbar for ``state``: pool, open roll, each character; the odds on a second line."""
    parts = _scene_text(state) + _roll_text(state)
    for char in state.characters.values():
        parts += [_SEP, *character_text(char)]
    for line in odds_lines(state):
        parts += [("", "\n "), ("class:toolbar.odds", line)]
    return FormattedText([("", " "), *parts])
