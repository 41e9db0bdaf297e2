"""The Thaeborn story format: scenarios (:mod:`~wyrd.stories.lots.scenario`) and the
ruleset's :class:`~wyrd.stories.formats.StoryFormat` (:mod:`~wyrd.stories.lots.format`).

The scenario module's names are offered here too, as play has always found them.
"""

from wyrd.stories.lots.scenario import (
    FOLDER,
    LINTING,
    AssessCall,
    CheckCall,
    FightCall,
    Scenario,
    ScenarioError,
    ScenarioPlay,
    Scene,
    SceneCall,
    SceneOpened,
    Sheet,
    StoryClosed,
    calls,
    close_story,
    find_scenario,
    load_scenario,
    open_scene,
    scenario_files,
)

__all__ = [
    "FOLDER",
    "LINTING",
    "AssessCall",
    "CheckCall",
    "FightCall",
    "Scenario",
    "ScenarioError",
    "ScenarioPlay",
    "Scene",
    "SceneCall",
    "SceneOpened",
    "Sheet",
    "StoryClosed",
    "calls",
    "close_story",
    "find_scenario",
    "load_scenario",
    "open_scene",
    "scenario_files",
]
