"""Wolden's narrator: scenes framed, stage rules, exits, the dice steering the story, odds before the dice,
the spotlight, fair dice, and the oracle's strain and criticals as fate (issue 18, points 1-6 and 9).

The Drowned Bell is played with forced dice (typed faces: `roll 12` succeeds with an ability of 1 or
more, `roll 1` fails), so the paths it takes are known; the looks are read through the console.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import wyrd.rules.wolden as W
from wyrd.oracle.events import field
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.wolden.enemies import plan_lines
from wyrd.play.kits.wolden.fate import critical_twists, oracle_twist, scene_test
from wyrd.play.kits.wolden.foresight import tension
from wyrd.play.kits.wolden.kit import KIT
from wyrd.play.kits.wolden.words import words
from wyrd.rules.dice import Dice, ScriptedSource, SeededSource
from wyrd.rules.wolden.events import CheckRolled
from wyrd.stories.formats import format_for
from wyrd.stories.loader import BUNDLED
from wyrd.stories.wolden import ScenarioProgress, find_scenario

BELL = "the-drowned-bell"


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


class Table:
    """A console over a new Wolden game, remembering every event."""

    def __init__(self, seed: int = 1) -> None:
        self.session = Session.new(None, seed=seed, ruleset="wolden")
        self.console = Console(self.session, None)
        self.events: list[dict[str, Any]] = []

    def do(self, line: str) -> list[str]:
        out = self.console.handle(line)
        self.events += [dict(e.event.model_dump(mode="json")) if hasattr(e, "event") else dict(e)
                        for e in out.events]
        return [line.text for line in out.lines]

    @property
    def game(self) -> W.GameState:
        assert isinstance(self.session.state, W.GameState)
        return self.session.state

    @property
    def place(self) -> ScenarioProgress:
        assert isinstance(self.session.follower, ScenarioProgress)
        return self.session.follower


def _best(char: W.Character) -> str:
    return max(W.Ability, key=char.current).value


def play_forced(face: int, seed: int = 1) -> Table:
    """The Drowned Bell from the gate to its ending, every d12 typed as ``face`` (at most 400 lines)."""
    table = Table(seed)
    table.do(f"story {BELL}")
    table.do("pc take all")
    for _ in range(400):
        if table.place.ended:
            return table
        game = table.game
        found = game.encounter
        if found is None:
            table.do("scene")
            continue
        waiting = [n for n in found.rounds.participants if n not in found.rounds.acted and not game.characters[n].out]
        who = waiting[0]
        target = ""
        if isinstance(found, W.Fight):
            target = f" vs {found.standing[0].id}"
        table.do(f"check '{who}' {_best(game.characters[who])}{target}")
        pending = table.game.pending
        assert pending is not None, table.events[-1]
        table.do("roll " + " ".join([str(face)] * pending.dice))
    raise AssertionError("the story did not end")


@pytest.fixture(scope="module")
def won() -> Table:
    return play_forced(12)


@pytest.fixture(scope="module")
def lost() -> Table:
    return play_forced(1)


# -- point 3: the dice steer the story ---------------------------------------------------------


def test_forced_success_and_forced_failure_take_different_paths(won: Table, lost: Table) -> None:
    """Issue 18, point 3: the bundled story branches on what was rolled (scenes and ending differ)."""
    assert won.place.played == ["wolden-gate", "the-causeway", "saltmere", "the-sextons-stair"]
    assert lost.place.played == ["wolden-gate", "the-causeway", "marsh-lights", "the-chapel"]
    end_won = next(e for e in won.events if e["kind"] == "scenario_ended")
    end_lost = next(e for e in lost.events if e["kind"] == "scenario_ended")
    assert any("The bell is silent" in t for t in end_won["lines"])
    assert not any("The bell is silent" in t for t in end_lost["lines"])
    assert any("rings again" in t for t in end_lost["lines"])
    assert end_won["way"] != end_lost["way"]


def test_the_way_taken_says_what_the_outcome_changed(won: Table, lost: Table) -> None:
    """Issue 18, point 2: the scene that opens says how the last outcome brought the party there."""
    saltmere = next(e for e in won.events if e["kind"] == "scene_begun" and e["id"] == "saltmere")
    assert saltmere["way"].startswith("The causeway is crossed")
    lights = next(e for e in lost.events if e["kind"] == "scene_begun" and e["id"] == "marsh-lights")
    assert lights["way"].startswith("The causeway beat you")


def _scenario(tmp_path: Path, change: dict[str, Any]) -> Path:
    data = yaml.safe_load((BUNDLED / "wolden" / f"{BELL}.yaml").read_text(encoding="utf-8"))
    scenes = data["scenes"]
    for scene in scenes:
        if scene["id"] == change["scene"]:
            scene["exits"] = change["exits"]
    (tmp_path / "wolden").mkdir(exist_ok=True)
    path = tmp_path / "wolden" / "bell.yaml"
    path.write_text(yaml.safe_dump(data), encoding="utf-8")
    return path


@pytest.mark.parametrize(("change", "words"), [
    # the causeway lost leads nowhere
    ({"scene": "the-causeway", "exits": [{"to": "saltmere", "encounter": "the-causeway", "outcomes": ["done"]}]},
     "comes out lost, no exit opens: that outcome leads nowhere"),
    # a fight's outcome on a montage: the branch can never hold
    ({"scene": "the-causeway", "exits": [{"to": "saltmere", "encounter": "the-causeway",
                                          "outcomes": ["done", "lost", "abandoned", "won"]}]},
     "never comes out won"),
    # an encounter met on no way to the scene
    ({"scene": "the-causeway", "exits": [{"to": "saltmere"},
                                         {"to": "the-chapel", "encounter": "bell-tower", "outcomes": ["won"]}]},
     "bell-tower is met on no way to this scene"),
    ({"scene": "the-causeway", "exits": [{"to": "nowhere"}]}, "exit to 'nowhere'"),
])
def test_the_linter_finds_a_branch_that_leads_nowhere(change: dict[str, Any], words: str, tmp_path: Path) -> None:
    """Issue 18, point 3: `wyrd check` reports an outcome that leads nowhere and a condition that never holds."""
    problems = format_for("wolden").lint(_scenario(tmp_path, change))
    assert any(words in p.message for p in problems), [p.message for p in problems]


def test_the_bundled_story_lints_clean_and_every_scene_is_reached() -> None:
    """Issue 18, point 3: every outcome of every encounter of The Drowned Bell leads somewhere."""
    assert format_for("wolden").lint(BUNDLED / "wolden" / f"{BELL}.yaml") == []
    story = find_scenario(BELL, [BUNDLED])
    assert story.twists and all(story.twists[c] for c in ("threat", "eerie", "tie", "mundane", "friendly"))


# -- points 1 and 2: frame, rules, exits ------------------------------------------------------


def test_a_scene_is_framed_when_it_opens_and_look_shows_it_again() -> None:
    """Issue 18, point 1: title, place, text, who is present, what stands in the way and what failing costs."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    opened = table.do("scene")
    assert any(line.startswith("The gate closes behind you, and the tide road runs east into the fog. Scene 2: "
                               "The causeway, the tide road across the Saltmere flats.") for line in opened)
    assert "Present: Wenna Ashgrove, Corin Tallow and Ysolde Marrow." in opened
    assert any(line.startswith("In the way: The Saltmere causeway, a travel montage, rating 6") for line in opened)
    assert any("1d4 damage to the ability rolled" in line for line in opened)
    assert any(line.startswith("Losing it: Night falls on the flats") for line in opened)
    look = table.do("look")
    assert look[0] == "Scene 2: The causeway, the tide road across the Saltmere flats."
    assert any(line.startswith("Failing a roll costs:") for line in look)
    assert any(line.startswith("The situation: ") for line in look)


