"""Playing the Wyrd Abacus: its verbs, and the hooks the shared play layer calls.

Importing this module registers the abacus verbs (characters and scenes, fate and
magic, stories, the oracle) in its verb table, and builds its
:class:`~wyrd.play.engine.kits.PlayHooks`: exact odds of an open roll and the steps
the rules say are due after each change, the status, the character sheets, how its
events read (:mod:`wyrd.play.kits.abacus.texts`), the toolbar
(:mod:`wyrd.play.kits.abacus.hints`), the words Tab completes
(:mod:`wyrd.play.kits.abacus.words`), the story follower
(:class:`~wyrd.play.kits.abacus.following.StoryFollower`), and its narration hook
(:mod:`wyrd.play.kits.abacus.narration`: scene tests, twists and moments).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wyrd.oracle.narrators.telling import LazyNarration
from wyrd.play.engine.events import ORACLE_ADDED
from wyrd.play.engine.kits import Move, OracleHooks, PlayHooks
from wyrd.play.frontends.view import clean
from wyrd.play.kits.abacus import fate, hints, narrator, story, texts  # noqa: F401  (these register the verbs)
from wyrd.play.kits.abacus import words as vocabulary
from wyrd.play.kits.abacus.events import KINDS
from wyrd.play.kits.abacus.following import StoryFollower
from wyrd.play.kits.abacus.hints import odds_lines, steps_lines
from wyrd.play.kits.abacus.texts import sheet
from wyrd.play.kits.abacus.verbs import VERBS, character_names, present_names
from wyrd.rules.abacus import GameState
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.abacus import flow

__all__ = ["ADDED_KINDS", "KIT", "TOLD_KINDS"]

# What the kit's verbs add after the rules, and what its narration adds (twists, scene tests).
ADDED_KINDS = frozenset({"postscript", "stage_rules_evident", "story_chosen", "scene_framed", "ending"}) | ORACLE_ADDED

# The kinds its narration may add to (a Wyrd roll: a scene test, twists) or tell (its major moments,
# :mod:`wyrd.play.kits.abacus.moments`; a test keeps the two alike): a command with none of them
# leaves the narration unloaded, as a new game's story chosen does before the first prompt.
TOLD_KINDS = frozenset({
    "influence_rolled", "ability_scratched", "answer", "challenge_modified", "challenge_placed",
    "challenge_resolved", "character_created", "character_defeated", "contest_decided", "counter_changed",
    "counter_fired", "damage", "magic_cast", "points_recovered", "scene_ended", "scene_started", "scene_test",
    "servant_loose", "session_started", "stage_rule_fired", "story_ended", "twist",
})


def _told(events: Sequence[Event]) -> bool:
    return any(event.kind in TOLD_KINDS for event in events)


def _status(state: GameState) -> list[str]:
    lines: list[str] = []
    if state.scene is None:
        lines.append(f"Between scenes ({state.scenes_played} played).")
    else:
        scene = state.scene
        lines.append(f"Scene {scene.number}: pool {scene.pool}, "
                     f"Wyrd rolls {scene.wyrd_rolls}, present {', '.join(map(clean, scene.present))}.")
    for name in state.characters:
        lines += sheet(state, name)
    for clock in state.clocks.values():
        lines.append(f"Clock {clean(clock.name)}: {clock.value}")
    for counter in state.counters.values():
        lines.append(f"{clean(counter.name)}: {counter.value}")
    return lines + odds_lines(state) + steps_lines(state)


def _sheets(state: GameState, name: str | None) -> list[str]:
    lines: list[str] = []
    for who in [name] if name else list(state.characters):
        lines += sheet(state, who)
    return lines


def _pregens(state: GameState, follower: object) -> list[str]:
    """Each pregen of the story with their whole sheet, marked taken or not (``pregens``)."""
    play = follower.play if isinstance(follower, StoryFollower) else None
    if play is None:
        return []
    lines: list[str] = []
    for char in flow.characters(play.story):
        shown = sheet(state.model_copy(update={"characters": {char.name: char}}), char.name)
        shown[0] += " (taken)" if char.name in state.characters else " (not taken yet)"
        lines += shown
    return lines


def _tension(state: GameState) -> int:
    """The scene Wyrd drawn so far in this scene: the oracle's chaos (DESIGN.md)."""
    return state.scene.drawn if state.scene is not None else 0


def _answer_twist(told: Any, asker: str, state: Any, dice: Dice, follower: Any) -> list[Event]:
    from wyrd.play.kits.abacus.narration import answer_twist  # the tables only when a twist comes

    return answer_twist(told, asker, state, dice, follower)


ORACLE = OracleHooks(askers=character_names, present=present_names, tension=_tension,
                     tension_words="the scene's Wyrd drawn", twist=_answer_twist)

# The common moves, as buttons at the shared table: a roll while one is open, else what a scene asks.
MOVES = (
    Move("Roll", "roll", when=lambda state, follower: state.pending is not None),
    Move("Attempt...", "attempt ", send=False,
         when=lambda state, follower: state.scene is not None and state.pending is None),
    Move("End scene", "end scene", when=lambda state, follower: state.scene is not None and state.pending is None),
    Move("Next scene", "scene",
         when=lambda state, follower: state.scene is None and bool(state.characters) and not state.ended),
)

KIT = PlayHooks(ruleset="abacus", verbs=VERBS, hints=hints.hints, status=_status, sheet=_sheets,
                follow=StoryFollower.restore, added_kinds=ADDED_KINDS, events=KINDS,
                tell=LazyNarration(f"{__package__}.narration:NARRATION", tells=_told),
                texts=texts.TEXTS, recall=texts.RECALL, styles=texts.STYLES, opening=hints.opening, looks=hints.LOOKS,
                toolbar_pieces=hints.toolbar, words=vocabulary.words, complete=vocabulary.complete,
                ask_before=vocabulary.recovery_line, quick_start="the-milestones",
                scene_opens=frozenset({"scene_started"}), oracle=ORACLE, follower_hints=narrator.story_lines,
                frame=narrator.frame, stage_rules=narrator.stage_rules, exits=narrator.exits,
                spotlight=narrator.spotlight, preview=narrator.preview, pregens=_pregens, moves=MOVES)
