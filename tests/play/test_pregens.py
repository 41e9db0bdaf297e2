"""Pregenerated characters can be read before they are taken (issue 18, point 10).

"pregens that cannot be looked at before `pc take` (which `help` does not list)": `pregens`
shows each pregen of the story with its whole sheet and whether it is taken, in every ruleset,
and `pc` with no characters yet shows them and how to take them.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wyrd.play.engine.kits import hooks_for
from wyrd.play.engine.session import Session
from wyrd.play.frontends.console import Console
from wyrd.rulesets import rulesets

RULESETS = [r.id for r in rulesets()]

# Each bundled quick-start story's pregens, and a line of each one's sheet (its abilities).
CAST = {
    "abacus": (["Maud Ellery", "Danny Ellery"], "  Body  "),
    "wolden": (["Wenna Ashgrove", "Corin Tallow", "Ysolde Marrow"], "  Might "),
    "feat": (["Wenna Tarr", "Ansel Brack", "Maud Penhallow"], "  Vigour "),
    "lots": (["Ysolde", "Tam"], "  Willpower "),
}


def texts(console: Console, line: str) -> list[str]:
    return [shown.text for shown in console.handle(line).lines]


@pytest.fixture(params=RULESETS)
def in_story(request: pytest.FixtureRequest) -> Iterator[Console]:
    found = Console(Session.new(None, seed=1, ruleset=request.param, story=hooks_for(request.param).quick_start))
    yield found
    found.session.close()


def test_pregens_shows_every_pregen_with_their_sheet_and_whether_they_are_taken(in_story: Console) -> None:
    ruleset = in_story.session.ruleset
    names, ability = CAST[ruleset]
    state, follower = in_story.session.state, in_story.session.follower
    assert [n for n in names if n in state.characters] == ([] if ruleset != "feat" else names)
    shown = texts(in_story, "pregens")
    assert "pc take" in shown[0]
    heads = [line for line in shown[1:] if not line.startswith("  ")]
    assert [h.split(",")[0].split(" (")[0] for h in heads] == names
    taken = " (taken)" if ruleset == "feat" else " (not taken yet)"  # a story of Heroes of the Fall brings them in
    assert all(h.endswith(taken) for h in heads), heads
    assert sum(line.startswith(ability) for line in shown) == len(names)  # every sheet, its abilities included
    assert shown[1:] == hooks_for(ruleset).pregens(state, follower)


def test_a_taken_pregen_is_marked_taken_and_the_others_not(in_story: Console) -> None:
    ruleset = in_story.session.ruleset
    if ruleset == "feat":
        pytest.skip("its heroes come in with the story")
    names, _ = CAST[ruleset]
    first = names[0]
    joined = texts(in_story, f"pc take {first}")
    assert not any(t.startswith("Refused") for t in joined), joined
    heads = [line for line in texts(in_story, "pregens")[1:] if not line.startswith("  ")]
    assert heads[0].startswith(first) and heads[0].endswith(" (taken)")
    assert all(h.endswith(" (not taken yet)") for h in heads[1:])


def test_pc_with_no_characters_shows_the_pregens_and_how_to_take_them(in_story: Console) -> None:
    if in_story.session.ruleset == "feat":
        pytest.skip("its heroes come in with the story")
    shown = texts(in_story, "pc")
    assert shown[0].startswith("No characters yet.") and "`pc take NAME` or `pc take all`" in shown[0]
    assert shown[1:] == texts(in_story, "pregens")[1:]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_without_a_story_there_are_no_pregens(ruleset: str) -> None:
    console = Console(Session.new(None, seed=1, ruleset=ruleset))
    try:
        assert texts(console, "pregens")[0].startswith("There are no pregenerated characters here")
        assert texts(console, "pc") == ["No characters yet: `help pc` says how to make one."]
    finally:
        console.session.close()


@pytest.mark.parametrize(("ruleset", "line", "taken"), [
    ("wolden", "pc take Corin Tallow, ysolde", ["Corin Tallow", "Ysolde Marrow"]),
    ("wolden", "pc take wenna ashgrove", ["Wenna Ashgrove"]),
    ("lots", "pc take tam ysolde", ["Tam", "Ysolde"]),
    ("abacus", "pc take Danny Ellery maud", ["Danny Ellery", "Maud Ellery"]),
])
def test_pc_take_reads_names_alike_everywhere(ruleset: str, line: str, taken: list[str]) -> None:
    """Several names, each of several words or a unique beginning (Wolden read all the words as one name)."""
    console = Console(Session.new(None, seed=1, ruleset=ruleset, story=hooks_for(ruleset).quick_start))
    try:
        shown = texts(console, line)
        assert not any(t.startswith("Refused") for t in shown), shown
        assert sorted(console.session.state.characters) == sorted(taken)
    finally:
        console.session.close()


@pytest.mark.parametrize("ruleset", ["abacus", "wolden", "lots"])
def test_pc_take_all_takes_those_not_taken_yet(ruleset: str) -> None:
    """`pc take all` after one was taken takes the rest (it was refused for the one already in play)."""
    names, _ = CAST[ruleset]
    console = Console(Session.new(None, seed=1, ruleset=ruleset, story=hooks_for(ruleset).quick_start))
    try:
        texts(console, f"pc take {names[-1]}")
        shown = texts(console, "pc take all")
        assert not any(t.startswith("Refused") for t in shown), shown
        assert sorted(console.session.state.characters) == sorted(names)
        again = texts(console, "pc take all")
        assert again == ["Refused: every pregenerated character is in play already: `pc` shows their sheets"]
    finally:
        console.session.close()
