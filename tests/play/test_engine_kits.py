"""The engine plays every ruleset through its kit, alike (issue 15, points 2 and 5).

Each kit keeps its own verb table (the shared verbs included), found through the registry;
a line is read once into a :class:`~wyrd.play.engine.verbs.Command` whose verb is passed on;
every ruleset's story is followed by its kit's follower; the narration is asked the same way
for all four; the rules' events reach ``verb.after`` typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from wyrd.oracle.events import Narrated
from wyrd.play.engine.kits import PlayHooks, hooks_for, kit_of
from wyrd.play.engine.narration import Moments
from wyrd.play.engine.session import Session
from wyrd.play.engine.verbs import SHARED, Command, Verb, VerbTable
from wyrd.play.engine.words import UsageError
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.rulesets import find_ruleset, rulesets

RULESETS = [r.id for r in rulesets() if r.id in ("abacus", "wolden", "feat", "lots")]
PARTY = {
    "abacus": "pc add Ada body=5 mind=5 soul=5",
    "wolden": "pc add Ada lantern-wardens might=3 agility=2 mind=1 graces=0 gifts=steady-flame,roadwise",
    "feat": "pc add Bram vigour=5 mettle=5 wit=5 glamour=5 spirit=5",
    "lots": "pc add Bo prowess=6 willpower=5 mettle=3 portents=2",
}


@pytest.fixture(autouse=True)
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WYRD_HOME", str(tmp_path))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_kit_is_the_registry_s_and_its_table_holds_the_shared_verbs(ruleset: str) -> None:
    kit = hooks_for(ruleset)
    assert kit is find_ruleset(ruleset).part("kit").KIT and kit.ruleset == ruleset
    assert set(SHARED.verbs()) <= set(kit.verbs.verbs())
    assert kit_of(find_ruleset(ruleset).load().GameState()) is kit


def test_a_kit_s_verbs_are_its_own() -> None:
    """A verb registered by one kit is not another's: ``attempt`` is the Abacus's only."""
    own = {r: set(hooks_for(r).verbs.verbs()) - set(SHARED.verbs()) for r in RULESETS}
    assert "attempt" in own["abacus"]
    assert all("attempt" not in verbs for r, verbs in own.items() if r != "abacus")
    with pytest.raises(UsageError, match="unknown command"):
        hooks_for("wolden").verbs.find("attempt")


def test_a_table_registers_by_key_alias_and_prefix() -> None:
    table = VerbTable(shared=SHARED)

    @table.register
    class Juggle(Verb):
        """juggle

        Keep everything in the air.
        """

        key = "juggle"
        aliases = ("jg",)

    assert table.find("jg").key == table.find("jug").key == "juggle"
    assert table.find("help").key == "help"
    assert "juggle" not in SHARED.verbs()


def test_an_unknown_ruleset_has_no_kit() -> None:
    with pytest.raises(LookupError, match="no ruleset"):
        hooks_for("no-such-ruleset")


def test_a_line_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15, point 5: the verb of a line is found once, and apply is handed it."""
    session = Session.new(None, seed=1, ruleset="abacus")
    calls: list[str] = []
    find = VerbTable.find

    def counting(self: VerbTable, word: str) -> Any:
        calls.append(word)
        return find(self, word)

    monkeypatch.setattr(VerbTable, "find", counting)
    reply = session.execute(PARTY["abacus"])
    assert reply.changed and calls == ["pc"]
    command = session.parse("scene")
    assert isinstance(command, Command) and command.key == "scene"
    calls.clear()
    assert session.apply("scene", command).changed and calls == []


