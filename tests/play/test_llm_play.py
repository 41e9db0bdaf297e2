"""A language model narrating real play (langchain-core's fake chat models): its words are
saved as narration; when it fails the tables speak and the reason is saved; resuming never
asks the model again; `narrator table|llm` switches; a missing provider falls back to tables.
All of it for every ruleset alike (issue 15), and the no-repeat deck in all four."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain_core")

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import BaseMessage

import wyrd.oracle.narrators.table as table_module
from tests.play.test_golden import seed_of
from wyrd.oracle.narrators.base import MomentKind
from wyrd.oracle.narrators.llm import LLMNarrator
from wyrd.oracle.tables import TableResult, bundled_tables
from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.feat.narration import FeatMoment
from wyrd.play.kits.lots.narration import LotsMoment
from wyrd.play.kits.wolden.narration import WoldenMoment
from wyrd.rules.dice import Dice

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


def test_a_resumed_story_is_told_to_the_model_from_the_save_not_its_prose(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On resume the model's story so far is read from the saved events (issue 19, point 5), not its replies."""
    import argparse

    from wyrd.play.cli.play import narrate_with_model

    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    save = tmp_path / "r.wyrd"
    session = Session.new(save, seed=2, story="the-milestones", ruleset="abacus")
    session.teller.use_llm(LLMNarrator(FakeListChatModel(responses=[CALM])))
    console = Console(session, save)
    for line in ("pc take all", "scene"):
        console.handle(line)
    session.close()
    resumed = Session.resume(save)
    made: list[LLMNarrator] = []
    sent = Prompts()

    def fake(config: object, on_text: object = None) -> LLMNarrator:
        made.append(LLMNarrator(FakeListChatModel(responses=[CALM], callbacks=[sent])))
        return made[0]

    monkeypatch.setattr("wyrd.oracle.narrators.llm.make_narrator", fake)
    assert narrate_with_model(resumed, argparse.Namespace(model="fake:model", base_url=None))
    Console(resumed, save).handle("end scene")
    resumed.close()
    assert sent.sent and made[0].memory.lines
    assert any(line.startswith("Scene: ") for line in made[0].memory.lines)
    assert not any(CALM in prompt for prompt in sent.sent)


# -- every ruleset alike (issue 15, point 3: `--model` narrates all four rulesets, with prompts per
#    ruleset moment and the firewall; the no-repeat deck in all four) ----------------------------------

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
# A scripted game of each ruleset (its golden transcript's commands) and its kit's moment kinds.
GAMES = {"abacus": "story_milestones", "wolden": "wolden_basics", "feat": "feat_verbs", "lots": "lots_table"}
MOMENTS: dict[str, type[StrEnum]] = {"abacus": MomentKind, "wolden": WoldenMoment, "feat": FeatMoment,
                                     "lots": LotsMoment}


class Prompts(BaseCallbackHandler):
    """Every human message a chat model was sent (langchain's own callback, on the real fake model)."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def on_chat_model_start(self, serialized: Any, messages: list[list[BaseMessage]], **kwargs: Any) -> None:
        self.sent.append(str(messages[0][-1].content))


def _play(ruleset: str, tmp_path: Path, model: object | None = None, *, lines: int | None = None,
          deck: bool | None = None, first_words: float = 2.0) -> list[dict[str, Any]]:
    """Every event of the ruleset's scripted game, narrated by ``model`` (None: the tables)."""
    script = [line for line in (GOLDEN / f"{GAMES[ruleset]}.txt").read_text(encoding="utf-8").splitlines()
              if not line.startswith(("narrator", "export"))]  # the narrator in charge stays; nothing is written
    save = tmp_path / f"{ruleset}-{len(list(tmp_path.glob('*.wyrd')))}.wyrd"
    session = Session.new(save, seed=seed_of(GOLDEN / f"{GAMES[ruleset]}.txt"), ruleset=ruleset)
    session.teller.use_deck = deck
    if model is not None:
        session.teller.use_llm(LLMNarrator(model, first_token_timeout=first_words, total_timeout=5.0))
    console = Console(session, save)
    events = [e for line in script[:lines] for e in console.handle(line).events]
    session.close()
    return events


def _narrations(events: list[Any]) -> list[dict[str, Any]]:
    return [e.plain() for e in events if e["kind"] == "narration"]


def _rest(events: list[Any]) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.plain().items() if k != "seq"} for e in events
            if e["kind"] not in ("narration", "interpretation")]


