"""One narration path for every ruleset (issue 15, points 3 and 5): kits hand typed moments to the
storyteller, the firewall checks a model's words against what each ruleset's dice settled, reasons
are read through enums, and a kit's narration is loaded only when first told."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from wyrd.oracle.events import Narrated, TwistDrawn
from wyrd.oracle.narrators.base import MomentKind, NarrationRequest
from wyrd.oracle.narrators.firewall import check
from wyrd.oracle.narrators.table import TableNarrator
from wyrd.oracle.narrators.telling import Command, KitNarration, LazyNarration, Told, narration_event
from wyrd.play.engine.kits import PlayHooks, kit_of
from wyrd.play.engine.narration import Storyteller
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.play.kits.abacus.moments import DrawReason, RollReason
from wyrd.play.kits.feat.narration import FeatMoment
from wyrd.play.kits.lots.narration import LotsMoment
from wyrd.play.kits.wolden.narration import WoldenMoment
from wyrd.prompts import prompt_set
from wyrd.rules.abacus.scenes import SCENE_TEST
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice


@pytest.mark.parametrize(("reason", "expected"), [
    ("to overcome the barrow door", DrawReason.OVERCOME), ("to work a ward", DrawReason.WORK),
    ("to bind a charm", DrawReason.BIND), ("as the price of attempting the door", DrawReason.PRICE),
    ("for Ada to spend Body on the door", DrawReason.SPEND), ("to overcome", DrawReason.OVERCOME),
    ("sabotage by Bo", None), ("", None), (None, None), ("to overcomes", None),
])
def test_a_draw_reason_is_read_by_enum(reason: object, expected: DrawReason | None) -> None:
    """The rules write why Wyrd was drawn (wyrd/rules/abacus/challenge.py, magic.py); the values are theirs."""
    assert DrawReason.of(reason) == expected


def test_roll_reasons_are_the_rules_own_words() -> None:
    """Issue 15, point 5: the kit matches the rules' own enums, not copies of their English."""
    from wyrd.rules.abacus import reasons

    assert RollReason is reasons.RollReason and DrawReason is reasons.DrawReason
    assert RollReason.SCENE_TEST == SCENE_TEST
    assert {r.value for r in RollReason} == {"defeat", "finale", "scene test", "scene end", "rest", "called",
                                              "called by a stage rule", "singled out by a stage rule"}


def test_a_saved_reason_reads_back_as_the_rules_enum_and_the_players_words_as_text() -> None:
    """Issue 15, point 5: a reason is an enum once typed, its JSON the word it always was."""
    from wyrd.play.kits.abacus.events import KINDS
    from wyrd.rules.abacus.reasons import RecoveryReason

    rolled = {"kind": "influence_rolled", "character": "Ada", "trait": "wyrd", "dice": [3], "result": 3, "ties": 1}
    rest = KINDS.parse({**rolled, "reason": "rest"})
    assert getattr(rest, "reason", None) is RollReason.REST
    assert rest.model_dump(mode="json")["reason"] == "rest"
    own = KINDS.parse({**rolled, "reason": "the bell tolls"})
    assert type(getattr(own, "reason", None)) is str
    recovered = KINDS.parse({"kind": "points_recovered", "character": "Ada", "ability": "body", "n": 1,
                             "points_after": 5, "reason": "connection"})
    assert getattr(recovered, "reason", None) is RecoveryReason.CONNECTION


def request(moment: str, **fields: Any) -> NarrationRequest:
    return NarrationRequest(moment=moment, **fields)


@pytest.mark.parametrize(("moment", "flags", "reply", "refused"), [
    (LotsMoment.BLOW, {"success": False, "harm": False, "death": False}, "Grub is wounded and reels.", "injury"),
    (LotsMoment.BLOW, {"success": False, "harm": False, "death": False}, "Ada's blow succeeds at last.", "failure"),
    (WoldenMoment.CHECK, {"success": True, "harm": False, "death": False}, "Ada fails to cross.", "success"),
    (FeatMoment.WOUND, {"harm": True, "death": False}, "Wenna is slain on the stair.", "death"),
    (FeatMoment.DEATH, {"harm": True, "death": True}, "Wenna is slain on the stair.", None),
    (WoldenMoment.WOUND, {"harm": True, "death": False}, "Bo is wounded; it will take time.", None),
])
def test_the_firewall_checks_a_kits_moment_against_what_it_settled(
        moment: str, flags: dict[str, Any], reply: str, refused: str | None) -> None:
    verdict = check(reply, request(moment, **flags))
    assert verdict.ok is (refused is None)
    if refused:
        assert refused in verdict.reason


