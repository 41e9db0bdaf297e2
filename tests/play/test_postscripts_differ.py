"""Issue 18, point 8: "Postscripts differ per character" ("the two Milestones postscripts are word for
word the same"). In one ending no two characters get the same postscript while the story has an entry
for that fate left that nobody has had, and each bundled Abacus story has one for every player it takes.
"""

from __future__ import annotations

import pytest

from wyrd.play.kits.abacus.following import StoryPlay
from wyrd.rules.dice import Dice, SeededSource
from wyrd.stories.abacus.loader import find_story
from wyrd.stories.loader import BUNDLED

STORIES = ("hollow-fair", "the-milestones", "wrackham")
FATES = ("held", "freed", "defeated")


@pytest.mark.parametrize("ident", STORIES)
@pytest.mark.parametrize("fate", FATES)
def test_every_character_of_one_ending_gets_their_own_postscript(ident: str, fate: str) -> None:
    story = find_story(ident, [BUNDLED])
    players = story.players.max if story.players is not None else 4
    entries = getattr(story.postscripts, fate)
    assert len(entries) >= max(players, 4), f"{ident} has {len(entries)} {fate} postscripts for {players} players"
    play = StoryPlay(story)
    names = [f"Walker {n}" for n in range(1, players + 1)]
    for seed in range(40):
        told = play.postscripts(dict.fromkeys(names, fate), Dice(SeededSource(f"postscripts:{seed}")))
        texts = [p.text.replace(p.character, "{name}") for p in told]
        assert len(set(texts)) == len(texts), f"{ident}, seed {seed}: {texts}"


def test_more_characters_than_entries_still_each_get_one() -> None:
    story = find_story("the-milestones", [BUNDLED])
    names = [f"Walker {n}" for n in range(1, 9)]
    told = StoryPlay(story).postscripts(dict.fromkeys(names, "freed"), Dice(SeededSource("many")))
    assert [p.character for p in told] == names
    # With nothing rolled yet, the entries written for an outcome (``when``) do not hold.
    holding = [e for e in story.postscripts.freed if e.when == "always"]
    assert len({p.entry for p in told}) == len(holding)
