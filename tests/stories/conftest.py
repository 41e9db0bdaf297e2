"""Shared helpers for the story tests: a small story that lints clean, to break on purpose."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
CATEGORIES = ("threat", "eerie", "personal", "intrusion", "friendly")


def tiny() -> dict[str, Any]:
    """Two pregens, one denizen, a clock, a counter, a rule, two scenes: no lint problems."""
    return {
        "id": "tiny",
        "title": "Tiny",
        "premise": "A story small enough to break on purpose.",
        "pregens": [
            {"id": "ada", "name": "Ada", "body": 5, "mind": 5, "soul": 5, "connection": {"to": "bram"},
             "facets": {"body": ["tall", "tired"]}},
            {"id": "bram", "name": "Bram", "body": 7, "mind": 4, "soul": 4, "wyrd": 1},
        ],
        "locations": [{"id": "hall", "name": "The Hall"}],
        "denizens": [{
            "id": "ghost", "name": "The Ghost", "needs": "any",
            "challenges": [
                {"id": "ghost-wail", "name": "Wail", "type": "foreboding", "value": 4,
                 "on_fail": [{"do": "damage", "n": 2}, {"do": "counter", "counter": "dread", "n": 1}]},
                {"id": "ghost-grip", "name": "Grip", "type": "threat", "value": 6, "after": ["ghost-wail"],
                 "on_fail": [{"do": "damage", "n": 3}, {"do": "wyrd_roll", "target": "lead"}]},
            ],
        }],
        "counters": [{"id": "dread", "name": "Dread"}],
        "clocks": [{"id": "night", "name": "Night", "thresholds": [
            {"at": 5, "effects": [{"do": "place", "challenge": "ghost-wail"}]}]}],
        "stage_rules": [{"id": "cold", "name": "Cold", "trigger": {"on": "wyrd_roll", "at_or_under": "dread"},
                         "effects": [{"do": "mark", "text": "A chill."}]}],
        "scenes": [
            {"id": "start", "title": "Start", "location": "hall",
             "challenges": ["ghost-wail", "ghost-grip",
                            {"id": "door", "name": "Door", "type": "obstruction", "value": 3,
                             "on_fail": [{"do": "mark", "text": "Stuck."}]}],
             "stage_rules": ["cold", {"id": "draught", "name": "Draught", "trigger": {"on": "always"},
                                      "effects": [{"do": "modify", "n": 1}]}],
             "next": [{"scene": "end", "when": {"overcome": "ghost-wail"}}, {"scene": "end"}]},
            {"id": "end", "title": "End", "location": "hall", "finale": True},
        ],
        "twists": {c: [{"id": f"{c}-1", "text": "{name} shivers."}] for c in CATEGORIES},
        "postscripts": {k: [{"id": f"{k}-1", "text": "{name} goes home."}] for k in ("held", "freed", "defeated")},
    }


@pytest.fixture
def story_data() -> Callable[[], dict[str, Any]]:
    """A fresh copy of :func:`tiny` for each call."""
    return tiny