def test_rules_lists_what_stands_in_the_scene() -> None:
    """Issue 18, point 1: the settled place's downtime, the encounter's own rules, the story's rule text."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    gate = table.do("rules")
    assert any(line.startswith("Settled place (downtime)") for line in gate)
    table.do("scene")
    road = table.do("rules")
    assert "Not a settled place: no downtime can be taken here." in road
    assert any(line.startswith("Danger 1d4:") for line in road)
    assert any(line.startswith("The montage: each roll moves the rating") for line in road)


def test_a_story_rule_is_listed_in_its_scene(lost: Table) -> None:
    """Issue 18, point 1: a scene's own rule (Low tide at the chapel) is shown by `rules` there."""
    story = find_scenario(BELL, [BUNDLED])
    place = ScenarioProgress(story, ["wolden-gate", "the-causeway", "marsh-lights", "the-chapel"])
    lines = KIT.stage_rules(W.GameState(), place)
    assert any(line.startswith("Low tide: The tower stands clear only until the tide turns") for line in lines)


def test_exits_say_what_opens_each_way_and_which_are_open() -> None:
    """Issue 18, point 2: the ways on, what opens each, which are open now; and `scene TO` is refused if shut."""
    table = play_forced(12)
    story = find_scenario(BELL, [BUNDLED])
    place = ScenarioProgress(story, ["wolden-gate", "the-causeway"], {"the-causeway": "done"})
    lines = KIT.exits(table.game.model_copy(update={"encounter": None, "pending": None}), place)
    assert lines[0] == "Ways on from The causeway:"
    assert "  Saltmere: if The Saltmere causeway is done [open]" in lines
    assert "  Among the marsh lights: if The Saltmere causeway is lost or abandoned [shut]" in lines
    assert ("The Saltmere causeway is done: the way to Saltmere is open; the way to Among the marsh lights "
            "is shut.") in lines
    assert words("exit", W.GameState(), place) == {"saltmere": "Saltmere, open",
                                                   "marsh-lights": "Among the marsh lights, shut"}


