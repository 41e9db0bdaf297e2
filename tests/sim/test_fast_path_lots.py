"""Thaeborn's fast path gives the checked path's report (issue 21, point 1: "a fast path may keep plain data in
the hot loop as long as the same seed gives the same report as the checked path (a test compares them on every
bundled story)").

The checked path is the bots typing lines into real play sessions (``Request(safe=True)``); the fast path plays
the same moves on plain data (:mod:`wyrd.sim.lots.table`). Every bundled Thaeborn story is played both ways
with every policy, by the whole party and by one character alone (whose runs end in falls), with fixed seeds:
the reports must be equal, field for field and as JSON, with no run left to a session. The runs are enough for
every kind of thing the bots meet to happen (checked below: every move, a Re-tell of every kind of cast they
re-tell, actions lost by players and NPCs, a character brought back by rest, a WASTE that leaves a check
unsettled, both ways on from every check a story branches on, a fight won and a party fallen). The comparison
is shown to fail when the fast path plays one rule wrongly, and a story or a run the table cannot play goes
through sessions, counted, to the same report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from wyrd.sim import POLICY_NAMES, BotReport, Request, simulator_for
from wyrd.sim.lots.lines import story_for
from wyrd.sim.lots.moves import Check, Move, Rest, Retell, Strike
from wyrd.sim.lots.table import Run, Unsupported
from wyrd.stories.formats import discover
from wyrd.stories.loader import BUNDLED
from wyrd.stories.lots import END, find_scenario
from wyrd.stories.lots.branches import key_of

STORIES = [info.id for info in discover(()) if info.ok and info.ruleset == "lots"]
PARTIES = {None: 20, 1: 12}  # runs by the whole party (the story mostly ends), by one character (mostly falls)
SEED = 21
SIMULATOR = simulator_for("lots")


def simulate(story: str, runs: int, **kwargs: Any) -> BotReport:
    report = SIMULATOR.simulate(Request(story, runs, seed=SEED, **kwargs))
    assert isinstance(report, BotReport)
    return report


def seen_in(run: Run, move: Move) -> Iterator[str]:
    """What a move met, as this file's coverage names it; called before the move is played."""
    yield type(move).__name__ if not isinstance(move, Strike) else move.verb
    if isinstance(move, Retell) and run.window:
        yield f"retell {run.window[-1].form}"
    if isinstance(move, Strike) and move.verb == "defend" and run.characters[move.npc].loses_action:
        yield "an NPC's blow spent reeling"
    if isinstance(move, Rest) and run.characters[move.who].incapacitated:
        yield "rest of someone incapacitated"


Played = dict[tuple[str, str, int | None], tuple[BotReport, BotReport]]


@pytest.fixture(scope="module")
def seen() -> set[str]:
    return set()


@pytest.fixture(scope="module")
def played(seen: set[str]) -> Played:
    """Every bundled story, policy and party, played both ways (the fast way watched for what it meets)."""
    play = Run.play

    def watched(run: Run, move: Move) -> None:
        seen.update(seen_in(run, move))
        lost = run.figures["actions_lost"]
        down = isinstance(move, Rest) and run.characters[move.who].incapacitated
        play(run, move)
        seen.update(f"scene {s}" for s in run.played)
        if run.figures["actions_lost"] > lost:
            seen.add("a player's action spent reeling")
        if down and isinstance(move, Rest) and not run.characters[move.who].incapacitated:
            seen.add("rest brought someone back")
        if isinstance(move, Check) and move.call.id is not None and run.last is not None \
                and key_of("check", move.call.id) not in run.outcomes:
            seen.add("a WASTE left a check unsettled")

    out: Played = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Run, "play", watched)
        for story in STORIES:
            for policy in POLICY_NAMES:
                for players, runs in PARTIES.items():
                    fast = simulate(story, runs, policy=policy, players=players)
                    out[story, policy, players] = (fast, simulate(story, runs, policy=policy, players=players,
                                                                  safe=True))
    return out


def test_the_bundled_thaeborn_stories_are_all_here() -> None:
    assert {"harrow-mere", "salt-tithe"} <= set(STORIES)