def test_a_kits_own_tables_tell_its_moment_and_its_marks_name_the_table() -> None:
    told = request(LotsMoment.BLOW, detail="missed", told_by=["lots/blow/missed"],
                   values={"attacker": "Ada", "target": "Grub"}, marks={"table": "lots/blow/missed"})
    narration = TableNarrator().narrate(told, Dice.seeded(3))
    assert "Ada" in narration.text or "Grub" in narration.text
    event = narration_event(told, narration.event())
    assert event.model_dump() == {"kind": "narration", "text": narration.text, "source": "table",
                                  "table": "lots/blow/missed"}
    by_model = narration_event(told, Narrated(text="x", source="some-model", moment="lots/blow"))
    assert by_model.moment == "lots/blow" and by_model.table is None
    fell_back = narration_event(told, narration.event().model_copy(update={"fallback": "firewall: a number"}))
    assert fell_back.table == "lots/blow/missed" and fell_back.fallback == "firewall: a number"


def test_a_kits_own_words_are_told_as_written() -> None:
    told = request(LotsMoment.SCENE_SEED, seeds=["The mere is still.", "Reeds whisper."], own_words=True, marks={})
    narration = TableNarrator().narrate(told, Dice.scripted([2]))
    assert (narration.text, narration.source) == ("Reeds whisper.", "story")


def test_a_ruleset_moment_is_asked_of_a_model_with_its_own_prompt() -> None:
    spec = prompt_set().for_moment(LotsMoment.BLOW)
    assert spec.id == "lots/fight" and "Thaeborn" in spec.template
    assert prompt_set().for_moment(MomentKind.TWIST).id == "twist"


class Counting(KitNarration):
    deck = False

    def __init__(self) -> None:
        self.commands: list[Command] = []

    def tell(self, command: Command) -> Told:
        self.commands.append(command)
        return Told(added=[TwistDrawn(character="Ada", result=6, category="tie", text="x", table="t", row="1")],
                    moments=[request(LotsMoment.REST, told_by=["lots/rest"], values={"character": "Ada"},
                                     marks={"table": "lots/rest"})])


COUNTING = Counting()


def test_the_storyteller_tells_any_kit_with_the_new_call() -> None:
    kit = PlayHooks(ruleset="test", tell=LazyNarration(f"{__name__}:COUNTING"))
    teller = Storyteller()
    out = teller.tell(kit, "before", "after", [], Dice.seeded(1), "follower")
    assert [e.kind for e in out] == ["twist", "narration"] and getattr(out[1], "table", None) == "lots/rest"
    seen = COUNTING.commands[-1]
    assert (seen.before, seen.after, seen.follower, seen.deck) == ("before", "after", "follower", teller.deck)
    assert teller.deck == {}  # this kit draws without the deck ...
    forced = Storyteller(deck=True)
    forced.tell(kit, None, None, [], Dice.seeded(1))
    assert list(forced.deck) == ["lots/rest"]  # ... unless the storyteller is told to use it for every kit
    quiet = Storyteller(prose=False).tell(kit, None, None, [], Dice.seeded(1))
    assert [e.kind for e in quiet] == ["twist"]
    assert COUNTING.commands[-1].prose is False  # the kit is told no prose will be asked of it


@pytest.mark.parametrize("ruleset", ["abacus", "wolden", "feat", "lots"])
def test_without_prose_no_kit_looks_for_moments_but_the_abacus_still_adds_its_twists(ruleset: str) -> None:
    """A storyteller without prose (bots, benchmarks) tells kits so: finding moments that will
    never be told was 0.08 ms of every command; the events a kit adds are kept."""
    from wyrd.play.engine.kits import hooks_for

    session = Session.new(None, seed=4, ruleset=ruleset)
    before = session.state
    hook = hooks_for(ruleset).tell
    assert isinstance(hook, KitNarration)
    told = hook.resolve().tell(Command(before, before, [], Dice.seeded(1), prose=False))
    assert list(told.moments) == []
    if ruleset == "abacus":
        from wyrd.rules.abacus.events import InfluenceRolled

        sixes = [InfluenceRolled(character="Ada", trait="wyrd", dice=[6], result=6, ties=0, reason="called")]
        with_twist = hook.resolve().tell(Command(before, before, sixes, Dice.seeded(1), prose=False))
        assert [e.kind for e in with_twist.added] == ["twist"] and list(with_twist.moments) == []


def test_a_lazy_narration_must_name_one() -> None:
    with pytest.raises(TypeError):
        LazyNarration("wyrd.play.engine.kits:PlayHooks").resolve()


def test_the_session_tells_the_abacus_through_its_kit_and_follower() -> None:
    """The session's one call, ``teller.tell(kit, before, after, events, dice, follower)``, for the Abacus too."""
    session = Session.new(None, seed=4, story="the-milestones", ruleset="abacus")
    console = Console(session)
    console.handle("pc take all")
    before = session.state
    reply = session.execute("scene")
    told = [e.event for e in reply.events if e.kind in ("narration", "scene_test", "twist")]
    assert any(e.kind == "narration" for e in told)
    events = [e.event for e in reply.events if e.kind not in ("narration", "scene_test", "twist")]
    again = Storyteller().tell(kit_of(before), before, session.state, events, Dice.seeded(9), session.follower)
    assert [e.kind for e in again] == [e.kind for e in told]


