"""The scene flow: where a scene leads, and how play follows a story.

Exits and their conditions are defined in :mod:`wyrd.stories.abacus.exits` and
offered here too, beside the function that reads them (:func:`holds`).
The play layer sets a story up with :func:`setup` (the arguments of the rules core's
``install``), enlists pregens from :func:`characters`, starts each scene with
:func:`scene_challenges` and :func:`scene_rules`, shows :func:`evident_rules`, and
picks the next scene with :func:`exits`.

Everything handed to the rules core is a plain rules-core model (``StageRule``,
``ChallengeSpec``, ...), copied from the story, so the game state never holds
story-format subclasses.
"""

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, NamedTuple

from pydantic import BaseModel, ConfigDict

from wyrd.rules.abacus.characters import Character, create_character
from wyrd.rules.abacus.enums import Ability
from wyrd.rules.abacus.stage import Clock, Counter, StageRule
from wyrd.rules.abacus.state import ChallengeSpec, Denizen, GameState
from wyrd.stories.abacus.exits import (
    CONDITION_KEYS,
    STRICT,
    ClockCheck,
    Condition,
    CounterCheck,
    Exit,
    Told,
    WhenClock,
    WhenCounter,
    WhenDefeated,
    WhenFailed,
    WhenOvercome,
)
from wyrd.stories.abacus.schema import ChallengeEntry, RuleEntry, Story, StoryChallenge
from wyrd.stories.modelkept import dumped, validated
from wyrd.stories.wording import Wording

__all__ = [
    "CONDITION_KEYS",
    "STRICT",
    "ClockCheck",
    "Condition",
    "CounterCheck",
    "Exit",
    "Progress",
    "Setup",
    "WhenClock",
    "WhenCounter",
    "WhenDefeated",
    "WhenFailed",
    "WhenOvercome",
    "challenge_specs",
    "character",
    "characters",
    "complication_challenges",
    "complication_rules",
    "evident_rules",
    "exits",
    "holds",
    "next_scene",
    "scene_challenges",
    "scene_rules",
    "setup",
    "told",
    "when_words",
]

# No clocks or counters: one empty mapping, read-only, shared by every progress that has none.
_NONE: Mapping[str, int] = MappingProxyType({})


class Progress(NamedTuple):
    """What the story's conditions look at: challenge outcomes so far, clocks, counters.

    The game state forgets a scene's challenges when the scene ends, so the caller
    keeps the ids of the challenges overcome and failed (from ``challenge_resolved``
    events).
    """

    overcome: frozenset[str] = frozenset()
    failed: frozenset[str] = frozenset()
    clocks: Mapping[str, int] = _NONE
    counters: Mapping[str, int] = _NONE
    defeated_any: bool = False

    @classmethod
    def of(cls, state: GameState, overcome: Iterable[str] = (), failed: Iterable[str] = (),
           known: Iterable[str] | None = None) -> "Progress":
        """Progress from a game state plus the recorded outcomes (ids as placed).

        A second placing of ``ID`` is ``ID-2`` in the game; it also counts as ``ID``
        when ``ID`` is a known challenge id (pass the story's, from :func:`challenge_specs`)
        and ``ID-2`` is not; with no ``known`` given, both ids count.
        """
        ids = None if known is None else set(known)
        return cls(
            overcome=frozenset(_with_base_ids(overcome, ids)),
            failed=frozenset(_with_base_ids(failed, ids)),
            clocks={k: c.value for k, c in state.clocks.items()},
            counters={k: c.value for k, c in state.counters.items()},
            defeated_any=any(c.defeated for c in state.characters.values()),
        )


def _with_base_ids(placed: Iterable[str], known: set[str] | None) -> Iterator[str]:
    for ident in placed:
        yield ident
        head, _, tail = ident.rpartition("-")
        if head and tail.isdigit() and int(tail) >= 2 and (known is None or (ident not in known and head in known)):
            yield head