@pytest.mark.parametrize("players", list(PARTIES))
@pytest.mark.parametrize("policy", POLICY_NAMES)
@pytest.mark.parametrize("story", STORIES)
def test_the_fast_path_reports_exactly_what_the_checked_path_reports(
        played: Played, story: str, policy: str, players: int | None) -> None:
    fast, checked = played[story, policy, players]
    assert fast.runs == PARTIES[players]
    assert fast.checked_reruns == 0  # a rerun is the checked path itself: it must not hide a difference
    assert fast == checked
    assert fast.to_dict() == checked.to_dict()
    assert fast.to_json() == checked.to_json()


def test_every_kind_of_play_the_bots_meet_happened(played: Played, seen: set[str]) -> None:
    """The comparison means something only if the runs went everywhere the bots go."""
    moves = {"Enlist", "NextScene", "Check", "Assess", "Lots", "defend", "attack", "Retell", "Rest"}
    # A defence that lands always hurts in these stories: its Mettle test is what is re-told, never the defence.
    retold = {f"retell {form}" for form in ("check", "attack", "mettle")}
    events = {"an NPC's blow spent reeling", "a player's action spent reeling", "rest of someone incapacitated",
              "rest brought someone back", "a WASTE left a check unsettled"}
    # The bots fight on until the foe or the party is down, so a fight is never left lost: a check's ways are
    # the branches they take.
    scenes = {f"scene {way.to}" for story in STORIES for scene in find_scenario(story, [Path(BUNDLED)]).scenes
              for way in scene.exits if way.when is not None and way.when.check is not None and way.to != END}
    wanted = moves | retold | events | scenes
    assert wanted <= seen, sorted(wanted - seen)
    reports = [fast for fast, _ in played.values()]
    for figure in reports[0].figures:
        assert any(next(f for f in r.figures if f.key == figure.key).runs_with.k for r in reports), figure.key
    assert any(r.ended.k for r in reports) and any(r.fell.k for r in reports)


def test_the_comparison_fails_when_the_fast_path_plays_a_rule_wrongly(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rest that eases one Pain too few: the reports part (the test above can fail)."""
    rest = Run._rest

    def too_little(run: Run, who: str) -> None:
        hurt = run.characters[who].pain > 0
        rest(run, who)
        run.characters[who].pain += hurt

    monkeypatch.setattr(Run, "_rest", too_little)
    fast = simulate("harrow-mere", 12, players=1)
    assert fast.checked_reruns == 0
    assert fast != simulate("harrow-mere", 12, players=1, safe=True)


def test_a_run_the_table_cannot_play_goes_through_a_session_and_is_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    def refused(run: Run, who: str) -> None:
        raise Unsupported("not here")

    monkeypatch.setattr(Run, "_retell", refused)
    fast = simulate("salt-tithe", 10, policy="random")
    assert 0 < fast.checked_reruns < 10
    assert f"{fast.checked_reruns} runs played through play sessions" in SIMULATOR.text(fast)
    assert dataclasses.replace(fast, checked_reruns=0) == simulate("salt-tithe", 10, policy="random", safe=True)


def test_a_story_whose_lines_a_session_reads_otherwise_is_played_through_sessions(tmp_path: Path) -> None:
    """Two checks of a scene with one purpose: the session's follower takes the second for the first."""
    data = yaml.safe_load((Path(BUNDLED) / "lots" / "harrow-mere.yaml").read_text(encoding="utf-8"))
    data["id"] = "twin-checks"
    causeway = data["scenes"][0]
    causeway["checks"].append({**causeway["checks"][0], "id": "stones-again", "difficulty": 3})
    (tmp_path / "lots").mkdir()
    (tmp_path / "lots" / "twin-checks.yaml").write_text(yaml.safe_dump(data), encoding="utf-8")
    content = (tmp_path,)
    assert story_for("twin-checks", content, None) is None
    assert story_for("harrow-mere", content, None) is not None
    fast = simulate("twin-checks", 4, content=content)
    assert fast.checked_reruns == 4
    assert dataclasses.replace(fast, checked_reruns=0) == simulate("twin-checks", 4, content=content, safe=True)
