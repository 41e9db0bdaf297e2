"""The Wyrd Abacus does a narrator's job: it frames each scene, shows the rules in force and the
ways on, says whose move it is, and names every price before the dice (issue 18, points 1-7 and 9).

Most tests play the bundled stories through the real console, as a player would.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

import wyrd.rules.abacus as A
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.view import describe
from wyrd.play.kits.abacus import narrator
from wyrd.play.kits.abacus.kit import KIT
from wyrd.play.kits.abacus.stakes import held_chance, percent
from wyrd.play.kits.abacus.words import words
from wyrd.rules.abacus import ChallengeStatus, ChallengeType, GameState, RollStage
from wyrd.rules.abacus.events import ClockAdvanced, ContestDecided
from wyrd.rules.abacus.stage import Clock, Counter, Effect, EffectKind
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice


def _game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, story: str = "hollow-fair",
          seed: int = 5) -> Console:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))
    tmp_path.mkdir(parents=True, exist_ok=True)
    path = tmp_path / f"{story}-{seed}.wyrd"
    session = Session.new(path, seed=seed, story=story, ruleset="abacus")
    console = Console(session, path)
    console.handle("pc take all")
    return console


def _text(console: Console, line: str) -> list[str]:
    return [ln.text for ln in console.handle(line).lines]


# -- point 1: frame every scene --------------------------------------------------------


def test_a_story_scene_opens_framed_and_look_frames_it_again(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 1: title, place, the story's words, who is present, what is in the way and its price."""
    console = _game(tmp_path, monkeypatch)
    opened = "\n".join(_text(console, "scene"))
    assert "The First Night of the Fair, at Coldharrow Green. The crowning is over" in opened
    assert "A Rigged Game (wits 4): to attempt it the lead draws 1 Wyrd from the pool (Nothing Is Free)" in opened
    assert "to fail: the lead loses 2 Mind and a Wyrd roll for the lead" in opened
    looked = "\n".join(_text(console, "look"))
    assert "The First Night of the Fair (scene 1), at Coldharrow Green." in looked
    assert "Present: Ned Harrower, Ivy Marchbank, Coral Vell and Silas Penhallow." in looked
    assert "The Wrongness of the Fair (foreboding 3): to fail: the lead loses 1 Soul and The Fair Wakes moves on 1." \
        in looked
    assert "This scene's Wyrd roll decides: Who the fair notices first" in looked