def holds(condition: Condition, progress: Progress) -> bool:
    """Whether an exit's condition holds."""
    if isinstance(condition, WhenOvercome):
        return condition.overcome in progress.overcome
    if isinstance(condition, WhenFailed):
        return condition.failed in progress.failed
    if isinstance(condition, WhenClock):
        check = condition.clock_at_least
        return progress.clocks.get(check.clock, 0) >= check.value
    if isinstance(condition, WhenCounter):
        tally = condition.counter_at_least
        return progress.counters.get(tally.counter, 0) >= tally.value
    if isinstance(condition, WhenDefeated):
        return progress.defeated_any
    return True  # "always"


def exits(story: Story, scene: str, progress: Progress) -> list[str]:
    """The scenes open after ``scene``, in the story's order, each once; the first is the default."""
    found: list[str] = []
    for way in story.scene(scene).next:
        if way.scene not in found and holds(way.when, progress):
            found.append(way.scene)
    return found


def told(entries: Iterable[Told], progress: Progress) -> list[str]:
    """The texts of ``entries`` whose condition holds, in the story's order."""
    return [t.text for t in entries if holds(t.when, progress)]


def when_words(condition: Condition, story: Story) -> str:
    """A condition as players read it: names, never ids ("Hester's Grief overcome")."""
    names = {ident: spec.name for ident, spec in challenge_specs(story).items()}
    clocks = {c.id: c.name for c in story.clocks}
    counters = {c.id: c.name for c in story.counters}
    if isinstance(condition, WhenOvercome):
        return f"{names.get(condition.overcome, condition.overcome)} overcome"
    if isinstance(condition, WhenFailed):
        return f"{names.get(condition.failed, condition.failed)} failed"
    if isinstance(condition, WhenClock):
        check = condition.clock_at_least
        return f"{clocks.get(check.clock, check.clock)} at {check.value} or more"
    if isinstance(condition, WhenCounter):
        tally = condition.counter_at_least
        return f"{counters.get(tally.counter, tally.counter)} at {tally.value} or more"
    if isinstance(condition, WhenDefeated):
        return "someone defeated"
    return "always"


def next_scene(story: Story, scene: str, progress: Progress) -> str | None:
    """The default next scene, or None (a finale, or no exit open)."""
    return next(iter(exits(story, scene, progress)), None)


# -- what the rules core gets --------------------------------------------------------


def challenge_specs(story: Story) -> dict[str, StoryChallenge]:
    """Every challenge the story writes, by id: denizens' (``denizen`` set), then inline ones."""
    found: dict[str, StoryChallenge] = {}
    for denizen in story.denizens:
        for spec in denizen.challenges:
            found.setdefault(spec.id, spec.model_copy(update={"denizen": spec.denizen or denizen.id}))
    entries = [e for s in story.scenes for e in s.challenges] + [e for c in story.complications for e in c.challenges]
    for entry in entries:
        if not isinstance(entry, str):
            found.setdefault(entry.id, entry)
    return found


def _plain_challenge(spec: StoryChallenge) -> ChallengeSpec:
    return ChallengeSpec.model_validate(spec.model_dump(exclude={"text", *Wording.model_fields}))


def _plain_rule(rule: StageRule, source: str | None = None) -> StageRule:
    plain = StageRule.model_validate(rule.model_dump())
    return plain if source is None else plain.model_copy(update={"source": source})


class Setup(BaseModel):
    """The keyword arguments of ``wyrd.rules.abacus.install`` for a story."""

    model_config = ConfigDict(frozen=True)

    id: str  # the story's: each story's setup is kept apart
    rules: list[StageRule]
    clocks: list[Clock]
    counters: list[Counter]
    denizens: list[Denizen]
    catalogue: list[ChallengeSpec]
    connections: bool


def setup(story: Story) -> Setup:
    """The story's standing rules, clocks, counters, denizens and every challenge it writes.

    Made from the story's JSON form, which a kept story carries (wyrd.stories.modelkept), and kept
    with it: a new game's setup then builds none of these parts' validators before its first prompt.
    """
    parts = dumped(story)
    return validated(Setup, {
        "id": parts["id"],
        "rules": parts["stage_rules"],
        "clocks": parts["clocks"],
        "counters": parts["counters"],
        "denizens": [{"id": d["id"], "name": d["name"], "needs": d["needs"]} for d in parts["denizens"]],
        "catalogue": [{k: v for k, v in spec.items() if k not in _TOLD_ONLY} for spec in _written(parts)],
        "connections": parts["connections"],
    })


