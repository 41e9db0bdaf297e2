"""Runs are reproducible: the same seed gives the same report for any number of jobs, and fast
mode (no state copy per action) gives the same runs as safe mode (the public, copying actions)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wyrd.sim.abacus import POLICIES, Cautious, Fixed, SimError, play, prepare, simulate
from wyrd.stories.loader import BUNDLED, find_story
from wyrd.stories.schema import Story


@pytest.fixture(scope="module")
def hollow_fair() -> Story:
    return find_story("hollow-fair", [BUNDLED])


def test_the_same_seed_gives_the_same_report_for_1_and_2_jobs(hollow_fair: Story) -> None:
    one = simulate(hollow_fair, 60, policy="random", seed=42, jobs=1)
    two = simulate(hollow_fair, 60, policy="random", seed=42, jobs=2)
    assert one == two
    assert one.to_json() == two.to_json()
    other = simulate(hollow_fair, 60, policy="random", seed=43, jobs=1)
    assert other != one


@pytest.mark.parametrize("policy", sorted(POLICIES))
def test_fast_mode_plays_exactly_as_safe_mode(policy: str) -> None:
    kit = prepare(find_story("the-milestones", [BUNDLED]))
    for index in range(6):
        fast = play(kit, POLICIES[policy], 9, index)
        safe = play(kit, POLICIES[policy], 9, index, safe=True)
        assert fast == safe, (policy, index)


def test_fast_mode_plays_hollow_fair_as_safe_mode(hollow_fair: Story) -> None:
    kit = prepare(hollow_fair)
    for index in range(2):
        assert play(kit, POLICIES["random"], 3, index) == play(kit, POLICIES["random"], 3, index, safe=True)


def test_players_are_the_first_k_pregens(hollow_fair: Story) -> None:
    assert prepare(hollow_fair, 2).players == ("Ned Harrower", "Ivy Marchbank")
    report = simulate(hollow_fair, 5, players=1, policy=Cautious())
    assert report.players == ("Ned Harrower",) and [c.name for c in report.characters] == ["Ned Harrower"]
    with pytest.raises(SimError, match="4 pregenerated"):
        prepare(hollow_fair, 5)


def test_the_catalogue_keeps_what_effects_can_place(hollow_fair: Story) -> None:
    state = prepare(hollow_fair).fresh_state()
    assert set(state.catalogue) == {"huckster-crowd", "empty-stride", "hollow-call"}


def test_freeform_settings_and_bad_arguments_are_refused() -> None:
    with pytest.raises(SimError, match="freeform"):
        simulate("wrackham", 5)
    with pytest.raises(ValueError, match="runs"):
        simulate("the-milestones", 0)
    with pytest.raises(ValueError, match="jobs"):
        simulate("the-milestones", 5, jobs=0)
    with pytest.raises(KeyError, match="cautious, bold, random"):
        simulate("the-milestones", 5, policy="reckless")


MakeStory = Callable[[list[dict[str, Any]]], Story]


def test_a_run_the_rules_cannot_finish_is_reported_as_stuck(make_story: MakeStory) -> None:
    """Two hopeless challenges, each failure a Body scratch then a Wyrd roll for the lead: the
    second failure defeats the lead before that roll. The rules core refuses such a failure
    (a defeated character no longer acts), so the run can't go on: the report says so."""
    harm = [{"do": "damage", "ability": "body", "n": 20, "target": "lead"}, {"do": "wyrd_roll", "target": "lead"}]
    story = make_story([
        {"id": "wall", "name": "The Wall", "type": "obstruction", "value": 40, "on_fail": harm},
        {"id": "roof", "name": "The Roof", "type": "obstruction", "value": 40, "on_fail": harm},
    ])
    report = simulate(story, 4, policy=Fixed())
    if report.stuck.k:
        assert report.stuck.k == 4 and report.finale.finished.k == 0 and report.safe_reruns == 4
        assert all("abacus.defeat.no-actions" in why for why in report.stuck_reasons)
    else:  # once the rules let a defeated lead's consequences pass
        assert report.characters[0].defeated.k == 4