def test_scene_to_a_shut_way_is_refused_and_the_hint_names_the_way_on() -> None:
    """Issue 18, point 2: after a scene's business, the hint says where `scene` goes; a shut way is refused."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    table.do("scene")
    early = table.do("scene saltmere")
    assert early[0] == ("Refused: the way to Saltmere is not open yet: it opens on how The Saltmere causeway "
                        "comes out")
    for check in ("wenna agility", "corin might", "ysolde graces"):
        table.do(f"check {check}")
        out = table.do("roll 12")
    assert ("The Saltmere causeway is done: the way to Saltmere is open; the way to Among the marsh lights is "
            "shut. `scene` goes on to Saltmere.") in out
    refused = table.do("scene marsh")
    assert refused[0].startswith("Refused: the way to Among the marsh lights is shut")
    assert table.place.played == ["wolden-gate", "the-causeway"]


# -- point 4: odds before the dice --------------------------------------------------------------


def test_odds_check_shows_percentages_before_any_die() -> None:
    """Issue 18, point 4: `odds check ...` gives the chances as percentages, fractions after, and rolls nothing."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    table.do("scene")
    before = table.game.model_dump()
    lines = table.do("odds check wenna agility gift night-eyes")
    assert lines[0] == "Before the dice (nothing is rolled):"
    assert "critical failure 2.1% (1/48), failure 4.2% (1/24), partial 50.0% (1/2)" in lines[1]
    assert "12 or less deals 1d4 to Wenna Ashgrove." in lines[2]
    assert table.game.model_dump() == before and table.game.pending is None


def test_odds_of_an_encounter_before_it_begins() -> None:
    """Issue 18, point 4: `odds scene` weighs the next scene's encounter for each character standing."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    lines = table.do("odds scene")
    assert lines[0].startswith("The Saltmere causeway would be a travel montage of rating 6; failures and "
                               "partials deal 1d4.")
    assert "  Wenna Ashgrove, Agility 3 on 1d12: success 25.0% (1/4), partial 50.0% (1/2), failure 25.0% (1/4)" \
        in lines[1]


# -- points 5 and 6: spotlight, nobody out named as acting -------------------------------------


def test_turn_says_whose_move_and_who_has_not_acted() -> None:
    """Issue 18, point 5: in a round, whose move and who is still to act; in a scene, who has not acted."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    assert table.do("turn")[0] == ("Wenna Ashgrove's move; not yet acted this scene: Wenna Ashgrove, Corin Tallow "
                                   "and Ysolde Marrow.")
    table.do("downtime wenna rest")
    assert table.do("turn")[0].startswith("Corin Tallow's move; not yet acted this scene: Corin Tallow and")
    table.do("scene")
    table.do("check corin might")
    assert table.do("turn")[0] == "Corin Tallow's roll is open: `roll` (or `cancel`)."
    table.do("roll 5")
    assert table.do("turn")[0] == ("Round 1 of The Saltmere causeway: Wenna Ashgrove's move; still to act: "
                                   "Wenna Ashgrove and Ysolde Marrow; acted: Corin Tallow.")