def test_a_plain_teller_still_works() -> None:
    def plain(before: object, after: object, events: list[Event], dice: Dice) -> list[Event]:
        return [Narrated(text="plain", source="table")]

    kit = PlayHooks(ruleset="test", tell=plain)
    assert Storyteller().tell(kit, None, None, [], Dice.seeded(1)) == [Narrated(text="plain", source="table")]
    assert Storyteller(prose=False).tell(kit, None, None, [], Dice.seeded(1)) == []


def test_the_abacus_leaves_minor_moments_out_and_asks_no_request_for_them_alone() -> None:
    """Issue 21, point 2: a game's setup (its stage rules added) has only minor moments, so no
    request is made for it (the request's validator waited before the first prompt); with
    ``detail`` they come back as before, and a major moment after minor ones is told the same."""
    from wyrd.play.kits.abacus.moments import moments
    from wyrd.rules.abacus.events import StageRuleAdded

    added = [StageRuleAdded(rule=f"r{i}", name=f"Rule {i}", source="story") for i in range(3)]
    assert moments(added) == []
    assert [r.moment for r in moments(added, detail=True)] == [MomentKind.STAGE_RULE] * 3
    started = Event.model_validate({"kind": "session_started"})
    with_major = moments([*added, started])
    assert [r.moment for r in with_major] == [MomentKind.PROLOGUE]
    assert with_major == [r for r in moments([*added, started], detail=True) if r.major]


def test_the_abacus_narration_is_not_asked_for_a_command_with_nothing_to_add_or_tell(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 21, point 2: a command without a Wyrd roll or a major moment (a story's stage rules
    added, a story chosen) has no scene test, no twist and no moment, so the storyteller does not
    ask the kit's narration (the story's facts are not gathered); with a major moment it does, and
    the moment is told as before."""
    from wyrd.play.kits.abacus import narration
    from wyrd.play.kits.abacus.kit import KIT
    from wyrd.play.kits.abacus.moments import moments
    from wyrd.rules.abacus import GameState
    from wyrd.rules.abacus.events import StageRuleAdded

    gathered: list[object] = []
    real = narration._facts
    monkeypatch.setattr(narration, "_facts", lambda *a: gathered.append(a) or real(*a))
    quiet = [StageRuleAdded(rule="r", name="R", source="story")]
    assert not KIT.tell.tells(quiet) and not narration.NARRATION.tells(quiet) and moments(quiet) == []
    state = GameState()
    assert narration.NARRATION.tell(Command(state, state, quiet, Dice.seeded(1), prose=True)).moments == []
    assert len(gathered) == 1  # asked anyway, it finds nothing
    added, told = Storyteller().additions(KIT, state, state, quiet, Dice.seeded(1))
    assert (added, told.requests) == ([], ()) and len(gathered) == 1
    started = Event.model_validate({"kind": "session_started"})
    added, told = Storyteller().additions(KIT, state, state, [*quiet, started], Dice.seeded(1))
    assert [r.moment for r in told.requests] == [MomentKind.PROLOGUE] and len(gathered) == 2


def test_the_abacus_kit_names_every_kind_its_narration_may_add_to_or_tell() -> None:
    """The kit decides without loading its narration; it must name exactly the kinds that may be a
    major moment (:mod:`wyrd.play.kits.abacus.moments`) and the Wyrd rolls that bring scene tests
    and twists."""
    from types import SimpleNamespace

    from wyrd.oracle.narrators.base import MAJOR_MOMENTS
    from wyrd.play.engine.events import SHARED_EVENTS
    from wyrd.play.kits.abacus.events import KINDS
    from wyrd.play.kits.abacus.kit import TOLD_KINDS
    from wyrd.play.kits.abacus.moments import _kind_of
    from wyrd.rules.abacus.events import InfluenceRolled

    kinds = {model.model_fields["kind"].default for model in (*KINDS.models, *SHARED_EVENTS)}
    major = {kind for kind in kinds for trait in ("wyrd", None) for reason in (*RollReason, None)
             if _kind_of(SimpleNamespace(kind=kind, trait=trait, reason=reason)) in MAJOR_MOMENTS}  # type: ignore[arg-type]
    assert major | {InfluenceRolled.model_fields["kind"].default} == TOLD_KINDS


def test_a_new_game_of_a_story_leaves_the_abacus_narration_unloaded(tmp_path: Path) -> None:
    """Issue 21, point 2: setting a game of The Hollow Fair up (its story chosen) tells nothing, so
    the Abacus's narration and the oracle's facts and twists are not imported before its first prompt."""
    code = ("import sys\n"
            "from wyrd.play.engine.session import Session\n"
            f"Session.new({str(tmp_path / 'g.wyrd')!r}, seed=1, ruleset='abacus', story='hollow-fair').close()\n"
            "print(sorted(m for m in sys.modules if m in ('wyrd.play.kits.abacus.narration', 'wyrd.oracle.facts', "
            "'wyrd.oracle.twists', 'wyrd.play.kits.abacus.moments')))")
    done = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2], capture_output=True,
                          text=True, timeout=60, check=True, env={"PATH": "/usr/bin:/bin", "WYRD_HOME": str(tmp_path)})
    assert done.stdout.split() == ["[]"]
