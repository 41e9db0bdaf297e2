"""What is owed next (rules/wolden/steps.py), for the play layer to prompt."""

from __future__ import annotations

from wyrd.rules.wolden import Ability, Situation, Step, StepKind, attempt, due, pass_turn, start_montage, wound


def test_nothing_owed(duo) -> None:
    assert due(duo.state) == []


def test_an_opened_roll_waits_for_its_dice(duo) -> None:
    duo.do(attempt, "Ada", Ability.MIGHT, helpers=["Bram"])
    assert due(duo.state) == [Step(kind=StepKind.ROLL, who=("Ada", "Bram"))]


def test_who_is_still_to_act(new) -> None:
    """Seed 001: a round closes when all have acted; those still to act are listed,
    without anyone taken out."""
    t = new("Ada", "Bram", "Cora")
    t.faces(1)
    t.do(start_montage, "Trip", 5, [Situation(id="ford"), Situation(id="hill")])
    t.do(pass_turn, "Bram")
    t.do(wound, "Cora", 3)
    assert due(t.state) == [Step(kind=StepKind.ACT, who=("Ada",), encounter="trip", round=1, situation="ford")]