def test_nobody_taken_out_is_named_as_able_to_act() -> None:
    """Issue 18, point 6: spotlight, the oracle's asker and enemy plans pass over one taken out."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("fight wolf:2")
    game = table.game
    wenna = game.characters["Wenna Ashgrove"].model_copy(update={"out": True})
    fight = game.model_copy(update={"characters": {**game.characters, "Wenna Ashgrove": wenna}})
    lines = KIT.spotlight(fight, table.place)
    assert "Wenna" not in lines[0] and lines[0].startswith("Round 1 of fight: Corin Tallow's move")
    assert lines[-1] == "Taken out, and not acting until a downtime: Wenna Ashgrove."
    assert plan_lines(fight, {"wolf": "Wenna Ashgrove"}) == []
    assert plan_lines(game, {"wolf": "Wenna Ashgrove"})[0].startswith("This round wolf goes for Wenna Ashgrove")
    assert KIT.oracle.present(fight)[0] == "Corin Tallow"


def test_the_round_text_names_nobody_as_able() -> None:
    """Issue 18, point 6: a round's line no longer lists participants as able (some may be out)."""
    line = KIT.texts["round_started"]({"encounter": "Wolves", "number": 2, "participants": ["Ada"]})
    assert line == "Round 2 of Wolves begins."


# -- point 9: the oracle's strain, criticals as fate, the scene test ---------------------------


def test_tension_counts_enemies_standing_wounds_and_those_out(lost: Table) -> None:
    """Issue 18, point 9: the oracle's chaos in Wolden is the scene's strain."""
    game = lost.game
    wounds = sum(c.wounds for c in game.characters.values() if not c.out)
    out = sum(c.out for c in game.characters.values())
    assert tension(game) == min(8, wounds + out)
    assert tension(W.GameState()) == 0
    lines = Table().do("chances")
    assert "the scene's strain" in lines[0]


def _rolled(result: W.Result, highest: int) -> CheckRolled:
    return CheckRolled(lead="Ada", helpers=[], ability=W.Ability.MIGHT, faces=[highest, highest], highest=highest,
                       score=3, total=highest + 3, pair=True, result=result, critical=True, against=None)


def test_criticals_bring_twists_the_story_tables_first() -> None:
    """Issue 18, point 9: a critical failure brings a threat, eerie twist or tie; a critical success a friendly one."""
    story = find_scenario(BELL, [BUNDLED])
    place = ScenarioProgress(story)
    bad = critical_twists([_rolled(W.Result.CRITICAL_FAILURE, 2)], Dice(SeededSource(3)), place)
    good = critical_twists([_rolled(W.Result.CRITICAL_SUCCESS, 12)], Dice(SeededSource(3)), place)
    assert len(bad) == 1 and field(bad[0], "category") in ("threat", "eerie", "tie")
    assert len(good) == 1 and field(good[0], "category") == "friendly"
    assert field(good[0], "text") in [t.replace("{character}", "Ada") for t in story.twists["friendly"]]
    plain = _rolled(W.Result.SUCCESS, 12).model_copy(update={"critical": False})
    assert critical_twists([plain], Dice(SeededSource(3)), place) == []


def test_the_scene_test_reads_the_narrations_own_d12s() -> None:
    """Issue 18, point 9: a pair interrupts the scene, a highest of 3 or less alters it, else it goes as expected."""
    place = ScenarioProgress(find_scenario(BELL, [BUNDLED]))
    pair = scene_test("s", ["Ada"], Dice(ScriptedSource([7, 7, 1, 1, 1, 1])), place)
    assert field(pair[0], "outcome") == "interrupted" and field(pair[1], "category") in ("threat", "eerie", "tie")
    low = scene_test("s", ["Ada"], Dice(ScriptedSource([3, 1, 1, 1])), place)
    assert field(low[0], "outcome") == "altered" and field(low[1], "category") == "mundane"
    calm = scene_test("s", ["Ada"], Dice(ScriptedSource([9, 4])), place)
    assert [field(e, "outcome") for e in calm] == ["expected"]
    assert scene_test("s", [], Dice(ScriptedSource([])), place) == []


def test_every_scene_that_opens_is_tested(won: Table) -> None:
    """Issue 18, point 9: one scene test per scene begun, saved with the command."""
    begun = [e["id"] for e in won.events if e["kind"] == "scene_begun"]
    tested = [e["scene"] for e in won.events if e["kind"] == "scene_test"]
    assert tested == begun


