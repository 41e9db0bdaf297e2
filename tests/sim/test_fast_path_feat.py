"""Heroes of the Fall's fast path gives the checked path's report (issue 21, point 1: "a fast path may keep
plain data in the hot loop as long as the same seed gives the same report as the checked path").

The checked path is the bots typing lines into real play sessions (``Request(safe=True)``); the fast path
(:mod:`wyrd.sim.feat.fast`, the default) plays the same runs on the rules core. Every bundled story is
played both ways under every policy with one seed, and the reports must be equal, field for field and as
JSON. The bundled heroes are novices with no Wyrd, so a variant of a story whose heroes have Wyrd to
spend has the bots buy 8s (every figure the bots count then happens somewhere below); a variant whose
scene asks for a search twice meets a refusal, which the fast path hands to the checked path and counts.
A fast path given other dice must be caught.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import BaseModel

import wyrd.sim.feat.fast as fast_path
from wyrd.sim import Request, simulator_for
from wyrd.sim.copies import fresh
from wyrd.sim.playthrough import Game, session_seed
from wyrd.sim.summary import BotReport
from wyrd.stories.feat import BUNDLED_FEAT
from wyrd.stories.formats import discover

STORIES = [info.id for info in discover(()) if info.ok and info.ruleset == "feat"]
POLICIES = ("cautious", "bold", "random")
RUNS = 100
SEED = 21


def both_ways(story: str, policy: str, runs: int = RUNS, content: tuple[Path, ...] = ()) -> tuple[BotReport, ...]:
    simulator = simulator_for("feat")
    reports = [simulator.simulate(Request(story, runs, policy=policy, seed=SEED, safe=safe, content=content))
               for safe in (False, True)]
    assert all(isinstance(r, BotReport) for r in reports)
    return tuple(r for r in reports if isinstance(r, BotReport))


def assert_same(fast: BotReport, checked: BotReport) -> None:
    assert fast == checked
    assert fast.to_dict() == checked.to_dict()
    assert fast.to_json() == checked.to_json()


def variant(tmp_path: Path, story: str, ident: str, change: Any) -> tuple[Path, ...]:
    """A player's copy of a bundled story, changed by ``change(data)`` and called ``ident``."""
    data = yaml.safe_load((BUNDLED_FEAT / f"{story}.yaml").read_text(encoding="utf-8"))
    change(data)
    data["id"] = ident
    folder = tmp_path / "feat"
    folder.mkdir(exist_ok=True)
    (folder / f"{ident}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return (tmp_path,)


def test_the_bundled_stories_are_listed() -> None:
    assert set(STORIES) == {"lantern-at-gull-reach", "the-pardon-at-kell-pass"}


@pytest.mark.parametrize("policy", POLICIES)
@pytest.mark.parametrize("story", STORIES)
def test_the_fast_path_reports_exactly_what_the_checked_path_reports(story: str, policy: str) -> None:
    """Issue 21, point 1: same seed, same report, fast or checked, on every bundled story and policy."""
    fast, checked = both_ways(story, policy)
    assert fast.runs == RUNS and fast.checked_reruns == 0  # a rerun would be the checked path itself
    assert fast.counts["ended"] == RUNS and fast.refusals == 0
    happened = {f.key for f in fast.figures if f.runs_with.k}
    # what the bots meet in every bundled story: scenes, feats won and lost, shocks failed, wounds
    assert {"scenes", "feats", "feats_failed", "shocks_failed", "mettle_lost"} <= happened
    assert_same(fast, checked)


def test_somebody_dies_in_the_runs_compared() -> None:
    fast, checked = both_ways("lantern-at-gull-reach", "bold")
    assert next(f for f in fast.figures if f.key == "deaths").runs_with.k > 0
    assert_same(fast, checked)


def _with_wyrd(data: dict[str, Any]) -> None:
    for hero in data["cast"]:  # outside the tiers, a hero may begin with any Wyrd
        hero.pop("tier", None)
        hero["wyrd"] = 12


@pytest.mark.parametrize("policy", POLICIES)
def test_eights_bought_with_wyrd_report_the_same_both_ways(tmp_path: Path, policy: str) -> None:
    """RULES.md: 5 Wyrd points buy an automatic 8; the cautious and random bots buy them when they can."""
    content = variant(tmp_path, "lantern-at-gull-reach", "lantern-with-wyrd", _with_wyrd)
    fast, checked = both_ways("lantern-with-wyrd", policy, runs=60, content=content)
    spent = next(f for f in fast.figures if f.key == "wyrd_spent")
    assert (spent.runs_with.k > 0) == (policy != "bold")
    assert fast.checked_reruns == 0
    assert_same(fast, checked)


def _search_twice(data: dict[str, Any]) -> None:
    asks = data["scenes"][0]["asks"]
    asks.append(next(a for a in asks if a.startswith("search")))


def test_a_run_refused_a_line_is_played_on_the_checked_path_and_counted(tmp_path: Path) -> None:
    """Seed 003: one search per thing; the second is refused, and the fast path hands the run over."""
    content = variant(tmp_path, "lantern-at-gull-reach", "lantern-searched-twice", _search_twice)
    fast, checked = both_ways("lantern-searched-twice", "cautious", runs=20, content=content)
    assert checked.refusals == 20 and checked.checked_reruns == 0
    assert fast.checked_reruns == 20
    assert_same(replace(fast, checked_reruns=0), checked)
    assert "20 runs played through play sessions: the fast way could not play them." in simulator_for("feat").text(fast)


def test_a_fast_path_on_other_dice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison can fail: the fast path given another seed's dice reports something else."""
    monkeypatch.setattr(fast_path, "session_seed", lambda seed, index: session_seed(seed + 1, index))
    fast, checked = both_ways("the-pardon-at-kell-pass", "cautious", runs=40)
    assert fast != checked
    assert fast.to_dict() != checked.to_dict()


def test_worker_processes_play_the_fast_path_to_the_same_report() -> None:
    """Runs shared out over two processes add up to the checked path's report in one."""
    simulator = simulator_for("feat")
    shared = simulator.simulate(Request("lantern-at-gull-reach", 40, policy="random", seed=SEED, jobs=2))
    checked = simulator.simulate(Request("lantern-at-gull-reach", 40, policy="random", seed=SEED, safe=True))
    assert isinstance(shared, BotReport) and isinstance(checked, BotReport)
    assert shared.checked_reruns == 0
    assert_same(shared, checked)


def _mutable_parts(value: Any) -> list[Any]:
    """Every dict, list and model that is not frozen inside ``value`` (what an action may change in place)."""
    if isinstance(value, dict):
        return [value, *(p for v in value.values() for p in _mutable_parts(v))]
    if isinstance(value, list):
        return [value, *(p for v in value for p in _mutable_parts(v))]
    if isinstance(value, BaseModel) and not value.model_config.get("frozen"):
        return [value, *(p for name in type(value).model_fields for p in _mutable_parts(getattr(value, name)))]
    return []


def test_each_run_starts_from_a_copy_that_shares_nothing_an_action_changes() -> None:
    """Issue 21, point 1: the state is copied per run by type; a run must not change the next one's."""
    plan = fast_path.plan_for(Game("feat", "lantern-at-gull-reach", simulator_for("feat").bots, "bold", None, ()))
    start = plan.start.model_copy(update={"searches": {"the-lamp": ["Wenna Tarr"]}})
    copied = fresh(start)
    assert copied == start and copied.model_dump(mode="json") == start.model_dump(mode="json")
    theirs = {id(p) for p in _mutable_parts(start)}
    assert len(theirs) > 10 and not theirs & {id(p) for p in _mutable_parts(copied)}
    for name, char in plan.entrants.items():
        assert fresh(char) == char and fresh(char) is not char, name


def test_a_state_holding_what_the_copy_does_not_know_is_refused() -> None:
    with pytest.raises(TypeError, match="set"):
        fresh({"x": {1, 2}})


def test_the_story_is_made_ready_before_the_workers_start(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 1: the workers forked for ``--jobs`` inherit the plan rather than each making it."""
    monkeypatch.setattr(fast_path, "_PLANS", {})
    made: list[str] = []
    real = fast_path.Plan.__init__

    def counted(self: fast_path.Plan, *args: Any, **kwargs: Any) -> None:
        made.append("plan")
        real(self, *args, **kwargs)

    monkeypatch.setattr(fast_path.Plan, "__init__", counted)
    simulator_for("feat").simulate(Request("the-pardon-at-kell-pass", 20, policy="bold", seed=SEED, jobs=2))
    assert made == ["plan"]  # made here, in the parent process
