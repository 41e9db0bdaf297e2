"""The LLM narrator's prompts: every moment has a template, each renders with a real request (as a
langchain ChatPromptTemplate and as plain text), broken prompt files are refused naming the file,
and the story so far stays bounded."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

from tests.oracle.test_narration import FACTS, PLAY_SAMPLES, SAMPLES
from wyrd.oracle.narrators.base import MomentKind, NarrationRequest
from wyrd.oracle.narrators.llm_facts import EMPTY_SUMMARY, StoryMemory, facts_dict, render_facts, settled, tone
from wyrd.play.kits.abacus.events import KINDS as ABACUS_KINDS
from wyrd.play.kits.abacus.moments import moments
from wyrd.play.kits.feat.narration import FeatMoment
from wyrd.play.kits.lots.narration import LotsMoment
from wyrd.play.kits.wolden.narration import WoldenMoment
from wyrd.prompts import GENERIC, PROMPTS_DIR, PromptError, load_prompts, prompt_set, render

OWN_TEMPLATES = {"scene_opening": "scene_opening", "challenge_outcome": "challenge_outcome", "twist": "twist",
                 "defeat": "defeat", "finale": "finale", "postscript": "postscript", "answer": "answer",
                 "challenge_placed": GENERIC, "magic": GENERIC, "rest": GENERIC}


def every_request() -> list[NarrationRequest]:
    samples: dict[str, dict[str, Any]] = {**SAMPLES, **PLAY_SAMPLES}
    events = [ABACUS_KINDS.sketch({"kind": k, **v}) for k, v in samples.items()]
    return moments(events, FACTS.merged({"tone": ["Second person: 'you'.", "Seven years of rain."]}), detail=True)


def test_every_moment_kind_has_a_template_and_each_claimed_kind_exists() -> None:
    prompts = prompt_set()
    kinds = {m.value for m in MomentKind}
    for spec in prompts.prompts.values():
        if "/" not in spec.id:
            assert set(spec.moments) <= kinds, spec.id
    for moment, ident in OWN_TEMPLATES.items():
        assert prompts.for_moment(moment).id == ident
    files = {f.relative_to(PROMPTS_DIR).with_suffix("").as_posix() for f in PROMPTS_DIR.glob("**/*.yaml")}
    assert files == {"system", *prompts.prompts}


@pytest.mark.parametrize("kinds", [WoldenMoment, FeatMoment, LotsMoment], ids=lambda k: k.__name__)
def test_every_moment_of_every_ruleset_has_a_prompt_of_its_own(kinds: type[StrEnum]) -> None:
    """Issue 15, point 3: prompts per ruleset moment, in the ruleset's own folder; none of them left to the
    generic prompt, and no file claims a moment its ruleset does not have."""
    prompts = prompt_set()
    folder = next(iter(kinds)).value.split("/")[0]
    for moment in kinds:
        assert prompts.for_moment(moment.value).id.startswith(folder + "/"), moment
    for spec in prompts.prompts.values():
        if spec.id.startswith(folder + "/"):
            assert set(spec.moments) <= {m.value for m in kinds}, spec.id
            assert "{subject}" in spec.template or "{moment}" in spec.template


def test_the_system_prompt_sets_the_firewall() -> None:
    text = prompt_set().system.text.lower()
    for rule in ("only the facts", "never invent numbers, outcomes, items, injuries or deaths", "1 to 3 sentences",
                 "second person", "third person"):
        assert rule in text


@pytest.mark.parametrize("request_", every_request(), ids=lambda r: str(r.moment))
def test_every_moment_renders_with_its_facts_tone_and_summary(request_: NarrationRequest) -> None:
    spec = prompt_set().for_moment(str(request_.moment))
    values = {"facts": render_facts(request_), "settled": settled(request_), "summary": "Earlier: fog.",
              "tone": tone(request_), "moment": str(request_.moment), "detail": request_.detail or "-",
              "subject": request_.subject or "the characters"}
    system, human = render(spec, values)
    assert "Never invent numbers" in system
    assert values["facts"] in human and "Earlier: fog." in human and "Second person: 'you'." in human
    assert values["facts"].splitlines()[0].startswith(f"Moment: {request_.moment}")
    assert "{" not in human.replace(values["facts"], "")  # every placeholder filled


def test_prompts_become_langchain_chat_prompt_templates() -> None:
    pytest.importorskip("langchain_core")
    from langchain_core.messages import HumanMessage, SystemMessage

    from wyrd.prompts import chat_prompt

    request = next(r for r in every_request() if r.moment == MomentKind.CHALLENGE_OUTCOME)
    template = chat_prompt(prompt_set().for_moment("challenge_outcome"))
    assert set(template.input_variables) == {"facts", "settled", "summary", "tone", "subject"}
    messages = template.format_messages(facts=render_facts(request), settled=settled(request), summary=EMPTY_SUMMARY,
                                        tone="Grim.", subject="Ada")
    assert isinstance(messages[0], SystemMessage) and isinstance(messages[1], HumanMessage)
    assert render_facts(request) in str(messages[1].content)


def test_the_facts_are_lean_and_say_what_is_settled() -> None:
    """Issue 19, point 5: only what the moment needs (no sheets, tables, dice or ids), and what it settles."""
    request = next(r for r in every_request() if r.moment == MomentKind.CHALLENGE_OUTCOME)
    data = facts_dict(request)
    text = render_facts(request)
    assert "seq" not in text and "tables" not in data and "{" not in text
    assert data["challenge"].startswith("Locked gate") and data["characters"][0]["name"] == request.subject
    assert "facets" not in text and not any(f in text for c in request.characters for fs in c.facets.values()
                                             for f in fs)
    assert "overcame Locked gate" in settled(request) and settled(request).endswith("Nobody dies.")
    defeat = next(r for r in every_request() if r.moment == MomentKind.DEFEAT)
    assert "defeated" in settled(defeat) and "Nobody dies" not in settled(defeat)


def test_a_scene_s_seeds_and_tone_are_trimmed() -> None:
    opening = next(r for r in every_request() if r.moment == MomentKind.SCENE_OPENING)
    many = opening.model_copy(update={"seeds": [f"Seed number {i} of the scene." for i in range(9)],
                                      "tone": ["First note, the voice.", "x" * 300, "Third."]})
    assert [line for line in render_facts(many).splitlines() if line.startswith("Seed:")] == [
        "Seed: Seed number 0 of the scene.", "Seed: Seed number 1 of the scene."]
    assert tone(many) == "First note, the voice."
    later = next(r for r in every_request() if r.moment == MomentKind.CHALLENGE_OUTCOME)
    assert "Seed:" not in render_facts(later.model_copy(update={"seeds": ["A seed."]}))  # the opening's alone


def write(folder: Path, name: str, text: str) -> None:
    (folder / f"{name}.yaml").parent.mkdir(exist_ok=True)
    (folder / f"{name}.yaml").write_text(text, encoding="utf-8")


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    for path in PROMPTS_DIR.glob("*.yaml"):
        (tmp_path / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(("name", "text", "message"), [
    ("twist", "id: twist\ndescription: d\nmoments: [twist]\ntemplate: 'x {facts} {wrong}'\n", "unknown placeholders"),
    ("twist", "id: twist\ndescription: d\nmoments: [twist]\ntemplate: 'no facts'\n", "must include {facts}"),
    ("twist", "id: other\ndescription: d\ntemplate: '{facts}'\n", "should be the file's name"),
    ("extra", "id: extra\ndescription: d\nmoments: [twist]\ntemplate: '{facts}'\n", "already told by"),
    ("twist", "id: twist\ndescription: d\ntemplate: '{facts}'\nmood: grim\n", "Extra inputs"),
    ("twist", "id: [unclosed\n", "cannot read"),
    ("lots/casts", "id: casts\ndescription: d\nmoments: [lots/check]\ntemplate: '{facts}'\n",
     "should be the file's name"),
    ("lots/fight", "id: lots/fight\ndescription: d\nmoments: [answer]\ntemplate: '{facts}'\n", "already told by"),
])
def test_a_broken_prompt_file_is_refused_naming_it(folder: Path, name: str, text: str, message: str) -> None:
    write(folder, name, text)
    with pytest.raises(PromptError) as refused:
        # each subfolder stands for a ruleset's own prompt folder (wyrd.rulesets.Ruleset.prompts)
        load_prompts(folder, {d.name: d for d in folder.iterdir() if d.is_dir()})
    assert str(folder / f"{name}.yaml") in str(refused.value) and message in str(refused.value)


def test_the_generic_and_system_prompts_are_required(folder: Path) -> None:
    (folder / "moment.yaml").unlink()
    with pytest.raises(PromptError, match="generic prompt is required"):
        load_prompts(folder)
    (folder / "system.yaml").unlink()
    with pytest.raises(PromptError, match="system prompt is required"):
        load_prompts(folder)


def test_the_story_so_far_keeps_the_last_lines_within_its_caps() -> None:
    memory = StoryMemory(max_items=3, max_chars=100)
    assert memory.summary() == EMPTY_SUMMARY
    for i in range(10):
        memory.add(f"line {i} " + "x" * 20)
    assert memory.lines == [f"line {i} " + "x" * 20 for i in (7, 8, 9)]
    memory.add("y" * 500)
    assert memory.lines == ["y" * 100] and len(memory.summary()) <= 100
    assert not hasattr(memory, "remember")  # issue 19, point 5: a told moment's prose is never fed back
