"""Tab completion in every ruleset (issue 15, point 3: "completion ... in all four").

Each ruleset's kit gives the words of the kinds its verbs' ``completes`` name
(``PlayHooks.words``) and completes its ``pc`` verb (``PlayHooks.complete``); the
terminal's completer is the same for all. Asked here through prompt-toolkit's own
completer API (``get_completions`` with a ``Document``), and typed with Tab into the
real REPL through a pipe, as a player would.
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.terminal import repl
from wyrd.play.frontends.terminal.completion import WyrdCompleter
from wyrd.rulesets import rulesets

ASKED = CompleteEvent(completion_requested=True)


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    return tmp_path


def playing(ruleset: str, story: str | None, *lines: str) -> Console:
    """A console of ``ruleset`` (no save file) after ``lines``, each of which must succeed."""
    console = Console(Session.new(None, seed=1, story=story, ruleset=ruleset))
    for line in lines:
        out = console.handle(line)
        assert not any(e.get("kind") == "refused" for e in out.events), (line, [x.text for x in out.lines])
    return console


def found(console: Console, text: str) -> list[Completion]:
    completer = WyrdCompleter(lambda: console.session)
    return list(completer.get_completions(Document(text), ASKED))


def words(console: Console, text: str) -> list[str]:
    """What Tab would offer: the words as they would be typed in."""
    return [c.text for c in found(console, text)]


def shown(console: Console, text: str) -> list[str]:
    """What the menu shows: the words as they read."""
    return [c.display_text for c in found(console, text)]


@pytest.fixture
def wolden() -> Iterator[Console]:
    console = playing("wolden", "the-drowned-bell", "pc take all", "scene", "scene")
    yield console
    console.session.close()


@pytest.fixture
def feat() -> Iterator[Console]:
    console = playing("feat", "lantern-at-gull-reach")
    yield console
    console.session.close()


@pytest.fixture
def lots() -> Iterator[Console]:
    console = playing("lots", "harrow-mere", "pc take all")
    yield console
    console.session.close()


# -- every ruleset ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_every_ruleset_completes_its_verbs_and_character_names(ruleset: str) -> None:
    console = playing(ruleset, hooks_for(ruleset).quick_start)
    try:
        assert "help" in words(console, "") and "quit" in words(console, "q")
        assert words(console, "help sta") == ["status"]
        console.handle("pc take all")  # the stories that have their cast taken so
        names = list(console.session.state.characters)
        assert names, "the quick start brings characters to play"
        assert set(shown(console, "pc ")) >= set(names)
    finally:
        console.session.close()


@pytest.mark.parametrize("ruleset", [r.id for r in rulesets()])
def test_every_kind_a_verb_completes_is_one_its_kit_knows_or_a_word_to_type(ruleset: str) -> None:
    """A kind the kit does not know is offered as a literal word: every verb's `completes` is
    either a kind of the kit, one every ruleset shares, or a word the verb reads."""
    from wyrd.play.frontends.terminal.completion import SHARED_KINDS

    console = playing(ruleset, None)
    try:
        hooks = console.session.hooks
        for verb in hooks.verbs.verbs().values():
            for kind in verb.completes:
                known = kind in SHARED_KINDS or hooks.words(kind, console.session.state, console.session.follower)
                assert known is not None or kind in re.findall(r"[\w-]+", verb.usage()), (verb.key, kind)
    finally:
        console.session.close()


# -- Wolden -----------------------------------------------------------------------------------


def test_wolden_completes_names_abilities_targets_and_activities(wolden: Console) -> None:
    assert shown(wolden, "check ") == ["Wenna Ashgrove", "Corin Tallow", "Ysolde Marrow"]
    assert words(wolden, "check wen") == ["'Wenna Ashgrove'"]  # a name of two words stays one word
    assert words(wolden, "check 'Wenna Ashgrove' ") == ["might", "agility", "mind", "graces"]
    assert words(wolden, "check 'Wenna Ashgrove' mi") == ["might", "mind"]
    assert words(wolden, "check 'Wenna Ashgrove' might ") == ["vs"]
    assert words(wolden, "check 'Wenna Ashgrove' might vs ") == ["the-causeway"]  # the montage under way
    assert words(wolden, "downtime 'Corin Tallow' ") == ["training", "shopping", "rest", "carouse"]
    assert words(wolden, "fight ") == ["drowned-ringer", "bell-warden", "bell-tower"]
    assert words(wolden, "pc ")[:2] == ["add", "take"]
    assert words(wolden, "pc add Bo ") == ["lantern-wardens", "brine-choir"]
    assert words(wolden, "pc add Bo brine-choir might=3 m") == ["mind="]


def test_a_completed_wolden_name_reads_back_as_that_character(wolden: Console) -> None:
    out = wolden.handle(f"check {words(wolden, 'check cor')[0]} {words(wolden, 'check x mig')[0]}")
    assert not any(e["kind"] == "refused" for e in out.events), [line.text for line in out.lines]
    pending = wolden.session.state.pending
    assert pending is not None and pending.lead == "Corin Tallow" and pending.ability.value == "might"


# -- Heroes of the Fall ----------------------------------------------------------------------


def test_feat_completes_skills_attributes_paces_and_scenes(feat: Console) -> None:
    assert "Wenna Tarr" in shown(feat, "try ")
    skills = words(feat, "try 'Wenna Tarr' ")
    assert skills == ["climbing", "knots", "swimming", "vigour", "mettle", "wit", "glamour", "spirit"]  # hers
    assert words(feat, "oppose Ansel Wenna lo") == ["locks", "lore"]  # the skill of the one who opposes
    assert words(feat, "oppose Wenna Ansel lo") == []
    assert words(feat, "try 'Wenna Tarr' cl") == ["climbing"]
    assert words(feat, "test 'Wenna Tarr' ") == ["vigour", "mettle", "wit", "glamour", "spirit"]
    assert words(feat, "move 'Wenna Tarr' ") == ["walk", "jog", "run", "sprint"]
    assert words(feat, "scene ")[0] == "the-quay"
    assert words(feat, "pc add Al vigour=3 ") == ["mettle=", "wit=", "glamour=", "spirit=", "tier=", "skill=",
                                                    "wyrd=", "concept=", "edge="]


# -- Thaeborn --------------------------------------------------------------------------------


def test_lots_completes_disciplines_casts_points_and_pregens(lots: Console) -> None:
    assert words(lots, "check ") == ["Ysolde", "Tam"]
    assert words(lots, "check Ysolde ") == ["willpower", "prowess", "survival", "subterfuge", "intuition",
                                            "ingenuity"]
    assert words(lots, "develop Tam in") == ["intuition", "ingenuity"]
    assert words(lots, "convert Tam 1 ") == ["portents", "dp"]
    assert words(lots, "retell Tam ") == []  # no cast yet
    lots.handle("check Tam prowess vs 3")
    assert words(lots, "retell Tam ") == ["c1"]
    assert words(lots, "scene ")[0] == "causeway"
    assert words(lots, "pc add Cy prowess=4 ")[:2] == ["willpower=", "survival="]


def test_lots_pc_take_offers_the_pregens_not_yet_taken() -> None:
    console = playing("lots", "harrow-mere")
    try:
        assert words(console, "pc take ") == ["all", "Ysolde", "Tam"]
        console.handle("pc take Ysolde")
        assert words(console, "check ") == ["Ysolde"]
    finally:
        console.session.close()


def test_pc_take_offers_the_pregens_not_yet_taken_in_every_ruleset() -> None:
    """Issue 18, point 9: `pc take` is the same verb everywhere, and Tab knows it everywhere."""
    abacus = playing("abacus", "the-milestones")
    feat = playing("feat", "lantern-at-gull-reach")
    try:
        assert "take" in words(abacus, "pc ")
        assert words(abacus, "pc take ") == ["all", "'Maud Ellery'", "'Danny Ellery'"]
        abacus.handle("pc take maud")
        assert words(abacus, "pc take ") == ["all", "'Danny Ellery'"]
        assert "take" in words(feat, "pc ")
        assert words(feat, "pc take ") == []  # its heroes came in with the story
    finally:
        abacus.session.close()
        feat.session.close()


# -- Tab in the real prompt, in every ruleset ---------------------------------------------------


TYPED = {
    "abacus": ("the-milestones", [("pc take all", None), ("sce", "scene"), (" with da", "scene with 'Danny Ellery'")]),
    "wolden": ("the-drowned-bell",
               [("pc take all", None), ("sce", "scene"), (" with cor", "scene with 'Corin Tallow'")]),
    "feat": ("lantern-at-gull-reach", [("sce", "scene"), (" the-q", "scene the-quay")]),
    "lots": ("harrow-mere", [("pc take all", None), ("sce", "scene"), (" cause", "scene causeway")]),
}


@pytest.mark.parametrize("ruleset", list(TYPED))
def test_tab_completes_in_the_real_prompt_of_every_ruleset(ruleset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each Tab is sent once the menu is ready, from another thread, while the REPL runs here;
    the line saved is the line as completed."""
    story, steps = TYPED[ruleset]
    console = playing(ruleset, story)
    made: list[PromptSession[str]] = []
    real_make = repl.make_session

    def make(*args: Any) -> PromptSession[str]:
        made.append(real_make(*args))
        return made[-1]

    monkeypatch.setattr(repl, "make_session", make)
    monkeypatch.setattr(repl, "print_formatted_text", lambda *a, **k: None)

    def wait_for(text: str, menu: bool) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            buffer = made[0].default_buffer if made else None
            if (buffer is not None and made[0].app.is_running and buffer.text == text
                    and (not menu or (buffer.complete_state is not None and buffer.complete_state.completions))):
                return
            time.sleep(0.01)
        raise AssertionError(f"never saw {text!r}")

    expected: list[str] = []
    with create_pipe_input() as pipe:
        failed: list[BaseException] = []

        def typist() -> None:
            line = ""
            try:
                for keys, completed in steps:
                    if completed is None and not line:  # a whole line, sent as typed
                        pipe.send_text(keys + "\r")
                        continue
                    line += keys
                    pipe.send_text(keys)
                    wait_for(line, True)
                    if completed is not None:
                        pipe.send_text("\t")
                        wait_for(completed, False)
                        line = completed
                expected.append(line)
            except BaseException as exc:  # seen by the test, not lost in this thread
                failed.append(exc)
            finally:
                pipe.send_text("\r\x04")

        thread = threading.Thread(target=typist)
        thread.start()
        try:
            with create_app_session(input=pipe, output=DummyOutput()):
                assert repl.run_repl(console, input=pipe, output=DummyOutput()) == 0
        finally:
            thread.join()
            console.session.close()
    assert not failed, failed
    assert made[0].history.get_strings()[-1] == expected[0]
