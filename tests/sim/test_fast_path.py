"""The fast path gives the checked path's report on every bundled story (issue 21, point 1: "a fast path
may keep plain data in the hot loop as long as the same seed gives the same report as the checked path").

The Abacus simulator's fast mode applies each action to the run's own state with no copy; its checked
path (``safe``) goes through the public actions, which copy the state and rewind refused dice. Every
bundled story with a scene flow is played a few hundred times both ways with fixed seeds, and the
reports must be equal, field for field and as JSON. Every other bundled story is played by its
ruleset's bots through real play sessions (the checked path is the only path there); each must be
playable by a simulator.
"""

from __future__ import annotations

import pytest

from wyrd.sim import Request, SimError, simulator_for, story_ruleset
from wyrd.sim.abacus import simulate
from wyrd.sim.abacus.report import Report
from wyrd.stories.formats import discover

BUNDLED = [(info.id, info.ruleset, info.freeform) for info in discover(()) if info.ok]
ABACUS = [story for story, ruleset, freeform in BUNDLED if ruleset == "abacus" and not freeform]
RUNS = 200


def test_the_bundled_stories_are_all_listed() -> None:
    """The lists below are read from the bundled stories, not written out: they must not be empty."""
    assert {"hollow-fair", "the-milestones"} <= set(ABACUS)
    assert {ruleset for _, ruleset, _ in BUNDLED} == {"abacus", "wolden", "feat", "lots"}


@pytest.mark.parametrize("story", ABACUS)
def test_fast_mode_reports_exactly_what_the_checked_path_reports(story: str) -> None:
    """Issue 21, point 1: same seed, same report, fast or checked, on every bundled Abacus story (the
    random policy, which tries the most kinds of play: every ability, spending, drawing, accepting)."""
    fast = simulate(story, RUNS, policy="random", seed=21)
    checked = simulate(story, RUNS, policy="random", seed=21, safe=True)
    assert isinstance(fast, Report) and fast.runs == RUNS
    assert fast.safe_reruns == 0  # a rerun would be the checked path itself: it must not hide a difference
    assert fast == checked
    assert fast.to_json() == checked.to_json()


@pytest.mark.parametrize(("story", "ruleset"), [(s, r) for s, r, freeform in BUNDLED if not freeform])
def test_every_bundled_story_of_every_ruleset_has_a_simulator(story: str, ruleset: str) -> None:
    """Issue 21, point 1: "10,000 games of any bundled story of any ruleset": each can be simulated."""
    assert story_ruleset(story) == ruleset
    simulator = simulator_for(ruleset)
    report = simulator.simulate(Request(story, 2, seed=1))
    assert report.runs == 2


@pytest.mark.parametrize("story", [s for s, _, freeform in BUNDLED if freeform])
def test_a_freeform_setting_is_refused_in_one_line(story: str) -> None:
    with pytest.raises(SimError, match="freeform"):
        simulator_for(story_ruleset(story)).simulate(Request(story, 2))
