"""Playing Wolden (``wyrd play --ruleset wolden``): verbs, odds, the scenario, replay, narration.

The goldens (tests/golden/wolden_*.txt) cover every verb with its refusals and play The Drowned
Bell to its ending; here are the properties around them: replay equals live play (with and without
snapshots, and resumed halfway), undo takes a scene back, typed faces of d12s (and of the d4s
that follow), the odds shown are wyrd.rules.wolden.odds's exact fractions, the scenario format refuses
what it cannot play, and every event kind has its text and every moment its narration (the
oracle's answers too, each in a line of Wolden's own that never turns the answer round).
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any

import pytest
import yaml

import wyrd.play.engine.history
import wyrd.play.kits.wolden.kit
import wyrd.rules.wolden as W
from wyrd.oracle.events import AnswerGiven
from wyrd.oracle.grammar import person, reading, worded
from wyrd.oracle.narrators.table import TableNarrator
from wyrd.oracle.narrators.telling import Command
from wyrd.oracle.tables import bundled_tables
from wyrd.oracle.text import fill
from wyrd.play.cli.main import main
from wyrd.play.engine.narration import played
from wyrd.play.engine.session import Session
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import SHARED
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.view import describe
from wyrd.play.kits.wolden.enemies import EnemyActed, enemy_actions
from wyrd.play.kits.wolden.narration import NARRATION, WoldenMoment
from wyrd.play.kits.wolden.texts import TEXTS
from wyrd.prompts import prompt_set
from wyrd.rules.dice import Dice, SeededSource
from wyrd.rules.wolden import GameState
from wyrd.rules.wolden.events import RoundStarted, WoldenEvent
from wyrd.rules.wolden.odds import check_odds
from wyrd.stories.loader import BUNDLED
from wyrd.stories.wolden import EnemyAction, EnemySpec, ScenarioError, ScenarioProgress, find_scenario, scenario_args

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
BELL = GOLDEN / "wolden_drowned_bell.txt"
ADA = "pc add Ada lantern-wardens might=3 agility=2 mind=1 graces=0 gifts=steady-flame,roadwise"
BO = "pc add Bo brine-choir might=0 agility=1 mind=2 graces=3"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def script(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def play_lines(path: Path | None, lines: list[str], *, seed: int = 1) -> tuple[Session, list[dict[str, Any]]]:
    session = Session.new(path, seed=seed, ruleset="wolden")
    console = Console(session, path)
    events = list(session.opening_events)
    for line in lines:
        events += console.handle(line).events
    return session, events


def game(session: Session) -> GameState:
    assert isinstance(session.state, GameState)
    return session.state


def place(session: Session) -> dict[str, Any]:
    assert isinstance(session.follower, ScenarioProgress)
    return session.follower.snapshot()


# -- replay equals live play -----------------------------------------------------------


@pytest.mark.parametrize("every", [1000, 7])
def test_resume_rebuilds_the_same_game_and_scenario(every: int, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """With snapshots every 7 commands too: a snapshot holds the scenario as its command left it."""
    monkeypatch.setattr(wyrd.play.engine.history, "SNAPSHOT_EVERY", every)
    save = tmp_path / "bell.wyrd"
    live, _ = play_lines(save, script(BELL))
    state, progress = game(live).model_dump(), place(live)
    live.close()
    assert progress["ended"] and progress["outcomes"] == {"the-causeway": "done", "saltmere-trust": "abandoned",
                                                          "bell-tower": "won"}
    resumed = Session.resume(save)
    try:
        assert game(resumed).model_dump() == state
        assert place(resumed) == progress
    finally:
        resumed.close()


def test_resuming_halfway_plays_on_exactly_as_in_one_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = script(BELL)
    # between Saltmere and the chapel, after the refused `session` (a resume there would begin a new session)
    half = lines.index("session") + 2
    first, rest = tmp_path / "first.txt", tmp_path / "rest.txt"
    first.write_text("\n".join(lines[:half]) + "\n", encoding="utf-8")
    rest.write_text("\n".join(lines[half:]) + "\n", encoding="utf-8")
    save = tmp_path / "half.wyrd"
    assert main(["play", "--ruleset", "wolden", "--seed", "1", "--save", str(save), "--script", str(first),
                 "--json"]) == 0
    assert main(["resume", str(save), "--script", str(rest), "--json"]) == 0
    halves = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    whole = [json.loads(line) for line in (GOLDEN / "wolden_drowned_bell.jsonl").read_text().splitlines()]
    assert halves == whole


def test_undo_takes_a_scene_and_its_encounter_back(tmp_path: Path) -> None:
    session, _ = play_lines(tmp_path / "u.wyrd", ["story the-drowned-bell", "pc take all", "scene", "scene"])
    assert place(session)["played"] == ["wolden-gate", "the-causeway"] and game(session).encounter is not None
    console = Console(session, tmp_path / "u.wyrd")
    assert console.handle("undo").events[0]["command"] == "scene"
    assert place(session)["played"] == ["wolden-gate"] and game(session).encounter is None
    again = console.handle("scene").events
    assert [e["kind"] for e in again][:2] == ["scene_begun", "extended_started"]
    session.close()


def test_a_scene_with_nobody_standing_is_refused(tmp_path: Path) -> None:
    """The scenario waits: a scene's encounter needs someone able to act (a downtime brings them back)."""
    session, events = play_lines(None, ["story the-drowned-bell", "pc take ysolde", "scene", "wound ysolde 3",
                                        "scene"])
    assert events[-1]["rule"] == "wolden.encounter.participants"
    assert place(session)["played"] == ["wolden-gate"]
    Console(session).handle("downtime ysolde rest")
    assert Console(session).handle("scene").events[0]["kind"] == "scene_begun"


