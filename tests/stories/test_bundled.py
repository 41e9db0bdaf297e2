"""Every bundled story loads, lints clean, fits the JSON Schema, plays in the rules core,
and has what its brief asks of it."""

from __future__ import annotations

from collections import Counter as Tally
from pathlib import Path

import jsonschema
import pytest

from wyrd.rules.abacus import GameState, end_scene, enlist, install, start_scene, wyrd
from wyrd.rules.abacus.enums import ChallengeType
from wyrd.rules.abacus.stage import EffectKind, TriggerKind
from wyrd.rules.dice import Dice, SeededSource
from wyrd.stories.abacus import flow
from wyrd.stories.abacus.lint import lint
from wyrd.stories.abacus.loader import discover, load_story
from wyrd.stories.abacus.schema import Story, TwistCategory, json_schema
from wyrd.stories.loader import BUNDLED, read_yaml, story_files

FILES = story_files(BUNDLED)


def bundled(ident: str) -> Story:
    return load_story(BUNDLED / f"{ident}.yaml")


def test_the_bundled_stories_are_there() -> None:
    assert [p.name for p in FILES] == ["hollow-fair.yaml", "the-milestones.yaml", "wrackham.yaml"]
    assert all(info.ok for info in discover([BUNDLED]))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_loads_and_lints_clean(path: Path) -> None:
    story = load_story(path)
    assert story.id == path.stem  # one id, one file name
    assert [str(p) for p in lint(story)] == []  # no errors, and no warnings either


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_json_schema_validates(path: Path) -> None:
    validator = jsonschema.Draft202012Validator(json_schema())
    data, _ = read_yaml(path)
    assert [e.message for e in validator.iter_errors(data)] == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_plays_in_the_rules_core(path: Path) -> None:
    """Install the story, enlist characters, and start and end every scene (or every
    complication, freeform) with what it places: the rules core accepts all of it."""
    story = load_story(path)
    dice = Dice(SeededSource(7))
    setup = flow.setup(story)
    state = install(GameState(), dice, rules=setup.rules, clocks=setup.clocks, counters=setup.counters,
                    denizens=setup.denizens, catalogue=setup.catalogue, connections=setup.connections).state
    cast = flow.characters(story) or [c for c in flow.characters(Story.model_validate(
        {"id": "cast", "title": "Cast", "premise": "x",
         "pregens": [{"id": "a", "name": "Ada", "body": 5, "mind": 5, "soul": 5}]}))]
    for char in cast:
        state = enlist(state, dice, char.model_copy(update={"connection": None})).state
    names = [c.name for c in cast]
    places = [(s.id, flow.scene_challenges(story, s.id), flow.scene_rules(story, s.id)) for s in story.scenes]
    places += [(c.id, flow.complication_challenges(story, c.id), flow.complication_rules(story, c.id))
               for c in story.complications]
    fresh = dict(state.characters)
    for ident, challenges, rules in places:
        state = state.model_copy(update={"characters": {k: c.model_copy(deep=True) for k, c in fresh.items()}})
        state = start_scene(state, dice, names, ident, challenges=challenges, rules=rules).state
        assert state.scene is not None and len(state.scene.challenges) >= len(challenges)
        state = wyrd(state, dice, names).state
        state = end_scene(state, dice).state


def test_story_ids_are_unique() -> None:
    ids = [load_story(p).id for p in FILES]
    assert len(set(ids)) == len(ids)


def _values(story: Story) -> list[int]:
    return [s.value for s in flow.challenge_specs(story).values()]


def _twists(story: Story) -> dict[str, int]:
    return {c.value: len(story.twists.table(c)) for c in TwistCategory}


