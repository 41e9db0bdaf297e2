"""Replay equals live play: what a save rebuilds is exactly what was played.

Random games are drawn from a small grammar of plausible lines (random names, numbers, and many
lines the rules or the parser refuse) and played live through the console into a save. Then:

* ``Session.resume`` rebuilds a state equal to the live one (``model_dump`` equality), with and
  without snapshots along the way;
* ``undo`` of the last live command, then ``resume``, gives the state of a fresh session (same
  seed) that played the lines up to, not including, the one that made that command. Only states
  are compared: the dice of command ``seq`` come from ``Random(f"{seed}:{seq}")`` and an undo
  uses up a seq, so later dice differ by design;
* the same seed and the same lines give the same events twice.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import wyrd.play.engine.history
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console

NAMES = ["Ada", "Bo", "Cy", "ada", "b", "Zed"]
ABILITIES = ["body", "mind", "soul", "b", "so", "wyrd"]
TYPES = ["obstruction", "pursuit", "threat", "logic", "pressure", "wits", "foreboding", "invocation", "taint", "obs"]
CHALLENGES = ["Door", "Hound", "Dark Within"]
CHALLENGE_WORDS = ["door", "hound", "dark", "dark-within", "nothing"]

name = st.sampled_from(NAMES)
ability = st.sampled_from(ABILITIES)
small = st.integers(min_value=-1, max_value=8)
score = st.integers(min_value=2, max_value=10)
names = st.lists(name, min_size=1, max_size=3).map(", ".join)


def line(*parts: st.SearchStrategy[Any] | str) -> st.SearchStrategy[str]:
    """A line joined from fixed words and drawn ones."""
    drawn = [p if isinstance(p, st.SearchStrategy) else st.just(p) for p in parts]
    return st.tuples(*drawn).map(lambda words: " ".join(str(w) for w in words if w != "").strip())


def optional(*parts: st.SearchStrategy[Any] | str) -> st.SearchStrategy[str]:
    return st.one_of(st.just(""), line(*parts))


PC = st.one_of(
    line("pc add", st.sampled_from(["Ada", "Bo", "Cy"]), "body=5 mind=5 soul=5",
         optional(st.integers(0, 2).map(lambda n: f"wyrd={n}")), optional(name.map(lambda n: f"connection={n}"))),
    line("pc add", name, *(score.map(lambda n, a=a: f"{a}={n}") for a in ("body", "mind", "soul"))),
)
LINES = st.one_of(
    PC,
    line("scene", optional("with", names)),
    line("challenge add", st.sampled_from(CHALLENGES).map(lambda c: f'"{c}"'), st.sampled_from(TYPES), small,
         optional("after", st.sampled_from(CHALLENGE_WORDS))),
    line("attempt", st.sampled_from(CHALLENGE_WORDS), optional("by", name), optional("with", names)),
    line("spend", st.sampled_from([*NAMES, "hob"]), small, optional(ability), optional("via", name)),
    line("roll", optional(small)),
    line("draw", name, optional(small)),
    st.just("accept"),
    line("harm", name, ability, small),
    line("scratch", name, ability),
    line("influence", ability, optional(names)),
    line("wyrd", optional(names)),
    line("contest", ability, name, name),
    line("sabotage", name, st.sampled_from(CHALLENGE_WORDS), ability),
    line("cast", st.sampled_from(["ward", "charm", "spell", "conjuration"]), "by", names, ability, small,
         st.sampled_from(['"the old song"', '""', "rowan"]),
         st.sampled_from(["", "against=threat", "for=obstruction", "on=door", "servant=Hob", "denizen=x"])),
    line("option connections", st.sampled_from(["on", "off", "maybe"])),
    line("end scene", optional("recover", st.tuples(name, ability).map("=".join)),
         optional("connection", st.tuples(name, ability).map("=".join))),
    line("rest", name, ability),
    st.just("finale"),
    st.just("undo"),
    st.sampled_from(["pc", "status", "challenges", "log", "help", "help spend", "save", "atempt", "spend ada two"]),
)
PLAYERS = st.sampled_from(["Ada", "Bo", "ada", "b"])
ROLL = st.tuples(
    st.sampled_from(["Door", "Gate", "Well", "Mire", "Crypt"]),
    st.sampled_from(TYPES[:9]),
    st.integers(2, 9),
    PLAYERS,
    st.lists(line("spend", PLAYERS, st.integers(1, 3), optional(ability)), max_size=2),
    line("roll", optional(st.integers(1, 6))),
    st.lists(st.one_of(line("draw", PLAYERS, st.integers(1, 3)), st.sampled_from(["accept", "undo"])), max_size=2),
).map(lambda t: [f'challenge add "{t[0]}" {t[1]} {t[2]}', f"attempt {t[0].lower()} by {t[3]}", *t[4], t[5], *t[6]])
MAGIC = st.tuples(
    st.sampled_from([("ward", "against=threat"), ("ward", ""), ("charm", "for=obstruction"), ("spell", "on=door"),
                     ("spell", "on=door any_ability=yes"), ("conjuration", "servant=Hob"), ("conjuration", "")]),
    PLAYERS, ability, st.integers(1, 3),
).map(lambda t: [f'cast {t[0][0]} by {t[1]} {t[2]} {t[3]} "the old song" {t[0][1]}'.strip(), "spend hob 1"])
DEFEAT = line("scratch", PLAYERS, st.sampled_from(["body", "mind"])).map(lambda x: [x, x])
NEXT_SCENE = st.tuples(
    st.sampled_from(["end scene", "end scene recover ada=body", "end scene connection bo=soul"]),
    st.lists(line("rest", name, ability), max_size=1),
    line("scene", optional("with", names)),
    line("challenge add", st.sampled_from(CHALLENGES).map(lambda c: f'"{c}"'), st.sampled_from(TYPES[:9]),
         st.integers(2, 8)),
).map(lambda t: [t[0], *t[1], t[2], t[3]])
OPENING = ["pc add Ada body=6 mind=5 soul=4", "pc add Bo body=5 mind=5 soul=5 wyrd=1 connection=Ada", "scene",
           'challenge add "Door" obstruction 5']
GAMES = st.tuples(
    st.sampled_from([True, True, True, False]),
    st.lists(st.tuples(st.one_of(LINES.map(lambda x: [x]), NEXT_SCENE, MAGIC, MAGIC, DEFEAT, st.just([])), ROLL),
             min_size=1, max_size=8),
).map(lambda t: (OPENING if t[0] else []) + [x for other, roll in t[1] for x in [*other, *roll]])
SEEDS = st.integers(min_value=0, max_value=2**32)
FAST = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextmanager
def folder() -> Iterator[Path]:
    """A scratch folder, in memory where there is one (every command is an fsync'ed commit)."""
    where = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(dir=where) as name:
        yield Path(name)


def play_live(path: Path, seed: int, lines: list[str]) -> tuple[Session, list[dict[str, Any]], dict[int, int]]:
    """Play ``lines``; the events shown, and which line made each command (seq -> index)."""
    session = Session.new(path, seed=seed, ruleset="abacus")
    console = Console(session, path)
    shown: list[dict[str, Any]] = []
    made: dict[int, int] = {}
    assert session.save is not None
    for i, text in enumerate(lines):
        before = session.save.last_seq()
        shown += console.handle(text).events
        after = session.save.last_seq()
        assert after - before in (0, 1)
        if after > before:
            made[after] = i
    return session, shown, made


def dump(session: Session) -> tuple[dict[str, Any], int, int]:
    return session.state.model_dump(mode="json"), session.next_event, session.next_command


@FAST
@given(lines=GAMES, seed=SEEDS, every=st.sampled_from([wyrd.play.engine.history.SNAPSHOT_EVERY, 3, 1]))
def test_resume_equals_live(lines: list[str], seed: int, every: int) -> None:
    with folder() as tmp, mock.patch.object(wyrd.play.engine.history, "SNAPSHOT_EVERY", every):
        path = tmp / "live.wyrd"
        session, shown, _ = play_live(path, seed, lines)
        for kind in {"challenge_rolled", "magic_cast", "character_defeated", "undone", "scene_ended"}:
            event(f"{kind}: {'yes' if any(e['kind'] == kind for e in shown) else 'no'}")
        live = dump(session)
        session.close()
        resumed = Session.resume(path)
        try:
            assert dump(resumed) == live
            assert resumed.save is not None and resumed.save.integrity_check() == []
        finally:
            resumed.close()


@FAST
@given(lines=GAMES, seed=SEEDS, every=st.sampled_from([wyrd.play.engine.history.SNAPSHOT_EVERY, 2]))
def test_undo_then_resume_equals_never_played(lines: list[str], seed: int, every: int) -> None:
    with folder() as tmp, mock.patch.object(wyrd.play.engine.history, "SNAPSHOT_EVERY", every):
        path = tmp / "live.wyrd"
        session, _, made = play_live(path, seed, lines)
        assert session.save is not None
        last = session.save.last_live()
        shown = session.next_event
        undo = Console(session, path).handle("undo")
        session.close()
        if last is None or last.parsed.get("verb") == "start":
            assert undo.events[0]["kind"] == "refused"
            return
        assert [e.plain() for e in undo.events] == [{"seq": None, "kind": "undone", "command": last.text,
                                                     "command_seq": last.seq}]
        resumed = Session.resume(path)
        fresh, _, _ = play_live(tmp / "fresh.wyrd", seed, lines[: made[last.seq]])
        try:
            assert resumed.state.model_dump(mode="json") == fresh.state.model_dump(mode="json")
            # Event numbers are never reused: after the undo they go on from the last shown.
            assert resumed.next_event == shown
            assert resumed.save is not None and resumed.save.integrity_check() == []
        finally:
            resumed.close()
            fresh.close()


@FAST
@given(lines=GAMES, seed=SEEDS)
def test_same_seed_same_lines_same_events(lines: list[str], seed: int) -> None:
    with folder() as tmp:
        first, shown_first, _ = play_live(tmp / "1.wyrd", seed, lines)
        second, shown_second, _ = play_live(tmp / "2.wyrd", seed, lines)
        try:
            assert shown_first == shown_second
            assert first.state.model_dump(mode="json") == second.state.model_dump(mode="json")
        finally:
            first.close()
            second.close()

