"""Tests for the REPL: the real PromptSession, fed keystrokes through a pipe (FACTS.md).

Keys: "\\r" is Enter, "\\x03" Ctrl-C, "\\x04" Ctrl-D, "\\t" Tab. Everything the REPL prints
goes through ``wyrd.play.frontends.terminal.repl.print_formatted_text``, which the tests replace to read it.
"""

from __future__ import annotations

import gc
import io
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import fragment_list_to_text, to_formatted_text
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from wyrd.play.cli.main import main
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console, Output
from wyrd.play.frontends.terminal import history, repl
from wyrd.play.frontends.terminal.completion import WyrdCompleter, complete_line
from wyrd.play.frontends.terminal.toolbar import toolbar_text
from wyrd.play.frontends.view import Line
from wyrd.play.kits.abacus.kit import KIT as HOOKS
from wyrd.play.kits.abacus.words import recovery_line
from wyrd.rules.abacus import Ability, GameState

ADA = "pc add Ada body=5 mind=5 soul=5"
BO = "pc add Bo body=6 mind=5 soul=4"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    return tmp_path / "s.wyrd"


@pytest.fixture
def console(save_path: Path) -> Iterator[Console]:
    session = Session.new(save_path, seed=1, ruleset="abacus")
    yield Console(session, save_path)
    session.close()


@pytest.fixture
def printed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The text of every line the REPL prints, in order."""
    seen: list[str] = []

    def capture(*values: Any, **kwargs: Any) -> None:
        seen.extend(fragment_list_to_text(to_formatted_text(v)) for v in values)

    monkeypatch.setattr(repl, "print_formatted_text", capture)
    return seen


def play(console: Console, keys: str) -> int:
    """Run the real REPL over ``keys`` (which must end it: Ctrl-D or quit)."""
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        with create_app_session(input=pipe, output=DummyOutput()):
            return repl.run_repl(console, input=pipe, output=DummyOutput())


def given(console: Console, *lines: str) -> None:
    """Lines carried out before the REPL starts, each of which must succeed."""
    for line in lines:
        out = console.handle(line)
        assert not any(e.get("kind") == "refused" for e in out.events), (line, out.lines)


def names(state: GameState) -> list[str]:
    return list(state.characters)


def completions(text: str, session: Session) -> list[str]:
    return [c.text for c in complete_line(text, session)]


def bar(state: GameState) -> str:
    return fragment_list_to_text(toolbar_text(HOOKS, state))


# -- the loop -----------------------------------------------------------------------------


def test_commands_change_the_state_and_the_save_resumes(
    console: Console, save_path: Path, printed: list[str]
) -> None:
    code = play(console, f"{ADA}\r{BO}\rscene\r\x04")

    assert code == 0
    state = console.session.state
    assert names(state) == ["Ada", "Bo"]
    assert state.scene is not None and state.scene.number == 1
    assert any("Ada joins" in p for p in printed)
    assert printed[-1].startswith(f"Everything is saved in {save_path}")
    assert "wyrd resume" in printed[-1]
    assert save_path.exists()
    console.session.close()
    resumed = Session.resume(save_path)
    try:
        assert resumed.state == state
    finally:
        resumed.close()


def test_ctrl_c_drops_the_half_typed_line(console: Console) -> None:
    code = play(console, f"{ADA}\r{BO}\x03scene\r\x04")

    assert code == 0
    assert names(console.session.state) == ["Ada"]
    scene = console.session.state.scene
    assert scene is not None and scene.present == ["Ada"]


def test_quit_ends_the_loop_with_status_0(console: Console, printed: list[str]) -> None:
    assert play(console, f"{ADA}\rquit\r") == 0
    assert names(console.session.state) == ["Ada"]
    assert "Resume with" in printed[-1]


def test_ctrl_d_on_a_half_typed_line_deletes_instead_of_leaving(console: Console) -> None:
    # Ctrl-D only ends the game on an empty line; here it deletes nothing and the line runs.
    assert play(console, f"{ADA}\x04\r\x04") == 0
    assert names(console.session.state) == ["Ada"]


def test_an_error_in_one_line_does_not_end_the_loop(
    console: Console, printed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = console.act
    calls = {"n": 0}

    def flaky(line: str) -> Output:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("the bug of the day")
        return real(line)

    monkeypatch.setattr(console, "act", flaky)
    code = play(console, f"scene\r{ADA}\r\x04")

    assert code == 0
    assert names(console.session.state) == ["Ada"]
    errors = [p for p in printed if "the bug of the day" in p]
    assert errors and "the game goes on" in errors[0]


def test_refused_lines_are_printed_and_play_goes_on(console: Console, printed: list[str]) -> None:
    assert play(console, f"spend nobody 2\rfrobnicate\r{ADA}\r\x04") == 0
    assert names(console.session.state) == ["Ada"]
    assert sum(p.startswith("Refused") for p in printed) == 2


def test_the_toolbar_failing_does_not_end_the_loop(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(hooks: Any, state: GameState) -> Any:
        raise ValueError("no toolbar today")

    monkeypatch.setattr(repl, "toolbar_text", broken)
    assert play(console, f"{ADA}\r\x04") == 0
    assert names(console.session.state) == ["Ada"]


def test_lines_are_printed_in_their_style(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[str, str]] = []

    def capture(*values: Any, **kwargs: Any) -> None:
        for v in values:
            seen.extend((style, text) for style, text, *_ in to_formatted_text(v))

    monkeypatch.setattr(repl, "print_formatted_text", capture)
    repl.show_lines([Line(text="overcome!", style="good"), Line(text="odd", style="no-such-style")])
    assert seen == [("class:good", "overcome!"), ("class:plain", "odd")]


def test_the_lines_between_pieces_of_prose_are_printed_in_one_call(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21, point 2: each call to prompt-toolkit merges its styles with ours again (about a
    millisecond), so the lines between two pieces of prose go out in one call, a value a line,
    in order; on the screen they read as they did a call a line."""
    lines = [Line(text="a", style="info"), Line(text="b", style="good"), Line(text="told", style="narration"),
             Line(text="c", style="hint")]
    calls: list[list[str]] = []
    monkeypatch.setattr(repl, "print_formatted_text", lambda *values, **_: calls.append(
        [fragment_list_to_text(to_formatted_text(v)) for v in values]))
    repl.show_lines(lines, DummyOutput())
    assert calls[0] == ["a", "b"] and calls[-1] == ["c"]
    assert "told" in "".join(t for call in calls[1:-1] for t in call)
    monkeypatch.undo()

    def screen(show: Any) -> str:
        out = io.StringIO()
        show(Vt100_Output(out, lambda: Size(24, 80), term="xterm-256color"))
        return re.sub(r"\x1b\[[0-9;?]*[a-zA-Z]", "", out.getvalue())

    one_by_one = screen(lambda output: [repl.show_lines([line], output) for line in lines])
    assert screen(lambda output: repl.show_lines(lines, output)) == one_by_one
    assert one_by_one.startswith("a\r\nb\r\n") and one_by_one.endswith("c\r\n")


