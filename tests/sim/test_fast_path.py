"""The fast path gives the checked path's report on every bundled story (issue 21, point 1: "a fast path
may keep plain data in the hot loop as long as the same seed gives the same report as the checked path").

The Abacus simulator's fast path plays the rules on plain data (``wyrd.sim.abacus.fast``); its checked
path (``safe``) goes through the rules core's public actions, which copy the state and rewind refused
dice. Every bundled story with a scene flow is played a few hundred times both ways with fixed seeds
by every policy, and the reports must be equal, field for field and as JSON; a wrong face on the fast
path must show, and what the fast path does not carry out must fall back to the rules core. Every
other bundled story is played by its ruleset's bots through real play sessions (the checked path is
the only path there); each must be playable by a simulator.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import pytest

from wyrd.rules.abacus import Lasts
from wyrd.sim import Request, SimError, simulator_for, story_ruleset
from wyrd.sim.abacus import POLICIES, prepare, simulate
from wyrd.sim.abacus.fast import UNSUPPORTED, layout, rules
from wyrd.sim.abacus.fast.actions import Actions
from wyrd.sim.abacus.fast.rules import Rules, Unplain
from wyrd.sim.abacus.report import Report
from wyrd.stories.abacus.schema import Story
from wyrd.stories.formats import discover

BUNDLED = [(info.id, info.ruleset, info.freeform) for info in discover(()) if info.ok]
ABACUS = [story for story, ruleset, freeform in BUNDLED if ruleset == "abacus" and not freeform]
RUNS = 200


def test_the_bundled_stories_are_all_listed() -> None:
    """The lists below are read from the bundled stories, not written out: they must not be empty."""
    assert {"hollow-fair", "the-milestones"} <= set(ABACUS)
    assert {ruleset for _, ruleset, _ in BUNDLED} == {"abacus", "wolden", "feat", "lots"}


def _field_for_field(fast: Report, checked: Report) -> None:
    for f in fields(Report):
        assert getattr(fast, f.name) == getattr(checked, f.name), f.name
    assert fast == checked
    assert fast.to_json() == checked.to_json()


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("story", ABACUS)
def test_fast_mode_reports_exactly_what_the_checked_path_reports(story: str, policy: str) -> None:
    """Issue 21, point 1: same seed, same report, fast (on plain data) or checked (the rules core,
    every action copying the state), on every bundled Abacus story and every policy."""
    fast = simulate(story, RUNS, policy=policy, seed=21)
    checked = simulate(story, RUNS, policy=policy, seed=21, safe=True)
    assert isinstance(fast, Report) and fast.runs == RUNS
    # a run left to the rules core would be the checked path itself: it must not hide a difference
    assert fast.rules_core_runs == 0 and fast.safe_reruns == 0
    _field_for_field(fast, checked)


def test_a_wrong_face_on_the_plain_path_shows_in_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    """The comparison above can fail: the first 1 of each run read as a 2 on the plain path, and the
    reports differ."""
    d6 = Rules.d6
    misread: set[int] = set()

    def wrong(self: Rules, n: int) -> list[int]:
        faces = d6(self, n)
        if 1 in faces and id(self) not in misread:
            misread.add(id(self))
            faces[faces.index(1)] = 2
        return faces

    checked = simulate("the-milestones", RUNS, policy="random", seed=21, safe=True)
    monkeypatch.setattr(Rules, "d6", wrong)
    fast = simulate("the-milestones", RUNS, policy="random", seed=21)
    assert fast.rules_core_runs == 0 and misread
    assert fast != checked and fast.to_json() != checked.to_json()


def test_the_plain_dice_are_randint_s_faces(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain path draws a die from three random bits (as CPython's ``randint`` does, checked when it
    loads); drawing with ``randint`` itself gives the same report."""
    assert rules.BITS_ARE_FACES
    bits = simulate("the-milestones", RUNS, policy="random", seed=21)
    monkeypatch.setattr(rules, "BITS_ARE_FACES", False)
    assert simulate("the-milestones", RUNS, policy="random", seed=21) == bits


def test_a_run_the_plain_path_cannot_play_is_played_by_the_rules_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 1: where the plain path meets what it does not carry out, that run falls back to
    the rules core, and the report counts it (here every run whose party accepted a failed roll)."""
    checked = simulate("the-milestones", RUNS, policy="random", seed=21, safe=True)

    def not_here(self: Actions) -> None:
        raise Unplain("not carried out here")

    monkeypatch.setattr(Actions, "accept", not_here)
    fast = simulate("the-milestones", RUNS, policy="random", seed=21)
    assert 0 < fast.rules_core_runs < RUNS
    _field_for_field(replace(fast, rules_core_runs=0), checked)


def test_a_story_with_a_rule_of_limited_uses_is_left_to_the_rules_core(
    make_story: Callable[[list[dict[str, Any]]], Story],
) -> None:
    """A story using what the plain path does not carry out (a stage rule of limited uses: a bonus for
    the first roll only) is played by the rules core, run by run, with the checked path's results."""
    luck = {"id": "luck", "name": "Beginner's Luck", "trigger": {"on": "always"},
            "effects": [{"do": "roll_bonus", "n": 2}], "lasts": "uses", "uses": 1}
    door = {"id": "door", "name": "The Door", "type": "obstruction", "value": 6}
    plain = make_story([door, {**door, "id": "gate", "name": "The Gate"}])
    story = Story.model_validate({**plain.model_dump(exclude_unset=True), "stage_rules": [luck]})
    assert Lasts.USES in UNSUPPORTED and layout(prepare(story)) is None
    fast = simulate(story, 50, policy="random", seed=5)
    checked = simulate(story, 50, policy="random", seed=5, safe=True)
    assert fast.rules_core_runs == 50
    _field_for_field(replace(fast, rules_core_runs=0), checked)


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