# -- dice ------------------------------------------------------------------------------


def test_typed_faces_of_d12s_and_the_d4s_after_them(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = [ADA, BO, 'fight "Bog Hound:2:1d4"', "check ada might with bo", "roll", "3 9", "2",
             "1", "check ada agility", "roll", "13", "roll", "12"]
    path = tmp_path / "typed.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    save = tmp_path / "typed.wyrd"
    assert main(["play", "--ruleset", "wolden", "--dice", "typed", "--seed", "1", "--save", str(save),
                 "--script", str(path), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    rolled = [e for e in events if e["kind"] == "check_rolled"]
    assert rolled[0]["faces"] == [3, 9] and rolled[0]["result"] == "partial"  # 9 + Might 3 = 12
    struck = [e for e in events if e["kind"] == "struck"]
    assert [(e["character"], e["faces"], e["n"]) for e in struck] == [("Ada", [2], 2), ("Bo", [1], 1)]
    assert any(e["kind"] == "refused" and "face" in e["reason"] for e in events)  # 13 is no face of a d12
    assert rolled[1]["faces"] == [12] and rolled[1]["result"] == "success"
    resumed = Session.resume(save)
    assert game(resumed).encounter is None  # the hound is beaten, the replay needs no typing
    resumed.close()


def test_roll_with_faces_uses_them_and_checks_their_number() -> None:
    _, events = play_lines(None, [ADA, "check ada might adv", "roll 5", "roll 6 6"])
    refused = next(e for e in events if e["kind"] == "refused")
    assert refused["rule"] == "usage" and "type 2 faces" in refused["reason"]
    rolled = next(e for e in events if e["kind"] == "check_rolled")
    assert rolled["faces"] == [6, 6] and rolled["result"] == "partial"  # 6 + 3 = 9: no critical partials


# -- what is shown ---------------------------------------------------------------------


def test_hints_show_the_exact_odds_before_the_roll() -> None:
    session, _ = play_lines(None, [ADA, BO, "check ada might gift steady with bo"])
    hints = wyrd.play.kits.wolden.kit.KIT.hints(session.state)
    odds = check_odds(3, 3)
    assert hints[0].startswith("Ada rolls 3d12 + Might 3: ")
    for p in (odds.p_critical_failure, odds.p_failure, odds.p_partial, odds.p_success, odds.p_critical_success):
        # Issue 18, point 4: the percentage first, the exact fraction after it
        assert (f"{float(p):.1%} ({p})" if 0 < p < 1 else f" {float(p):.0%}") in hints[0]
    assert "plain roll" in hints[1] and "`roll`" in hints[2]


def test_hints_in_a_fight_name_the_enemy_and_its_blow() -> None:
    session, _ = play_lines(None, [ADA, "fight wolf:2:1d6", "check ada might"])
    hints = wyrd.play.kits.wolden.kit.KIT.hints(session.state)
    assert "Against wolf (0/2 harm): 6 or less, it hits Ada for 1d6 each (6 on a critical failure)" in hints[1]


def test_status_sheet_and_toolbar() -> None:
    session, _ = play_lines(None, ["story the-drowned-bell", "pc take all", "scene", "scene"])
    hooks = wyrd.play.kits.wolden.kit.KIT
    toolbar = hooks.toolbar(session.state)
    assert "\n" not in toolbar
    assert toolbar.startswith("The Saltmere causeway 6/6 r1 | Wenna Mt1 Ag3 Md2 Gr0 W0 S2 | ")
    status = hooks.status(session.state)
    assert status[0] == "Session 1." and status[1].startswith("Travel montage: The Saltmere causeway, rating 6")
    assert any(line.startswith("The situation: ") for line in status)
    assert hooks.sheet(session.state, "Corin Tallow")[1] == "  Might 3  Agility 1  Mind 0  Graces 2"


def test_every_event_kind_has_its_text() -> None:
    kinds = {typing.get_args(t)[0] for t in (m.model_fields["kind"].annotation
                                             for m in typing.get_args(typing.get_args(WoldenEvent)[0]))}
    assert kinds <= set(TEXTS)
    assert {"scene_begun", "scenario_ended", "story_chosen"} <= set(TEXTS)


@pytest.mark.parametrize("name", ["wolden_basics", "wolden_drowned_bell"])
def test_every_event_of_the_goldens_reads(name: str) -> None:
    """No event falls back to the listing of its fields."""
    for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines():
        event = json.loads(line)
        text = describe(event, "wolden").text
        assert not text.startswith(f"{event['kind']}:"), text


def test_narration_is_one_or_two_lines_from_the_wolden_tables() -> None:
    tables = bundled_tables()
    own = [t for t in tables if t.startswith("wolden/")]
    assert len(own) >= 25 and all(len(tables[t].rows) >= 6 for t in own)
    events = [json.loads(line) for name in ("wolden_drowned_bell", "wolden_basics")
              for line in (GOLDEN / f"{name}.jsonl").read_text().splitlines()]
    told = [e for e in events if e["kind"] == "narration" and e["source"] == "table"]
    assert {e["moment"] for e in told} >= {"wolden/check/success", "wolden/check/partial", "wolden/fight/won",
                                          "wolden/montage/done", "wolden/extended/done", "wolden/fight/beaten"}
    assert all(e["moment"] in own for e in told)


def test_no_narration_is_longer_than_two_lines_a_command(tmp_path: Path) -> None:
    session, _ = play_lines(tmp_path / "n.wyrd", script(BELL))
    assert session.save is not None
    for record in session.save.live_commands():
        assert sum(e["kind"] == "narration" and e["source"] == "table" for e in record.events) <= 2
    session.close()


# -- the oracle's answers, told in Wolden's voice ----------------------------------------------

ANSWER_FACES = {"yes_and": 5, "yes": 30, "no": 70, "no_but": 95}  # d100 at even (50): 10 / 50 / 90 its edges
_SAYS_YES = re.compile(r"\b(yes|it is so|so it is)\b", re.IGNORECASE)
_SAYS_NO = re.compile(r"(^|[.;:] )(no|not)\b|\bno[.;:,]|\bnot so\b|\banswer is no\b", re.IGNORECASE)
_MORE = re.compile(r"\b(and|more|besides|better)\b", re.IGNORECASE)
_BUT = re.compile(r"\b(but|though|still|yet)\b", re.IGNORECASE)
_DICE_WORDS = re.compile(r"\d|\b(dice|die|d100|roll\w*|odds|chances?|number|percent|double\w*)\b", re.IGNORECASE)


class OracleFace:
    """The story's own dice: the question oracle's d100 shows ``face``, any other die rolls as seeded."""

    trusted = True

    def __init__(self, face: int) -> None:
        self.face = face
        self.rest = SeededSource("answer")

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return [self.face] * n if purpose == "question oracle" else list(self.rest.faces(n, sides, purpose))

    def get_state(self) -> object:
        return self.face

    def set_state(self, state: object) -> None:
        self.face = int(typing.cast(int, state))


def oracle_shows(monkeypatch: pytest.MonkeyPatch, session: Session, face: int) -> None:
    """The next question's d100 shows ``face`` (the oracle's dice are the story's, never the rules')."""
    monkeypatch.setattr(session, "context", lambda seq: PlayContext(
        state=session.state, dirs=session.dirs, dice=Dice(OracleFace(face)), follower=session.follower))


def answer_rows(answer: str, asker: str = "Wenna Ashgrove", pronouns: str | None = "she") -> list[str]:
    """Every row of an answer's table as told of ``asker``."""
    said = person(asker, pronouns)
    return [fill(r.text, {"asker": said}) for r in bundled_tables()[f"wolden/answer/{answer}"].rows]


def asked(answer: str, asker: str | None = "Wenna Ashgrove") -> AnswerGiven:
    return AnswerGiven(question="is anyone watching", asker=asker, odds="even", chance=50, tension=0,
                       roll=ANSWER_FACES[answer], answer=answer, twist=False)


def test_every_answer_row_tells_its_answer_as_the_world_and_never_the_dice() -> None:
    """README: offline, random tables narrate every moment; a row never turns the oracle's answer round."""
    wrong: list[str] = []
    for answer in ANSWER_FACES:
        table = bundled_tables()[f"wolden/answer/{answer}"]
        says, denies = (_SAYS_YES, _SAYS_NO) if answer.startswith("yes") else (_SAYS_NO, _SAYS_YES)
        edge = {"yes_and": _MORE, "no_but": _BUT}.get(answer)  # the "and" or the "but" is told too
        assert len(table.rows) >= 6, table.id
        wrong += [f"{table.id}: {row.text}" for row in table.rows
                  if _DICE_WORDS.search(row.text) or not says.search(row.text) or denies.search(row.text)
                  or (edge is not None and not edge.search(row.text))]
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("answer", sorted(ANSWER_FACES))
def test_an_answer_is_one_moment_that_settles_the_question_and_its_answer(answer: str) -> None:
    """The kit's narration reads the oracle's `answer` event as Wolden's own moment, its prompt says so."""
    session, _ = play_lines(None, [ADA, "scene"])
    event = asked(answer, "Ada")
    told = NARRATION.tell(Command(session.state, session.state, [event], Dice(SeededSource(1)), session.follower))
    (request,) = told.moments
    assert (request.moment, request.detail, request.subject) == (WoldenMoment.ANSWER, answer, "Ada")
    assert request.marks == {"moment": f"wolden/answer/{answer}"} and request.success is None
    assert request.said is not None and "'is anyone watching'" in request.said
    said = request.said.split("' is ", 1)[1]
    assert said.startswith("yes") if answer.startswith("yes") else said.startswith("no")
    assert prompt_set().for_moment(WoldenMoment.ANSWER).id == "wolden/answers"
    text = TableNarrator().narrate(request, Dice(SeededSource(1))).text
    assert text in answer_rows(answer, "Ada", None)
    nobody = NARRATION.tell(Command(session.state, session.state, [asked(answer, None)], Dice(), session.follower))
    (request,) = nobody.moments
    assert request.subject is None and request.said.startswith("For everyone: the answer to")


@pytest.mark.parametrize("answer", sorted(ANSWER_FACES))
def test_an_ask_gets_one_line_of_wolden_prose_that_tells_its_answer(answer: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """README: `ask` is the oracle's yes or no; offline, random tables narrate every moment in a line."""
    session = Session.new(None, seed=1, ruleset="wolden", story="the-drowned-bell")
    console = Console(session, None)
    for line in ("pc take all", "scene"):
        console.handle(line)
    oracle_shows(monkeypatch, session, ANSWER_FACES[answer])
    events = console.handle("ask is anyone watching").events
    assert [e["kind"] for e in events] == ["answer", "narration"]
    assert events[0]["answer"] == answer
    assert events[1]["moment"] == f"wolden/answer/{answer}" and events[1]["source"] == "table"
    assert events[1]["text"] in answer_rows(answer)


def test_a_doubled_answer_brings_its_twist_and_the_answer_still_its_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """README's Wolden notes: a doubled oracle answer brings its asker a critical's twist (yes side: a success's)."""
    session = Session.new(None, seed=1, ruleset="wolden", story="the-drowned-bell")
    console = Console(session, None)
    for line in ("pc take all", "scene"):
        console.handle(line)
    oracle_shows(monkeypatch, session, 11)
    events = console.handle("ask is anyone watching by Corin Tallow").events
    assert [e["kind"] for e in events] == ["answer", "twist", "narration"]
    assert events[0]["answer"] == "yes" and events[1]["category"] == "friendly"
    assert events[2]["text"] in answer_rows("yes", "Corin Tallow", "he") and events[2]["moment"] == "wolden/answer/yes"


def test_the_answer_is_saved_with_the_command_and_read_again_on_resume(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """README: the narration is saved with the game, so a replay, a log or an export reads the same words."""
    path = tmp_path / "asked.wyrd"
    session = Session.new(path, seed=1, ruleset="wolden", story="the-drowned-bell")
    console = Console(session, path)
    for line in ("pc take all", "scene"):
        console.handle(line)
    told: list[tuple[str, str]] = []
    questions = ("is the door locked", "is the reeve lying", "is the bell ringing", "is anyone watching")
    for face, question in zip(ANSWER_FACES.values(), questions, strict=True):
        oracle_shows(monkeypatch, session, face)
        told += [(e["text"], e["moment"]) for e in console.handle(f"ask {question}").events
                 if e["kind"] == "narration"]
    assert [m for _, m in told] == [f"wolden/answer/{a}" for a in ANSWER_FACES]
    session.close()
    resumed = Session.resume(path)
    try:
        saved = [(e["text"], e["moment"]) for events in played(resumed)[-4:] for e in events
                 if e["kind"] == "narration"]
        assert saved == told
        log = "\n".join(x.text for x in Console(resumed, path).handle("log all").lines)
        assert all(text in log for text, _ in told)
    finally:
        resumed.close()


# -- the scenario --------------------------------------------------------------------------


def test_the_bundled_scenario_and_its_cast() -> None:
    found = find_scenario("the-drowned-bell", [BUNDLED])
    assert [s.encounter for s in found.scenes] == [None, "the-causeway", "find-the-causeway-again", "saltmere-trust",
                                                   "the-sextons-stair", "bell-tower"]
    args = scenario_args("the-drowned-bell", [BUNDLED])
    assert [c["id"] for c in args["cults"]] == ["lantern-wardens", "brine-choir"]
    assert len(found.pregens) == 3 and found.montages[0].table == "causeway"


def write_scenario(folder: Path, **changes: Any) -> Path:
    data = yaml.safe_load((BUNDLED / "wolden" / "the-drowned-bell.yaml").read_text(encoding="utf-8"))
    data.update(id="my-bell", **changes)
    (folder / "wolden").mkdir(parents=True, exist_ok=True)
    path = folder / "wolden" / "my-bell.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("changes", "words"), [
    ({"scenes": [{"id": "a", "title": "A", "text": "x", "encounter": "nowhere"}]}, "encounter 'nowhere'"),
    ({"fights": [{"id": "f", "name": "F", "enemies": ["ghost"]}]}, "enemy 'ghost'"),
    ({"cults": ["owls"]}, "cult 'lantern-wardens'"),
    ({"enemies": [{"id": "e", "name": "E", "harm": 1, "damage": "lots"}]}, "damage roll"),
    ({"title": None}, "title"),
])
def test_a_scenario_that_cannot_be_played_is_refused(changes: dict[str, Any], words: str, tmp_path: Path) -> None:
    write_scenario(tmp_path, **changes)
    with pytest.raises(ScenarioError, match=words):
        scenario_args("my-bell", [tmp_path, BUNDLED])


def test_a_cast_that_breaks_the_creation_rules_is_refused(tmp_path: Path) -> None:
    cast = [{"name": "Odd", "cult": "brine-choir", "might": 3, "agility": 3, "mind": 0, "graces": 0}]
    write_scenario(tmp_path, pregens=cast)
    with pytest.raises(ScenarioError, match=r"Odd: .*3, 2, 1 and 0"):
        scenario_args("my-bell", [tmp_path, BUNDLED])


def test_the_players_own_scenario_is_played_and_replayed_without_its_file(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]) -> None:
    content = tmp_path / "mine"
    path = write_scenario(content, title="My Bell")
    save = tmp_path / "mine.wyrd"
    lines = tmp_path / "lines.txt"
    lines.write_text("pc take all\nscene\nscene\n", encoding="utf-8")
    assert main(["play", "--ruleset", "wolden", "--story", "my-bell", "--content", str(content), "--seed", "2",
                 "--save", str(save), "--script", str(lines), "--json"]) == 0
    events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert any(e["kind"] == "story_chosen" and e["title"] == "My Bell" for e in events)
    path.unlink()
    resumed = Session.resume(save)
    try:
        assert place(resumed)["played"] == ["wolden-gate", "the-causeway"]
        assert game(resumed).encounter is not None
    finally:
        resumed.close()


def test_a_bad_story_on_the_command_line_leaves_no_save(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "bad.wyrd"
    assert main(["play", "--ruleset", "wolden", "--story", "nowhere", "--seed", "1", "--save", str(save),
                 "--script", "-"]) == 1
    assert "no Wolden scenario 'nowhere'" in capsys.readouterr().err
    assert not list(tmp_path.glob("bad.wyrd*"))


def test_pc_add_brings_its_cult_from_the_cult_files_into_the_arguments(tmp_path: Path) -> None:
    session, events = play_lines(tmp_path / "c.wyrd", [ADA])
    assert [e["kind"] for e in events[1:]] == ["cult_added", "character_created"]
    assert session.save is not None
    record = list(session.save.live_commands())[-1]
    assert record.parsed["args"]["install"][0]["id"] == "lantern-wardens"
    session.close()


def test_every_wolden_verb_has_its_help() -> None:
    own = {k: v for k, v in wyrd.play.kits.wolden.kit.KIT.verbs.verbs().items() if k not in SHARED.verbs()}
    assert set(own) == {"pc", "check", "roll", "cancel", "extended", "montage", "fight", "pass", "abandon",
                        "harm", "wound", "downtime", "session", "story", "scene"}
    for verb in own.values():
        assert verb.usage().startswith(verb.key) and len(verb.help().splitlines()) > 2


# -- enemies act from tables -------------------------------------------------------------


def _fight_rounds(save: Path, lines: list[str]) -> list[tuple[list[dict[str, Any]], GameState]]:
    """Each command's events with the state it left, for every command of ``lines`` (seed 1)."""
    session = Session.new(save, seed=1, ruleset="wolden")
    console = Console(session, save)
    out = []
    for line in lines:
        out.append((console.handle(line).events, game(session).model_copy(deep=True)))
    session.close()
    return out


@pytest.mark.parametrize("name", ["wolden_basics", "wolden_drowned_bell"])
def test_each_round_of_a_fight_every_enemy_standing_acts_against_a_character_standing(name: str,
                                                                                      tmp_path: Path) -> None:
    rounds = 0
    for events, state in _fight_rounds(tmp_path / "f.wyrd", script(GOLDEN / f"{name}.txt")):
        acted = [e for e in events if e.get("kind") == "enemy_acted"]
        fight = state.encounter
        began = any(e.get("kind") == "round_started" and e.get("type") == "fight" for e in events)
        if not (began and isinstance(fight, W.Fight)):
            assert not acted
            continue
        rounds += 1
        standing = [n for n in fight.rounds.participants if not state.characters[n].out]
        assert [e["enemy"] for e in acted] == [e.id for e in fight.standing]
        assert all(e["target"] in standing and e["target"] in e["text"] for e in acted)
        assert all("{" not in e["text"] for e in acted)
    assert rounds >= 3


def _rows(texts: list[str], enemy: str) -> set[str]:
    return {t.replace("{enemy}", enemy).casefold() for t in texts}


def test_the_scenarios_own_table_is_used_and_the_generic_one_otherwise(tmp_path: Path) -> None:
    bell = find_scenario("the-drowned-bell", [BUNDLED])
    generic = [r.text for r in bundled_tables()["wolden/enemy-acts"].rows]
    assert len(generic) >= 8
    lines = [*script(BELL), "fight wolf:2"]
    seen: dict[str, list[str]] = {}
    for events, _ in _fight_rounds(tmp_path / "t.wyrd", lines):
        for e in events:
            if e.get("kind") == "enemy_acted":
                seen.setdefault(e["enemy"], []).append(e["text"].replace(e["target"], "{character}").casefold())
    ringer, warden = bell.enemy("drowned-ringer"), bell.enemy("bell-warden")
    assert ringer.actions and warden.actions
    # each named as the scenario says it reads in prose (Issue 18, point 7: "the drowned ringer")
    ringer_prose, warden_prose = (worded(e.name, e) or reading(e.name) for e in (ringer, warden))
    assert set(seen["drowned-ringer"]) <= _rows([a.text for a in ringer.actions], ringer_prose.phrase)
    assert set(seen["drowned-ringer-2"]) <= _rows([a.text for a in ringer.actions], f"{ringer_prose.phrase} 2")
    assert set(seen["bell-warden"]) <= _rows([a.text for a in warden.actions], warden_prose.phrase)
    assert seen["wolf"] and set(seen["wolf"]) <= _rows(generic, "the wolf")  # a name typed in play reads as a noun


def test_weakest_and_strongest_go_by_the_total_of_abilities_ties_by_character_order() -> None:
    session, _ = play_lines(None, [ADA, BO, "fight wolf:2"])
    state = game(session)
    # the rules' own typed event, as verb.after receives it (issue 15, point 5)
    began = [RoundStarted(encounter="fight", type=W.EncounterKind.FIGHT, number=1, participants=["Ada", "Bo"])]

    def target(how: str | None) -> str:
        spec = EnemySpec(id="wolf", name="wolf", harm=2, actions=[EnemyAction(text="{enemy} to {character}",
                                                                             target=how)])
        story = find_scenario("the-drowned-bell", [BUNDLED]).model_copy(update={"enemies": [spec]})
        acted = enemy_actions(began, state, story, Dice(SeededSource("t")))
        assert len(acted) == 1 and isinstance(acted[0], EnemyActed)
        assert acted[0].text == f"The wolf to {acted[0].target}"  # a bare name reads as a noun (issue 18, point 7)
        return acted[0].target

    assert target("weakest") == target("strongest") == "Ada"  # 6 and 6: the first
    state = W.harm(state, Dice(SeededSource("h")), "Ada", W.Ability.MIGHT, 2).state
    assert (target("weakest"), target("strongest")) == ("Ada", "Bo")
    assert target("random") in {"Ada", "Bo"} and target(None) in {"Ada", "Bo"}
    assert enemy_actions([], state, None, Dice(SeededSource("t"))) == []  # no round began


def test_the_same_seed_gives_the_same_actions_and_the_hint_names_the_targets(tmp_path: Path) -> None:
    lines = script(GOLDEN / "wolden_basics.txt")
    acts = [[e for e in ev if e.get("kind") == "enemy_acted"] for ev, _ in _fight_rounds(tmp_path / "a.wyrd", lines)]
    again = [[e for e in ev if e.get("kind") == "enemy_acted"] for ev, _ in _fight_rounds(tmp_path / "b.wyrd", lines)]
    assert acts == again and any(acts)
    session, events = play_lines(None, [ADA, BO, "fight wolf:2 boar:3"])
    acted = {e["enemy"]: e["target"] for e in events if e.get("kind") == "enemy_acted"}
    assert set(acted) == {"wolf", "boar"}
    hints = wyrd.play.kits.wolden.kit.KIT.follower_hints(session.state, session.follower)
    assert hints == [f"This round wolf goes for {acted['wolf']}; boar goes for {acted['boar']}: "
                     "defend them (`check WHO ABILITY vs ENEMY defend`); one who passes takes the blow."]


@pytest.mark.parametrize("every", [1000, 3])
def test_resume_keeps_the_enemies_actions_and_whom_they_go_for(every: int, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wyrd.play.engine.history, "SNAPSHOT_EVERY", every)
    save = tmp_path / "fight.wyrd"
    lines = script(BELL)
    lines = lines[:lines.index("session") + 5]  # into the fight at the chapel
    live, events = play_lines(save, lines)
    assert isinstance(game(live).encounter, W.Fight) and place(live)["targets"]
    shown = wyrd.play.kits.wolden.kit.KIT.follower_hints(live.state, live.follower)
    live.close()
    resumed = Session.resume(save)
    try:
        assert place(resumed)["targets"] == place(live)["targets"]
        assert wyrd.play.kits.wolden.kit.KIT.follower_hints(resumed.state, resumed.follower) == shown
        assert resumed.save is not None
        saved = [e for r in resumed.save.live_commands() for e in r.events if e["kind"] == "enemy_acted"]
        assert saved == [e.plain() for e in events if e.get("kind") == "enemy_acted"] and saved
    finally:
        resumed.close()
