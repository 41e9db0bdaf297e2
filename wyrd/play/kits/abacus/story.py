"""The verbs that choose and read a story: ``story ID`` and ``stories``.

The story's whole content goes into the saved arguments of ``story ID``, so the
session replays the same story even if the file is edited or removed later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import wyrd.rules.abacus as A
from wyrd.play.engine.storyplay import PlayContext
from wyrd.play.engine.verbs import Args, Verb
from wyrd.play.engine.words import UsageError, Words
from wyrd.play.kits.abacus.events import StoryChosen
from wyrd.play.kits.abacus.following import load_story_args, story_in, story_of
from wyrd.play.kits.abacus.verbs import VERBS
from wyrd.rules.abacus import GameState, Outcome
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.abacus import flow

__all__: list[str] = []


@VERBS.register
class StoryVerb(Verb):
    """story ID

    Play the story ID (`stories` lists them): its stage rules, clocks and counters
    come into play, its pregenerated characters can be taken with `pc take`, and
    `scene` follows its scenes. Only before the first scene.
    """

    key = "story"
    completes = ("story",)

    def parse(self, words: Words, state: GameState) -> Args:
        ident = words.take("ID")
        words.done()
        return {"id": ident}

    def prepare(self, args: Args, ctx: PlayContext) -> Args:
        if "story" in args:
            return args  # already read (the session reads a story before it makes a save)
        following = story_of(ctx)
        if following is not None:
            raise UsageError(f"this session already follows {following.story.id}")
        if ctx.state.scene is not None or ctx.state.scenes_played:
            raise UsageError("a story is chosen before the first scene")
        return load_story_args(str(args["id"]), ctx.dirs)

    def apply(self, state: GameState, dice: Dice, args: Mapping[str, Any]) -> Outcome:
        setup = flow.setup(story_in(args))
        return A.install(state, dice, rules=setup.rules, clocks=setup.clocks, counters=setup.counters,
                         denizens=setup.denizens, catalogue=setup.catalogue, connections=setup.connections)

    def after(self, args: Mapping[str, Any], events: list[Event], ctx: PlayContext,
              state: GameState) -> list[Event]:
        story = args["story"]
        return [StoryChosen(story=story["id"], title=story["title"], premise=story.get("premise", ""),
                            pregens=[p["name"] for p in story.get("pregens", [])])]


@VERBS.register
class Stories(Verb):
    """stories

    The stories you can play: the bundled ones and your own.
    """

    key = "stories"
    changes = False