def test_hollow_fair_is_a_complete_story() -> None:
    story = bundled("hollow-fair")
    assert (story.players.min, story.players.max) == (1, 4)
    assert 6 <= len(story.scenes) <= 10
    assert sum(s.finale for s in story.scenes) >= 2
    assert any(len({w.scene for w in s.next}) >= 2 for s in story.scenes)  # branches
    assert {type(w.when).__name__ for s in story.scenes for w in s.next} >= {
        "str", "WhenOvercome", "WhenFailed", "WhenCounter", "WhenDefeated"}
    assert len(story.denizens) >= 8
    assert all(1 <= len(d.challenges) <= 3 for d in story.denizens)
    assert all(2 <= v <= 12 for v in _values(story))
    assert len(story.stage_rules) >= 4
    (clock,) = story.clocks
    assert clock.faces == [5, 6] and [t.at for t in clock.thresholds] == [5, 10, 15]
    assert {e.do for t in clock.thresholds for e in t.effects} >= {EffectKind.PLACE, EffectKind.MARK}
    (counter,) = story.counters
    assert any(r.trigger.on == TriggerKind.WYRD_ROLL and r.trigger.at_or_under == counter.id
               for r in story.stage_rules)
    assert any(e.do == EffectKind.COUNTER and e.counter == counter.id
               for s in flow.challenge_specs(story).values() for e in s.on_fail or [])
    assert all(n >= 12 for n in _twists(story).values())
    assert len(story.pregens) == 4 and all(p.connection for p in story.pregens)
    assert all(len(p.facets.body) == len(p.facets.mind) == len(p.facets.soul) == 2 for p in story.pregens)
    assert all(len(getattr(story.postscripts, k)) >= 3 for k in ("held", "freed", "defeated"))
    assert story.tone and all(loc.narration for loc in story.locations)


def test_hollow_fair_uses_every_ability() -> None:
    types = Tally(s.type for s in flow.challenge_specs(bundled("hollow-fair")).values())
    assert set(types) == set(ChallengeType)


def test_wrackham_is_a_freeform_setting() -> None:
    story = bundled("wrackham")
    assert story.freeform and not story.scenes
    assert len(story.locations) >= 10
    assert len(story.denizens) >= 10 and all(d.challenges for d in story.denizens)
    assert len(story.complications) >= 12
    assert all(n >= 8 for n in _twists(story).values())


def test_the_milestones_is_a_quick_start() -> None:
    story = bundled("the-milestones")
    assert len(story.scenes) == 4 and story.scenes[-1].finale  # one of them only on a misread stone
    assert len(story.pregens) == 2
    assert len(story.stage_rules) == 1 and not story.clocks and not story.counters
    assert all(v <= 5 for v in _values(story))  # gentle
    assert all(n >= 6 for n in _twists(story).values())


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_setup_made_from_the_story_s_json_form_is_the_one_its_models_give(path: Path, tmp_path: Path) -> None:
    """Issue 21, point 2: a story's setup is made from its JSON form and kept with it (the parts'
    validators wait for the first scene); it is what the story's own models give, part for part,
    whether it was just made or read back kept."""
    from wyrd import kept
    from wyrd.rules.abacus import ChallengeSpec, Clock, Counter, Denizen, StageRule
    from wyrd.stories.wording import Wording

    story = load_story(path)
    specs = flow.challenge_specs(story).values()
    expected = {
        "rules": [StageRule.model_validate(r.model_dump()) for r in story.stage_rules],
        "clocks": [Clock.model_validate(c.model_dump()) for c in story.clocks],
        "counters": [Counter.model_validate(c.model_dump()) for c in story.counters],
        "denizens": [Denizen(id=d.id, name=d.name, needs=d.needs) for d in story.denizens],
        "catalogue": [ChallengeSpec.model_validate(s.model_dump(exclude={"text", *Wording.model_fields}))
                      for s in specs],
        "connections": story.connections,
    }
    kept.keep_in(lambda: tmp_path / "cache")
    try:
        for _ in range(2):  # made and kept, then read back
            setup = flow.setup(story)
            assert {name: getattr(setup, name) for name in expected} == expected
            assert all(type(c) is ChallengeSpec for c in setup.catalogue)
    finally:
        kept.keep_in(None)
    assert setup.id == story.id and list((tmp_path / "cache").glob("model-setup-*"))
