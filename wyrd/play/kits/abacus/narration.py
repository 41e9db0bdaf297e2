"""The Wyrd Abacus's narration: its facts, its twists and scene tests, and its moments.

After every command the storyteller asks this kit what to add and what to tell
(:class:`AbacusNarration`, the kit's narration hook). The Abacus adds two things
of its own before any prose: the scene test's verdict when a scene starts, and
a twist for every 6 (or an intrusion for a best of 1 or 2) its Wyrd rolls show,
from the story's twist tables where it has them. Then its moments
(:func:`~wyrd.play.kits.abacus.moments.moments`) are told like every ruleset's.

:func:`story_facts` reads the rules state (and the story being followed) into the
oracle's :class:`~wyrd.oracle.facts.StoryFacts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from wyrd.oracle.facts import ChallengeFacts, CharacterFacts, StoryFacts
from wyrd.oracle.grammar import Referent, reading, worded
from wyrd.oracle.narrators.telling import Command, KitNarration, Told
from wyrd.oracle.twists import twists
from wyrd.play.kits.abacus.following import StoryFollower, StoryPlay
from wyrd.play.kits.abacus.moments import has_major_moment, moments
from wyrd.rules.abacus import GameState
from wyrd.rules.abacus.events import InfluenceRolled, SceneStarted
from wyrd.rules.abacus.reasons import RollReason
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice
from wyrd.stories.abacus.flow import challenge_specs
from wyrd.stories.abacus.schema import Story
from wyrd.stories.wording import Wording

if TYPE_CHECKING:
    from wyrd.oracle.events import SceneTested

__all__ = ["NARRATION", "AbacusNarration", "answer_twist", "story_facts", "story_referents"]

# Story twist categories by the oracle's names for them.
_CATEGORIES = {"threat": "threat", "eerie": "eerie", "personal": "tie", "intrusion": "mundane", "friendly": "friendly"}


def story_facts(state: GameState, before: GameState | None = None, **extra: object) -> StoryFacts:
    """Facts from the rules state after a command (and ``before`` it, which knows the open roll's lead).

    ``extra`` sets the story's own fields (``story``, ``location``, ``seeds``, ``tone``, ``tables`` ...).
    """
    characters = {
        c.name: CharacterFacts(name=c.name, concept=c.concept, connection=c.connection, wyrd=c.wyrd,
                               defeated=c.defeated, facets={a.value: list(fs) for a, fs in c.facets.items()})
        for st in (before, state) if st is not None for c in st.characters.values()
    }
    challenges: dict[str, ChallengeFacts] = {}
    leads: dict[str, tuple[str, list[str]]] = {}
    for st in (before, state):
        if st is None:
            continue
        for ch in st.scene.challenges.values() if st.scene is not None else ():
            denizen = st.denizens[ch.denizen].name if ch.denizen and ch.denizen in st.denizens else ch.denizen
            challenges[ch.id] = ChallengeFacts(id=ch.id, name=ch.name, type=ch.type.value,
                                               ability=ch.type.ability.value, value=ch.value, denizen=denizen)
        if st.pending is not None:
            leads[st.pending.challenge] = (st.pending.lead, list(st.pending.involved))
    for ident, (lead, involved) in leads.items():
        if ident in challenges:
            challenges[ident] = challenges[ident].model_copy(update={"lead": lead, "involved": involved})
    scene = state.scene or (before.scene if before is not None else None)
    data: dict[str, object] = {"characters": characters, "challenges": challenges,
                               "scene": scene.id if scene is not None else ""}
    denizens = [d.name for d in state.denizens.values()]
    if denizens:
        data["denizens"] = denizens
    data.update(extra)
    return StoryFacts.model_validate(data)


def story_referents(story: Story) -> tuple[dict[str, Referent], dict[str, str]]:
    """How the story refers to its things by name (challenges, denizens, places), and each pregen's pronouns."""
    found: dict[str, Referent] = {}
    things: list[tuple[str, Wording]] = [(d.name, d) for d in story.denizens]
    things += [(loc.name, loc) for loc in story.locations]
    things += [(c.name, c) for c in challenge_specs(story).values()]
    for name, wording in things:
        said = worded(name, wording)
        if said is not None:
            found[name] = said
    for ident, name in [(c.id, c.name) for c in story.clocks] + [(c.id, c.name) for c in story.counters]:
        found.setdefault(ident, reading(name))
    pronouns = {p.name: str(p.pronouns) for p in story.pregens if p.pronouns}
    return found, pronouns


def _facts(before: GameState, after: GameState, story: StoryPlay | None) -> StoryFacts:
    if story is None:
        return story_facts(after, before)
    extra = story.facts(after.scene.id if after.scene else (before.scene.id if before.scene else None))
    referents, pronouns = story_referents(story.story)
    facts = story_facts(after, before, referents=referents, **extra)
    for name, word in pronouns.items():
        if name in facts.characters:
            facts.characters[name] = facts.characters[name].model_copy(update={"pronouns": word})
    return facts


def _scene_test(events: Sequence[Event]) -> list[SceneTested]:
    """The scene test's verdict, when a scene's first Wyrd roll was made (DESIGN.md, "The scene test")."""
    results = {e.character: e.result for e in events
               if isinstance(e, InfluenceRolled) and e.reason is RollReason.SCENE_TEST}
    if not results:
        return []
    from wyrd.oracle.question import scene_test  # only when a scene starts: not needed for the first prompt

    scene = next((e.scene for e in events if isinstance(e, SceneStarted)), None)
    return [scene_test(results).event(scene)]


def _twist_options(story: StoryPlay | None) -> dict[str, Any]:
    """The story's own twist tables and weights, as :func:`~wyrd.oracle.twists.twists` takes them."""
    if story is None:
        return {}
    found = story.story.twists
    weights = found.weights
    return {
        "story_tables": {_CATEGORIES[c]: [e.text for e in found.table(c)] for c in _CATEGORIES if found.table(c)},
        "weights": {"threat": weights.threat, "eerie": weights.eerie, "tie": weights.personal},
        "intrusion_weights": {"mundane": weights.intrusion, "friendly": weights.friendly},
        "story": story.story.id,
    }


def answer_twist(told: Any, asker: str, state: GameState, dice: Dice, follower: Any) -> list[Event]:
    """A doubled answer's twist for the asker: a 6's kind (threat, eerie or tie), as a Wyrd 6 brings,
    from the story's own twist tables and weights first (the question oracle's ``OracleHooks.twist``)."""
    from wyrd.oracle.tables import roll
    from wyrd.oracle.twists import category_table, draw_twist

    story = follower.play if isinstance(follower, StoryFollower) else None
    options = _twist_options(story)
    options.pop("intrusion_weights", None)
    category = roll(category_table(True, options.pop("weights", None)), dice).row
    return [draw_twist(asker, category, dice, result=int(getattr(told, "roll", 6)), **options)]


class AbacusNarration(KitNarration):
    """The Abacus kit's narration hook: scene tests and twists first, then the moments to tell."""

    deck = True

    def tells(self, events: Sequence[Event]) -> bool:
        """A Wyrd roll (its scene test, its twists) or a major moment: without one, nothing to add or tell."""
        return any(isinstance(e, InfluenceRolled) for e in events) or has_major_moment(events)

    def tell(self, command: Command) -> Told:
        follower = command.follower
        story = follower.play if isinstance(follower, StoryFollower) else (
            follower if isinstance(follower, StoryPlay) else None)
        facts = _facts(command.before, command.after, story)
        events = list(command.events)
        added: list[Event] = [*_scene_test(events)]
        # Story twist entries speak of the character as {name}.
        characters = {n: {**c.context(), "name": c.referent} for n, c in facts.characters.items()}
        added += twists(events, command.dice, characters=characters, deck_state=command.deck, tables=command.tables,
                        quiet={RollReason.DEFEAT, RollReason.FINALE}, mundane=RollReason.SCENE_TEST,
                        context={"location": facts.location} if facts.location else None, **_twist_options(story))
        return Told(added=added, moments=moments([*events, *added], facts) if command.prose else ())


NARRATION = AbacusNarration()
