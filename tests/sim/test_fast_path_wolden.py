"""Wolden's fast simulator gives the checked path's report (issue 21, point 1: "a fast path may keep
plain data in the hot loop as long as the same seed gives the same report as the checked path").

The checked path is the bots typing lines into real play sessions (``Request(safe=True)``); the
fast path applies the same bots' moves to plain data with the same dice. Every bundled Wolden
story is played with every policy both ways with fixed seeds, and the reports must be equal, field
for field and as JSON, with no run handed back to the checked path; enough runs that every scene
is played, every figure counted and the party both ends the story and falls. A fast path that
draws one die out of turn is caught.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pytest

import wyrd.sim.wolden.fast as fast
from wyrd.sim import POLICY_NAMES, BotReport, Request, simulator_for
from wyrd.sim.summary import RunRecord
from wyrd.sim.wolden.ready import ready
from wyrd.stories.formats import discover

STORIES = [info.id for info in discover(()) if info.ok and info.ruleset == "wolden"]
RUNS = 60
SEED = 21


@dataclass
class Played:
    """Both reports of one story and policy, and what the fast runs met."""

    fast: BotReport
    checked: BotReport
    handed_back: int
    scenes: set[str] = field(default_factory=set)
    outcomes: set[tuple[str, str]] = field(default_factory=set)
    moves: set[str] = field(default_factory=set)


def _play(story: str, policy: str, monkeypatch: pytest.MonkeyPatch, runs: int = RUNS,
          players: int | None = None) -> Played:
    simulator = simulator_for("wolden")
    scenes: set[str] = set()
    outcomes: set[tuple[str, str]] = set()
    moves: set[str] = set()
    play, apply = fast.Run.play, fast.Run.apply

    def watched_play(run: fast.Run) -> RunRecord:
        record = play(run)
        scenes.update(run.place.played)
        outcomes.update(run.place.outcomes.items())
        return record

    def watched_apply(run: fast.Run, move: fast.Move) -> None:
        moves.add(move.verb if move.choice is None else f"{move.verb} {move.choice.value}")
        apply(run, move)

    with monkeypatch.context() as patch:
        patch.setattr(fast.Run, "play", watched_play)
        patch.setattr(fast.Run, "apply", watched_apply)
        quick = simulator.simulate(Request(story, runs, policy=policy, seed=SEED, players=players))
    checked = simulator.simulate(Request(story, runs, policy=policy, seed=SEED, players=players, safe=True))
    assert isinstance(quick, BotReport) and isinstance(checked, BotReport)
    return Played(quick, checked, quick.checked_reruns, scenes, outcomes, moves)


@pytest.fixture(scope="module")
def played() -> Iterator[dict[tuple[str, str], Played]]:
    with pytest.MonkeyPatch.context() as patch:
        yield {(story, policy): _play(story, policy, patch) for story in STORIES for policy in POLICY_NAMES}


def test_the_bundled_wolden_stories_are_listed_and_made_ready() -> None:
    """The stories are read from the bundled ones; each is played by the fast path, not handed back whole."""
    assert "the-drowned-bell" in STORIES
    for story in STORIES:
        assert ready(story, ()) is not None


@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize("story", STORIES)
def test_the_fast_path_reports_exactly_what_the_checked_path_reports(
        story: str, policy: str, played: dict[tuple[str, str], Played]) -> None:
    """Issue 21, point 1: same request, same report (equal, and equal as a dict and as JSON)."""
    found = played[story, policy]
    assert found.fast.runs == RUNS
    assert found.handed_back == 0  # a run handed back is the checked path itself: it must not hide a difference
    assert found.fast == found.checked
    assert found.fast.to_dict() == found.checked.to_dict()
    assert json.dumps(found.fast.to_dict()) == json.dumps(found.checked.to_dict())


@pytest.mark.parametrize("story", STORIES)
def test_the_runs_compared_meet_everything_the_bots_meet(story: str,
                                                         played: dict[tuple[str, str], Played]) -> None:
    """Enough runs that the comparison means something: every scene, every figure, every move."""
    reports = [played[story, policy] for policy in POLICY_NAMES]
    scenario = ready(story, ())
    assert scenario is not None
    assert set().union(*(p.scenes for p in reports)) == {s.id for s in scenario.scenario.scenes}
    for figure in reports[0].checked.figures:
        assert any(f.runs_with.k for p in reports for f in p.checked.figures if f.key == figure.key), figure.key
    assert sum(p.checked.counts["ended"] for p in reports) > 0
    assert sum(p.checked.counts["fell"] for p in reports) > 0
    moves = set().union(*(p.moves for p in reports))
    assert {"pc", "scene", "check", "roll", "session", "downtime rest", "downtime training",
            "downtime carouse"} <= moves
    outcomes = {outcome for p in reports for _, outcome in p.outcomes}
    assert {"done", "lost", "won"} <= outcomes


def test_a_party_enlisted_one_by_one_gives_the_same_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """``players``: the bots take the first pregenerated characters one line at a time."""
    found = _play(STORIES[0], "bold", monkeypatch, runs=20, players=2)
    assert found.handed_back == 0
    assert found.fast == found.checked
    assert found.fast.players == found.checked.players and len(found.fast.players) == 2


def test_safe_mode_plays_through_play_sessions(monkeypatch: pytest.MonkeyPatch) -> None:
    """``Request(safe=True)`` is the checked path: the fast path is never asked."""
    def refuse(*args: object) -> RunRecord:
        raise AssertionError("the fast path was used in safe mode")

    monkeypatch.setattr(fast.Run, "play", refuse)
    report = simulator_for("wolden").simulate(Request(STORIES[0], 3, safe=True))
    assert report.runs == 3


def test_a_die_drawn_out_of_turn_is_caught(monkeypatch: pytest.MonkeyPatch,
                                           played: dict[tuple[str, str], Played]) -> None:
    """The comparison can fail: a fast path that forgets the scene's line of narration (one die on the
    story dice, before the enemies choose whom they go for) gives another report."""
    story = STORIES[0]
    kit = ready(story, ())
    assert kit is not None
    forgetful = replace(kit, seeds=dict.fromkeys(kit.seeds, 0))
    monkeypatch.setattr(fast, "ready", lambda *args: forgetful)
    wrong = simulator_for("wolden").simulate(Request(story, RUNS, policy="bold", seed=SEED))
    assert wrong != played[story, "bold"].checked
