"""The narrator's job in Thaeborn (issue 18): scenes framed, ways on shown, the dice steering the story,
odds before the dice, the spotlight, fair ties, and the oracle, twists and scene tests by Thaeborn's signs.

Every test here could fail on the code before issue 18: the looks answered nothing for Thaeborn, a
scenario could not branch, the odds printed as bare fractions with the result, and no twist came of a lot.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.rules.dice import Dice
from wyrd.rules.lots import Discipline, GameState
from wyrd.stories.check import check_file
from wyrd.stories.loader import BUNDLED
from wyrd.stories.lots import ScenarioPlay, find_scenario, scenario_files

KIT = hooks_for("lots")
STORIES = sorted(p.stem for p in scenario_files([Path(BUNDLED)]))
FORCE = {True: "roll 4 4", False: "roll 1 1"}  # a CRIT lifts a failure, a FUMBLE sinks a success (seed 004)


class Table:
    """A game at the console, as a table plays it: lines in, lines and events out."""

    def __init__(self, tmp: Path, seed: int = 5) -> None:
        self.session = Session.new(tmp / "game.wyrd", seed=seed, ruleset="lots")
        self.console = Console(self.session, tmp / "game.wyrd")

    def say(self, line: str) -> list[str]:
        return [ln.text for ln in self.console.handle(line).lines]

    def events(self, line: str) -> list[dict[str, Any]]:
        return [e.plain() for e in self.console.handle(line).events]

    @property
    def state(self) -> GameState:
        state = self.session.state
        assert isinstance(state, GameState)
        return state

    @property
    def play(self) -> ScenarioPlay:
        follower = self.session.follower
        assert isinstance(follower, ScenarioPlay)
        return follower


def _story(tmp: Path, ident: str = "harrow-mere", seed: int = 5) -> Table:
    table = Table(tmp, seed)
    table.say(f"story {ident}")
    table.say("pc take all")
    return table


def _best(table: Table, discipline: str) -> str:
    able = [c for c in table.state.characters.values() if not c.npc and not c.condition.incapacitated]
    return max(able, key=lambda c: c.discipline(Discipline(discipline))).name


def play_forced(tmp: Path, ident: str, win: bool) -> tuple[list[str], str, list[str]]:
    """Play a bundled story with every check forced one way and every fight won or walked away from.

    Returns the scenes opened, the ending's text, and every scene text told."""
    table = _story(tmp, ident)
    opened: list[str] = []
    texts: list[str] = []
    ending = ""
    for _ in range(20):
        events = table.events("scene")
        for e in events:
            if e["kind"] == "scene_opened":
                opened.append(e["scene"])
                texts.append(e["text"])
            if e["kind"] == "story_closed":
                ending = e["text"]
        if ending:
            break
        scene = table.play.current
        assert scene is not None
        for call in scene.checks:
            who = _best(table, call.discipline.value)
            effort = f" effort={call.effort}" if call.effort else ""
            refused = [e for e in table.events(f'check "{who}" {call.discipline.value} vs {call.difficulty}'
                                               f'{effort} "{call.purpose}" {FORCE[win]}') if e["kind"] == "refused"]
            assert not refused, refused
        if scene.fight is not None and win:
            npc = scene.fight.npc
            for _ in range(12):
                if table.state.characters[npc].condition.incapacitated:
                    break
                who = _best(table, "prowess")
                table.events(f'attack "{who}" "{npc}" effort=4 roll 4 4')
            assert table.state.characters[npc].condition.incapacitated
    assert ending, f"{ident} did not reach its ending"
    return opened, ending, texts


