"""Bots for every ruleset (issue 15, point 3: "`wyrd simulate` runs bots on a story of any ruleset").

Each bundled story of Wolden, Heroes of the Fall and Thaeborn is played by its
ruleset's bots through real play sessions: a seeded simulation gives the same
report twice, every run ends one way (ended + fell + capped = runs), the bots are
seldom refused (a bot that keeps being refused is a bug), the report does not
depend on the number of processes, and a run that goes on too long is cut off and
counted. The ruleset and the simulator are found through the registry.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from wyrd.play.cli.main import main
from wyrd.play.engine.reply import Reply
from wyrd.play.engine.session import Session
from wyrd.rulesets import rulesets
from wyrd.sim import (
    POLICY_NAMES,
    BotReport,
    BotSimulator,
    Figure,
    Outcome,
    Request,
    SimError,
    simulator_for,
    story_ruleset,
)

STORIES = [("wolden", "the-drowned-bell"), ("feat", "lantern-at-gull-reach"), ("lots", "harrow-mere"),
           ("lots", "salt-tithe")]
RUNS = 6


def simulate(ruleset: str, story: str, runs: int = RUNS, **kwargs: Any) -> BotReport:
    report = simulator_for(ruleset).simulate(Request(story, runs, **kwargs))
    assert isinstance(report, BotReport)
    return report


def test_every_ruleset_names_a_simulator_with_the_three_policies() -> None:
    for ruleset in rulesets():
        assert simulator_for(ruleset).policies == POLICY_NAMES, ruleset.id


@pytest.mark.parametrize(("ruleset", "story"), [*STORIES, ("abacus", "hollow-fair"), ("abacus", "wrackham")])
def test_a_story_is_found_in_its_own_ruleset(ruleset: str, story: str) -> None:
    assert story_ruleset(story) == ruleset


def test_a_story_of_no_ruleset_is_a_sim_error() -> None:
    with pytest.raises(SimError, match="no story 'no-such-story'"):
        story_ruleset("no-such-story")


@pytest.mark.parametrize(("ruleset", "story"), STORIES)
def test_a_seeded_simulation_is_reproducible_and_adds_up(ruleset: str, story: str) -> None:
    first = simulate(ruleset, story, seed=3)
    assert first.to_dict() == simulate(ruleset, story, seed=3).to_dict()
    assert first.ruleset == ruleset and first.story == story and first.runs == RUNS and first.players
    assert sum(first.counts.values()) == RUNS
    assert first.ended.k + first.fell.k + first.capped.k == RUNS
    assert first.capped.k == 0  # the bundled stories end well before the step cap
    assert first.figures[0].key == "scenes" and first.figures[0].mean.mean >= 1
    other = simulate(ruleset, story, seed=4)
    assert other.to_dict() != first.to_dict()  # the seed matters


@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize(("ruleset", "story"), STORIES)
def test_bots_are_seldom_refused(ruleset: str, story: str, policy: str) -> None:
    report = simulate(ruleset, story, runs=4, policy=policy, seed=11)
    assert report.refusals <= report.runs // 4, report.refusal_reasons
    assert report.ended.k + report.fell.k + report.capped.k == report.runs


def test_the_policies_play_differently() -> None:
    """Bold trains instead of resting and never waits for a new session: its parties fall more often."""
    cautious = simulate("wolden", "the-drowned-bell", runs=30, seed=5)
    bold = simulate("wolden", "the-drowned-bell", runs=30, seed=5, policy="bold")
    downtimes = {f.key: f for f in cautious.figures}["downtimes"].mean.mean
    assert downtimes > {f.key: f for f in bold.figures}["downtimes"].mean.mean
    assert cautious.fell.k < bold.fell.k


def test_fewer_players_are_played_when_asked() -> None:
    report = simulate("lots", "harrow-mere", runs=3, players=1, seed=2)
    assert report.players == ("Ysolde",)
    assert report.refusals == 0


def test_a_whole_cast_story_refuses_a_smaller_party() -> None:
    with pytest.raises(SimError, match="--players"):
        simulate("feat", "lantern-at-gull-reach", runs=2, players=1)


def test_the_report_does_not_depend_on_the_number_of_jobs() -> None:
    one = simulate("lots", "harrow-mere", runs=20, seed=8, jobs=1)
    two = simulate("lots", "harrow-mere", runs=20, seed=8, jobs=2)
    assert one.to_dict() == two.to_dict()


class Stubborn:
    """A bot that types the same line whatever happens."""

    def __init__(self, line: str) -> None:
        self.line = line

    def over(self, session: Session) -> Outcome | None:
        return None

    def next_line(self, session: Session, last: Reply | None) -> str:
        return self.line


class StubbornBots:
    policies = POLICY_NAMES
    figures = (Figure("lines", "lines"),)

    def __init__(self, line: str) -> None:
        self.line = line

    def bot(self, policy: str, rng: random.Random, players: int | None) -> Stubborn:
        return Stubborn(self.line)

    def count(self, events: Sequence[Mapping[str, Any]], session: Session) -> Mapping[str, int]:
        return {"lines": 1}

    def final(self, session: Session) -> Mapping[str, int]:
        return {}


def test_a_run_past_the_step_cap_is_cut_off_and_refusals_are_counted() -> None:
    simulator = BotSimulator("wolden", StubbornBots("fly to the moon"), step_cap=5)
    report = simulator.simulate(Request("the-drowned-bell", 3, seed=1))
    assert isinstance(report, BotReport)
    assert report.capped.k == 3 and report.counts == {"ended": 0, "fell": 0, "capped": 3}
    assert report.refusals == 15 and report.refused.mean == 5
    assert {f.key: f.mean.mean for f in report.figures} == {"lines": 6}  # the opening events, then 5 lines
    assert "fly" in next(iter(report.refusal_reasons))
    assert "Refused: 15 lines" in simulator.text(report)


def test_an_unknown_policy_is_refused() -> None:
    with pytest.raises(SimError, match="no policy 'reckless'"):
        simulate("wolden", "the-drowned-bell", runs=1, policy="reckless")


@pytest.mark.parametrize(("ruleset", "story"), STORIES)
def test_the_command_line_takes_the_ruleset_from_the_story(ruleset: str, story: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", story, "--runs", "3", "--jobs", "1", "--seed", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["kind"] == "simulation" and report["ruleset"] == ruleset and report["story"] == story
    assert sum(report["counts"].values()) == 3 and set(report["ended"]) == {"k", "n", "p", "low", "high"}
    assert main(["simulate", story, "-n", "3", "-j", "1", "--policy", "random", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert f"({story}, {ruleset}): 3 runs, policy random, seed 0" in out.splitlines()[0]
    for heading in ("How the runs ended", "the story ended", "the party fell", "Per run", "3 runs in"):
        assert heading in out


def test_command_line_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "lantern-at-gull-reach", "-n", "2", "-k", "1"]) == 2
    err = capsys.readouterr().err
    assert "--players" in err and err.count("\n") == 1


def test_the_chart_is_the_curve_of_falls_through_the_scenes() -> None:
    report = simulate("wolden", "the-drowned-bell", runs=12, seed=5, policy="random")
    chart = simulator_for("wolden").chart(report)
    assert chart is not None and chart.steps == tuple(range(1, len(chart.steps) + 1))
    fell, ended = (s.points for s in chart.series)
    assert [p.k for p in fell] == sorted(p.k for p in fell) and fell[-1].k == report.fell.k > 0
    assert ended[-1].k == report.ended.k
    assert [b.label for b in chart.bars] == [f.label for f in report.figures if f.key != "scenes"]


def test_plot_draws_the_curve_for_any_ruleset(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "curve.png"
    assert main(["simulate", "harrow-mere", "-n", "4", "-j", "1", "--plot", str(path)]) == 0
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
