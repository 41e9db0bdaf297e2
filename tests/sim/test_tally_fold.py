"""Runs that went the same way are added to the tally once, with their number (issue 21, point 1: the
tally folded in with less work per run); the sums are those of adding the runs one by one."""

from __future__ import annotations

from collections import Counter

from wyrd.sim.abacus import POLICIES, play, prepare
from wyrd.sim.abacus.fast import Fold, layout, play_chunk
from wyrd.sim.abacus.report import build
from wyrd.sim.abacus.tally import Outcome, Tally
from wyrd.stories.abacus.loader import find_story
from wyrd.stories.loader import BUNDLED


def test_scenes_and_outcomes_added_with_their_number_add_up_as_added_one_by_one() -> None:
    kit = prepare(find_story("the-milestones", [BUNDLED]))
    runs = [play(kit, POLICIES["random"], 5, index) for index in range(12)]
    one_by_one, counted = Tally(), Tally()
    for run in runs:
        for _ in range(3):
            one_by_one.add(run)
        for scene in run.scenes:
            counted.add_scene(scene, 3)
        counted.add_outcome(Outcome.of(run), 3)
    assert counted.runs == one_by_one.runs == 36
    assert counted == one_by_one
    assert build(counted, kit, seed=5, policy="random") == build(one_by_one, kit, seed=5, policy="random")


def test_outcomes_added_part_by_part_add_up_as_added_whole() -> None:
    """``Tally.add_outcomes`` counts each part of the outcomes (totals, defeats, clocks...) by its values
    before adding them: the sums are those of adding each outcome whole, as many times as it came."""
    kit = prepare(find_story("hollow-fair", [BUNDLED]))
    outcomes = Counter(Outcome.of(play(kit, POLICIES[policy], 3, index)) for policy in ("random", "bold")
                       for index in range(15))
    outcomes[next(iter(outcomes))] += 2
    whole, parts = Tally(), Tally()
    for outcome, times in outcomes.items():
        whole.add_outcome(outcome, times)
    parts.add_outcomes(outcomes)
    assert parts.runs == whole.runs == 32
    assert parts == whole


def test_a_fold_adds_up_as_its_runs_one_by_one_in_one_piece_or_in_chunks() -> None:
    """The plain path's fold of 40 runs, in one piece or in chunks, is the tally of the rules core's
    records of the same runs added one by one."""
    kit = prepare(find_story("hollow-fair", [BUNDLED]))
    plan, policy = layout(kit), POLICIES["cautious"]
    whole = Fold(plan, kit, policy, 7)
    whole.play(0, 25)
    whole.play(25, 40)
    chunked = Tally()
    for start in range(0, 40, 10):
        chunked.merge(play_chunk(plan, kit, policy, 7, start, start + 10))
    checked = Tally()
    for index in range(40):
        checked.add(play(kit, policy, 7, index, safe=True))
    assert whole.tally() == chunked == checked
