"""Issue 18, point 8 ("Enough words"): the tables draw no line again while there are others.

A story's own seeds go through the no-repeat deck like table rows; once a place's seeds have all
been told, the tables describe it; a stage rule's own text is told the first time it fires, and its
later firings come from the table. Without a deck (an old caller) nothing changes.
"""

from __future__ import annotations

from wyrd.oracle.narrators.base import MomentKind, NarrationRequest
from wyrd.oracle.narrators.table import RULES_TOLD, STORY, TableNarrator
from wyrd.oracle.tables import bundled_tables
from wyrd.rules.abacus.events import StageRuleFired
from wyrd.rules.dice import Dice, SeededSource

SEEDS = ["The winch sings.", "A gull watches.", "Rain on the slates."]


def _opening(location: str = "The Slipway") -> NarrationRequest:
    return NarrationRequest(moment=MomentKind.SCENE_OPENING, location=location, seeds=list(SEEDS))


def test_a_places_seeds_are_each_told_once_then_the_tables_describe_it() -> None:
    deck: dict[str, list[str]] = {}
    narrator = TableNarrator(deck_state=deck)
    dice = Dice(SeededSource("seeds"))
    told = [narrator.narrate(_opening(), dice) for _ in range(5)]
    assert sorted(n.text for n in told[:3]) == sorted(SEEDS)
    assert all(n.text not in SEEDS and n.trace[0].startswith("narrate/scene/opening") for n in told[3:])


def test_without_a_deck_the_seeds_are_drawn_as_before() -> None:
    narrator = TableNarrator()
    dice = Dice(SeededSource("seeds"))
    assert all(narrator.narrate(_opening(), dice).text in SEEDS for _ in range(12))


def test_own_words_seeds_of_another_ruleset_go_round_before_any_comes_again() -> None:
    request = NarrationRequest(moment="feat/scene", own_words=True, seeds=list(SEEDS), told_by=["feat/scene/opening"],
                               values={"scene": "The quay"})
    narrator = TableNarrator(deck_state={})
    dice = Dice(SeededSource("own"))
    told = [narrator.narrate(request, dice) for _ in range(4)]
    assert sorted(n.text for n in told[:3]) == sorted(SEEDS) and {n.source for n in told[:3]} == {STORY}
    assert told[3].text not in SEEDS  # then the ruleset's table for the moment


def test_a_stage_rule_tells_its_own_text_once_then_the_table() -> None:
    fired = StageRuleFired(rule="the-sea-takes", name="The Sea Takes Its Due", text="The sea takes its due.")
    request = NarrationRequest(moment=MomentKind.STAGE_RULE_FIRED, events=[fired])
    deck: dict[str, list[str]] = {}
    narrator = TableNarrator(deck_state=deck)
    dice = Dice(SeededSource("rule"))
    first, second = narrator.narrate(request, dice), narrator.narrate(request, dice)
    assert first.text == "The sea takes its due." and second.text != first.text
    assert second.trace[0].startswith("narrate/stage-rule/fired") and len(deck[RULES_TOLD]) == 1
    assert TableNarrator().narrate(request, dice).text == "The sea takes its due."  # no deck: as before


def test_the_busiest_tables_have_enough_rows_for_a_sitting() -> None:
    """The tables told at nearly every scene or roll hold at least 20 rows (4 to 8 before issue 18)."""
    tables = bundled_tables()
    busy = ["narrate/scene/opening", "narrate/scene/closing", "narrate/scene-test/expected",
            "narrate/scene-test/altered", "narrate/scene-test/interrupted", "narrate/twist/threat",
            "narrate/twist/eerie", "narrate/twist/tie", "narrate/counter/changed", "narrate/stage-rule/fired",
            "wolden/check/partial", "wolden/check/success", "wolden/round", "feat/feat/success",
            "feat/feat/failure", "lots/blow/missed", "lots/blow/landed", "lots/scene", "lots/check/success"]
    thin = {t: len(tables[t].rows) for t in busy if len(tables[t].rows) < 20}
    assert not thin, thin


def test_a_story_s_twists_then_the_ruleset_s_before_any_repeats() -> None:
    """Issue 18, point 8: once a story's own twists of a kind have all come up, the ruleset's
    table of that kind deals out next; only when both are spent does the story's deck start again."""
    from wyrd.oracle.twists import draw_twist

    own = {"threat": ["The first of the story's own.", "The second of the story's own."]}
    generic = bundled_tables()["lots/twist/dark"]
    deck: dict[str, list[str]] = {}
    dice = Dice(SeededSource("twists in turn"))

    def draw() -> str:
        return draw_twist("Ada", "threat", dice, story_tables=own, deck_state=deck, story="tale",
                          generic="lots/twist/dark").table

    assert [draw(), draw()] == ["tale/twists/threat"] * 2
    assert [draw() for _ in generic.rows] == ["lots/twist/dark"] * len(generic.rows)
    texts = [draw_twist("Ada", "threat", dice, story_tables=own, deck_state=deck, story="tale",
                        generic="lots/twist/dark").text for _ in range(2)]
    assert sorted(texts) == sorted(own["threat"])  # both spent: the story's own again, each once


def test_without_a_deck_the_story_s_twists_are_drawn_as_before() -> None:
    from wyrd.oracle.twists import draw_twist

    own = {"eerie": ["Only this."]}
    dice = Dice(SeededSource("no deck"))
    assert {draw_twist("Ada", "eerie", dice, story_tables=own).text for _ in range(5)} == {"Only this."}
