"""The story so far a model is told: lines of fact from the saved events, never its own prose, the same
resumed or played straight (issue 19, point 5: "the story so far is built from the facts and the story's
text, never the model's earlier prose verbatim")."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from bench.prompts import capture
from bench.repetition import STORIES, Story
from tests.play.test_llm_play import Prompts
from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.engine.narration import played, recall
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.sim.playthrough import session_seed

BY_RULESET = {s.ruleset: s for s in reversed(STORIES) if not s.freeform}  # one bundled story each
ODD = "Seven herons stand in the reeds like unlit candles."


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_the_story_so_far_is_the_same_resumed_or_played_straight(ruleset: str, tmp_path: Path) -> None:
    story: Story = BY_RULESET[ruleset]
    lines: list[str] = []
    straight = capture(story, 3, save=tmp_path / "a.wyrd", typed=lines)
    resumed = capture(story, 3, lines=lines, save=tmp_path / "b.wyrd", resume_after=len(lines) // 2)
    assert len(straight) == len(resumed) > 4
    assert [c.messages for c in resumed] == [c.messages for c in straight]  # every prompt, word for word
    later = [c.parts["{summary}"] for c in straight[len(straight) // 2:]]
    assert any(len(summary.splitlines()) > 2 for summary in later)  # the story so far has something in it


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_the_model_s_own_words_never_come_back(ruleset: str, tmp_path: Path) -> None:
    story = BY_RULESET[ruleset]
    lines: list[str] = []
    capture(story, 2, typed=lines)
    sent = Prompts()
    session = Session.new(tmp_path / "g.wyrd", seed=1, ruleset=ruleset)
    session.teller.use_llm(LLMNarrator(FakeListChatModel(responses=[ODD], callbacks=[sent])),
                           history=lambda last: played(session, last))
    console = Console(session, tmp_path / "g.wyrd")
    told = [e for line in [f"story {story.story}", *lines] for e in console.handle(line).events
            if e["kind"] == "narration" and e["text"] == ODD]
    session.close()
    assert len(told) > 4 and len(sent.sent) > 4
    assert not any("herons" in prompt for prompt in sent.sent)


def test_each_kit_recalls_scenes_outcomes_and_harm_in_its_own_words(tmp_path: Path) -> None:
    """A few short lines, no dice: what each ruleset's saved events of a played story recall."""
    for ruleset, story in sorted(BY_RULESET.items()):
        lines: list[str] = []
        capture(story, 1, save=tmp_path / f"{ruleset}.wyrd", typed=lines)
        session = Session.resume(tmp_path / f"{ruleset}.wyrd")
        try:
            recalled = [line for command in played(session) for line in recall(session.kit, command)]
        finally:
            session.close()
        assert any(line.startswith("Scene: ") for line in recalled), ruleset
        assert len(recalled) > 5 and all(len(line) <= 160 for line in recalled), ruleset
        assert not any(word in line for line in recalled for word in ("WEAL", "d12", "Wyrd pool", "%")), ruleset


@pytest.mark.parametrize("ruleset", sorted(BY_RULESET))
def test_an_undone_command_leaves_the_story_so_far(ruleset: str, tmp_path: Path) -> None:
    """After an undo the model's story so far is the save's again: the undone command's lines are gone."""
    from wyrd.oracle.narrators.llm_facts import StoryMemory

    story = BY_RULESET[ruleset]
    lines: list[str] = []
    capture(story, 4, typed=lines)
    session = Session.new(tmp_path / "u.wyrd", seed=session_seed(4, 0), ruleset=ruleset)  # the seed capture plays
    llm = LLMNarrator(FakeListChatModel(responses=[ODD]))
    session.teller.use_llm(llm, history=lambda last: played(session, last))
    console = Console(session, tmp_path / "u.wyrd")
    try:
        for line in [f"story {story.story}", *lines[:8]]:
            console.handle(line)
        before = llm.memory.lines
        console.handle(lines[8])
        console.handle("undo")
        console.handle("help")  # a look changes nothing
        told = [e for line in lines[8:12] for e in console.handle(line).events if e["kind"] == "narration"]
        expected = StoryMemory()
        for command in played(session):
            for line in recall(session.kit, command):
                expected.add(line)
    finally:
        session.close()
    # the story so far is read again at the next moment told (it is only read then)
    assert before and told and llm.memory.lines == expected.lines


def test_the_story_so_far_is_read_from_the_newest_commands_only() -> None:
    """Issue 21, point 3 (costs that do not grow with the game): after an undo or a resume the story so far is
    read back from the newest commands until the memory is full, and holds exactly what reading every command
    would have given it."""
    from wyrd.oracle.narrators.llm_facts import StoryMemory
    from wyrd.play.engine.narration import RECALL_FIRST, Storyteller

    game = [[{"kind": "answer", "question": f"Q{n}?", "answer": "yes"}] if n % 50 == 0 else
            [{"kind": "scratch"}] for n in range(5_000)]
    asked: list[int] = []

    def history(last: int) -> list[list[dict[str, Any]]]:
        asked.append(last)
        return game[-last:]

    class Kit:
        recall: ClassVar[dict[str, Any]] = {}

    class Model:
        memory = StoryMemory()

    teller = Storyteller()
    teller.llm = Model()  # type: ignore[assignment]
    teller.history = history
    teller._recall(Kit(), [])  # type: ignore[arg-type]
    expected = StoryMemory()
    for command in game:
        for line in recall(Kit(), command):  # type: ignore[arg-type]
            expected.add(line)
    assert Model.memory.lines == expected.lines and len(expected.lines) == 5
    assert asked == [RECALL_FIRST, RECALL_FIRST * 8, RECALL_FIRST * 64]  # 1,024 of 5,000 commands read
    game[:] = game[:3]
    asked.clear()
    teller._recall(Kit(), [])  # type: ignore[arg-type]
    assert asked == [RECALL_FIRST] and Model.memory.lines == ["Asked: Q0? The answer: yes."]
