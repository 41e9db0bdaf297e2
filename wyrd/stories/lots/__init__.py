"""The Thaeborn story format: scenarios (:mod:`~wyrd.stories.lots.scenario`), where their
scenes lead (:mod:`~wyrd.stories.lots.branches`), the story's own events
(:mod:`~wyrd.stories.lots.events`), where play stands in one (:mod:`~wyrd.stories.lots.following`),
and the ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.lots.format`).

The names of the scenario, its branches, its events and its follower are offered here too, as play has
always found them.
"""

from wyrd.stories.lots.branches import END, Exit, StageRule, Told, Twists, When
from wyrd.stories.lots.events import SceneCall, SceneOpened, StoryClosed, calls, close_story, open_scene
from wyrd.stories.lots.following import ScenarioPlay
from wyrd.stories.lots.scenario import (
    FOLDER,
    AssessCall,
    CheckCall,
    FightCall,
    Scenario,
    ScenarioError,
    Scene,
    Sheet,
    find_scenario,
    load_scenario,
    scenario_files,
)
from wyrd.stories.problems import LINTING

__all__ = [
    "END",
    "FOLDER",
    "LINTING",
    "AssessCall",
    "CheckCall",
    "Exit",
    "FightCall",
    "Scenario",
    "ScenarioError",
    "ScenarioPlay",
    "Scene",
    "SceneCall",
    "SceneOpened",
    "Sheet",
    "StageRule",
    "StoryClosed",
    "Told",
    "Twists",
    "When",
    "calls",
    "close_story",
    "find_scenario",
    "load_scenario",
    "open_scene",
    "scenario_files",
]
