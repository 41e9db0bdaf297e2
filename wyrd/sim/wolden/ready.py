"""A Wolden scenario made ready once per process for the fast simulator.

A play session reads and checks the scenario and its cult files at every new game;
the fast simulator does it once (:func:`ready`), through the same functions the
``story`` verb and the ``scene`` verb use (:func:`wyrd.stories.wolden.scenario_args`,
:func:`wyrd.play.kits.wolden.encounters.encounter_args`), so every run starts from the
same cults, characters, enemies and situations a session would. A scenario with
something the fast simulator does not play (no pregenerated characters, an enemy with
no table of actions of its own...) is not made ready: its runs are all played through
play sessions.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import wyrd.rules.wolden as W
from wyrd.play.engine.storyplay import content_dirs
from wyrd.play.kits.wolden.encounters import encounter_args
from wyrd.play.kits.wolden.enemies import enemy_spec
from wyrd.sim.wolden.plain import Damage
from wyrd.stories.wolden import Scenario, ScenarioError

__all__ = ["EncounterPlan", "EnemyPlan", "Ready", "ready"]


@dataclass(frozen=True)
class EnemyPlan:
    id: str
    harm: int
    damage: Damage
    actions: tuple[str | None, ...]  # each row's target


@dataclass(frozen=True)
class EncounterPlan:
    """One of the scenario's encounters, as the ``scene`` verb starts it."""

    id: str
    type: str  # extended, montage or fight
    rating: int
    danger: Damage | None
    enemies: tuple[EnemyPlan, ...]


@dataclass(frozen=True)
class Ready:
    """What every run of a scenario shares."""

    scenario: Scenario
    cults: dict[str, W.Cult]
    pregens: tuple[W.Character, ...]
    encounters: dict[str, EncounterPlan]
    seeds: dict[str, int]  # lines of narration a scene draws one of (its own and the scenario's)


def _damage(found: Mapping[str, Any] | None) -> Damage | None:
    return (int(found["count"]), int(found["sides"]), int(found["bonus"])) if found else None


def _plan(args: Mapping[str, Any], story: Scenario) -> EncounterPlan | None:
    enemies: list[EnemyPlan] = []
    for dump in args.get("enemies", []):
        enemy = W.Enemy.model_validate(dump)
        spec = enemy_spec(enemy, story)
        if spec is None or not spec.actions:  # the bundled table of actions is not played here
            return None
        damage = _damage(dump["damage"])
        assert damage is not None
        enemies.append(EnemyPlan(enemy.id, enemy.harm, damage, tuple(a.target for a in spec.actions)))
    kind = str(args["type"])
    if (kind == "montage" and not args.get("situations")) or (kind == "fight" and not enemies):
        return None  # the rules refuse to start it: a session says why
    if kind != "fight" and int(args["rating"]) < 1:
        return None
    return EncounterPlan(str(args["id"]), kind, int(args.get("rating") or 0), _damage(args.get("danger")),
                         tuple(enemies))


@functools.lru_cache(maxsize=8)
def ready(story: str, content: tuple[Path, ...]) -> Ready | None:
    """The scenario ``story`` made ready, or None if the fast simulator does not play it."""
    from wyrd.stories.wolden import scenario_args

    try:
        args = scenario_args(story, content_dirs(content))
    except ScenarioError:
        return None
    scenario = Scenario.model_validate(args["scenario"])
    cults = {c.id: c for c in (W.Cult.model_validate(c) for c in args["cults"])}
    if not scenario.pregens:
        return None
    pregens = tuple(W.create_character(p.name, cults[p.cult], might=p.might, agility=p.agility, mind=p.mind,
                                       graces=p.graces, gifts=p.gifts, concept=p.concept)
                    for p in scenario.pregens)
    encounters: dict[str, EncounterPlan] = {}
    for ident, spec in scenario.encounters.items():
        plan = _plan(encounter_args(spec, scenario), scenario)
        if plan is None:
            return None
        encounters[ident] = plan
    seeds = {s.id: len(s.narration) + len(scenario.narration) for s in scenario.scenes}
    return Ready(scenario, cults, pregens, encounters, seeds)
