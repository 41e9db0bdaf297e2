"""Stories built in the tests, small enough that their odds have a closed form."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wyrd.stories.abacus.schema import Story


def story_data(challenges: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    """One scene holding ``challenges``, and one pregen with Body 7 (Mind 4, Soul 4)."""
    return {
        "id": "tiny",
        "title": "Tiny",
        "premise": "One door, one try.",
        "pregens": [{"id": "ada", "name": "Ada", "body": 7, "mind": 4, "soul": 4}],
        "locations": [{"id": "hall", "name": "Hall"}],
        "scenes": [{"id": "door", "title": "The Door", "location": "hall", "challenges": challenges,
                    "finale": True}],
        **extra,
    }


@pytest.fixture
def one_door() -> Story:
    """One scene, one Obstruction of value 7 whose failure costs only a mark."""
    door = {"id": "door", "name": "The Door", "type": "obstruction", "value": 7,
            "on_fail": [{"do": "mark", "text": "It holds."}]}
    return Story.model_validate(story_data([door]))


@pytest.fixture
def make_story() -> Callable[[list[dict[str, Any]]], Story]:
    """A one-scene story holding the challenges given."""
    return lambda challenges: Story.model_validate(story_data(challenges))
