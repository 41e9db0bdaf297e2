"""The model's prompts stay lean: every bundled story played by the bots, every prompt it would send a model
counted (``python -m bench prompts`` prints the same figures with SmolLM2's own tokenizer).

Issue 19, point 5: "Measure tokens per moment for each ruleset (median and p95) and bring the median under
400." Point 6: "All four rulesets narrated by the model with their own prompts."
"""

from __future__ import annotations

import statistics
from functools import cache

import pytest

pytest.importorskip("langchain_core")

from bench.prompts import Captured, capture, estimate, summary
from bench.repetition import STORIES
from wyrd.prompts import prompt_set

BUDGET = 400  # tokens, the median a ruleset's prompts may reach (estimated: one token per four characters)


@cache
def every_prompt() -> tuple[Captured, ...]:
    return tuple(c for story in STORIES for c in capture(story, 1))


@pytest.mark.parametrize("ruleset", ["abacus", "wolden", "feat", "lots"])
def test_the_median_prompt_is_under_budget(ruleset: str) -> None:
    figures = summary(every_prompt(), estimate)[ruleset]
    assert figures["moments"] > 20
    assert figures["median"] < BUDGET, figures
    assert figures["max"] < 2 * BUDGET, figures


def test_every_moment_a_kit_emits_is_asked_with_its_own_prompt_and_its_settled_facts() -> None:
    prompts = prompt_set()
    seen: dict[str, set[str]] = {}
    for one in every_prompt():
        seen.setdefault(one.ruleset, set()).add(one.moment)
        spec = prompts.for_moment(one.moment)
        assert one.prompt == spec.id
        human = one.messages[-1][1]
        if one.ruleset != "abacus":  # each of the other rulesets' moments: a prompt of its own folder,
            assert spec.id.startswith(one.ruleset + "/"), one.moment
            # and the story's title and its own tone notes, as the Abacus's moments have always had
            assert "\nStory: " in human and "plain and grounded" not in one.parts["{tone}"], one.moment
        assert one.parts["{settled}"] in human and one.parts["{facts}"] in human
        assert f"Moment: {one.moment}" in human
        assert one.messages[0] == ("system", prompts.system.text)
    assert set(seen) == {"abacus", "wolden", "feat", "lots"}
    assert all(len(moments) >= 4 for moments in seen.values()), seen


def test_a_story_so_far_never_grows_past_its_caps() -> None:
    sizes = [estimate(c.parts["{summary}"]) for c in every_prompt()]
    assert max(sizes) <= 130
    assert statistics.median(sizes) > 10  # and it is there