def test_rules_lists_every_rule_that_charges_here_with_its_text(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 1: the list is right. The Drowned Bell names only the Gleaner's rules, yet the
    hucksters it places charge a Wyrd point by Nothing Is Free: that rule is in force there too."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    state = console.session.state
    # The scene places a huckster challenge: Nothing Is Free bears on it.
    assert state.scene is not None and "huckster-cheat" in state.scene.challenges
    console.handle("attempt fair-unease by Ned")
    console.handle("roll 6")
    console.handle("attempt huckster-cheat by Ivy")
    console.handle("roll 6")
    console.handle("end scene")
    console.handle("scene")  # the Reeve's Kitchen
    console.handle("end scene")
    opened = [ln.text for ln in console.handle("scene drowned-bell").lines]
    assert any(t.startswith("In force here:") and "Nothing Is Free" in t and "The Gleaner Reaps" in t for t in opened)
    rules = "\n".join(_text(console, "rules"))
    assert "Nothing Is Free: Nothing at the fair is free. Attempting any challenge of the hucksters costs" in rules
    assert "Drive Him Off: Every time the Gleaner is beaten" in rules
    assert "Straw in the Wound" in rules.split("touching nothing in this scene now:")[1]


# -- point 2: where the story can go ------------------------------------------------------


def test_exits_say_what_opens_each_way_and_the_outcome_says_what_it_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 2: the ways on, what opens each, which are open; and what the last outcome changed."""
    console = _game(tmp_path, monkeypatch)
    for line in ("scene", "attempt fair-unease by Ned", "roll 6", "attempt huckster-cheat by Ivy", "roll 6",
                 "end scene", "scene reeves-house"):
        console.handle(line)
    before = "\n".join(_text(console, "exits"))
    assert "The Struck Prayers: opens if Hester's Grief overcome; shut for now." in before
    assert "Last Orders at the Drowned Bell: always open." in before
    console.handle("attempt hester-grief by Coral")
    settled = [ln.text for ln in console.handle("roll 6").lines]
    assert "Hester's Grief overcome: the way to The Struck Prayers opens." in settled
    assert "The Struck Prayers: opens if Hester's Grief overcome; open now." in "\n".join(_text(console, "exits"))
    ways = words("way", console.session.state, console.session.follower)
    assert ways is not None and ways["chapel"] == "The Struck Prayers (open)"
    console.handle("attempt finch-questions by Silas")
    done = "\n".join(ln.text for ln in console.handle("roll 6").lines)
    assert "This scene's challenges are settled." in done and "Ways on from The Reeve's Kitchen:" in done


def test_a_finale_scene_says_so_and_the_end_is_never_a_surprise(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 2: the story that 'ended after six' now says where it ends before it does."""
    console = _game(tmp_path, monkeypatch, "the-milestones")
    for scene in ("fog-on-the-moor", "the-farmhouse"):
        console.handle(f"scene {scene}")
        console.handle("end scene")
    exits = "\n".join(_text(console, "exits"))
    assert "The Last Stone (a finale): always open." in exits
    console.handle("scene")
    assert "The Last Stone is the finale: after `end scene`, `finale` ends the story." in _text(console, "exits")


# -- point 3: the dice steer the story ----------------------------------------------------


def _forced(story: str, succeed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[str], list[str]]:
    """Play ``story`` to its end with every roll forced to succeed (spending and drawing what it takes)
    or to fail: the scenes played and every text the story told."""
    console = _game(tmp_path / ("up" if succeed else "down"), monkeypatch, story, seed=11)
    session = console.session
    if not session.state.characters:
        console.handle('pc add Agnes body=5 mind=5 soul=5')
        console.handle('pc add Tom body=7 mind=4 soul=4')
    for _ in range(12):
        if console.handle("scene").events[0]["kind"] == "refused":
            break
        for _ in range(10):
            state = session.state
            scene = state.scene
            assert scene is not None
            standing = [n for n in scene.present if not state.characters[n].defeated]
            ready = [c for c in scene.challenges.values() if c.status == ChallengeStatus.OPEN
                     and all(scene.challenges[p].status == ChallengeStatus.OVERCOME
                             for p in c.after if p in scene.challenges)]
            if not ready or not standing:
                break
            target = ready[0]
            lead = max(standing, key=lambda n: state.characters[n].points[target.type.ability])
            if console.handle(f'attempt {target.id} by "{lead}"').events[0]["kind"] == "refused":
                break
            if not succeed:
                console.handle("roll 1")
                console.handle("accept")
                continue
            pending = session.state.pending
            need = A.effective_value(session.state, session.state.scene.challenges[target.id]) - 6  # type: ignore[union-attr]
            give = min(max(0, need), session.state.characters[lead].points[target.type.ability])
            if give:
                console.handle(f'spend "{lead}" {give}')
            console.handle("roll 6")
            pending = session.state.pending
            if pending is not None and pending.stage == RollStage.ROLLED:
                short = (pending.value or 0) - ((pending.die or 0) + pending.points + pending.bonus)
                console.handle(f'draw "{lead}" {short}')
                if session.state.pending is not None:
                    console.handle("accept")
        console.handle("end scene")
        if session.state.scene is None and session.follower.play.story.freeform and \
                session.state.scenes_played >= 3:  # type: ignore[union-attr]
            break
    console.handle("finale")
    assert session.state.ended and session.save is not None
    events = [e for r in session.save.live_commands() for e in r.events]
    scenes = [str(e["scene"]) for e in events if e["kind"] == "scene_started"]
    told = [str(e["text"]) for e in events if e["kind"] in ("scene_framed", "ending", "postscript", "narration")]
    return scenes, told


@pytest.mark.parametrize("story", ["hollow-fair", "the-milestones", "wrackham"])
def test_forced_success_and_forced_failure_tell_different_stories(story: str, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 3: every bundled story branches on what was rolled."""
    up_scenes, up_told = _forced(story, True, tmp_path, monkeypatch)
    down_scenes, down_told = _forced(story, False, tmp_path, monkeypatch)
    assert up_told != down_told
    if story == "wrackham":  # a freeform setting: places are drawn, so only what is told can differ
        return
    assert up_scenes != down_scenes
    if story == "hollow-fair":
        assert up_scenes[-1] == "sallow-mere" and down_scenes[-1] == "the-burning"
        assert any("the drowned bell, and the bell answers" in t for t in up_told)
        assert any("The cage door never opens." in t for t in down_told)
    else:
        assert "the-wrong-mile" in down_scenes and "the-wrong-mile" not in up_scenes
        assert any("They come out of the fog onto tarmac" in t for t in up_told)
        assert any("The count will not turn." in t for t in down_told)


@pytest.mark.parametrize("story", ["hollow-fair", "the-milestones"])
def test_every_outcome_path_reaches_a_finale(story: str) -> None:
    """Issue 18, point 2 (the ten-scene story that ended after six): whatever is overcome, failed
    or left untackled, every scene but a finale has an open way on, and the ways never loop."""
    from wyrd.stories.abacus import flow
    from wyrd.stories.abacus.loader import load_story

    found = load_story(Path(flow.__file__).resolve().parents[1] / "content" / f"{story}.yaml")
    challenges = sorted(flow.challenge_specs(found))
    counters = {c.id for c in found.counters}
    for scene in found.scenes:
        if scene.finale:
            continue
        asked = sorted({str(getattr(w.when, "overcome", None) or getattr(w.when, "failed", None))
                        for w in scene.next if w.when != "always"} & set(challenges))
        for outcome in product(("overcome", "failed", "untackled"), repeat=len(asked)):
            progress = flow.Progress(
                overcome=frozenset(c for c, o in zip(asked, outcome, strict=True) if o == "overcome"),
                failed=frozenset(c for c, o in zip(asked, outcome, strict=True) if o == "failed"),
                counters=dict.fromkeys(counters, 0))
            assert flow.exits(found, scene.id, progress), (scene.id, outcome)
    # no loops: a walk along any way never comes back
    links = {s.id: {w.scene for w in s.next} for s in found.scenes}

    def walk(at: str, seen: tuple[str, ...]) -> None:
        assert at not in seen, seen
        for nxt in links[at]:
            walk(nxt, (*seen, at))

    walk(found.scenes[0].id, ())


# -- point 4: stakes before choices ---------------------------------------------------------


def test_the_finale_chance_is_exact() -> None:
    """Issue 18, point 4, after seed 000's finale (a Wyrd roll: 6 held) and its rule that a trait of 0
    counts as a 1: counted over every face of every die."""
    assert held_chance(0) == 0
    for w in range(1, 5):
        held = sum(1 for faces in product(range(1, 7), repeat=w) if max(faces) == 6)
        assert held_chance(w) == Fraction(held, 6 ** w)
    assert percent(held_chance(1)) == "17%" and percent(held_chance(3)) == "42%"


def test_the_odds_line_shows_the_price_with_the_chance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 4: drawing Wyrd no longer looks free: beside the chance, each drawer's chance of
    being held by the Vale at the finale, now and after the draw; percentages first."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    shown = [ln.text for ln in console.handle("attempt huckster-cheat by Ivy").lines]
    odds = next(t for t in shown if t.startswith("Odds against A Rigged Game"))
    assert "with 0 points: 50% (1/2)" in odds and "100% (1) if you draw on the pool of 4" in odds
    assert ("Price: Wyrd drawn joins the drawer's own, and at the finale a 6 on it means held by the Vale: "
            "Ivy Marchbank 17% now, 31% with one more.") in shown
    shown = [ln.text for ln in console.handle("roll 1").lines]
    assert any("Ivy Marchbank 17% now, 52% with 3 more." in t for t in shown)


def test_odds_command_names_a_stage_rules_price_before_the_attempt(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 4: `odds attempt ...` names Nothing Is Free's point and what it costs at the finale."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    lines = _text(console, "odds attempt huckster-cheat by Ivy")
    assert lines[0].startswith("A Rigged Game (wits 4): to attempt it the lead draws 1 Wyrd from the pool")
    assert "Odds with 0 points: 50%; with the pool of 5 behind you: 100%." in lines
    assert any("Ivy Marchbank 0% now, 17% with one more." in t for t in lines)
    assert console.session.state.characters["Ivy Marchbank"].wyrd == 0  # nothing was paid
    finale = _text(console, "odds finale")
    assert "  Coral Vell (1 Wyrd): held 17%." in finale


def test_odds_of_a_contest_are_exact() -> None:
    """Issue 18, point 4: a contest's chance before the dice (seed 000: highest die, then how many show it;
    [ours] still tied, re-roll). One die each: 15/36 win, 15/36 lose, 6/36 tie split evenly: 1/2."""
    assert narrator._beats(1, 1) == Fraction(1, 2)
    assert narrator._beats(2, 1) > Fraction(1, 2) > narrator._beats(1, 2)
    assert narrator._beats(3, 2) + narrator._beats(2, 3) == 1


# -- point 5: spotlight ------------------------------------------------------------------------


def test_turn_says_whose_move_and_who_has_not_acted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 5: whose move it is, who has not acted, and a one-line hint after a challenge."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    assert _text(console, "turn") == ["Not yet acted this scene: Ned Harrower, Ivy Marchbank, Coral Vell and "
                                      "Silas Penhallow; next in the spotlight: Ned Harrower."]
    console.handle("attempt fair-unease by Ned")
    assert _text(console, "turn")[0] == "Ned Harrower leads against The Wrongness of the Fair: roll, or assign " \
                                        "points first."
    after = _text(console, "roll 6")
    assert "Next in the spotlight: Ivy Marchbank (yet to act: Coral Vell and Silas Penhallow)." in after
    assert not any("spotlight" in t for t in _text(console, "look"))  # not after every look


def test_a_defeated_character_is_never_named_as_able_to_act() -> None:
    """Issue 18, point 6: spotlight and frame leave out who is defeated (they may still give Wyrd)."""
    state = GameState()
    dice = Dice.seeded(1)
    for name in ("Ada", "Bo"):
        state = A.add_character(state, dice, name, 5, 5, 5).state
    state = A.start_scene(state, dice, ["Ada", "Bo"], "yard").state
    state.characters["Bo"].defeated = True
    lines = narrator.spotlight(state, None)
    assert lines[0] == "Not yet acted this scene: Ada; next in the spotlight: Ada."
    assert lines[-1] == "Bo (defeated) may still give Wyrd from outside."
    assert "Present: Ada (Bo defeated, giving Wyrd from outside)." in narrator.frame(state, None)[1]


# -- points 6 and 7: fair dice, names never ids, numbers that read right -------------------------


def _line(event: Event) -> str:
    return describe(event, "abacus").text


def test_a_tie_says_how_it_was_broken_and_names_the_winner_once() -> None:
    """Issue 18, point 6; seed 000: ties broken by how many dice show the result; [ours] then re-rolls."""
    by_count = ContestDecided(trait="body", ranking=["Ned", "Ivy"], winner="Ned", results={"Ned": 6, "Ivy": 6},
                                ties={"Ned": 3, "Ivy": 1})
    text = _line(by_count)
    assert text == "Body contest: both best at 6; the tie goes by how many dice show it, Ned 3 against Ivy 1."
    dead = ContestDecided(trait="soul", ranking=["Bo", "Ada"], winner="Bo", rerolls=2, results={"Ada": 5, "Bo": 5},
                            ties={"Ada": 1, "Bo": 1})
    assert "a dead heat at 5" in _line(dead) and "2 re-rolls" in _line(dead)
    assert "comes out on top" not in text  # the narration names the winner; this line says how


def test_clocks_and_counters_read_by_name_and_a_drop_reads_as_one() -> None:
    """Issue 18, point 7: "Clock fair-wakes stands at 6: it reaches 5!", "gleaners count" and
    "rises to 0" after a -1 were read by players."""
    state = GameState()
    dice = Dice.seeded(2)
    state = A.add_character(state, dice, "Ada", 5, 5, 5, wyrd=1).state
    clock = Clock(id="fair-wakes", name="The Fair Wakes", thresholds=[])
    counter = Counter(id="gleaners-count", name="The Gleaner's Count", value=1)
    state = A.install(state, dice, clocks=[clock], counters=[counter]).state
    state = A.start_scene(state, dice, ["Ada"], "green").state
    spec = A.ChallengeSpec(id="trail", name="Trail", type=ChallengeType.PURSUIT, value=3,
                           on_fail=[Effect(do=EffectKind.COUNTER, counter="gleaners-count", n=-1),
                                    Effect(do=EffectKind.CLOCK, clock="fair-wakes", n=2)])
    state = A.place_spec(state, dice, spec).state
    state = A.attempt(state, dice, "trail", "Ada").state
    state = A.roll(state, Dice.scripted([1])).state
    outcome = A.accept(state, dice)
    texts = [_line(e) for e in outcome.events]
    assert "The Gleaner's Count drops by 1, to 0." in texts
    assert "The Fair Wakes moves on 2, to 2." in texts
    assert not any("gleaners-count" in t or "fair-wakes" in t for t in texts)


def test_old_events_without_names_still_read_and_still_replay() -> None:
    """Labels are not facts: an event saved before names were kept equals today's, and reads readably."""
    old = ClockAdvanced(clock="fair-wakes", value=6, change=1, thresholds=[5])
    new = ClockAdvanced(clock="fair-wakes", value=6, change=1, thresholds=[5], name="The Fair Wakes")
    assert old == new and hash(old) == hash(new)
    assert _line(old) == "Fair wakes moves on 1, to 6: it has reached 5."
    assert _line(new) == "The Fair Wakes moves on 1, to 6: it has reached 5."


# -- point 9: the oracle's tension --------------------------------------------------------------


def test_the_oracles_tension_is_the_scenes_wyrd_drawn(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 9 (DESIGN.md: the oracle's chaos is the scene's Wyrd drawn)."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    assert KIT.oracle.tension(console.session.state) == 0
    console.handle("attempt huckster-cheat by Ivy")  # Nothing Is Free draws one
    assert KIT.oracle.tension(console.session.state) == 1
    assert KIT.oracle.tension_words == "the scene's Wyrd drawn"


def test_a_doubled_answers_twist_comes_from_the_storys_own_tables(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 9: the oracle's twist is a 6's kind (threat, eerie or tie), as a Wyrd 6 brings,
    and the bundled story's twist tables come first."""
    from wyrd.oracle.events import TwistDrawn

    console = _game(tmp_path, monkeypatch)
    session = console.session
    assert KIT.oracle.twist is not None

    class Told:
        roll = 33

    for seed in range(6):
        (twist,) = KIT.oracle.twist(Told(), "Ned Harrower", session.state, Dice.seeded(seed), session.follower)
        assert isinstance(twist, TwistDrawn) and twist.character == "Ned Harrower"
        assert twist.category in ("threat", "eerie", "tie") and twist.table.startswith("hollow-fair/")


def test_odds_of_spending_show_what_the_points_buy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 18, point 4: `odds spend WHO N` weighs the points before they are spent."""
    console = _game(tmp_path, monkeypatch)
    console.handle("scene")
    console.handle("attempt fair-unease by Ned")
    lines = _text(console, "odds spend Ned 2")
    assert lines[0] == "Spending 2 more: 67% -> 100% on the die alone; 100% -> 100% with the pool behind you."
    assert console.session.state.characters["Ned Harrower"].points[A.Ability.SOUL] == 4  # nothing was spent


def test_sabotage_names_the_challenge_not_its_id() -> None:
    """Issue 18, point 7: a challenge made harder reads by its name."""
    from wyrd.rules.abacus.events import ChallengeModified

    event = ChallengeModified(challenge="locked-gate", change=3, value=8, reason="sabotage by Bo", name="Locked gate")
    assert _line(event) == "Locked gate is now 8 (+3, sabotage by Bo)."
    assert event == ChallengeModified(challenge="locked-gate", change=3, value=8, reason="sabotage by Bo")
