"""A language model narrating real play (langchain-core's fake chat models): its words are
saved as narration; when it fails the tables speak and the reason is saved; resuming never
asks the model again; `narrator table|llm` switches; a missing provider falls back to tables."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("langchain_core")

from langchain_core.language_models.fake_chat_models import FakeListChatModel

from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

CALM = "Fog settles over the moor, and the path is gone."


def _game(tmp_path: Path, model: object) -> tuple[Session, Console]:
    session = Session.new(tmp_path / "llm.wyrd", seed=3, story="the-milestones", ruleset="abacus")
    session.teller.use_llm(LLMNarrator(model, first_token_timeout=2.0, total_timeout=5.0))
    return session, Console(session, tmp_path / "llm.wyrd")


def test_the_model_tells_and_resume_does_not_ask_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    session, console = _game(tmp_path, FakeListChatModel(responses=[CALM]))
    events = console.handle("pc take all").events + console.handle("scene").events
    told = [e for e in events if e["kind"] == "narration"]
    assert told and any(e["text"] == CALM and "fallback" not in e for e in told)
    session.close()
    resumed = Session.resume(tmp_path / "llm.wyrd")  # no model at all now: nothing is asked
    assert resumed.save is not None
    saved = [e for r in resumed.save.live_commands() for e in r.events if e["kind"] == "narration"]
    assert [e["text"] for e in saved] == [e["text"] for e in told]
    resumed.close()


def test_a_failing_model_leaves_the_tables_to_speak(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    session, console = _game(tmp_path, FakeListChatModel(responses=[CALM], error_on_chunk_number=0))
    events = console.handle("pc take all").events
    told = [e for e in events if e["kind"] == "narration"]
    assert told and all(e["source"] == "table" and e.get("fallback") for e in told)
    assert session.state.characters  # the game went on
    session.close()


def test_narrator_switches_and_status_counts_tokens(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    session, console = _game(tmp_path, FakeListChatModel(responses=[CALM]))
    assert "tables" in console.handle("narrator table").lines[0].text
    told = [e for e in console.handle("pc take all").events if e["kind"] == "narration"]
    assert all(e["source"] == "table" for e in told)
    assert "language model" in console.handle("narrator llm").lines[0].text
    console.handle("scene")
    assert any("tokens" in line.text for line in console.handle("status").lines)
    session.close()


def test_no_model_means_the_narrator_verb_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    console = Console(Session.new(None, seed=1, ruleset="abacus"))
    assert "no language model" in console.handle("narrator llm").lines[0].text


def test_a_missing_provider_package_falls_back_to_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    script = tmp_path / "s.txt"
    script.write_text("pc add Ada body=5 mind=5 soul=5\n", encoding="utf-8")
    code = main(["play", "--story", "none", "--seed", "1", "--save", str(tmp_path / "m.wyrd"), "--script",
                 str(script), "--model", "nosuchprovider:some-model"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "tables will tell the story" in err
    assert "Ada joins" in out


def test_a_resumed_story_is_remembered_by_the_model(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On resume the model's rolling summary starts from the story told so far."""
    import argparse

    from wyrd.play.cli.play import _narrator

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    save = tmp_path / "r.wyrd"
    session = Session.new(save, seed=2, story="the-milestones", ruleset="abacus")
    Console(session, save).handle("pc take all")
    session.close()
    resumed = Session.resume(save)
    made: list[LLMNarrator] = []

    def fake(config: object, on_text: object = None) -> LLMNarrator:
        made.append(LLMNarrator(FakeListChatModel(responses=[CALM])))
        return made[0]

    monkeypatch.setattr("wyrd.oracle.narrators.llm_config.make_narrator", fake)
    assert _narrator(resumed, argparse.Namespace(model="fake:model", base_url=None), live=False)
    assert made and made[0].memory.lines  # the narration saved before is in its summary
    resumed.close()