@pytest.mark.parametrize("ident", STORIES)
def test_forced_success_and_forced_failure_take_different_paths(ident: str, tmp_path: Path) -> None:
    """Issue 18, point 3: every bundled Thaeborn story branches on what was rolled: played with every
    check a CRIT and every fight won, then with every check a FUMBLE and every foe left standing, the
    scenes, their texts and the ending differ."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    won = play_forced(tmp_path / "a", ident, True)
    lost = play_forced(tmp_path / "b", ident, False)
    assert won[0] != lost[0], "the same scenes either way"
    assert won[1] != lost[1], "the same ending either way"
    assert set(won[2]) != set(lost[2])


def test_harrow_mere_never_says_the_ringer_is_stilled_while_he_stands(tmp_path: Path) -> None:
    """Issue 18, point 3 (the Harrow Mere report): the next scene opened "With the ringer stilled..."
    while the ringer stood. Walking away from Corve now leads to the belfry, and the Silencing says so."""
    opened, ending, texts = play_forced(tmp_path, "harrow-mere", False)
    assert "belfry" in opened and "reeds" in opened
    silence = texts[opened.index("silence")]
    assert "stilled" not in silence
    assert "not silenced" in ending


def test_the_ringer_stilled_only_when_he_is_down(tmp_path: Path) -> None:
    """Issue 18, point 3: with Corve down the Silencing opens "With the ringer stilled"; the ending is the
    silent bell."""
    opened, ending, texts = play_forced(tmp_path, "harrow-mere", True)
    assert opened == ["causeway", "chapel", "ringer", "silence"]
    assert texts[-1].startswith("With the ringer stilled")
    assert ending.startswith("The bell is silent.")


def test_a_scene_is_framed_when_it_opens_and_by_look(tmp_path: Path) -> None:
    """Issue 18, point 1: the scene opens with where it is, who is present, what stands in the way with
    the best chance at it and what failing costs; `look` shows the title and text again."""
    table = _story(tmp_path)
    shown = table.say("scene")
    assert "Here: on the old causeway across Harrow Mere." in shown
    assert "Present: Ysolde, Tam." in shown
    way = next(line for line in shown if "Survival vs 5" in line)
    assert "best: Ysolde, Survival 6, success 88%" in way
    assert "failing costs: the stones are lost in the dusk" in way
    look = table.say("look")
    assert look[0] == "Scene 1: The Sunken Causeway, on the old causeway across Harrow Mere."
    assert look[1].startswith("The old causeway to the chapel")
    assert "Standing rules here: The Cold Water (`rules` reads them)." in look


def test_rules_shows_the_text_of_every_standing_rule_in_force(tmp_path: Path) -> None:
    """Issue 18, point 1: `rules` gives each rule's text, the story's own always and the scene's only
    while it lasts (the Bell's Voice, a -1 to checks, is listed in the Silencing and nowhere before)."""
    table = _story(tmp_path)
    assert table.say("rules") == [
        "The Cold Water: Anyone who falls or is thrown into the mere takes 2 Pain from the cold "
        '(pain WHO 2 "the cold water") and Tests their Mettle.']
    play_to = ["scene", 'check ysolde survival vs 5 "find the firm stones before the light goes" roll 4 4',
               "scene", 'check tam ingenuity vs 6 "draw the clapper pin without waking the bell" roll 4 4', "scene"]
    for line in play_to:
        table.say(line)
    ringer = table.say("rules")
    assert any(r.startswith("The Slick Steps: ") for r in ringer)
    assert not any("Bell's Voice" in r for r in ringer)
    table.say("scene")  # Corve stands: the belfry
    table.say('check tam prowess vs 5 "cut the rope before the third peal" roll 4 4')
    table.say("scene")
    silence = table.say("rules")
    assert [r.split(":")[0] for r in silence] == ["The Cold Water", "The Bell's Voice"]
    assert "-1" in silence[1]


def test_exits_show_what_opens_each_way_and_the_outcome_changes_them(tmp_path: Path) -> None:
    """Issue 18, point 2: the ways on, what opens each, which are open; after the check, what it
    changed; completion of `scene` offers the open way only."""
    table = _story(tmp_path)
    table.say("scene")
    before = table.say("exits")
    assert before[0] == "Ways on from The Sunken Causeway:"
    assert before[1] == ("  - to The Drowned Chapel, along the causeway, dry-shod (`scene chapel`): opens if the "
                         "check to find the firm stones before the light goes succeeds (not settled yet)")
    assert any("a check not made counts as failed" in line for line in before)
    after = table.say('check ysolde survival vs 5 "find the firm stones before the light goes" roll 1 1')
    assert "The stones are lost in the dusk: the only way on now is through the reeds." in after
    assert any(line.startswith("This scene's business is done: `scene` goes on to The Long Way") for line in after)
    now = table.say("exits")
    assert any("(`scene chapel`): shut (it opens only if" in line for line in now)
    opened = ": open now: the check to find the firm stones before the light goes failed"
    assert any("(`scene reeds`)" + opened in line for line in now)
    offered = KIT.words("scene", table.state, table.play)
    assert offered == {"reeds": "open: The Long Way Through the Reeds"}
    refused = table.say("scene chapel")
    assert refused[0].startswith("Refused:") and "reeds" in refused[0]
    assert table.events("scene")[-1]["kind"] != "refused"
    assert table.play.current is not None and table.play.current.id == "reeds"


def test_odds_come_before_the_dice_as_percentages_with_the_price(tmp_path: Path) -> None:
    """Issue 18, point 4: `odds check ...` gives the chances as percentages (the fraction after, in
    brackets) before anything is cast, with what failing costs and the standing rules in force."""
    table = _story(tmp_path)
    table.say("scene")
    shown = table.say('odds check ysolde survival vs 5 "find the firm stones before the light goes"')
    assert shown[0] == ("Ysolde checks Survival 6 vs 5: success 88% (7/8), failure 6% (1/16), "
                        "a WASTE (effort lost) 6% (1/16).")
    assert shown[1].startswith("Fate: a WEAL 19% (3/16) (heightened, a CRIT: 6% (1/16))")
    assert "Failing costs: the stones are lost in the dusk, and the only way on is the long way through the reeds" \
        in shown
    assert any(line.startswith("In force: The Cold Water (") for line in shown)
    assert table.session.save is not None and not [e for e in table.session.save.events_since(0)
                                                    if e.kind == "check_cast"]
    for line in shown:
        assert not re.search(r"(?<![(\d])\d+/\d+(?!\))", line), f"a bare fraction: {line}"


def test_every_odds_preview_reads_in_percentages(tmp_path: Path) -> None:
    """Issue 18, point 4: attack, defend, lots, pain, again, retell: each weighed before its dice."""
    table = _story(tmp_path)
    table.say("scene")
    table.say("pc add Corve prowess=4 willpower=6 npc")
    cases = {
        "odds attack tam corve effort=3": "Tam attacks Corve, Offense 5 vs Defense 4 + 1 (defended): success 88%",
        "odds defend ysolde against corve effort=3": "Ysolde defends against Corve, Defense 4 vs Offense 4",
        'odds lots "whatever"': "Lots for the world: a WEAL (WEAL die 4) 25% (1/4)",
        "odds pain tam 4": "Tam at Pain 4 Tests their Mettle 5: holds steady",
        "odds attack corve tam effort=3": "Corve is an NPC and does not roll",
    }
    for line, start in cases.items():
        shown = table.say(line)
        assert shown[0].startswith(start), (line, shown)
    table.say("check tam ingenuity vs 6 roll 4 1")  # a WASTE: Tam may try again
    assert table.say("odds again tam")[0].startswith("Tam tries again, 6 vs 6: success 88% (7/8)")
    assert table.say("odds retell tam")[0].startswith("Tam spends 1 of 2 Portents to re-tell c1; the new telling")


def test_the_check_line_shows_its_odds_as_a_percentage_first(tmp_path: Path) -> None:
    """Issue 18, point 4: never a bare fraction like 57501/80000: the percentage, then the fraction."""
    table = _story(tmp_path)
    shown = table.say("check tam ingenuity vs 6 roll 3 2")
    assert "[success 88% (7/8)]" in shown[0]


def test_the_spotlight_names_who_has_not_acted_and_never_the_fallen(tmp_path: Path) -> None:
    """Issue 18, point 5 and 6: `turn` says whose move it is and who has not acted this scene; a hint
    names who is next after someone acts; an incapacitated character is named only as out of it."""
    table = _story(tmp_path)
    table.say("scene")
    assert table.say("turn") == ["Ysolde's move: not yet acted this scene: Ysolde, Tam."]
    after = table.say('check ysolde survival vs 5 "find the firm stones before the light goes" roll 3 2')
    assert "Next: Tam has not acted this scene (`turn`)." in after
    assert table.say("turn") == ["Tam's move: not yet acted this scene: Tam."]
    table.say("pain tam 10 roll 3 3")  # twice his Mettle: incapacitated
    assert table.state.characters["Tam"].condition.incapacitated
    turn = table.say("turn")
    assert turn[0].startswith("Everyone able has acted this scene (Ysolde)")
    assert turn[-1] == "Out of it (incapacitated): Tam."
    assert KIT.oracle.present(table.state) == ["Ysolde"]


def test_a_tie_at_the_same_count_says_how_it_stands(tmp_path: Path) -> None:
    """Issue 18, point 6: several up at the same Count are a tie; the line says so, and that any of them
    may go first, in the order they joined the fight, each named once; the fallen are passed over."""
    table = _story(tmp_path)
    table.say("pc add Corve prowess=4 willpower=6 npc")
    table.say("fight")
    turn = table.say("turn")
    assert turn[0] == ("Count 0: Ysolde, Tam, Corve are up together (a tie at the same Count: listed in the order "
                       "they joined the fight; any of them may go first) to act.")
    assert turn[0].count("Tam") == 1
    table.say("attack tam corve effort=2 roll 3 2")
    assert table.say("turn")[:2] == [
        "Count 0: Ysolde, Corve are up together (a tie at the same Count: listed in the order they joined the "
        "fight; any of them may go first) to act.", "Then: Tam at Count 2."]
    table.say("pain ysolde 10 roll 3 3")
    turn = table.say("turn")
    assert turn[0] == "Count 0: Corve is up to act."
    assert "Ysolde" not in " ".join(turn[:-1]) and turn[-1] == "Out of it (incapacitated): Ysolde."


def test_a_fight_is_the_scenes_and_ends_when_the_scene_is_left(tmp_path: Path) -> None:
    """Issue 18, points 5 and 6: `fight` alone brings in the players and this scene's NPCs, never one left
    behind in an earlier scene (Merrow Hask at the waystation); leaving the scene ends the fight, so the
    Counts do not follow the story into the shelter; `exits` says a foe still standing opens the retreat."""
    table = _story(tmp_path, "salt-tithe")
    table.say("scene")
    table.say('check ilse intuition vs 5 "see whether Merrow Hask is telling the truth about the road" roll 4 4')
    table.say("scene")
    began = [e for e in table.events("fight") if e["kind"] == "fight_begun"]
    assert began[0]["combatants"] == ["Brannoc", "Ilse", "Wren", "Old Hoarfrost"]
    assert any(line.endswith(": open now: Old Hoarfrost still stands") for line in table.say("exits"))
    events = table.events("scene")
    assert [e["kind"] for e in events][:2] == ["fight_ended", "scene_opened"]
    assert table.state.fight is None and table.play.current is not None and table.play.current.id == "shelter"


def test_a_crit_brings_a_fortunate_twist_and_a_fumble_a_dark_one(tmp_path: Path) -> None:
    """Issue 18, point 9 (Thaeborn's sign of fate, seed 004 "heightened benefits of a WEAL result" and
    "heightened consequences of the WOE result"): from the story's own twist tables."""
    table = _story(tmp_path)
    story = find_scenario("harrow-mere", [Path(BUNDLED)])
    crit = [e for e in table.events("check tam ingenuity vs 6 roll 4 4") if e["kind"] == "twist"]
    assert [(t["character"], t["category"]) for t in crit] == [("Tam", "fortunate")]
    assert crit[0]["text"] in [x.replace("{character}", "Tam") for x in story.twists.fortunate]
    fumble = [e for e in table.events("check ysolde survival vs 5 roll 1 1") if e["kind"] == "twist"]
    assert [(t["character"], t["category"]) for t in fumble] == [("Ysolde", "dark")]
    portent = [e for e in table.events("retell ysolde roll 3 3") if e["kind"] == "twist"]
    assert [(t["character"], t["category"]) for t in portent] == [("Ysolde", "portent")]
    plain = [e for e in table.events("check tam ingenuity vs 6 roll 3 3") if e["kind"] == "twist"]
    assert plain == []


def test_a_scene_test_when_a_scene_opens_and_the_rules_faces_untouched(tmp_path: Path) -> None:
    """Issue 18, point 9: every scene opens with a scene test cast on the narration's own dice; the
    rules' casts that follow are the same whatever it drew (old saves replay the same)."""
    table = _story(tmp_path)
    events = table.events("scene")
    tests = [e for e in events if e["kind"] == "scene_test"]
    assert len(tests) == 1 and tests[0]["outcome"] in ("expected", "altered", "interrupted")
    assert set(tests[0]["results"]) == {"Ysolde", "Tam"}
    assert tests[0]["outcome"] != "interrupted" or [e for e in events if e["kind"] == "twist"]


def test_the_scene_test_reads_thaeborns_lots() -> None:
    """Issue 18, point 9: a CRIT interrupts with a fortunate twist, a FUMBLE a dark one, a WASTE alters."""
    from wyrd.play.kits.lots.signs import scene_test
    from wyrd.rules.lots import create_character
    from wyrd.stories.lots.events import SceneOpened

    state = GameState()
    state.characters["Ada"] = create_character("Ada", {})
    opened = [SceneOpened(story="s", scene="x", number=1, title="X", text="x", seeds=[])]
    for faces, outcome, twist in (((4, 4), "interrupted", "fortunate"), ((1, 1), "interrupted", "dark"),
                                  ((4, 1), "altered", "ordinary"), ((2, 3), "expected", None)):
        found = [dict(e) for e in scene_test(opened, state, Dice.scripted([*faces, 1, 1, 1, 1]))]
        assert found[0]["outcome"] == outcome
        assert (found[1]["category"] if len(found) > 1 else None) == twist


def test_the_oracle_feels_the_strain_and_its_twist_is_cast_by_lots(tmp_path: Path) -> None:
    """Issue 18, point 9: the oracle's tension is the strain on the party (a fight on, each character
    reeling or down); a doubled answer's twist is chosen by the asker's lots."""
    from wyrd.play.kits.lots.signs import answer_twist

    table = _story(tmp_path)
    assert KIT.oracle.tension(table.state) == 0
    table.say("pc add Corve prowess=4 willpower=6 npc")
    table.say("fight")
    assert KIT.oracle.tension(table.state) == 1
    assert "strain" in KIT.oracle.tension_words
    assert "at 1" in table.say("chances")[0]
    for faces, kind in (((4, 2), "fortunate"), ((3, 1), "dark"), ((2, 2), "portent")):
        found = answer_twist(None, "Tam", table.state, Dice.scripted([*faces, 1, 1, 1]), table.play)  # type: ignore[arg-type]
        assert [dict(e)["category"] for e in found] == [kind]


def test_ask_and_lots_say_how_they_differ() -> None:
    """Issue 18, point 9: the shared `ask` (the oracle's yes or no) and Thaeborn's `lots` (a cast with no
    check: only the lot matters) do not contradict each other; each one's help names the other."""
    lots_help = KIT.verbs.find("lots").help()
    assert "`ask`" in lots_help


def _lint(tmp_path: Path, text: str) -> list[str]:
    story = Path(BUNDLED) / "lots" / "harrow-mere.yaml"
    path = tmp_path / "lots" / "bad.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(story.read_text(encoding="utf-8").replace("id: harrow-mere", "id: bad") + text, encoding="utf-8")
    return [p.message for p in check_file(path)]


def _edit(tmp_path: Path, old: str, new: str) -> list[str]:
    story = (Path(BUNDLED) / "lots" / "harrow-mere.yaml").read_text(encoding="utf-8")
    assert old in story
    path = tmp_path / "lots" / "bad.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(story.replace("id: harrow-mere", "id: bad").replace(old, new), encoding="utf-8")
    return [p.message for p in check_file(path)]


def test_the_linter_finds_an_outcome_that_leads_nowhere(tmp_path: Path) -> None:
    """Issue 18, point 3: a scene whose exits leave one outcome with no way on is reported."""
    found = _edit(tmp_path, "      - to: reeds\n        when: {check: stones, outcome: failure}\n",
                  "      - to: reeds\n        when: {check: stones, outcome: success}\n")
    assert any("when check stones ends in failure, no exit opens: that outcome leads nowhere" in m for m in found)


def test_the_linter_finds_a_branch_that_can_never_hold(tmp_path: Path) -> None:
    """Issue 18, point 3: a condition on a check there is not, or on a scene that cannot come before the
    text it chooses, can never hold; a fight's outcome on a check is refused."""
    unknown = _edit(tmp_path, "when: {check: pin, outcome: failure}", "when: {check: pinn, outcome: failure}")
    assert any("follows the check 'pinn', which there is not: it can never hold" in m for m in unknown)
    later = _edit(tmp_path, "      - when: {check: stones, outcome: failure}\n        text: >-\n          Soaked",
                  "      - when: {check: hum, outcome: failure}\n        text: >-\n          Soaked")
    assert any("follows check hum in scene silence, which cannot come before it" in m for m in later)
    wrong = _edit(tmp_path, "when: {check: pin, outcome: failure}", "when: {check: pin, outcome: won}")
    assert any("a check ends in success or failure, never won" in m for m in wrong)


def test_the_bundled_thaeborn_stories_pass_the_linter() -> None:
    """Issue 18, point 3: the branches of every bundled Thaeborn story hold."""
    for path in scenario_files([Path(BUNDLED)]):
        assert check_file(path) == [], path


def test_the_new_story_is_listed_and_its_bots_play_it_to_the_end(tmp_path: Path) -> None:
    """Issue 18, point 8: the new Thaeborn story (not a drowned bell or a mere) is listed by `wyrd stories`
    and the bots of every policy play it to its end with no line refused."""
    listed = subprocess.run([sys.executable, "-m", "wyrd", "stories"], capture_output=True, text=True, check=True)
    assert "salt-tithe: The Salt Tithe of Hollin Pass [Thaeborn]" in listed.stdout
    story = find_scenario("salt-tithe", [Path(BUNDLED)])
    assert 4 <= len(story.scenes) <= 6 and 2 <= len(story.pregens) <= 4
    assert all(p.pronouns for p in story.pregens)
    assert story.endings and story.twists.dark and story.twists.fortunate and story.twists.portent
    for policy in ("cautious", "bold", "random"):
        out = subprocess.run([sys.executable, "-m", "wyrd", "simulate", "salt-tithe", "--runs", "30", "--jobs", "1",
                              "--policy", policy, "--no-progress", "--json"], capture_output=True, text=True,
                             check=True)
        report = json.loads(out.stdout)
        assert report["refused"]["mean"] == 0, report


def test_a_wasted_check_stays_unsettled_until_tried_again(tmp_path: Path) -> None:
    """Issue 18, point 3 (seed 004: a WASTE is "neither succeed or fail"): the way on is not settled by it;
    a second try settles it, and leaving without one counts as failed."""
    table = _story(tmp_path)
    table.say("scene")
    table.say('check ysolde survival vs 5 "find the firm stones before the light goes" roll 4 1')
    assert "check:stones" not in table.play.outcomes
    assert any("(not settled yet)" in line for line in table.say("exits"))
    table.say("again ysolde roll 3 2")
    assert table.play.outcomes["check:stones"] == "success"


def test_a_defence_that_ties_says_it_holds(tmp_path: Path) -> None:
    """Issue 18, point 6: a tie is shown with how it is broken (seed 004 via the defend verb: a tie holds)."""
    table = _story(tmp_path)
    table.say("pc add Corve prowess=4 willpower=6 npc")
    shown = table.say("defend ysolde against corve effort=3 roll 3 2")
    assert "Defense 4 vs Offense 4 (a tie: the defence holds)" in shown[0]


def test_a_blow_at_the_scenes_foe_names_what_losing_the_fight_costs(tmp_path: Path) -> None:
    """Issue 18, point 4: the story's price for losing a fight is named before the blow, not after."""
    table = _story(tmp_path, "salt-tithe")
    table.say("scene")
    table.say('check ilse intuition vs 5 "see whether Merrow Hask is telling the truth about the road" roll 4 4')
    table.say("scene")
    shown = table.say('odds attack wren "old hoarfrost" effort=3')
    assert shown[-1] == ("Losing this fight costs: if it still stands when you leave, the wagon turns back to the "
                         "shepherds' shelter for the night")


def test_a_rest_with_no_pain_reads_right() -> None:
    """Issue 18, point 7: numbers that read right: no "0 Pain eased"."""
    from wyrd.play.kits.lots.texts import TEXTS

    line = TEXTS["rested"]({"character": "Ada", "n": 0, "pain_after": 0, "recovered": False})
    assert line == "Ada rests: no Pain to ease, 0 left."
    assert TEXTS["rested"]({"character": "Ada", "n": 2, "pain_after": 1, "recovered": False}) == \
        "Ada rests: 2 Pain eased, 1 left."


def test_the_linter_finds_an_exit_to_no_scene(tmp_path: Path) -> None:
    """Issue 18, point 2: a way on that leads to a scene there is not is reported."""
    found = _edit(tmp_path, "      - to: ringer\n        label: up the tower steps", "      - to: ringers\n"
                  "        label: up the tower steps")
    assert any("scene chapel leads to 'ringers', which is not a scene" in m for m in found)


def test_the_ending_follows_the_last_check_and_says_so(tmp_path: Path) -> None:
    """Issue 18, points 2 and 3: a check the ending turns on says so when it is cast."""
    table = _story(tmp_path)
    for line in ["scene", 'check ysolde survival vs 5 "find the firm stones before the light goes" roll 4 4',
                 "scene", 'check tam ingenuity vs 6 "draw the clapper pin without waking the bell" roll 4 4',
                 "scene", "scene", 'check tam prowess vs 5 "cut the rope before the third peal" roll 4 4', "scene"]:
        table.say(line)
    shown = table.say("check tam willpower vs 5 \"hold the bell's voice out while it is muffled\" roll 1 1")
    assert "The story's ending will follow this failure." in shown


# -- the oracle's answer, told in Thaeborn's voice ---------------------------------------------------

ANSWERS = ("yes_and", "yes", "no", "no_but")
_YES = frozenset({"yes_and", "yes"})
_LOT = re.compile(r"\blots?\b", re.IGNORECASE)
_NO_CAST = re.compile(r"\b(?:no|without the|without)\s+$", re.IGNORECASE)


def _answer(answer: str, asker: str | None = "Ysolde", *, twist: bool = False) -> Any:
    from wyrd.oracle.events import AnswerGiven

    return AnswerGiven(question="is anyone watching", asker=asker, odds="even", chance=50, tension=0,
                       roll={"yes_and": 7, "yes": 33, "no": 66, "no_but": 95}[answer], answer=answer, twist=twist)


def _rows(answer: str) -> list[str]:
    from wyrd.oracle.tables import bundled_tables

    return [r.text for r in bundled_tables()[f"lots/answer/{answer}"].rows if r.text]


@pytest.mark.parametrize("answer", ANSWERS)
def test_every_answer_row_shows_the_answer_as_given_and_never_a_cast(answer: str) -> None:
    """README, the question oracle: offline "random tables narrate every moment in a line or two"; in
    Thaeborn `ask` is "the oracle's yes or no for what no lot decides, on the narrator's own dice". So each
    row of an answer's table, filled with a character or with no one, never reads as the other answer (the
    readings' own test of an answer overruled), gives no number, speaks of no dice or odds, and never
    tells the lots as cast (a lot is named only as not needed)."""
    from wyrd.oracle.grammar import person
    from wyrd.oracle.narrators.base import NarrationRequest
    from wyrd.oracle.narrators.readings import reading_problem
    from wyrd.oracle.text import fill

    rows = _rows(answer)
    assert len(rows) >= 6
    asked = NarrationRequest(moment="lots/answer", detail=answer, success=answer in _YES)
    for row in rows:
        for context in ({"asker": person("Ysolde", "she")}, {"asker": person("Tam", "he")}, {}):
            text = fill(row, context)
            assert reading_problem(text, asked) is None, (answer, text, reading_problem(text, asked))
            assert not re.search(r"\d|\b(?:dice|die|roll\w*|odds|chances?|oracle)\b", text, re.IGNORECASE), text
            for lot in _LOT.finditer(text):
                assert _NO_CAST.search(text[:lot.start()]), f"a row that tells the lots as cast: {text!r}"
        yes_like = re.match(r"(?:yes|it is so|so it is)\b", row, re.IGNORECASE)
        no_like = re.match(r"(?:no\b|not\b|it is not so)", row, re.IGNORECASE)
        if answer in _YES:
            assert not no_like, row
        else:
            assert not yes_like and re.search(r"\b(?:no|not)\b", row, re.IGNORECASE), row
        if answer == "no_but":
            assert re.search(r"\b(?:but|still|yet)\b", row, re.IGNORECASE), row


@pytest.mark.parametrize("answer", ANSWERS)
def test_an_ask_alone_gets_one_answer_moment_that_says_what_was_settled(answer: str, tmp_path: Path) -> None:
    """A command that is only an `ask` gets its one line, from `lots/answer/<answer>`, about the asker;
    a model is told the question and the answer, which stands, and that no lot was cast for it (as the
    Abacus's answer says its question and answer); its prompt is Thaeborn's own."""
    from wyrd.oracle.grammar import person
    from wyrd.oracle.narrators.llm_facts import settled
    from wyrd.oracle.narrators.table import TableNarrator
    from wyrd.oracle.narrators.telling import Command
    from wyrd.oracle.text import fill
    from wyrd.play.kits.lots.narration import NARRATION, LotsMoment
    from wyrd.prompts import prompt_set

    table = _story(tmp_path)
    told = NARRATION.tell(Command(table.state, table.state, [_answer(answer)], Dice.seeded(3)))
    assert list(told.added) == []
    [moment] = told.moments
    assert (moment.moment, moment.detail, moment.subject) == (LotsMoment.ANSWER, answer, "Ysolde")
    assert moment.told_by == [f"lots/answer/{answer}"] and moment.marks == {"table": f"lots/answer/{answer}"}
    words = {"yes_and": "yes, and more besides", "yes": "is yes;", "no": "is no;", "no_but": "no, but something"}
    assert "'is anyone watching'" in moment.said and words[answer] in moment.said
    assert "stands" in moment.said and "not a cast of the lots" in settled(moment)
    assert prompt_set().for_moment(LotsMoment.ANSWER).id == "lots/answer"
    text = TableNarrator().narrate(moment, Dice.seeded(3)).text
    assert text in {fill(r, {"asker": person("Ysolde", "she")}) for r in _rows(answer)}
    nobody = NARRATION.tell(Command(None, None, [_answer(answer, None)], Dice.seeded(3))).moments
    assert [(m.subject, m.values) for m in nobody] == [(None, {})]
    assert "The oracle was asked" in nobody[0].said


def test_a_doubled_answer_keeps_its_twist_and_one_line(tmp_path: Path) -> None:
    """A doubled answer brings the asker a twist (the lots cast for it are the narrator's): the command is
    still told in one answer line, after the twist, and no more moments than a command had before."""
    from wyrd.oracle.events import TwistDrawn
    from wyrd.oracle.narrators.telling import Command
    from wyrd.play.kits.lots.narration import NARRATION

    table = _story(tmp_path)
    twist = TwistDrawn(character="Ysolde", result=0, category="dark", text="Something moves under the water.",
                       table="lots/twist/dark", row="1")
    for answer in ANSWERS:
        told = NARRATION.tell(Command(table.state, table.state, [_answer(answer, twist=True), twist],
                                      Dice.seeded(4)))
        assert [(m.moment, m.detail) for m in told.moments] == [("lots/answer", answer)]


def test_every_answer_in_play_is_told_saved_and_read_the_same_after_resume(tmp_path: Path) -> None:
    """README: "The narration is saved with the game, so a replay, a log or an export reads the same words
    again". Asked until each of the four answers has come (seeded dice), every `ask` has its one line of
    prose from its answer's table, saved with the command; the resumed game holds and logs the same."""
    path = tmp_path / "game.wyrd"
    table = _story(tmp_path, seed=11)
    table.say("scene")
    seen: dict[str, list[str]] = {}
    for _ in range(200):
        reply = table.console.handle("ask is anyone watching")
        events = [e.plain() for e in reply.events]
        [answer] = [e for e in events if e["kind"] == "answer"]
        told = [e for e in events if e["kind"] == "narration"]
        assert len(told) == 1 and told[0]["source"] == "table"
        assert told[0]["table"] == f"lots/answer/{answer['answer']}"
        assert told[0]["text"] in [ln.text for ln in reply.lines]
        seen.setdefault(answer["answer"], []).append(told[0]["text"])
        if set(seen) == set(ANSWERS):
            break
    assert set(seen) == set(ANSWERS), sorted(seen)
    live_log = table.say("log all")
    assert all(any(line.strip() == t for line in live_log) for texts in seen.values() for t in texts)
    assert table.session.save is not None
    saved = [e.data for e in table.session.save.events_since(0) if e.kind == "narration"]
    assert all(any(d["text"] == t for d in saved) for texts in seen.values() for t in texts)
    table.session.close()
    resumed = Session.resume(path)
    try:
        assert resumed.save is not None
        assert [e.data for e in resumed.save.events_since(0) if e.kind == "narration"] == saved
        assert [ln.text for ln in Console(resumed, path).handle("log all").lines] == live_log
    finally:
        resumed.close()