@pytest.mark.parametrize("ruleset", sorted(GAMES))
def test_a_model_narrates_every_ruleset(ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Requests are sent for each ruleset's own moments, and the model's words are what is told."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    prompts = Prompts()
    events = _play(ruleset, tmp_path, FakeListChatModel(responses=[CALM], callbacks=[prompts]))
    told = _narrations(events)
    by_model = [e for e in told if e["source"] == "FakeListChatModel"]
    assert by_model and all(e["text"] == CALM and "fallback" not in e for e in by_model)
    readings = [e for e in events if e["kind"] == "interpretation"]  # issue 19, point 6: a reading of each answer
    assert len(prompts.sent) == len(by_model) + len([e for e in told if e.get("fallback")]) + len(readings)
    kinds = {m.value for m in MOMENTS[ruleset]}
    named = {m for text in prompts.sent for m in kinds if f"Moment: {m} (" in text or f"Moment: {m}\n" in text}
    assert named, "no prompt names one of the ruleset's moments"
    assert {str(e["moment"]) for e in by_model} <= kinds | {m.value for m in MomentKind}
    assert _rest(events) == _rest(_play(ruleset, tmp_path))  # the model changes words, never the game


@pytest.mark.parametrize("ruleset", sorted(GAMES))
@pytest.mark.parametrize("trouble", ["fails", "contradicts", "is slow"])
def test_a_failing_slow_or_contradicting_model_leaves_the_tables_to_speak(
        ruleset: str, trouble: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever the model does, every moment is told from the tables (the reason saved) and the game goes on."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    lines = 40 if trouble == "is slow" else None
    model = {"fails": FakeListChatModel(responses=[CALM], error_on_chunk_number=0),
             "contradicts": FakeListChatModel(responses=["Ada dies, and ninety-nine crows rise from her."]),
             "is slow": FakeListChatModel(responses=[CALM], sleep=30)}[trouble]
    # Only the slow model needs a short wait: a busy machine must not turn a failure into silence.
    events = _play(ruleset, tmp_path, model, lines=lines, first_words=0.01 if trouble == "is slow" else 2.0)
    plain = _play(ruleset, tmp_path, lines=lines)
    told = [e for e in _narrations(events) if e["source"] != "story"]
    assert told and all(e["source"] == "table" and e["fallback"] for e in told)
    reason = {"fails": "error: the model failed", "contradicts": "refused:", "is slow": "timeout: no words"}[trouble]
    assert all(e["fallback"].startswith(reason) for e in told[:3])
    # Issue 19, point 4: after three failures in a row the model rests and the tables tell the next moments.
    assert all(e["fallback"].startswith((reason, "resting:")) for e in told)
    assert len(told) <= 3 or told[3]["fallback"].startswith("resting:")
    assert _rest(events) == _rest(plain)
    assert [e["text"] for e in _narrations(events)] == [e["text"] for e in _narrations(plain)]


# A Thaeborn fight, blow for blow (the reported case: one line told three times in one fight).
FIGHT = ["pc add Ada prowess=5 willpower=9 survival=3 armour=1 portents=3",
         "pc add Grub prowess=5 willpower=9 mettle=10 armour=1 npc concept=\"a marsh thug\"",
         *["attack ada grub effort=1", "defend ada against grub effort=1"] * 10]


def _rows(ruleset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, deck: bool) -> list[tuple[str, str]]:
    """The (table, row) of every narration the tables told in the ruleset's game (or the fight)."""
    drawn: list[tuple[str, str]] = []
    real = table_module.roll

    def spy(table: Any, dice: Dice, *args: Any, **kwargs: Any) -> TableResult:
        result = real(table, dice, *args, **kwargs)
        drawn.append((result.table, result.row))
        return result

    monkeypatch.setattr(table_module, "roll", spy)
    if ruleset == "fight":
        session = Session.new(None, seed=5, ruleset="lots")
        session.teller.use_deck = deck
        console = Console(session)
        for line in FIGHT:
            console.handle(line)
    else:
        _play(ruleset, tmp_path, deck=deck)
    monkeypatch.setattr(table_module, "roll", real)
    return drawn


def _repeats(drawn: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Rows drawn again before their table was used up."""
    tables = bundled_tables()
    used: dict[str, set[str]] = {}
    again = []
    for table, row in drawn:
        seen = used.setdefault(table, set())
        if {r.id for r in tables[table].rows} <= seen:
            seen.clear()
        if row in seen:
            again.append((table, row))
        seen.add(row)
    return again


@pytest.mark.parametrize("ruleset", ["fight", *sorted(GAMES)])
def test_the_deck_repeats_no_row_until_its_table_is_used_up(ruleset: str, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    if ruleset != "abacus":  # the Abacus has always drawn through the deck
        assert _repeats(_rows(ruleset, tmp_path, monkeypatch, deck=False)), "this game used to repeat a row"
    drawn = _rows(ruleset, tmp_path, monkeypatch, deck=True)
    assert drawn and _repeats(drawn) == []
