"""Following a story (stories/abacus/flow.py): what the rules core is given, and where scenes lead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from wyrd.rules.abacus import (
    Ability,
    ChallengeSpec,
    GameState,
    StageRule,
    enlist,
    install,
    start_scene,
)
from wyrd.rules.abacus.errors import CreationError
from wyrd.rules.dice import Dice, SeededSource
from wyrd.stories.abacus import flow
from wyrd.stories.abacus.flow import Progress, exits, holds, next_scene
from wyrd.stories.abacus.schema import Story

Data = Callable[[], dict[str, Any]]


@pytest.fixture
def story(story_data: Data) -> Story:
    return Story.model_validate(story_data())


def test_setup_gives_plain_rules_core_models(story: Story) -> None:
    setup = flow.setup(story)
    assert [type(r) for r in setup.rules] == [StageRule]
    assert all(type(c) is ChallengeSpec for c in setup.catalogue)
    assert [c.id for c in setup.catalogue] == ["ghost-wail", "ghost-grip", "door"]
    assert setup.catalogue[0].denizen == "ghost"  # set from the denizen it sits under
    assert setup.catalogue[2].denizen is None
    assert [d.id for d in setup.denizens] == ["ghost"] and setup.denizens[0].needs == "any"
    assert [c.id for c in setup.clocks] == ["night"] and [c.id for c in setup.counters] == ["dread"]


def test_rules_core_installs_and_plays_a_scene(story: Story) -> None:
    dice = Dice(SeededSource(1))
    setup = flow.setup(story)
    state = install(GameState(), dice, rules=setup.rules, clocks=setup.clocks, counters=setup.counters,
                    denizens=setup.denizens, catalogue=setup.catalogue, connections=setup.connections).state
    for char in flow.characters(story):
        state = enlist(state, dice, char.model_copy(update={"connection": None})).state
    out = start_scene(state, dice, ["Ada", "Bram"], "start", challenges=flow.scene_challenges(story, "start"),
                      rules=flow.scene_rules(story, "start"))
    assert out.state.scene is not None
    assert list(out.state.scene.challenges) == ["ghost-wail", "ghost-grip", "door"]
    assert out.state.scene.challenges["ghost-grip"].after == ["ghost-wail"]
    assert "draught" in out.state.stage_rules and "cold" in out.state.stage_rules


def test_scene_rules_and_evident_rules(story: Story) -> None:
    assert [r.id for r in flow.scene_rules(story, "start")] == ["draught"]
    assert flow.scene_rules(story, "start")[0].source == "scene start"
    assert [r.id for r in flow.evident_rules(story, "start")] == ["cold"]
    assert flow.scene_challenges(story, "end") == []


def test_characters_by_the_creation_rules(story: Story) -> None:
    ada, bram = flow.characters(story)
    assert ada.scores == {Ability.BODY: 5, Ability.MIND: 5, Ability.SOUL: 5}
    assert ada.connection == "Bram"  # the pregen id, as the character's name
    assert ada.facets == {Ability.BODY: ["tall", "tired"]}
    assert bram.wyrd == 1
    with pytest.raises(KeyError):
        flow.character(story, "cora")


def test_a_pregen_that_breaks_the_rules_is_refused(story_data: Data) -> None:
    data = story_data()
    data["pregens"][0]["body"] = 9
    with pytest.raises(CreationError):
        flow.characters(Story.model_validate(data))


def test_exits_in_order_each_once(story: Story) -> None:
    assert exits(story, "start", Progress()) == ["end"]
    assert exits(story, "end", Progress()) == []
    assert next_scene(story, "start", Progress()) == "end"
    assert next_scene(story, "end", Progress()) is None


def test_conditions_hold(story: Story) -> None:
    progress = Progress(overcome=frozenset({"a"}), failed=frozenset({"b"}), clocks={"night": 5},
                        counters={"dread": 2}, defeated_any=True)
    exit_ = story.scenes[0].next[0]
    assert holds(exit_.when, Progress(overcome=frozenset({"ghost-wail"})))
    assert not holds(exit_.when, Progress())
    cases: list[tuple[Any, bool]] = [
        ("always", True), ({"overcome": "a"}, True), ({"overcome": "b"}, False), ({"failed": "b"}, True),
        ({"failed": "a"}, False), ({"clock_at_least": {"clock": "night", "value": 5}}, True),
        ({"clock_at_least": {"clock": "night", "value": 6}}, False),
        ({"clock_at_least": {"clock": "day", "value": 0}}, True),
        ({"counter_at_least": {"counter": "dread", "value": 2}}, True),
        ({"counter_at_least": {"counter": "dread", "value": 3}}, False), ({"defeated_any": True}, True),
    ]
    from wyrd.stories.abacus.flow import Exit

    for when, expected in cases:
        assert holds(Exit.model_validate({"scene": "s", "when": when}).when, progress) is expected, when
    assert not holds(Exit.model_validate({"scene": "s", "when": {"defeated_any": True}}).when, Progress())


def test_progress_from_state(story: Story) -> None:
    dice = Dice(SeededSource(1))
    setup = flow.setup(story)
    state = install(GameState(), dice, clocks=setup.clocks, counters=setup.counters, catalogue=setup.catalogue).state
    state.clocks["night"].value = 7
    progress = Progress.of(state, overcome=["ghost-wail-2", "door"], failed=["gate-10-2"])
    assert progress.overcome == {"ghost-wail-2", "ghost-wail", "door"}  # a second placing counts too
    assert progress.failed == {"gate-10-2", "gate-10"}
    known = ["ghost-wail", "wave", "wave-2"]
    progress = Progress.of(state, overcome=["ghost-wail-2", "wave-2", "door-3"], known=known)
    assert progress.overcome == {"ghost-wail-2", "ghost-wail", "wave-2", "door-3"}
    assert progress.clocks == {"night": 7} and progress.counters == {"dread": 0}
    assert not progress.defeated_any


def test_complications(story_data: Data) -> None:
    data = story_data()
    data["complications"] = [{"id": "storm", "text": "A storm.", "challenges": ["door"],
                              "stage_rules": ["cold", {"id": "wind", "name": "Wind"}]}]
    story = Story.model_validate(data)
    assert [c.id for c in flow.complication_challenges(story, "storm")] == ["door"]
    assert [r.id for r in flow.complication_rules(story, "storm")] == ["cold", "wind"]
    with pytest.raises(KeyError):
        flow.complication_rules(story, "flood")


def test_told_texts_and_postscripts_follow_the_outcomes() -> None:
    """Issue 18, point 3: a story's texts say `when` an outcome was rolled, and only then are they told;
    a postscript written for the outcome comes before those that always hold, and two characters with
    the same fate get different ones."""
    from wyrd.play.kits.abacus.following import StoryPlay
    from wyrd.rules.abacus import GameState
    from wyrd.rules.dice import Dice
    from wyrd.stories.abacus.exits import Told

    told = [Told(text="always"), Told(when={"overcome": "door"}, text="door open"),  # type: ignore[arg-type]
            Told(when={"failed": "door"}, text="door shut")]  # type: ignore[arg-type]
    assert flow.told(told, flow.Progress(overcome=frozenset({"door"}))) == ["always", "door open"]
    assert flow.told(told, flow.Progress(failed=frozenset({"door"}))) == ["always", "door shut"]
    story = Story.model_validate({
        "id": "t", "title": "T", "premise": "p", "scenes": [{"id": "s", "title": "S", "location": "l", "finale": True}],
        "postscripts": {"freed": [{"id": "plain", "text": "{name} goes."},
                                  {"id": "won", "when": {"overcome": "door"}, "text": "{name} opened it."}]}})
    play = StoryPlay(story, overcome={"door"})
    out = play.postscripts({"Ada": "freed", "Bo": "freed"}, Dice.seeded(1), GameState())
    assert [p.entry for p in out] == ["won", "plain"]
    assert [p.entry for p in StoryPlay(story).postscripts({"Ada": "freed"}, Dice.seeded(1), GameState())] == ["plain"]
