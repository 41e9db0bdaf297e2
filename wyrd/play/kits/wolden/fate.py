"""Wolden's sign of fate: criticals bring twists, and a scene opens with a test of its own d12s.

Wolden has no Wyrd. What stands in for it (the README's rules notes say so too):

* **Twists from criticals.** Seed 001: "if you rolled any doubles, it might be a critical
  result": a critical failure is "just really a bad time", a critical success "something
  highly beneficial". So a critical failure brings the roller a twist as a Wyrd 6 does in
  the Abacus (a new threat, an eerie twist or a personal tie, by a d6), and a critical
  success a friendly intrusion. A partial is never critical, so brings none.
* **The scene test.** When a scene opens, the narration's own dice roll 2d12 for the first
  character present, as the Abacus reads the scene's first Wyrd roll: a pair interrupts the
  scene (that character's twist, as a critical failure's); a highest die of 3 or less with
  no pair alters it (a mundane intrusion); anything else, the scene goes as expected.
* **The oracle's doubled answer** brings its asker the twist of a critical: a yes-side
  double (yes, yes-and) a critical success's, a no-side one a critical failure's.

Every die here is the narration's (the command's teller's or context dice), saved with the
command as added events; the rules' faces are never touched, so old saves replay the same.
The story's own twist tables (``twists:`` of a scenario) are drawn first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import wyrd.rules.wolden as W
from wyrd.oracle.question import SceneOutcome, SceneTest
from wyrd.oracle.tables import roll
from wyrd.oracle.twists import Category, category_table, draw_twist
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rules.wolden.events import CheckRolled
from wyrd.stories.wolden import ScenarioProgress

__all__ = ["SCENE_DICE", "critical_twists", "oracle_twist", "scene_test", "twist_for"]

SCENE_DICE = 2
"""The scene test's pool of d12."""
_ALTERED_AT = 3  # a highest die at most this (and no pair) alters the scene


def _options(follower: Any, deck: Any) -> dict[str, Any]:
    """Wolden's own twist tables, the story's first, and the session's deck so none repeats early."""
    options: dict[str, Any] = {"generic": "wolden/twist/", "deck_state": deck}
    story = follower.scenario if isinstance(follower, ScenarioProgress) else None
    if story is None or not story.twists:
        return options
    return options | {"story_tables": {k: list(v) for k, v in story.twists.items()}, "story": story.id}


def twist_for(name: str, bad: bool, dice: Dice, follower: Any, result: int, deck: Any = None) -> Event:
    """A twist for ``name``: a critical failure's (threat, eerie or tie by a d6) or a critical success's."""
    category = Category(roll(category_table(True), dice).row) if bad else Category.FRIENDLY
    return draw_twist(name, category, dice, result=result, **_options(follower, deck))


def critical_twists(events: Sequence[Event], dice: Dice, follower: Any, deck: Any = None) -> list[Event]:
    """One twist for the lead of every critical roll among a command's events."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, CheckRolled) and event.result in (W.Result.CRITICAL_FAILURE,
                                                                 W.Result.CRITICAL_SUCCESS):
            out.append(twist_for(event.lead, event.result == W.Result.CRITICAL_FAILURE, dice, follower,
                                 event.highest, deck))
    return out


def scene_test(scene: str, present: Sequence[str], dice: Dice, follower: Any, deck: Any = None) -> list[Event]:
    """The scene test of a scene that opens: its verdict, and the twist it brings (none if expected)."""
    if not present:
        return []
    who = present[0]
    faces = list(dice.roll(SCENE_DICE, W.SIDES, "scene test").faces)
    best = max(faces)
    pair = len(set(faces)) < len(faces)
    if pair:
        outcome = SceneOutcome.INTERRUPTED
    elif best <= _ALTERED_AT:
        outcome = SceneOutcome.ALTERED
    else:
        outcome = SceneOutcome.EXPECTED
    test = SceneTest(outcome=outcome, best=best, results={who: best}, interrupted_by=[who] * pair,
                     intrusion="mundane" if outcome == SceneOutcome.ALTERED else None)
    out: list[Event] = [test.event(scene)]
    if outcome == SceneOutcome.INTERRUPTED:
        out.append(twist_for(who, True, dice, follower, best, deck))
    elif outcome == SceneOutcome.ALTERED:
        out.append(draw_twist(who, Category.MUNDANE, dice, result=best, **_options(follower, deck)))
    return out


def oracle_twist(answer: Event, asker: str, state: Any, dice: Dice, follower: Any) -> list[Event]:
    """A doubled answer's twist for the asker: read as a critical success (yes side) or failure (no side)."""
    said: Mapping[str, Any] = answer.model_dump()
    bad = str(said.get("answer", "")) in ("no", "no_but")
    return [twist_for(asker, bad, dice, follower, int(said.get("roll", 0)))]
