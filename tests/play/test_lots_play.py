"""Playing Thaeborn (ruleset ``lots``) through the shared play layer.

The scenario played to its end, a Re-tell beside an undo in the audit trail,
resume and replay equal to live play (with snapshots, and with random lines
from a small grammar), physical d4s typed with a command or asked for, the
hints, the event texts and the narration, and the scenario format.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, get_args
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wyrd.play.engine.history
from wyrd.oracle.tables import bundled_tables
from wyrd.play.cli.main import main
from wyrd.play.engine.journal import transcript
from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.reply import SessionError
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.frontends.view import describe, wording
from wyrd.play.kits.lots.texts import TEXTS
from wyrd.rules.lots.events import LotsEvent
from wyrd.stories.loader import BUNDLED
from wyrd.stories.lots import ScenarioError, ScenarioPlay, find_scenario, load_scenario

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
HOOKS = hooks_for("lots")  # the kit, as the registry finds it
PARTY = ["pc add Ada prowess=5 willpower=4 ingenuity=6 armour=1 portents=3",
         "pc add Bo prowess=6 willpower=5 mettle=3 portents=2", "pc add Grub prowess=4 willpower=3 npc"]


@contextmanager
def folder() -> Iterator[Path]:
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=where) as name:
        yield Path(name)


def play_lines(path: Path, lines: list[str], seed: int = 5, **kw: Any) -> tuple[Session, list[dict[str, Any]]]:
    session = Session.new(path, seed=seed, ruleset="lots", **kw)
    console = Console(session, path)
    shown = [e for line in lines for e in console.handle(line).events]
    return session, shown


def script_lines(name: str) -> list[str]:
    text = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return [line for line in text if line.strip() and not line.startswith("#")]


def test_the_scenario_is_played_to_its_end(tmp_path: Path) -> None:
    session, shown = play_lines(tmp_path / "g.wyrd", script_lines("lots_harrow_mere.txt"), seed=7)
    try:
        opened = [e["scene"] for e in shown if e["kind"] == "scene_opened"]
        assert opened == ["causeway", "chapel", "ringer", "silence"]
        assert [e["kind"] for e in shown].count("story_closed") == 1
        assert session.state.characters["Corve"].condition.incapacitated
        assert all(e["kind"] != "refused" for e in shown)
        calls = [e["command"] for e in shown if e["kind"] == "scene_call"]
        assert 'defend WHO against "Corve" effort=3' in calls
        assert {"assessed", "attack_resolved", "mettle_tested", "portent_spent", "lots_cast"} <= {e["kind"]
                                                                                               for e in shown}
        again = Console(session, tmp_path / "g.wyrd").handle("scene").events
        assert again[0]["kind"] == "refused" and "has ended" in again[0]["reason"]
    finally:
        session.close()


def test_a_retell_is_not_an_undo(tmp_path: Path) -> None:
    """Both casts of a Re-tell stay in the save; an undo takes a command back, into the audit trail."""
    path = tmp_path / "r.wyrd"
    lines = [*PARTY, 'check ada ingenuity vs 5 "pick the lock" roll 4 1', "retell ada roll 3 3", "blot bo roll 1 1"]
    session, shown = play_lines(path, [*lines, "undo"])
    try:
        assert shown[-1]["kind"] == "undone" and shown[-1]["command"] == "retell ada roll 3 3"
        assert any(e["kind"] == "refused" and "did not understand 'roll 1 1'" in e["reason"] for e in shown)
        assert session.save is not None
        live = [e for r in session.save.live_commands() for e in r.events if e["kind"] == "check_cast"]
        assert [e["cast"] for e in live] == ["c1"]
        assert session.state.characters["Ada"].portents == 3
        audit = transcript(session.save, wording("lots"), audit=True)
        assert any("retell ada roll 3 3 (undone)" in line for line in audit)
        assert any("[c2, re-telling c1]" in line for line in audit)
        assert any("re-tell c1: c1 is told again" in line for line in audit)
        assert any("undo (took back" in line for line in audit)
        # told again, then kept: both casts in the live record, the second naming the first
        Console(session, path).handle("retell ada roll 3 3")
        casts = [e for r in session.save.live_commands() for e in r.events if e["kind"] == "check_cast"]
        assert [(e["cast"], e["retell_of"]) for e in casts] == [("c1", None), ("c2", "c1")]  # the undone c2 never was
        spent = [e for r in session.save.live_commands() for e in r.events if e["kind"] == "portent_spent"]
        assert spent[-1]["erased"] == ["c1"] and spent[-1]["cost"] == 1
    finally:
        session.close()


@pytest.mark.parametrize("every", [wyrd.play.engine.history.SNAPSHOT_EVERY, 1, 2])
def test_resume_carries_on_the_story(every: int, tmp_path: Path) -> None:
    path = tmp_path / "s.wyrd"
    with mock.patch.object(wyrd.play.engine.history, "SNAPSHOT_EVERY", every):
        session, _ = play_lines(path, ["pc take all", "scene", "check ysolde survival vs 5", "scene", "scene",
                                       "undo"], story="harrow-mere")
        live = session.state.model_dump(mode="json")
        session.close()
        resumed = Session.resume(path)
    try:
        assert resumed.state.model_dump(mode="json") == live
        assert isinstance(resumed.follower, ScenarioPlay) and resumed.follower.played == ["causeway", "chapel"]
        events = Console(resumed, path).handle("scene").events
        assert [e["scene"] for e in events if e["kind"] == "scene_opened"] == ["ringer"]
        assert any(e["kind"] == "character_created" and e["name"] == "Corve" for e in events)
    finally:
        resumed.close()


NAME = st.sampled_from(["Ada", "Bo", "Grub", "a", "Zed"])
DISCIPLINE = st.sampled_from(["prowess", "willpower", "ingenuity", "pro", "magic"])
SMALL = st.integers(-1, 9)
FACES = st.one_of(st.just(""), st.tuples(st.integers(1, 4), st.integers(1, 4)).map(lambda f: f"roll {f[0]} {f[1]}"))


def _line(*parts: st.SearchStrategy[Any] | str) -> st.SearchStrategy[str]:
    drawn = [p if isinstance(p, st.SearchStrategy) else st.just(p) for p in parts]
    return st.tuples(*drawn).map(lambda words: " ".join(str(w) for w in words if w != "").strip())


LINES = st.one_of(
    _line("check", NAME, DISCIPLINE, "vs", SMALL, FACES),
    _line("again", NAME, FACES),
    _line("lots", st.sampled_from(["", "ada", '"the weather"']), FACES),
    _line("assess", NAME, DISCIPLINE, SMALL, st.sampled_from(["", "observe", "aggressive for 30", "rushed living"])),
    _line("attack", NAME, NAME, SMALL.map(lambda n: f"effort={n}"), st.sampled_from(["", "undefended", "off=7"])),
    _line("defend", NAME, "against", NAME, SMALL.map(lambda n: f"effort={n}")),
    _line("pain", NAME, SMALL), _line("rest", NAME),
    _line(st.sampled_from(["retell", "blot"]), NAME, st.sampled_from(["", "c1", "c3"])),
    _line("award", NAME, SMALL), _line("convert", NAME, SMALL, st.sampled_from(["portents", "dp"])),
    _line("develop", NAME, DISCIPLINE),
    st.sampled_from(["undo", "status", "pc", "pc ada", "log all", "help check", "story harrow-mere", "scene",
                     "pc take tam", "chekc ada"]),
)
GAMES = st.lists(LINES, min_size=1, max_size=25).map(lambda lines: [*PARTY, *lines])
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(lines=GAMES, seed=st.integers(0, 2**32), every=st.sampled_from([wyrd.play.engine.history.SNAPSHOT_EVERY, 3, 1]))
def test_replay_equals_live_play(lines: list[str], seed: int, every: int) -> None:
    with folder() as tmp, mock.patch.object(wyrd.play.engine.history, "SNAPSHOT_EVERY", every):
        session, shown = play_lines(tmp / "live.wyrd", lines, seed=seed)
        live = (session.state.model_dump(mode="json"), session.next_event, session.next_command)
        follower = session.follower.snapshot() if session.follower is not None else None
        session.close()
        resumed = Session.resume(tmp / "live.wyrd")
        again, shown_again = play_lines(tmp / "again.wyrd", lines, seed=seed)
        try:
            assert (resumed.state.model_dump(mode="json"), resumed.next_event, resumed.next_command) == live
            assert (resumed.follower.snapshot() if resumed.follower is not None else None) == follower
            assert resumed.save is not None and resumed.save.integrity_check() == []
            assert shown_again == shown  # the same seed and lines, the same events
        finally:
            resumed.close()
            again.close()


def test_physical_dice_typed_with_the_command_are_replayed(tmp_path: Path) -> None:
    path = tmp_path / "t.wyrd"
    session, shown = play_lines(path, [*PARTY, "attack bo ada effort=2 roll 4 4 1 1"])
    session.close()
    cast = [(e["weal"], e["woe"], e["lot"]) for e in shown if e["kind"] == "check_cast"]
    assert cast == [(4, 4, "crit"), (1, 1, "fumble")]  # the blow's cast, then Ada's Mettle test
    resumed = Session.resume(path)
    try:
        assert resumed.state.characters["Ada"].condition.incapacitated
        assert resumed.save is not None
        rolls = [(r.sides, r.faces, r.purpose) for r in list(resumed.save.live_commands())[-1].dice]
        assert rolls == [(4, (4,), "weal"), (4, (4,), "woe"), (4, (1,), "weal"), (4, (1,), "woe")]
    finally:
        resumed.close()


def test_dice_typed_at_the_prompt_are_d4s(tmp_path: Path) -> None:
    asked: list[tuple[int, int, str]] = []
    answers = iter([[5], [3], [4], [2]])

    def ask(n: int, sides: int, purpose: str) -> list[int]:
        asked.append((n, sides, purpose))
        return next(answers)

    session, shown = play_lines(tmp_path / "a.wyrd", [PARTY[0], "check ada prowess vs 5", "check ada prowess vs 5"],
                                dice_mode="typed", ask=ask)
    session.close()
    assert asked[0] == (1, 4, "weal")
    refused = [e for e in shown if e["kind"] == "refused"]
    assert refused and refused[0]["rule"] == "dice.face-range"  # 5 is not on a d4
    cast = next(e for e in shown if e["kind"] == "check_cast")
    assert (cast["weal"], cast["woe"]) == (3, 4)


def test_hints_say_what_portents_cost_and_who_reels(tmp_path: Path) -> None:
    session, _ = play_lines(tmp_path / "h.wyrd", [*PARTY, "attack bo grub effort=3 roll 4 3",
                                                  "check ada ingenuity vs 5 roll 4 1"])
    try:
        hints = HOOKS.hints(session.state)
        assert any("cast c2 (Ada's check)" in h and "Ada 1 (has 3), Bo 2 (has 2)" in h for h in hints)
        assert "Grub loses their next action, reeling (a defence is still allowed)." in hints
        assert any(h.startswith("Ada may try again (again Ada): success 88% (7/8)") for h in hints)
        assert "|" in HOOKS.toolbar(session.state) and "\n" not in HOOKS.toolbar(session.state)
        assert any("[reeling]" in line for line in HOOKS.status(session.state))
        assert HOOKS.sheet(session.state, "Ada")[0] == "Ada"
    finally:
        session.close()


def test_every_event_kind_reads_as_a_line() -> None:
    kinds = {m.model_fields["kind"].default for m in get_args(get_args(LotsEvent)[0])}
    assert len(kinds) == 17
    assert kinds | {"scene_opened", "scene_call", "story_closed"} <= set(TEXTS)
    for name in ("lots_table.jsonl", "lots_harrow_mere.jsonl"):
        for raw in (GOLDEN / name).read_text(encoding="utf-8").splitlines():
            event = json.loads(raw)
            if event["kind"] in TEXTS:
                line = describe(event, "lots").text
                assert not line.startswith(f"{event['kind']}:"), line  # never the raw fallback


def test_narration_is_one_or_two_lines_a_command(tmp_path: Path) -> None:
    session = Session.new(tmp_path / "n.wyrd", seed=3, ruleset="lots", story="harrow-mere")
    console = Console(session, tmp_path / "n.wyrd")
    try:
        for line in ["pc take all", "scene", "check ysolde survival vs 5", "lots", "scene", "scene",
                     "attack tam corve effort=3", "retell tam", "rest tam", "award tam 1"]:
            events = console.handle(line).events
            told = [e for e in events if e["kind"] == "narration"]
            assert 1 <= len(told) <= 2 or events[0]["kind"] == "refused", line
    finally:
        session.close()
    tables = bundled_tables()
    ours = [t for i, t in tables.items() if i.startswith("lots/")]
    assert len(ours) >= 20 and all(len(t.rows) >= 6 for t in ours)
    fortune = [t for t in ours if t.id.startswith("lots/fortune/")]
    assert len(fortune) == 4 and all("{character}" in r.text for t in fortune for r in t.rows)


def test_the_bundled_scenario_and_bad_ones(tmp_path: Path) -> None:
    scenario = find_scenario("harrow-mere", [BUNDLED])
    assert [p.name for p in scenario.pregens] == ["Ysolde", "Tam"] and scenario.npcs[0].name == "Corve"
    with pytest.raises(ScenarioError, match="known: harrow-mere"):
        find_scenario("nowhere", [BUNDLED])
    text = (BUNDLED / "lots" / "harrow-mere.yaml").read_text(encoding="utf-8")
    bad = {
        "npc": text.replace("fight: {npc: Corve", "fight: {npc: Morve"),
        "range": text.replace("survival: 6", "survival: 11"),
        "field": text.replace("premise:", "premis:"),
        "yaml": "ruleset: lots\nid: [unclosed\n",
    }
    for what, body in bad.items():
        path = tmp_path / f"{what}.yaml"
        path.write_text(body, encoding="utf-8")
        with pytest.raises(ScenarioError, match=f"{what}.yaml"):
            load_scenario(path)


def test_a_bad_story_leaves_no_save(tmp_path: Path) -> None:
    with pytest.raises(SessionError, match="no Thaeborn scenario"):
        Session.new(tmp_path / "x.wyrd", seed=1, ruleset="lots", story="nowhere")
    assert list(tmp_path.iterdir()) == []


def test_wyrd_play_ruleset_lots_story(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    script = tmp_path / "s.txt"
    script.write_text("pc take all\nscene\n", encoding="utf-8")
    code = main(["play", "--ruleset", "lots", "--story", "harrow-mere", "--seed", "2", "--save",
                 str(tmp_path / "p.wyrd"), "--script", str(script), "--json"])
    assert code == 0
    kinds = [json.loads(line)["kind"] for line in capsys.readouterr().out.splitlines()]
    assert kinds[:2] == ["session_started", "story_chosen"] and "scene_opened" in kinds


def test_lines_read_to_the_same_arguments() -> None:
    session = Session(None, seed=1, ruleset="lots")
    for line in PARTY:
        session.apply(line, session.parse(line))
    assert session.parse("check a pro vs 5").args == session.parse("check Ada prowess vs 5").args
    assert session.parse('retell ADA C2 roll 1 4').args == {"who": "Ada", "cast": "c2", "faces": [1, 4], "edition": 2}
    assert session.parse("convert bo 2 dp").args["into"] == "development"
