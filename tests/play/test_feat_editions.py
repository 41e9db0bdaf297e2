"""Heroes of the Fall games saved before issue 17's readings resume as they were played.

Issue 17, item 15 changed what some commands decide: `try WHO ATTRIBUTE N` now reads the
attribute as it is (seed 003: "The Attribute or Skill is deducted from the Difficulty"), where
it was an untrained skill with a d100; and a shock test held lets the character act on (seed
003: "If the roll is successful the character continues"), where one already out of action
stayed out, so a `recover` followed. The fixtures ``feat_try_attribute.wyrd`` and
``feat_shock_held.wyrd`` were played by the release before (``.script`` beside each is what was
typed, with ``--ruleset feat --story none --seed 17``); their ``.state.json`` is what that release
resumed them to, checked for every fixture by ``test_old_saves.py``. The other two changes only
accept what was refused before (a refused command is never saved), so ``feat_wyrd_oppose.wyrd``,
with bought 8s and opposed feats, resumes unchanged with no first reading at all.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from itertools import product
from pathlib import Path

import pytest

import wyrd.play.kits.feat.kit  # noqa: F401  (registers the feat kit)
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.feat.verbs import EDITION
from wyrd.rules.dice import Dice, ScriptedSource
from wyrd.rules.feat import GameState, Skill, add_character, shock, skill_feat
from wyrd.rules.feat.enums import Attribute
from wyrd.rules.feat.table import DICE_ROLLED, FEAT_MAX, FEAT_MIN, WYRD_PER_EIGHT, clamp_level, eight_positions
from wyrd.rules.feat.turn import first_reading

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "saves"


@pytest.fixture()
def resumed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], Session]]:
    """Resume a copy of a fixture (resuming may write, never to the fixture itself)."""
    monkeypatch.setenv("WYRD_HOME", str(tmp_path / "home"))
    opened: list[Session] = []

    def open_(name: str) -> Session:
        copy = tmp_path / f"{name}.wyrd"
        shutil.copyfile(FIXTURES / f"{name}.wyrd", copy)
        opened.append(Session.resume(copy))
        return opened[-1]

    yield open_
    for session in opened:
        session.close()


def test_an_old_try_of_an_attribute_kept_its_d100(resumed: Callable[[str], Session]) -> None:
    """The old `try Ida wit 6` rolled a d100 (53) then three d8: it replays so, and Rook's bought 8 stays paid."""
    session = resumed("feat_try_attribute")
    assert session.state.characters["Rook"].wyrd == 5


def test_a_new_try_after_an_old_save_reads_the_attribute_as_it_is(resumed: Callable[[str], Session]) -> None:
    """Old commands replay by the first reading; a command typed now follows the text."""
    session = resumed("feat_try_attribute")
    events = Console(session, None).handle("try Ida wit 6 dice 7 1 1").events
    assert session.parse("try Ida wit 6").args["edition"] == EDITION
    odds = next(e for e in events if e["kind"] == "odds_shown")
    assert odds["p_success"] == "1/4" and odds["rating"] == "5"
    assert not any(e["kind"] == "step_up_rolled" for e in events)


def test_an_old_held_shock_left_bram_out_and_recover_still_replays(resumed: Callable[[str], Session]) -> None:
    """Old: shock failed, shock held (Bram stayed out), `recover Bram`; then again failed and held:
    Bram is out as the old release left him, and Ida (failed once) too."""
    session = resumed("feat_shock_held")
    chars = session.state.characters
    assert chars["Bram"].out_of_action and chars["Ida"].out_of_action


def test_a_shock_held_now_after_an_old_save_frees_the_character(resumed: Callable[[str], Session]) -> None:
    session = resumed("feat_shock_held")
    session.apply("shock Bram dice 8 8 8", session.parse("shock Bram dice 8 8 8"))
    assert not session.state.characters["Bram"].out_of_action
    reply = session.apply("recover Bram", session.parse("recover Bram"))
    assert reply.reason is not None and "not out of action" in reply.reason


def _ida() -> GameState:
    values = {Attribute.VIGOUR: 6, Attribute.METTLE: 5, Attribute.WIT: 5, Attribute.GLAMOUR: 4, Attribute.SPIRIT: 5}
    return add_character(GameState(), Dice(), "Ida", values,
                         skills={"climbing": Skill(attribute=Attribute.VIGOUR, ranks=3)}).state


def test_the_first_reading_reads_an_attribute_try_as_an_untrained_skill() -> None:
    state = _ida()
    with first_reading():
        old = skill_feat(state, Dice(ScriptedSource([53, 8, 6, 2])), "Ida", "wit", 6)
    new = skill_feat(state, Dice(ScriptedSource([7, 1, 1])), "Ida", "wit", 6)
    assert [e.kind for e in old.events] == ["step_up_rolled", "feat_rolled"]
    assert [e.kind for e in new.events] == ["feat_rolled"]


def test_the_first_reading_keeps_a_held_shock_out_of_action() -> None:
    state = shock(_ida(), Dice(ScriptedSource([1, 1, 1])), "Ida").state
    with first_reading():
        assert shock(state, Dice(ScriptedSource([8, 8, 8])), "Ida").state.characters["Ida"].out_of_action
    assert not shock(state, Dice(ScriptedSource([8, 8, 8])), "Ida").state.characters["Ida"].out_of_action


def test_the_wyrd_checked_by_the_level_is_never_dearer_than_the_8s_asked() -> None:
    """The old check priced every 8 asked (5 each); the new one prices what the level buys. For any
    level a feat can land at and any 8s asked, the new price is at most the old: whatever the old
    release accepted is accepted now, and what is spent was already what the level uses."""
    for level, eights in product(range(FEAT_MIN - 8, FEAT_MAX + 9), range(DICE_ROLLED + 1)):
        assert WYRD_PER_EIGHT * len(eight_positions(clamp_level(level), eights)) <= WYRD_PER_EIGHT * eights


def test_an_old_opposed_feat_resists_as_before() -> None:
    """An opponent with the skill, or with the attribute named by `vs`, was accepted before and reads
    the same; only an opponent without the skill (refused before, so never saved) reads anew."""
    session = Session.new(None, seed=3, ruleset="feat")
    console = Console(session, None)
    console.handle("pc add Ida vigour=6 mettle=6 wit=5 glamour=4 spirit=4 skill=climbing:vigour:3")
    console.handle("pc add Rook vigour=6 mettle=3 wit=5 glamour=2 spirit=2 tier=none skill=climbing:vigour:6/81")
    for line in ("oppose Rook Ida climbing", "oppose Ida Rook climbing vs wit"):
        args = session.parse(line).args
        with first_reading():
            old = session.kit.verbs.verbs()["oppose"].apply(session.state, Dice(ScriptedSource([50, 50, 4, 4, 4])),
                                                             {**args, "edition": None})
        new = session.kit.verbs.verbs()["oppose"].apply(session.state, Dice(ScriptedSource([50, 50, 4, 4, 4])), args)
        assert old.events == new.events
    session.close()