# -- the prompt and the history -------------------------------------------------------------


def test_the_prompt_shows_the_scene(console: Console) -> None:
    state = console.session.state
    assert fragment_list_to_text(repl.prompt_message(state)) == "wyrd> "
    given(console, ADA, "scene")
    assert fragment_list_to_text(repl.prompt_message(console.session.state)) == "scene 1> "


def test_history_goes_to_the_data_folder(console: Console, home: Path) -> None:
    play(console, f"{ADA}\rscene\r\x04")
    assert "scene" in (home / "history").read_text(encoding="utf-8")


def test_history_falls_back_to_memory_when_the_folder_cannot_be_made(
    console: Console, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = home / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setattr(history, "history_file", lambda: blocker / "history")
    with create_pipe_input() as pipe:
        session = repl.make_session(console, pipe, DummyOutput())
    assert isinstance(session.history, InMemoryHistory)
    with create_pipe_input() as pipe:
        monkeypatch.undo()
        monkeypatch.setenv("WYRD_HOME", str(home / "new" / "folder"))
        assert isinstance(repl.make_session(console, pipe, DummyOutput()).history, FileHistory)
    assert (home / "new" / "folder").is_dir()


# -- completion ----------------------------------------------------------------------------


@pytest.fixture
def in_a_roll(console: Console) -> Session:
    given(console, ADA, BO, "scene", 'challenge add "Old Door" obstruction 6',
          "attempt old by ada with bo", "spend ada 2")
    return console.session


def test_the_first_word_completes_to_verbs_and_aliases(in_a_roll: Session) -> None:
    assert completions("sp", in_a_roll) == ["spend"]
    assert "try" in completions("t", in_a_roll)
    assert {"attempt", "accept", "assign"} <= set(completions("a", in_a_roll))
    assert "quit" in completions("", in_a_roll)


def test_character_names_complete_case_insensitively(in_a_roll: Session) -> None:
    assert completions("spend a", in_a_roll) == ["Ada"]
    assert completions("spend A", in_a_roll) == ["Ada"]
    assert completions("draw ", in_a_roll) == ["Ada", "Bo"]
    assert completions("scene with ada, ", in_a_roll) == ["Bo"]


def test_challenges_abilities_types_forms_and_verbs_complete(in_a_roll: Session) -> None:
    assert completions("attempt ", in_a_roll) == ["old-door"]
    assert completions("attempt old-door ", in_a_roll) == ["by"]
    assert completions("attempt old-door by b", in_a_roll) == ["Bo"]
    assert completions("spend bo 1 ", in_a_roll) == ["body", "mind", "soul"]
    assert completions("harm bo s", in_a_roll) == ["soul"]
    assert completions('challenge add "Tall Wall" p', in_a_roll) == ["pursuit", "pressure"]
    assert completions("challenge add ", in_a_roll) == []  # the name is the player's
    assert completions("cast ", in_a_roll) == ["ward", "charm", "spell", "conjuration"]
    assert completions("help sp", in_a_roll) == ["spend"]
    assert completions("pc ", in_a_roll) == ["add", "Ada", "Bo"]


def test_pc_add_completes_its_options(in_a_roll: Session) -> None:
    assert completions("pc add Cy ", in_a_roll) == [
        "body=", "mind=", "soul=", "wyrd=", "concept=", "connection="]
    assert completions("pc add Cy body=5 m", in_a_roll) == ["mind="]
    assert completions("pc add Cy connection=b", in_a_roll) == ["connection=Bo"]


def test_end_scene_completes_recover_and_spent_abilities(console: Console) -> None:
    given(console, ADA, BO, "scene", 'challenge add "Gate" obstruction 3',
          "attempt gate by ada", "spend ada 2", "roll", "harm ada soul 1")
    state = console.session
    assert completions("end ", state) == ["scene"]
    assert completions("end scene ", state) == ["recover"]
    assert completions("end scene recover ", state) == ["Ada="]  # Bo faced nothing
    assert completions("end scene recover ada=", state) == ["ada=body", "ada=soul"]


def test_a_completion_is_applied_by_tab_in_the_real_prompt(
    console: Console, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Completions are computed asynchronously, so each Tab is sent only once the menu is
    # ready, from another thread, while the REPL runs here (as a player would type).
    given(console, ADA)
    made: list[PromptSession[str]] = []
    real_make = repl.make_session

    def make(*args: Any) -> PromptSession[str]:
        made.append(real_make(*args))
        return made[-1]

    monkeypatch.setattr(repl, "make_session", make)

    def wait_for(text: str, completions: bool) -> None:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            buffer = made[0].default_buffer if made else None
            if (buffer is not None and made[0].app.is_running and buffer.text == text
                    and (not completions or (buffer.complete_state is not None
                                             and buffer.complete_state.completions))):
                return
            time.sleep(0.01)

    with create_pipe_input() as pipe:
        def typist() -> None:
            for keys, text, menu in [("sce", "sce", True), ("\t", "scene", False),
                                     (" with a", "scene with a", True), ("\t", "scene with Ada", False)]:
                pipe.send_text(keys)
                wait_for(text, menu)
            pipe.send_text("\r\x04")

        thread = threading.Thread(target=typist)
        thread.start()
        with create_app_session(input=pipe, output=DummyOutput()):
            assert repl.run_repl(console, input=pipe, output=DummyOutput()) == 0
        thread.join()

    save = console.session.save
    assert save is not None
    last = save.last_live()
    assert last is not None and last.text == "scene with Ada"  # as completed, not as typed


def test_the_completer_never_raises(in_a_roll: Session) -> None:
    def broken() -> Session:
        raise RuntimeError("no state")

    event = CompleteEvent(completion_requested=True)
    assert list(WyrdCompleter(broken).get_completions(Document("spend "), event)) == []
    ok = WyrdCompleter(lambda: in_a_roll)
    for text in ['"open quote', "spend 'x", "zzz ", "end scene recover =", "pc add ,,, =",
                 "attempt nothing by ", "\x1b[A", "help help help ", "spend ada 2 body via "]:
        list(ok.get_completions(Document(text), event))
    between = Session.new(None, seed=1, ruleset="abacus")
    try:
        assert completions("attempt ", between) == []
        assert completions("end scene recover ", between) == []
    finally:
        between.close()


# -- the toolbar ---------------------------------------------------------------------------


def test_the_toolbar_shows_pool_lead_points_and_odds(in_a_roll: Session) -> None:
    *table, odds = bar(in_a_roll.state).split("\n")
    first = " | ".join(table)  # at 80 columns the bar goes on as many lines as it needs
    assert "scene 1 pool 3" in first
    assert "Ada vs Old Door: 2 pts, assigning" in first
    assert "Ada B3/5 M5 S5 W0" in first  # points over the score only when spent below it
    assert "Bo B6 M5 S4 W0" in first
    assert odds.startswith(" Odds against Old Door (6) with 2 points")


def test_the_toolbar_marks_scratches_defeat_and_between_scenes(console: Console) -> None:
    given(console, ADA, BO, "pc add Cy body=5 mind=5 soul=5", "scene",
          "scratch bo body", "scratch bo body", "harm ada mind 2", "scratch cy soul")
    text = bar(console.session.state)
    assert "\n" not in text  # no roll, no odds line
    assert "Ada B5 M3/5 S5 W0" in text
    assert "Bo defeated" in text
    assert "Cy B5 M5 Sx/5 W0" in text
    given(console, "end scene")
    assert "between scenes (1 played)" in bar(console.session.state)


# -- hot-seat recovery ---------------------------------------------------------------------


@pytest.fixture
def two_faced(console: Console) -> Console:
    """Ada and Bo both faced the gate; each has two abilities that could recover."""
    given(console, ADA, BO, "scene", 'challenge add "Gate" obstruction 3',
          "attempt gate by ada with bo", "spend ada 1", "spend bo 1", "roll",
          "harm ada mind 1", "harm bo soul 2")
    return console


def test_end_scene_asks_each_character_what_to_recover(two_faced: Console) -> None:
    # Ada answers "mi"; Bo takes the default (soul, where most was spent).
    assert play(two_faced, "end scene\rmi\r\r\x04") == 0

    state = two_faced.session.state
    assert state.scene is None
    assert state.characters["Ada"].points[Ability.MIND] == 5
    assert state.characters["Ada"].points[Ability.BODY] == 4
    assert state.characters["Bo"].points[Ability.SOUL] == 3
    save = two_faced.session.save
    assert save is not None
    last = save.last_live()
    assert last is not None and last.text == "end scene recover Ada=mind Bo=soul"


def test_a_wrong_answer_is_asked_again(two_faced: Console, printed: list[str]) -> None:
    assert play(two_faced, "end\rfeet\rbody\rbody\r\x04") == 0
    save = two_faced.session.save
    assert save is not None
    last = save.last_live()
    assert last is not None and last.text == "end scene recover Ada=body Bo=body"
    assert any("no ability called 'feet'" in p for p in printed)


def test_ctrl_c_while_asked_keeps_the_scene_going(two_faced: Console, printed: list[str]) -> None:
    assert play(two_faced, "end scene\r\x03\x04") == 0
    assert two_faced.session.state.scene is not None
    assert "The scene goes on." in printed


def _never(question: str, what: str, options: Any, default: str) -> str | None:
    raise AssertionError(f"asked {question}")


def test_nothing_is_asked_when_there_is_no_choice(console: Console) -> None:
    given(console, ADA, BO, "scene", 'challenge add "Gate" obstruction 3',
          "attempt gate by ada with bo", "spend ada 1", "spend bo 1", "roll")
    state = console.session.state
    # each spent only Body: the rules' own choice is the only one
    assert recovery_line("end scene", state, _never) == "end scene"
    assert recovery_line("end scene recover Ada=body", state, _never) == (
        "end scene recover Ada=body")
    assert recovery_line("spend ada 1", state, _never) == "spend ada 1"
    assert recovery_line('"open', state, _never) == '"open'
    assert recovery_line("end scene", GameState(), _never) == "end scene"


def test_only_one_facer_is_never_asked(console: Console) -> None:
    given(console, ADA, BO, "scene", 'challenge add "Gate" obstruction 3',
          "attempt gate by ada", "spend ada 1", "roll", "harm ada mind 1")
    assert recovery_line("end scene", console.session.state, _never) == "end scene"


def test_a_name_with_a_space_is_quoted(two_faced: Console) -> None:
    state = two_faced.session.state.model_copy(deep=True)
    assert state.scene is not None
    state.characters["Old Tom"] = state.characters.pop("Bo").model_copy(update={"name": "Old Tom"})
    state.scene.faced = ["Ada", "Old Tom"]
    line = recovery_line("end scene", state, lambda q, w, o, d: d)
    assert line == "end scene recover Ada=body 'Old Tom=soul'"


# -- what the REPL costs to import ----------------------------------------------------------


def test_prompt_toolkit_stays_out_of_the_rules_and_the_cli_top() -> None:
    code = ("import sys, wyrd.rules.abacus, wyrd.play.frontends.console, wyrd.play.cli.main; "
            "assert not [m for m in sys.modules if m.startswith('prompt_toolkit')]; "
            "import wyrd.play.frontends.terminal.repl; "
            "assert not [m for m in sys.modules if m.startswith('langchain')]")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_game_without_a_model_starts_without_what_only_a_model_or_a_roll_needs(tmp_path: Path) -> None:
    """The quick start, up to its first prompt, loads neither the LLM narrator (nor its prompts,
    nor the firewall, nor the config file's parser) nor the exact odds, which wait for an open roll, nor
    the question oracle."""
    script = tmp_path / "empty.txt"
    script.write_text("", encoding="utf-8")
    argv = ["play", "--story", "the-milestones", "--seed", "1", "--save", str(tmp_path / "g.wyrd"),
            "--script", str(script)]
    code = (f"import sys; from wyrd.play.cli.main import main; assert main({argv!r}) == 0; "
            "print([m for m in ('wyrd.oracle.narrators.llm', 'wyrd.oracle.narrators.firewall', 'wyrd.prompts', "
            "'tomllib', "
            "'wyrd.rules.odds', 'wyrd.oracle.question') if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path)})
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_collector_held_off_while_a_game_starts_is_on_again_however_it_ends(tmp_path: Path) -> None:
    from pydantic import BaseModel

    assert main(["resume", str(tmp_path / "nowhere.wyrd")]) == 1
    assert gc.isenabled()
    assert "defer_build" not in BaseModel.model_config  # issue 21, point 2: deferral ends with the setup
    script = tmp_path / "quit.txt"
    script.write_text("quit\n", encoding="utf-8")
    assert main(["play", "--story", "none", "--seed", "1", "--save", str(tmp_path / "g.wyrd"),
                 "--script", str(script)]) == 0
    assert gc.isenabled()
    assert "defer_build" not in BaseModel.model_config
    # `wyrd host` sets its table up the same way, and a refused start leaves both as they were.
    assert main(["host", "--story", "none", "--resume", str(tmp_path / "g.wyrd")]) == 1
    assert gc.isenabled()
    assert "defer_build" not in BaseModel.model_config


def test_a_game_sets_up_with_the_models_it_does_not_use_yet_unbuilt_and_they_check_the_same(tmp_path: Path) -> None:
    """Issue 21, point 2: the models a new game does not use before its first prompt build their
    validators at first use (the wait for the prompt is shorter), and then accept and refuse as before.
    The whole state's is one of them in a new game: an empty game is made from the state's defaults
    (``new_state``). A game resumed reads the snapshot taken when it was closed through it."""
    script = tmp_path / "empty.txt"
    script.write_text("", encoding="utf-8")
    argv = ["play", "--story", "hollow-fair", "--seed", "1", "--save", str(tmp_path / "g.wyrd"), "--script",
            str(script)]
    resume = ["resume", str(tmp_path / "g.wyrd"), "--script", str(script)]
    # The flags are read as each game reaches the point where its prompt would show.
    code = ("import wyrd.play.cli.play as cli\n"
            "shown = cli._run\n"
            "def at_prompt(*args, **kwargs):\n"
            "    from wyrd.rules.abacus.state import GameState, PendingRoll\n"
            "    from wyrd.stories.abacus.exits import CounterCheck\n"
            "    print(PendingRoll.__pydantic_complete__, CounterCheck.__pydantic_complete__, "
            "GameState.__pydantic_complete__)\n"
            "    return shown(*args, **kwargs)\n"
            "cli._run = at_prompt\n"
            f"from wyrd.play.cli.main import main; assert main({argv!r}) == 0; assert main({resume!r}) == 0\n"
            "import pydantic\n"
            "from wyrd.stories.abacus.exits import CounterCheck\n"
            "try:\n    CounterCheck.model_validate({'counter': 3})\nexcept pydantic.ValidationError as e:\n"
            "    print(e.error_count() > 0)\n"
            "print(CounterCheck.__pydantic_complete__)\n"
            "class Later(pydantic.BaseModel):\n    x: int\n"
            "print(Later.__pydantic_complete__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path)})
    flags = [line for line in done.stdout.splitlines() if set(line.split()) <= {"True", "False"}]
    assert flags == ["False False False", "False False True", "True", "True", "True"]


def test_the_toolbar_s_lines_need_no_prompt_toolkit() -> None:
    """Issue 21, point 2: the shared table's host draws the toolbar's lines for its seats without a
    terminal, so serving its first page does not wait for prompt-toolkit's import."""
    code = ("import sys; from wyrd.play.frontends.terminal.toolbar import toolbar_lines; "
            "print([m for m in sys.modules if m.startswith('prompt_toolkit')])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

