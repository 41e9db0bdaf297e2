"""Issue 18, point 7: every kit gives the texts the story's words for its things and its people's pronouns."""

from __future__ import annotations

from wyrd.oracle.facts import StoryFacts
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.narrators.context import kit_values
from wyrd.oracle.narrators.table import TableNarrator
from wyrd.oracle.tables import make_table
from wyrd.play.engine.session import Session
from wyrd.play.kits.abacus.following import StoryFollower
from wyrd.rules.dice import Dice


def _told(text: str, values: dict[str, object], request: NarrationRequest) -> str:
    table = make_table("test/said", "Said", "weights", [{"text": text}])
    asked = request.model_copy(update={"told_by": ["test/said"], "values": values})
    return TableNarrator({"test/said": table}).narrate(asked, Dice.seeded(1)).text


def test_the_abacus_story_says_how_its_challenges_read_and_whose_pronouns_are_whose() -> None:
    from wyrd.play.kits.abacus.narration import _facts

    session = Session.new(None, seed=4, story="hollow-fair", ruleset="abacus")
    session.execute("pc take all")
    follower = session.follower
    assert isinstance(follower, StoryFollower) and follower.play is not None
    facts: StoryFacts = _facts(session.state, session.state, follower.play)
    assert facts.characters["Coral Vell"].pronouns == "she" and facts.characters["Ned Harrower"].pronouns == "he"
    assert facts.referents["What Tamsin Whispers"].phrase == "Tamsin's whispering"
    assert facts.referents["gleaners-count"].phrase == "the Gleaner's Count"  # a counter by name, not its id


def test_wolden_feat_and_thaeborn_name_their_people_and_things_as_their_stories_say() -> None:
    from wyrd.play.kits.feat.narration import _people as feat_people
    from wyrd.play.kits.lots.narration import _people as lots_people
    from wyrd.play.kits.wolden.narration import _referents

    wolden = Session.new(None, seed=4, story="the-drowned-bell", ruleset="wolden")
    things, pronouns = _referents(wolden.follower)
    assert things["Win the trust of Saltmere"].phrase == "the trust of Saltmere"
    assert things["Drowned Ringer 2"].phrase == "the drowned ringer 2"
    assert pronouns["Corin Tallow"] == "he"
    feat = feat_people(Session.new(None, seed=4, story="lantern-at-gull-reach", ruleset="feat").follower)
    assert feat["Wenna"].pronouns == "she" and feat["Cobb Sallow"].pronouns == "he"  # heroes go by first name
    lots = lots_people(Session.new(None, seed=4, story="harrow-mere", ruleset="lots").follower)
    assert lots["Corve"].pronouns == "he"
    request = NarrationRequest(moment="lots/blow", referents=lots)
    assert kit_values(request.model_copy(update={"values": {"target": "Corve"}}))["target"] == lots["Corve"]
    assert _told("{attacker} makes {target} pay; {target.they} reel{target.s}.", {"attacker": "Tam",
                 "target": "Corve"}, request) == "Tam makes Corve pay; he reels."
