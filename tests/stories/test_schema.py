"""The Wyrd Abacus story format (stories/abacus/schema.py): strict models that embed the rules core's own."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest
from pydantic import ValidationError

from wyrd.rules.abacus import ChallengeSpec, ChallengeType, Clock, Effect, StageRule
from wyrd.stories.abacus.flow import Exit, WhenClock, WhenCounter, WhenDefeated, WhenFailed, WhenOvercome
from wyrd.stories.abacus.schema import Story, StoryChallenge, TwistCategory, json_schema

Data = Callable[[], dict[str, Any]]


def errors(data: dict[str, Any]) -> list[tuple[tuple[str | int, ...], str]]:
    with pytest.raises(ValidationError) as caught:
        Story.model_validate(data)
    return [(e["loc"], e["type"]) for e in caught.value.errors()]


def test_tiny_story_validates(story_data: Data) -> None:
    story = Story.model_validate(story_data())
    assert story.id == "tiny" and story.ruleset == "abacus"
    assert [s.id for s in story.scenes] == ["start", "end"]
    assert story.scene("end").finale
    assert story.origin is None  # built in code, not read by the loader


def test_unknown_scene_is_a_key_error(story_data: Data) -> None:
    with pytest.raises(KeyError):
        Story.model_validate(story_data()).scene("attic")


def test_story_models_are_the_rules_cores_own(story_data: Data) -> None:
    """The format embeds the rules core's models, so the rules core enforces what a story says."""
    story = Story.model_validate(story_data())
    assert isinstance(story.stage_rules[0], StageRule)
    assert isinstance(story.clocks[0], Clock)
    assert isinstance(story.denizens[0].challenges[0], ChallengeSpec)
    assert isinstance(story.denizens[0].challenges[0].on_fail[0], Effect)  # type: ignore[index]


@pytest.mark.parametrize("where", [
    ("titel",),
    ("scenes", 0, "nxt"),
    ("stage_rules", 0, "effects", 0, "txt"),
    ("stage_rules", 0, "trigger", "match", "chalenge"),
    ("denizens", 0, "challenges", 0, "vlaue"),
    ("clocks", 0, "thresholds", 0, "effects", 0, "cloak"),
    ("pregens", 0, "facets", "spirit"),
])
def test_misspelt_fields_are_errors(story_data: Data, where: tuple[str | int, ...]) -> None:
    """extra="forbid" everywhere, including inside the rules core's models."""
    data = story_data()
    node: Any = data
    for step in where[:-1]:
        node = node.setdefault(step, {}) if isinstance(node, dict) else node[step]
    node[where[-1]] = "x"
    assert (where, "extra_forbidden") in errors(data)


def test_ids_are_slugs(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["id"] = "The Start"
    assert errors(data)[0][0] == ("scenes", 0, "id")


@pytest.mark.parametrize("ident", ["tiny", "me/my-tale", "a/b/c-2"])
def test_story_ids_are_path_like(story_data: Data, ident: str) -> None:
    assert Story.model_validate({**story_data(), "id": ident}).id == ident


@pytest.mark.parametrize("ident", ["Tiny", "/tiny", "tiny/", "a//b", "a b"])
def test_bad_story_ids(story_data: Data, ident: str) -> None:
    assert errors({**story_data(), "id": ident})[0][0] == ("id",)


def test_negative_value_refused(story_data: Data) -> None:
    data = story_data()
    data["scenes"][0]["challenges"][2]["value"] = -1
    assert (("scenes", 0, "challenges", 2, "spec", "value"), "greater_than_equal") in errors(data)


def test_scene_entries_are_ids_or_inline(story_data: Data) -> None:
    scene = Story.model_validate(story_data()).scenes[0]
    assert scene.challenges[:2] == ["ghost-wail", "ghost-grip"]
    assert isinstance(scene.challenges[2], StoryChallenge)
    assert scene.challenges[2].type == ChallengeType.OBSTRUCTION
    assert scene.stage_rules[0] == "cold" and isinstance(scene.stage_rules[1], StageRule)


@pytest.mark.parametrize(("when", "kind"), [
    ("always", str),
    ({"overcome": "x"}, WhenOvercome),
    ({"failed": "x"}, WhenFailed),
    ({"clock_at_least": {"clock": "night", "value": 5}}, WhenClock),
    ({"counter_at_least": {"counter": "dread", "value": 2}}, WhenCounter),
    ({"defeated_any": True}, WhenDefeated),
])
def test_condition_vocabulary(when: Any, kind: type) -> None:
    assert isinstance(Exit.model_validate({"scene": "s", "when": when}).when, kind)


def test_condition_defaults_to_always() -> None:
    assert Exit(scene="s").when == "always"


@pytest.mark.parametrize("when", [
    "sometimes", {"sometimes": "x"}, {"overcome": "x", "failed": "y"}, {"defeated_any": False},
    {"clock_at_least": {"clock": "night"}}, {"overcome": "x", "extra": 1}, 5,
])
def test_conditions_outside_the_vocabulary_are_refused(when: Any) -> None:
    with pytest.raises(ValidationError):
        Exit.model_validate({"scene": "s", "when": when})


def test_unknown_condition_names_the_vocabulary() -> None:
    with pytest.raises(ValidationError) as caught:
        Exit.model_validate({"scene": "s", "when": {"sometimes": 1}})
    assert "overcome: CHALLENGE" in caught.value.errors()[0]["msg"]


def test_twist_tables_by_category(story_data: Data) -> None:
    story = Story.model_validate(story_data())
    for category in TwistCategory:
        assert story.twists.table(category)[0].id == f"{category.value}-1"
    assert story.twists.table("eerie")[0].weight == 1


def test_weights_are_positive(story_data: Data) -> None:
    data = story_data()
    data["twists"]["threat"][0]["weight"] = 0
    assert errors(data)[0][0] == ("twists", "threat", 0, "weight")


def test_ruleset_is_abacus(story_data: Data) -> None:
    assert errors({**story_data(), "ruleset": "wolden"})[0][0] == ("ruleset",)


def test_json_schema_export(story_data: Data) -> None:
    schema = json_schema()
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["title"] == "Story"
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert list(validator.iter_errors(story_data())) == []
    data = story_data()
    data["stage_rules"][0]["effects"][0]["txt"] = "typo"
    assert not validator.is_valid(data)


def test_json_schema_forbids_extra_fields_in_rules_core_models() -> None:
    defs = json_schema()["$defs"]
    for name in ("StoryEffect", "StoryMatch", "StoryStageRule", "StoryTrigger", "StoryChallenge", "StoryClock"):
        assert defs[name]["additionalProperties"] is False, name
