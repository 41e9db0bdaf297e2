"""Playing the Wyrd Abacus: its verbs, and the hooks the shared play layer calls.

Importing this module registers the abacus verbs (characters and scenes, fate and
magic, stories, the oracle) and its :class:`~wyrd.play.engine.kits.PlayHooks`: exact odds
of an open roll and the steps the rules say are due after each change, the
status, the character sheets, and its narration hook
(:mod:`wyrd.play.kits.abacus.narration`: scene tests, twists and moments).
"""

from __future__ import annotations

from typing import Any

from wyrd.oracle.narrators.telling import LazyNarration
from wyrd.play.engine.kits import PlayHooks, register_hooks
from wyrd.play.frontends.view import clean, odds_lines, sheet, steps_lines
from wyrd.play.kits.abacus import fate, oracle_verbs, story, verbs  # noqa: F401  (these register the verbs)
from wyrd.rules.abacus import GameState

__all__ = ["HOOKS"]


def _status(state: GameState) -> list[str]:
    lines: list[str] = []
    if state.scene is None:
        lines.append(f"Between scenes ({state.scenes_played} played).")
    else:
        scene = state.scene
        lines.append(f"Scene {scene.number} ({clean(scene.id)}): pool {scene.pool}, "
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


def _hints(state: Any) -> list[str]:
    return odds_lines(state) + steps_lines(state, wyrd_roll=False)


HOOKS = register_hooks(PlayHooks(ruleset="abacus", hints=_hints, status=_status, sheet=_sheets,
                                 tell=LazyNarration(f"{__package__}.narration:NARRATION")))
