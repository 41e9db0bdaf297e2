"""A Heroes of the Fall story keeps its scenes by id and the ways on from each (issue 21, point 1: the
simulator asks for them on every line), and what it keeps cannot go stale.

The lookups must answer exactly as reading the lists does: a scene by its id, the exits as written or
else the next scene listed, the cast's names; a copy of the story with other scenes answers for its own.
"""

from __future__ import annotations

import pickle

import pytest

from wyrd.stories.feat import FeatStory, find_feat_story
from wyrd.stories.feat.branching import FeatExit

STORIES = ("lantern-at-gull-reach", "the-pardon-at-kell-pass")


def read_ways(story: FeatStory, ident: str) -> list[FeatExit]:
    """The ways on from ``ident``, read from the lists as the story format says."""
    at = next(i for i, s in enumerate(story.scenes) if s.id == ident)
    scene = story.scenes[at]
    if scene.exits is not None:
        return [FeatExit(to=w) if isinstance(w, str) else w for w in scene.exits]
    return [FeatExit(to=story.scenes[at + 1].id)] if at + 1 < len(story.scenes) else []


@pytest.mark.parametrize("ident", STORIES)
def test_scenes_ways_and_heroes_are_those_the_lists_say(ident: str) -> None:
    story = find_feat_story(ident, [])
    for scene in story.scenes:
        assert story.scene(scene.id) is scene
        assert story.ways(scene.id) == read_ways(story, scene.id)
        assert story.exits(scene.id) == [w.to for w in read_ways(story, scene.id)]
    assert story.heroes() == {c.name for c in story.cast}
    with pytest.raises(StopIteration):  # no such scene, as before
        story.scene("nowhere")


def test_a_copy_with_other_scenes_answers_for_its_own() -> None:
    story = find_feat_story("lantern-at-gull-reach", [])
    story.ways(story.scenes[0].id)  # the original has worked out its ways
    shorter = story.model_copy(update={"scenes": story.scenes[:1]})
    assert shorter.ways(story.scenes[0].id) == read_ways(shorter, story.scenes[0].id)
    if story.scenes[0].exits is None:
        assert shorter.ways(story.scenes[0].id) == []
    with pytest.raises(StopIteration):
        shorter.scene(story.scenes[1].id)
    assert story.scene(story.scenes[1].id) is story.scenes[1]


def test_what_it_keeps_changes_neither_its_equality_nor_its_dump() -> None:
    story = find_feat_story("the-pardon-at-kell-pass", [])
    plain = FeatStory.model_validate(story.model_dump(mode="json"))
    story.ways(story.scenes[0].id)
    assert story == plain and plain == story
    assert story.model_dump(mode="json") == plain.model_dump(mode="json")
    assert pickle.loads(pickle.dumps(story)) == plain