def test_a_doubled_answer_twists_as_a_critical_would() -> None:
    """Issue 18, point 9: a no-side double as a critical failure, a yes-side one as a critical success."""
    from wyrd.oracle.events import AnswerGiven

    place = ScenarioProgress(find_scenario(BELL, [BUNDLED]))
    yes = AnswerGiven(question="q", asker="Ada", odds="even", chance=50, tension=0, roll=11, answer="yes_and",
                      twist=True)
    no = yes.model_copy(update={"answer": "no", "roll": 88})
    assert field(oracle_twist(yes, "Ada", None, Dice(SeededSource(1)), place)[0], "category") == "friendly"
    assert field(oracle_twist(no, "Ada", None, Dice(SeededSource(1)), place)[0], "category") in (
        "threat", "eerie", "tie")


def test_a_tie_for_weakest_shows_how_it_was_broken() -> None:
    """Issue 18, point 6: an enemy's tie between characters says who else stood level and how it went."""
    from wyrd.play.kits.wolden.enemies import enemy_actions
    from wyrd.rules.wolden.events import RoundStarted
    from wyrd.stories.wolden import EnemyAction, EnemySpec

    table = Table()
    table.do("pc add Ada lantern-wardens might=3 agility=2 mind=1 graces=0 gifts=steady-flame,roadwise")
    table.do("pc add Bo brine-choir might=0 agility=1 mind=2 graces=3")
    table.do("fight wolf:2")
    story = find_scenario(BELL, [BUNDLED]).model_copy(update={"enemies": [EnemySpec(
        id="wolf", name="wolf", harm=2, actions=[EnemyAction(text="{enemy} to {character}", target="weakest")])]})
    began = [RoundStarted(encounter="fight", type=W.EncounterKind.FIGHT, number=1, participants=["Ada", "Bo"])]
    acted = enemy_actions(began, table.game, story, Dice(SeededSource(1)))
    assert field(acted[0], "target") == "Ada" and field(acted[0], "tied") == ["Bo"]
    line = KIT.texts["enemy_acted"](acted[0].model_dump(mode="json"))
    assert line == "The wolf to Ada [It goes for Ada, tied with Bo and first of them in the party's order.]"


def test_event_lines_show_no_bare_ids() -> None:
    """Issue 18, point 7: encounters and enemies read as words, never as their ids."""
    texts = KIT.texts
    assert texts["enemy_harmed"]({"enemy": "drowned-ringer-2", "n": 1, "taken": 1, "harm": 2, "defeated": False}) \
        == "Drowned ringer 2 takes 1 harm (1/2)."
    ended = texts["fight_ended"]({"id": "bell-tower", "outcome": "won", "rounds": 2})
    assert ended == "The fight ends: won, in round 2."
    assert "-" not in texts["round_started"]({"encounter": "the-causeway", "number": 1, "participants": []})


def test_look_names_the_storys_ideas_for_an_extended_challenge(won: Table) -> None:
    """Issue 18, point 1: what the story says of the challenge in the way (its approaches) is shown by `look`."""
    story = find_scenario(BELL, [BUNDLED])
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("extended saltmere-trust")
    place = ScenarioProgress(story, ["wolden-gate", "the-causeway", "saltmere"])
    lines = KIT.frame(table.game, place)
    assert any(line.startswith("Ways to tackle it (ideas, never required): Sit with the reeve") for line in lines)


def test_the_hint_after_a_command_says_whose_move_it_is() -> None:
    """Issue 18, point 5: after a command in a round, one line says who is next (while two or more wait)."""
    table = Table()
    table.do(f"story {BELL}")
    table.do("pc take all")
    table.do("scene")
    out = table.do("scene")
    assert ("Round 1 of The Saltmere causeway: Wenna Ashgrove's move; still to act, Wenna Ashgrove, Corin Tallow, "
            "Ysolde Marrow (`check WHO ABILITY`, or `pass WHO`; any order).") in out
    table.do("check wenna agility")
    out = table.do("roll 12")
    assert any(line.startswith("Round 1 of The Saltmere causeway: Corin Tallow's move;") for line in out)
    table.do("check corin might")
    out = table.do("roll 12")
    assert any(line.startswith("Round 1 of The Saltmere causeway: still to act, Ysolde Marrow") for line in out)