# What a story says of a challenge for its telling alone: the rules core never sees it.
_TOLD_ONLY = frozenset({"text", *Wording.model_fields})


def _written(parts: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
    """:func:`challenge_specs` of the story whose JSON form is ``parts``, in the same order."""
    seen: set[str] = set()
    for denizen in parts["denizens"]:
        for spec in denizen["challenges"]:
            if spec["id"] not in seen:
                seen.add(spec["id"])
                yield {**spec, "denizen": spec.get("denizen") or denizen["id"]}
    for holder in (*parts["scenes"], *parts["complications"]):
        for entry in holder["challenges"]:
            if not isinstance(entry, str) and entry["id"] not in seen:
                seen.add(entry["id"])
                yield entry


def _challenges(story: Story, entries: list[ChallengeEntry]) -> list[ChallengeSpec]:
    known = challenge_specs(story)
    return [_plain_challenge(known[e] if isinstance(e, str) else e) for e in entries]


def _inline_rules(entries: list[RuleEntry], source: str) -> list[StageRule]:
    return [_plain_rule(e, source) for e in entries if not isinstance(e, str)]


def scene_challenges(story: Story, scene: str) -> list[ChallengeSpec]:
    """The challenges a scene places when it starts, in order (KeyError for unknown ids)."""
    return _challenges(story, story.scene(scene).challenges)


def scene_rules(story: Story, scene: str) -> list[StageRule]:
    """The rules that hold for this scene only (``start_scene(rules=...)``)."""
    return _inline_rules(story.scene(scene).stage_rules, f"scene {scene}")


def evident_rules(story: Story, scene: str) -> list[StageRule]:
    """The story's standing rules this scene names as evident: tell the players of them."""
    rules = {r.id: r for r in story.stage_rules}
    return [_plain_rule(rules[e]) for e in story.scene(scene).stage_rules if isinstance(e, str)]


def _complication(story: Story, ident: str) -> tuple[list[ChallengeEntry], list[RuleEntry]]:
    for item in story.complications:
        if item.id == ident:
            return item.challenges, item.stage_rules
    raise KeyError(f"{story.id} has no complication {ident!r}")


def complication_challenges(story: Story, ident: str) -> list[ChallengeSpec]:
    """Freeform play: what complication ``ident`` places."""
    return _challenges(story, _complication(story, ident)[0])


def complication_rules(story: Story, ident: str) -> list[StageRule]:
    """Freeform play: the rules complication ``ident`` brings (story rules it names, and its own)."""
    entries = _complication(story, ident)[1]
    rules = {r.id: r for r in story.stage_rules}
    named = [_plain_rule(rules[e]) for e in entries if isinstance(e, str)]
    return named + _inline_rules(entries, f"complication {ident}")


def character(story: Story, ident: str) -> Character:
    """Pregen ``ident`` as a rules-core character, by the creation rules (CreationError if not)."""
    pregen = next((p for p in story.pregens if p.id == ident), None)
    if pregen is None:
        raise KeyError(f"{story.id} has no pregenerated character {ident!r}")
    other = None
    if pregen.connection is not None:
        other = next((p.name for p in story.pregens if p.id == pregen.connection.to), pregen.connection.to)
    facets = {Ability.BODY: pregen.facets.body, Ability.MIND: pregen.facets.mind, Ability.SOUL: pregen.facets.soul}
    return create_character(pregen.name, pregen.body, pregen.mind, pregen.soul, facets=facets, wyrd=pregen.wyrd,
                            connection=other, concept=pregen.concept)


def characters(story: Story) -> list[Character]:
    """Every pregen as a rules-core character, in the story's order."""
    return [character(story, p.id) for p in story.pregens]
