"""Heroes of the Fall's narrator (Issue 18): scenes framed, ways on, dice that steer, odds first, spotlight, fate.

Each test cites the point of issue 18 it keeps. The stories are the bundled ones
(``stories/content/feat``); forced dice stand for a table whose every roll comes up
the best (or the worst) it can, so a story must go two different ways.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from wyrd.oracle.events import AnswerGiven
from wyrd.oracle.narrators.telling import Command
from wyrd.oracle.tables import bundled_tables
from wyrd.oracle.text import fill
from wyrd.play.engine.narration import played
from wyrd.play.engine.session import Session
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.frontends.console import Console
from wyrd.play.kits.feat import narrator
from wyrd.play.kits.feat.kit import KIT
from wyrd.play.kits.feat.narration import NARRATION, FeatMoment
from wyrd.play.kits.feat.texts import TEXTS, chance
from wyrd.play.kits.feat.words import words
from wyrd.prompts import prompt_set
from wyrd.rules.dice import Dice
from wyrd.rules.feat import GameState
from wyrd.sim.feat.bots import FeatBot
from wyrd.stories.feat import BUNDLED_FEAT, FeatStory, find_feat_story, list_feat_stories
from wyrd.stories.problems import LINTING
from wyrd.stories.yamlguard import safe_load

LANTERN = "lantern-at-gull-reach"
PARDON = "the-pardon-at-kell-pass"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Forced:
    """Every die shows its best face (or its worst): a table that cannot fail, or cannot succeed."""

    trusted = True

    def __init__(self, best: bool) -> None:
        self.best = best

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return [sides if self.best else 1] * n

    def get_state(self) -> object:
        return self.best

    def set_state(self, state: object) -> None:
        self.best = bool(state)


def _session(story: str, seed: int = 3) -> tuple[Session, Console]:
    session = Session.new(None, seed=seed, ruleset="feat", story=story)
    return session, Console(session, None)


def _lines(console: Console, lines: Sequence[str]) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    for line in lines:
        events += console.handle(line).events
    return events


def _forced_run(story: str, best: bool) -> tuple[list[str], str, list[dict[str, Any]]]:
    """The story played by the bots to its end with forced dice: the scenes, the ending, every event."""
    session, console = _session(story)
    session._dice = lambda seq: Dice(Forced(best))  # type: ignore[method-assign]
    bot = FeatBot("bold", random.Random(1))
    events = list(session.opening_events)
    for _ in range(200):
        if bot.over(session) is not None:
            break
        events += console.handle(bot.next_line(session, None)).events
    session.close()
    assert not [e for e in events if e["kind"] == "refused"]
    scenes = [str(e["scene"]) for e in events if e["kind"] == "scene_started"]
    ending = next(str(e["ending"]) for e in events if e["kind"] == "story_ended")
    return scenes, ending, events


@pytest.mark.parametrize("story", [LANTERN, PARDON])
def test_forced_success_and_forced_failure_take_different_paths(story: str) -> None:
    """Issue 18, point 3: every bundled story branches on what was rolled (ways on and ending)."""
    won_scenes, won_ending, won = _forced_run(story, True)
    lost_scenes, lost_ending, lost = _forced_run(story, False)
    assert won_scenes != lost_scenes
    assert won_ending != lost_ending
    assert all(e["won"] for e in won if e["kind"] == "stake_decided")
    assert not any(e["won"] for e in lost if e["kind"] == "stake_decided")


def test_the_lantern_won_ends_lit_and_lost_ends_dark() -> None:
    """Issue 18, point 3: a failed mending no longer ends "If the lamp was lit... If it stayed dark..."."""
    _, won, _ = _forced_run(LANTERN, True)
    _, lost, _ = _forced_run(LANTERN, False)
    assert "The light burned all night" in won and "stayed dark" not in won
    assert "The light stayed dark" in lost and "burned all night" not in lost
    assert "If the lamp" not in won + lost


def test_winning_the_race_opens_the_stair_door_and_shuts_the_sea_stair() -> None:
    """Issue 18, point 3: the party that wins the race for the stair door is not sent round by the sea."""
    _, console = _session(LANTERN)
    events = _lines(console, ["scene", "scene", "race Wenna Cobb dice 8 8 8", "scene the-sea-stair", "scene"])
    decided = next(e for e in events if e["kind"] == "stake_decided")
    assert decided["won"] and decided["opens"] == ["The lamp-room"]
    refused = next(e for e in events if e["kind"] == "refused")
    assert "shut by what was rolled" in refused["reason"] and "the-" not in refused["reason"]
    assert [e["scene"] for e in events if e["kind"] == "scene_started"][-1] == "the-lamp-room"


def test_a_roll_against_someone_else_settles_no_stake_against_cobb() -> None:
    """Issue 18, point 3: a stake is settled only by the roll it names (here: against Cobb)."""
    session, console = _session(LANTERN)
    events = _lines(console, ["scene", "scene", "race Wenna Maud dice 8 8 8"])
    assert not [e for e in events if e["kind"] == "stake_decided"]
    assert KIT.follower_hints(session.state, session.follower)  # still open: who is next is told


def test_a_stake_nobody_rolled_for_counts_as_lost_when_the_scene_is_left() -> None:
    """Issue 18, point 3 ([ours] in the README's rules notes): the chance went by."""
    session, console = _session(LANTERN)
    _lines(console, ["scene", "scene", "scene"])
    assert session.follower.outcomes["cobb-caught"] is False
    assert session.follower.current == "the-sea-stair"


# -- the linter ------------------------------------------------------------------------


def _data(story: str = LANTERN) -> dict[str, Any]:
    loaded = safe_load((BUNDLED_FEAT / f"{story}.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return copy.deepcopy(loaded)


def _faults(data: dict[str, Any]) -> list[str]:
    story = FeatStory.model_validate(data, context={LINTING: True})
    return [message for _, message in story.faults()]


def test_the_bundled_stories_have_no_fault() -> None:
    for ident in list_feat_stories([]):
        assert _faults(_data(ident)) == []


def test_an_outcome_that_leads_nowhere_is_found() -> None:
    """Issue 18, point 3: the linter reports a lost race after which no way on is open."""
    data = _data()
    data["scenes"][1]["exits"] = [{"to": "the-lamp-room", "when": "cobb-caught won"}]
    found = _faults(data)
    assert any("cobb-caught lost no way on is open" in f for f in found)


def test_a_condition_that_can_never_hold_is_found() -> None:
    """Issue 18, point 3: a branch on a stake of a later scene, or of a stake that does not exist."""
    data = _data()
    data["scenes"][1]["openings"].append({"when": "lamp-lit won", "text": "Too soon to know."})
    data["scenes"][2]["exits"] = [{"to": "the-lamp-room", "when": ["no-such-stake won"]},
                                  {"to": "the-lamp-room", "when": "stair-climbed lost"}]
    found = _faults(data)
    assert any("'lamp-lit won' can never hold here" in f for f in found)
    assert any("'no-such-stake won' names no stake" in f for f in found)


def test_an_opening_on_its_own_scenes_stake_and_an_ending_left_out_are_found() -> None:
    """Issue 18, point 3: an opening cannot follow what is settled later in its scene; every outcome ends."""
    data = _data()
    data["scenes"][3]["openings"].append({"when": "lamp-lit won", "text": "The lamp is lit already."})
    data["endings"] = [e for e in data["endings"] if e["when"] != "lamp-lit lost"]
    found = _faults(data)
    assert any("can never hold when scene the-lamp-room opens" in f for f in found)
    assert any("lamp-lit lost" in f and "no ending is told" in f for f in found)


def test_a_scene_nothing_leads_to_and_an_ask_that_settles_nothing_are_found() -> None:
    """Issue 18, points 2 and 3: every scene can be reached; a stake's command is one that settles it."""
    data = _data()
    data["scenes"][1]["exits"] = [{"to": "the-lamp-room", "when": "cobb-caught won"},
                                  {"to": "the-lamp-room", "when": "cobb-caught lost"}]
    data["scenes"][1]["stakes"][0]["ask"] = "search Wenna Cobb 5"
    found = _faults(data)
    assert "scene the-sea-stair: no way on leads here from the-quay" in found
    assert any("`search Wenna Cobb 5` cannot settle it (settled by race, oppose)" in f for f in found)


def test_a_stake_that_steers_nothing_and_a_bad_condition_are_refused() -> None:
    data = _data()
    data["scenes"][0]["stakes"].append({"id": "idle", "name": "nothing", "by": ["search"], "won": "a", "lost": "b"})
    assert any("'idle' steers nothing" in f for f in _faults(data))
    data["scenes"][1]["exits"] = [{"to": "the-lamp-room", "when": "cobb-caught maybe"}]
    with pytest.raises(ValueError, match="STAKE won"):
        FeatStory.model_validate(data, context={LINTING: True})


# -- the scene framed, its rules, the ways on ------------------------------------------


def test_a_scene_opens_framed_and_look_shows_it_again_with_its_odds() -> None:
    """Issue 18, point 1: title, place, what the story says, who is present, what is in the way and its price."""
    _, console = _session(LANTERN)
    events = _lines(console, ["scene", "scene"])
    started = [e for e in events if e["kind"] == "scene_started"][-1]
    line = TEXTS["scene_started"](started)
    assert "the causeway to Gull Head" in line and "Present: Wenna Tarr" in line and "Cobb Sallow" in line
    assert "catching Cobb (`race Wenna Cobb`; if lost: Cobb gets away" in line
    assert "Ways on: The lamp-room (if catching Cobb is won); The sea stair (if catching Cobb is lost)" in line
    look = console.handle("look").lines
    text = "\n".join(x.text for x in look)
    assert "Scene 2: The causeway at half tide, the causeway to Gull Head" in text
    assert "catching Cobb: `race Wenna Cobb`, 50.0% now. If lost:" in text
    assert "The lamp-room (if catching Cobb is won): shut." in text


def test_rules_shows_the_text_of_every_rule_in_force() -> None:
    """Issue 18, point 1: the story's standing rules and the scene's, in words, and what bites now."""
    _, console = _session(LANTERN)
    _lines(console, ["scene", "scene", "race Wenna Cobb dice 1 1 1", "scene", "award Maud 5 for the rope"])
    text = "\n".join(x.text for x in console.handle("rules").lines)
    assert "The turning tide: The sea is coming in" in text
    assert "Falls on the stair: A failed climb is a fall" in text
    assert "Wyrd points: 5 buy an automatic 8" in text and "Maud 5" in text


def test_exits_says_what_the_last_outcome_changed_and_completion_marks_the_open_way() -> None:
    """Issue 18, point 2: the ways on, what opens each, which is open now, and what changed."""
    session, console = _session(LANTERN)
    _lines(console, ["scene", "scene", "race Wenna Cobb dice 1 1 1"])
    text = "\n".join(x.text for x in console.handle("exits").lines)
    assert text.startswith("Catching Cobb: lost. Cobb gets away into the fog.")
    assert "The sea stair (if catching Cobb is lost): open now." in text
    marked = words("scene", session.state, session.follower)
    assert marked == {"the-sea-stair": "The sea stair (open now)", "the-lamp-room": "The lamp-room (shut)"}
    hints = KIT.follower_hints(session.state, session.follower)
    assert "Everything here is settled. Open now: The sea stair (`scene`)." in hints


# -- odds before the dice ----------------------------------------------------------------


def test_odds_read_as_percentages_with_the_fraction_after() -> None:
    """Issue 18, point 4: never a bare fraction like 57501/80000."""
    assert chance("57501/80000") == "71.9% (57501/80000)"
    assert chance("1") == "100%" and chance("1/1000000") == "<0.1% (1/1000000)"


def test_odds_command_weighs_a_roll_and_names_its_stake_before_any_die() -> None:
    """Issue 18, point 4: `odds COMMAND` shows the chance, the price of an 8 and the stake, rolling nothing."""
    session, console = _session(LANTERN)
    _lines(console, ["scene", "scene"])
    before = session.next_command
    text = "\n".join(x.text for x in console.handle("odds race Wenna Cobb").lines)
    assert "Odds for Wenna Tarr, vigour 6 against Cobb Sallow's 6 (Feat level 0): 50.0% (1/2)." in text
    assert "an automatic 8 costs 5" in text
    assert "At stake: catching Cobb. If won: Cobb is caught" in text
    assert session.next_command == before and session.follower.outcomes.get("cobb-caught") is None
    refused = "\n".join(x.text for x in console.handle("odds race Nobody Cobb").lines)
    assert "Refused" in refused
    for line in ("odds scene", "odds wound Wenna 1", "odds story lantern-at-gull-reach"):
        assert "rolls no dice" in "\n".join(x.text for x in console.handle(line).lines)


# -- spotlight and fair dice -------------------------------------------------------------


def test_turn_names_who_has_not_acted_and_never_the_out_of_action() -> None:
    """Issue 18, points 5 and 6: whose move it is; a hero out of action is not named as able to act."""
    session, console = _session(LANTERN)
    _lines(console, ["scene", "scene", "race Wenna Cobb dice 1 1 1", "scene"])
    text = "\n".join(x.text for x in console.handle("turn").lines)
    assert text.startswith("Wenna Tarr's move. Not yet acted this scene: Wenna Tarr, Ansel Brack, Maud Penhallow.")
    _lines(console, ["try Wenna climbing 5 dice 1 1 1 1", "wound Wenna 1 a fall", "shock Wenna dice 1 1 1"])
    text = "\n".join(x.text for x in console.handle("turn").lines)
    assert text.startswith("Ansel Brack's move. Not yet acted this scene: Ansel Brack, Maud Penhallow.")
    assert "Cannot act: Wenna Tarr (out of action)" in text
    hints = KIT.follower_hints(session.state, session.follower)
    assert hints[0] == "Next: Ansel (yet to act this scene: Ansel, Maud)."
    assert "Wenna Tarr" not in KIT.oracle.present(session.state)  # nor the oracle's default asker


def test_a_tie_in_initiative_shows_how_it_was_broken() -> None:
    """Issue 18, point 6: equals keep the order named, and the line says so once."""
    _, console = _session(LANTERN)
    events = _lines(console, ["scene", "scene", "initiative Wenna, Cobb"])
    line = TEXTS["initiative_decided"](next(e for e in events if e["kind"] == "initiative_decided"))
    assert line == ("In order of Vigour: Wenna Tarr 6, Cobb Sallow 6; tied: Wenna Tarr and Cobb Sallow "
                    "(as named; `first` settles it).")


# -- narrator-less: the scene test, twists by Wyrd points, the oracle's tension -----------


def test_a_scene_opens_with_a_scene_test_of_the_heroes_present() -> None:
    """Issue 18, point 9: the scene test, one d6 each for the heroes able to act, on the narration's dice."""
    _, console = _session(LANTERN)
    events = _lines(console, ["scene"])
    test = next(e for e in events if e["kind"] == "scene_test")
    assert set(test["results"]) == {"Wenna", "Ansel", "Maud"} and test["scene"] == "the-quay"
    twists = [e for e in events if e["kind"] == "twist"]
    assert len(twists) == len(test["interrupted_by"]) + (test["outcome"] == "altered")


def test_wyrd_points_spent_or_awarded_bring_twists_from_the_storys_tables() -> None:
    """Issue 18, point 9: Heroes of the Fall's sign of fate is its Wyrd points."""
    _, console = _session(LANTERN)
    story = find_feat_story(LANTERN, [])
    events = _lines(console, ["scene", "award Ansel 5 for the tide tables"])
    awarded = [e for e in events if e["kind"] == "twist"][-1]
    assert awarded["character"] == "Ansel" and awarded["category"] in ("mundane", "friendly")
    assert awarded["text"] in [t.replace("{character}", "Ansel") for t in story.twists[awarded["category"]]]
    events = _lines(console, ["test Ansel wit 6 eights 1"])
    spent = [e for e in events if e["kind"] == "twist"]
    assert len(spent) == 1 and spent[0]["category"] in ("threat", "eerie", "tie")
    events = _lines(console, ["test Ansel wit 6"])
    assert not [e for e in events if e["kind"] == "twist"]  # no Wyrd, no twist


def test_the_oracles_tension_is_the_heroes_laid_low_and_its_twist_is_the_storys() -> None:
    """Issue 18, point 9: what stands for the scene's strain, and a doubled answer's twist."""
    session, console = _session(LANTERN)
    state = session.state
    assert isinstance(state, GameState) and narrator.tension(state) == 0
    _lines(console, ["scene", "wound Maud 6 a fall", "shock Wenna dice 1 1 1"])
    assert narrator.tension(session.state) == 2
    assert "the heroes laid low at 2" in "\n".join(x.text for x in console.handle("chances").lines)
    twist = KIT.oracle.twist
    assert twist is not None
    found = twist(None, "Ansel Brack", session.state, Dice(), session.follower)
    story = find_feat_story(LANTERN, [])
    assert found[0].kind == "twist" and found[0].category in ("threat", "eerie", "tie")
    assert found[0].text in [t.replace("{character}", "Ansel") for t in story.twists[found[0].category]]


def test_the_new_story_is_listed_and_plays_without_a_refusal() -> None:
    """Issue 18, point 8: a new Heroes of the Fall story, not a drowned bell or a mere."""
    assert PARDON in list_feat_stories([])
    story = find_feat_story(PARDON, [])
    assert 4 <= len(story.scenes) <= 6 and 2 <= len(story.cast) <= 4
    assert all(c.pronouns for c in story.cast) and set(story.twists) >= {"threat", "eerie", "tie"}
    text = " ".join([story.premise, *(s.text for s in story.scenes)]).casefold()
    assert "drowned" not in text and "mere" not in text.split() and "lighthouse" not in text
    assert "lamp-room" not in text


def test_the_spotlight_goes_round_again_once_everyone_has_acted() -> None:
    """Issue 18, point 5: after every hero has acted, a new round begins with the first again."""
    assert narrator.waiting(["A", "B"], ["A", "B", "B"]) == (["A"], 2)
    session, console = _session(LANTERN)
    _lines(console, ["scene", "react Ansel 5 x dice 8 8 8", "test Wenna wit 3", "test Maud wit 3"])
    hints = KIT.follower_hints(session.state, session.follower)
    assert hints[0] == "Next: Wenna (yet to act in round 2: Wenna, Ansel, Maud)."


def test_without_a_story_the_spotlight_follows_everyone_made() -> None:
    """Issue 18, point 5: co-op play with characters of the table's own."""
    session = Session.new(None, seed=2, ruleset="feat")
    console = Console(session, None)
    _lines(console, ["pc add Ida vigour=6 mettle=6 wit=5 glamour=4 spirit=4",
                     "pc add Bo vigour=5 mettle=5 wit=5 glamour=5 spirit=5", "test Ida wit 5"])
    assert KIT.follower_hints(session.state, session.follower) == ["Next: Bo (yet to act this round: Bo)."]
    assert "\n".join(x.text for x in console.handle("turn").lines).startswith("Bo's move.")


def test_a_story_saved_before_stakes_resumes_as_it_was_played(tmp_path: Path) -> None:
    """Old saves keep replaying exactly: the story saved with them has no stakes, so its ways stay open."""
    path = tmp_path / "old.wyrd"
    path.write_bytes((Path(__file__).resolve().parent / "fixtures" / "saves" / "feat_story.wyrd").read_bytes())
    session = Session.resume(path)
    try:
        progress = session.follower
        assert progress.story is not None and not any(s.stakes for s in progress.story.scenes)
        assert progress.played == ["the-quay", "the-causeway", "the-sea-stair", "the-lamp-room"] and progress.ended
        assert progress.story.open_exits("the-causeway", {}) == ["the-sea-stair", "the-lamp-room"]
        console = Console(session, None)
        assert console.handle("turn").lines[0].text == "The Lantern at Gull Reach has ended: it is nobody's move."
    finally:
        session.close()


# -- the oracle's answer, told in Heroes of the Fall's own voice ----------------------------

# README, "Stories, twists and the oracle": d100 against the odds, "yes, and" at or under a fifth of
# them, "no, but" in the top fifth of the rest, and a double at most the tension + 1 brings a twist.
# At even odds and no one laid low: these faces give each answer, and 11 a doubled yes.
ANSWER_FACES = {"yes_and": 5, "yes": 30, "no": 70, "no_but": 95}
_YES = re.compile(r"\b(yes|it is so|so it is)\b", re.IGNORECASE)
_NO = re.compile(r"\b(no|not)\b", re.IGNORECASE)
_MORE = {"yes_and": re.compile(r"\b(and|more|besides)\b", re.IGNORECASE),
         "no_but": re.compile(r"\b(but|still|though)\b", re.IGNORECASE)}
_DICE = re.compile(r"\d|\b(dice|die|roll\w*|odds|chances?|percent|twists?)\b", re.IGNORECASE)


class OracleFace:
    """The oracle's die shows ``face``; every other die of the story's own shows 1."""

    trusted = True

    def __init__(self, face: int) -> None:
        self.face = face

    def faces(self, n: int, sides: int, purpose: str) -> list[int]:
        return [self.face if purpose == "question oracle" else 1] * n

    def get_state(self) -> object:
        return self.face

    def set_state(self, state: object) -> None:
        self.face = int(state)  # type: ignore[call-overload]


def _oracle_shows(monkeypatch: pytest.MonkeyPatch, session: Session, face: int) -> None:
    """The story's own dice (the oracle's, never the rules') show ``face`` for the question."""
    monkeypatch.setattr(session, "context", lambda seq: PlayContext(
        state=session.state, dirs=session.dirs, dice=Dice(OracleFace(face)), follower=session.follower))


def _rows(answer: str, who: str = "Ansel") -> list[str]:
    return [fill(r.text, {"character": who}) for r in bundled_tables()[f"feat/answer/{answer}"].rows]


@pytest.mark.parametrize("answer", sorted(ANSWER_FACES))
def test_every_answer_row_reads_as_its_answer_and_speaks_of_no_dice(answer: str) -> None:
    """README: offline, random tables narrate every moment; an answer's row never reads as the other answer."""
    rows = [r.text for r in bundled_tables()[f"feat/answer/{answer}"].rows]
    assert len(rows) >= 6
    for row in rows:
        assert not _DICE.search(row), row
        if answer.startswith("yes"):
            assert _YES.search(row) and not _NO.search(row), row
        else:
            assert _NO.search(row) and not re.search(r"\byes\b", row, re.IGNORECASE), row
        if answer in _MORE:
            assert _MORE[answer].search(row), row


@pytest.mark.parametrize("answer", sorted(ANSWER_FACES))
def test_an_ask_gets_one_line_of_the_rulesets_own_prose_for_each_answer(
        answer: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """README: `ask` answers yes, yes-and, no or no-but, and the tables narrate every moment in a line or two."""
    session, console = _session(LANTERN)
    _lines(console, ["scene"])
    _oracle_shows(monkeypatch, session, ANSWER_FACES[answer])
    events = _lines(console, ["ask is the lamp-room door locked by Ansel"])
    assert [e["kind"] for e in events] == ["answer", "narration"]
    asked, told = events
    assert asked["answer"] == answer and asked["asker"] == "Ansel Brack" and not asked["twist"]
    assert told["source"] == "table" and told["moment"] == "answer"
    assert told["text"] in _rows(answer)


def test_the_answer_is_asked_of_a_model_with_the_question_and_the_answer_settled() -> None:
    """README, narration by a language model: it is asked only to tell the settled facts, in its own prompt."""
    session, _ = _session(LANTERN)
    asked = AnswerGiven(question="is the lamp-room door locked", asker="Ansel Brack", odds="even", chance=50,
                        tension=0, roll=95, answer="no_but", twist=False)
    told = NARRATION.tell(Command(session.state, session.state, [asked], Dice(), session.follower))
    (request,) = told.moments
    assert request.moment == FeatMoment.ANSWER and request.detail == "no_but" and request.subject == "Ansel"
    assert request.told_by == ["feat/answer/no_but"] and not request.harm and not request.death
    assert request.said == "The answer to 'is the lamp-room door locked', asked by Ansel, is no, but something else."
    assert prompt_set().for_moment(FeatMoment.ANSWER).id == "feat/answer"
    nobody = asked.model_copy(update={"asker": None, "answer": "yes"})
    (request,) = NARRATION.tell(Command(session.state, session.state, [nobody], Dice(), session.follower)).moments
    assert request.said == "The answer to 'is the lamp-room door locked' is yes." and request.subject is None


def test_the_answer_is_saved_with_the_command_and_read_again_on_resume(tmp_path: Path) -> None:
    """README: the narration is saved with the game, so a replay, a log or an export reads the same words."""
    path = tmp_path / "asked.wyrd"
    session = Session.new(path, seed=3, ruleset="feat", story=LANTERN)
    console = Console(session, path)
    _lines(console, ["scene"])
    events = _lines(console, ["ask is anyone watching by Maud"])
    told = next(e for e in events if e["kind"] == "narration")
    assert told["text"] in _rows(next(e for e in events if e["kind"] == "answer")["answer"], "Maud")
    session.close()
    resumed = Session.resume(path)
    try:
        saved = played(resumed)[-1]
        assert [(e["text"], e["moment"]) for e in saved if e["kind"] == "narration"] == [(told["text"], "answer")]
        log = "\n".join(x.text for x in Console(resumed, path).handle("log").lines)
        assert told["text"] in log
    finally:
        resumed.close()


def test_a_doubled_answer_still_brings_its_twist_and_the_answer_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """README's Heroes of the Fall notes: a doubled answer of the oracle brings the asker a twist."""
    session, console = _session(LANTERN)
    _lines(console, ["scene"])
    _oracle_shows(monkeypatch, session, 11)
    events = _lines(console, ["ask is the lamp-room door locked by Ansel"])
    assert [e["kind"] for e in events] == ["answer", "twist", "narration"]
    asked, twist, told = events
    assert asked["answer"] == "yes" and asked["twist"]
    assert twist["character"] == "Ansel" and twist["category"] in ("threat", "eerie", "tie")
    assert told["moment"] == "answer" and told["text"] in _rows("yes")