class _Recording:
    """Stands in for the Storyteller: records how the session asks it."""

    def __init__(self) -> None:
        self.deck: dict[str, list[str]] = {}
        self.asked: list[tuple[Any, ...]] = []

    def additions(self, kit: PlayHooks, before: Any, after: Any, events: list[Event], dice: Dice,
                  follower: Any) -> tuple[list[Event], Moments]:
        self.asked.append((kit, before, after, events, dice, follower))
        return [], Moments((None,), dice, False)  # type: ignore[arg-type]

    def tell_moments(self, moments: Moments, *, on_text: Any = None, on_told: Any = None) -> list[Event]:
        told: list[Event] = [Narrated(text="told", source="table") for _ in moments.requests]
        for event in told:
            if on_told is not None:
                on_told(event)
        return told

    def reset(self, deck: Mapping[str, list[str]] | None = None) -> None:
        self.deck.clear()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_narration_is_asked_alike_for_every_ruleset(ruleset: str) -> None:
    """Issue 15, point 3: one call, ``additions(kit, before, after, events, dice, follower)``, then the
    moments it leaves told after the commit (issue 19, point 1)."""
    session = Session.new(None, seed=1, ruleset=ruleset)
    teller = _Recording()
    session._teller = teller  # type: ignore[assignment]
    before = session.state
    reply = session.execute(PARTY[ruleset])
    assert reply.changed, reply.refused
    (kit, was, now, events, dice, follower), = teller.asked
    assert kit is session.kit and was is before and now is session.state
    assert follower is session.follower and isinstance(dice, Dice)
    # Issue 15, point 5: the narration is handed the events typed, never their JSON.
    assert events and all(isinstance(e, Event) for e in events)
    assert all(isinstance(e.event, Event) for e in reply.events)
    assert reply.events[-1]["kind"] == "narration" and reply.events[-1]["text"] == "told"


def test_the_rules_events_reach_after_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 15, point 5: verb.after sees the rules' own event objects, dumped only when saved."""
    session = Session.new(None, seed=1, ruleset="abacus")
    command = session.parse(PARTY["abacus"])
    seen: list[Sequence[object]] = []
    original = type(command.verb).after

    def spy(self: Any, args: Any, events: list[Any], ctx: Any, state: Any) -> list[dict[str, Any]]:
        seen.append(list(events))
        return original(self, args, events, ctx, state)

    monkeypatch.setattr(type(command.verb), "after", spy)
    reply = session.apply(PARTY["abacus"], command)
    assert seen and seen[0] and not any(isinstance(e, dict) for e in seen[0])
    assert reply.events[0]["kind"] == "character_created"


def test_the_abacus_hints_call_for_the_wyrd_roll_only_when_it_is_due() -> None:
    """Issue 15, point 4: the hints are the kit's, computed once from the command's events."""
    session = Session.new(None, seed=1, ruleset="abacus")
    session.execute(PARTY["abacus"])
    wyrd = "No Wyrd roll yet this scene"
    assert not any(wyrd in h for h in session.hints())
    reply = session.execute("scene")
    assert any(wyrd in h for h in session.hints(reply.events))
    reply = session.execute('challenge add "Gate" obstruction 3')
    assert reply.changed and not any(wyrd in h for h in session.hints(reply.events))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_kit_declares_what_it_adds(ruleset: str) -> None:
    """The kinds never replayed are the kit's own list: the engine names none of another's."""
    kit = hooks_for(ruleset)
    assert isinstance(kit.added_kinds, frozenset)
    assert "story_chosen" in kit.added_kinds


def test_the_abacus_kit_adds_typed_events_saved_as_before() -> None:
    """Issue 15, point 5: `story_chosen` is a typed event until saved, and saved as it always was."""
    from wyrd.play.kits.abacus.events import StoryChosen

    session = Session.new(None, seed=1, ruleset="abacus")
    command = session.parse("story hollow-fair")
    ctx = session.context(session.next_command)
    args = command.verb.prepare(dict(command.args), ctx)
    added = command.verb.after(args, [], ctx, session.state)
    assert [type(e) for e in added] == [StoryChosen]
    reply = session.apply("story hollow-fair", command)
    chosen = next(e for e in reply.events if e["kind"] == "story_chosen")
    assert isinstance(chosen.event, StoryChosen)
    assert list(chosen.plain()) == ["seq", "kind", "story", "title", "premise", "pregens"]
    assert chosen["story"] == "hollow-fair" and chosen["pregens"]
