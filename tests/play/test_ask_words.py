"""``ask`` reads a question typed without quotes, in every ruleset (a player types ``ask is the mere
watching`` as readily as ``ask "is the mere watching"``; DESIGN.md's ``ask "QUESTION" [odds]`` still holds)."""

from __future__ import annotations

import pytest

from wyrd.play.engine.session import Session

RULESETS = ("abacus", "wolden", "feat", "lots")


STORIES = {"abacus": "the-milestones", "wolden": "the-drowned-bell", "feat": "lantern-at-gull-reach",
           "lots": "harrow-mere"}


def _asked(ruleset: str, line: str) -> dict[str, object]:
    session = Session.new(None, seed=3, ruleset=ruleset, story=STORIES[ruleset])
    session.execute("pc take all")  # a story whose heroes come with it refuses this, harmlessly
    last = session.kit.oracle.askers(session.state)[-1]
    reply = session.execute(line.replace("NAME", last))
    assert reply.refused is None, reply.reason
    return next(e.event.model_dump() for e in reply.events if e.event.kind == "answer")


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize(("line", "question", "odds"), [
    ("ask is the mere watching", "is the mere watching", "even"),
    ("ask is the mere watching?", "is the mere watching?", "even"),
    ("ask is the mere watching likely", "is the mere watching", "likely"),
    ('ask "is the mere watching" likely', "is the mere watching", "likely"),
    ('ask "is the mere watching" unl', "is the mere watching", "unlikely"),
    ('ask "is it likely"', "is it likely", "even"),  # quoted: every word is the question's
])
def test_a_question_with_or_without_quotes(ruleset: str, line: str, question: str, odds: str) -> None:
    answer = _asked(ruleset, line)
    assert answer["question"] == question and answer["odds"] == odds


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_asker_after_by(ruleset: str) -> None:
    answer = _asked(ruleset, "ask is anyone following us unlikely by NAME")
    assert answer["question"] == "is anyone following us" and answer["odds"] == "unlikely"
    session = Session.new(None, seed=3, ruleset=ruleset, story=STORIES[ruleset])
    session.execute("pc take all")
    assert answer["asker"] == session.kit.oracle.askers(session.state)[-1]


def test_no_question_is_a_usage_error() -> None:
    session = Session.new(None, seed=3, ruleset="abacus")
    reply = session.execute("ask")
    assert reply.refused is not None and "missing QUESTION" in str(reply.reason)
