"""How a Heroes of the Fall scenario follows its dice: stakes, conditions, ways on and texts by outcome.

A scene may name its **stakes**: what stands in the way, the roll that settles each
(the verbs in ``by``, narrowed by ``trait`` and ``against``), and what winning or
losing it changes::

    stakes:
      - id: catch-cobb
        name: catching Cobb
        ask: race Wenna Cobb            # the command a table would type (shown with its odds)
        by: [race, oppose]              # the verbs whose roll settles it
        against: Cobb Sallow            # only a roll against him
        won: Cobb is caught, and the lantern key with him.
        lost: Cobb gets away and bars the stair door behind him.

Then ways on, texts and endings may follow what was rolled, each under a ``when:``
(one condition or a list, all of which must hold): ``catch-cobb won`` or
``catch-cobb lost``::

    exits:
      - {to: the-lamp-room, when: catch-cobb won}
      - {to: the-sea-stair, when: catch-cobb lost}

[ours] Where the text is silent: the first roll that settles a stake decides it (seed 003:
"Only one roll should be allowed on the Feat table unless circumstances change"); a stake
nobody rolled for by the time its scene is left counts as lost (the chance went by); the
heroes win a roll another character makes against them when that character loses it.

:func:`faults` is the linter's part: a condition naming no stake, or a stake of a scene
that cannot have been played by then (it can never hold), and an outcome after which no
way on is open or no ending is told (it leads nowhere).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from wyrd.rules.defaults import empty_list
from wyrd.stories.problems import Steps

__all__ = [
    "OUTCOMES",
    "SETTLING_VERBS",
    "FeatExit",
    "FeatRule",
    "FeatStake",
    "FeatText",
    "Outcomes",
    "branch_faults",
    "holds",
    "settled_by",
    "settled_by_events",
    "touches",
]

OUTCOMES = ("won", "lost")
# The verbs whose roll can settle a stake, and the event that says how it went.
SETTLING_VERBS = ("try", "test", "feat", "oppose", "race", "search", "react", "survive", "shock", "fatigue", "first")
_SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"

# stake id -> True (won) / False (lost)
Outcomes = Mapping[str, bool]


def _conditions(value: Any) -> list[str]:
    items = [value] if isinstance(value, str) else list(value or [])
    out = []
    for item in items:
        words = str(item).split()
        if len(words) != 2 or words[1] not in OUTCOMES:
            raise ValueError(f"a condition reads 'STAKE won' or 'STAKE lost' (got {item!r})")
        out.append(" ".join(words))
    return out


class FeatStake(BaseModel):
    """One thing that stands in the way in a scene, the roll that settles it and what each outcome changes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(pattern=_SLUG, max_length=60)
    name: str = Field(min_length=1)
    ask: str = ""
    by: list[str] = Field(min_length=1)
    trait: str | None = None
    against: str | None = None
    won: str = Field(min_length=1)
    lost: str = Field(min_length=1)

    @field_validator("by")
    @classmethod
    def _verbs(cls, value: list[str]) -> list[str]:
        for verb in value:
            if verb not in SETTLING_VERBS:
                raise ValueError(f"{verb!r} settles nothing; a stake is settled by {', '.join(SETTLING_VERBS)}")
        return value


class FeatExit(BaseModel):
    """A way on from a scene, open when its conditions hold (always, with none)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    to: str
    when: list[str] = Field(default_factory=empty_list)

    _read = field_validator("when", mode="before")(lambda cls, v: _conditions(v))


class FeatText(BaseModel):
    """Words told only when their conditions hold (an opening line, an ending)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    when: list[str] = Field(default_factory=empty_list)
    text: str = Field(min_length=1)

    _read = field_validator("when", mode="before")(lambda cls, v: _conditions(v))

    @field_validator("text")
    @classmethod
    def _one_paragraph(cls, value: str) -> str:
        return " ".join(value.split())


class FeatRule(BaseModel):
    """A standing rule of a scene or of the whole story, in the story's words."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    text: str = Field(min_length=1)


def holds(conditions: Sequence[str], outcomes: Outcomes) -> bool:
    """Whether every condition holds; a stake not yet settled satisfies neither outcome."""
    for condition in conditions:
        stake, outcome = condition.split()
        if stake not in outcomes or outcomes[stake] != (outcome == "won"):
            return False
    return True


def _get(event: Any, name: str) -> Any:
    return getattr(event, name, None) if not isinstance(event, Mapping) else event.get(name)


def _hero_won(winner: Any, others: Iterable[str]) -> bool:
    return str(winner) not in set(others)


def touches(stake: FeatStake, verb: str, args: Mapping[str, Any]) -> bool:
    """Whether the command can settle ``stake`` at all: its verb, trait and opponent (its dice say how)."""
    if verb not in stake.by:
        return False
    folded = {str(args.get(k, "")).casefold() for k in ("skill", "attribute", "thing", "text") if args.get(k)}
    if stake.trait is not None and stake.trait.casefold() not in folded:
        return False
    return stake.against is None or stake.against in {args.get(k) for k in ("target", "rival", "other")}


def settled_by(stake: FeatStake, verb: str, args: Mapping[str, Any], events: Sequence[Any],
               others: Iterable[str]) -> bool | None:
    """How the command settles ``stake`` (True won, False lost), or None if it does not touch it."""
    if not touches(stake, verb, args):
        return None
    return settled_by_events(events, others)


def settled_by_events(events: Sequence[Any], others: Iterable[str]) -> bool | None:
    """How the events of a command that touches a stake (:func:`touches`) settle it: True won, False lost,
    None if they decide nothing."""
    npcs = list(others)
    result: bool | None = None
    for event in events:
        kind = _get(event, "kind")
        if kind in ("race_decided", "opposed_decided"):
            result = _hero_won(_get(event, "winner"), npcs)
        elif kind in ("search_made", "reaction_tested", "survival_tested", "shock_tested", "fatigue_tested"):
            flag = {"search_made": "found", "reaction_tested": "favourable",
                    "survival_tested": "survived"}.get(str(kind), "success")
            result = bool(_get(event, flag)) == _hero_won(_get(event, "character"), npcs)
        elif kind == "initiative_decided" and _get(event, "order"):
            result = _hero_won(_get(event, "order")[0], npcs)
        elif kind == "feat_rolled" and result is None:
            result = bool(_get(event, "success")) == _hero_won(_get(event, "character"), npcs)
    return result


def _played_before(scenes: Sequence[Any], exits_of: Any) -> dict[str, set[str]]:
    """For each scene, the scenes that may have been played before it (itself included)."""
    ids = [s.id for s in scenes]
    before: dict[str, set[str]] = {i: {i} for i in ids}
    changed = True
    while changed:
        changed = False
        for ident in ids:
            for nxt in exits_of(ident):
                if nxt in before and not before[ident] <= before[nxt]:
                    before[nxt] |= before[ident]
                    changed = True
    return before


def branch_faults(scenes: Sequence[Any], exits_of: Any, endings: Sequence[FeatText],
                  has_plain_ending: bool) -> Iterator[tuple[Steps, str]]:
    """What a scenario's branching gets wrong (see the module docstring), each with its path."""
    stakes = {st.id: s.id for s in scenes for st in s.stakes}
    before = _played_before(scenes, exits_of)
    first = scenes[0].id if scenes else ""
    seen: set[str] = set()
    for i, scene in enumerate(scenes):
        if i and first not in before[scene.id]:
            yield ("scenes", i, "id"), f"scene {scene.id}: no way on leads here from {first}"
        for j, stake in enumerate(scene.stakes):
            if stake.id in seen:
                yield ("scenes", i, "stakes", j, "id"), f"two stakes share the id {stake.id!r}"
            seen.add(stake.id)
            verb = stake.ask.split()[0] if stake.ask.split() else None
            if verb is not None and verb not in stake.by:
                yield (("scenes", i, "stakes", j, "ask"),
                       f"stake {stake.id}: `{stake.ask}` cannot settle it (settled by {', '.join(stake.by)})")

    def bad(conditions: Sequence[str], where: Steps, at: str | None) -> Iterator[tuple[Steps, str]]:
        for condition in conditions:
            stake = condition.split()[0]
            if stake not in stakes:
                yield where, f"{condition!r} names no stake of the story"
            elif at is not None and first in before[at] and stakes[stake] not in before[at]:
                # (a scene nothing leads to is another fault: its conditions are not judged)
                yield where, f"{condition!r} can never hold here: scene {stakes[stake]} cannot come before {at}"

    for i, scene in enumerate(scenes):
        for j, way in enumerate(scene.exits or []):
            if not isinstance(way, str):
                yield from bad(way.when, ("scenes", i, "exits", j, "when"), scene.id)
        for j, line in enumerate(scene.openings):
            yield from bad(line.when, ("scenes", i, "openings", j, "when"), scene.id)
            for condition in line.when:
                if stakes.get(condition.split()[0]) == scene.id and first in before[scene.id]:
                    yield (("scenes", i, "openings", j, "when"),
                           f"{condition!r} can never hold when scene {scene.id} opens: it is settled there")
        ways = [w for w in scene.exits or [] if not isinstance(w, str)]
        named = sorted({c.split()[0] for w in ways for c in w.when if c.split()[0] in stakes})
        if ways and not any(not w.when for w in ways):
            for combo in itertools.product((True, False), repeat=len(named)):
                outcomes = dict(zip(named, combo, strict=True))
                if not any(holds(w.when, outcomes) for w in ways) and not any(isinstance(w, str)
                                                                               for w in scene.exits or []):
                    said = ", ".join(f"{k} {'won' if v else 'lost'}" for k, v in outcomes.items())
                    yield ("scenes", i, "exits"), f"scene {scene.id}: with {said} no way on is open (it leads nowhere)"
    for j, ending in enumerate(endings):
        yield from bad(ending.when, ("endings", j, "when"), None)
    named = sorted({c.split()[0] for e in endings for c in e.when if c.split()[0] in stakes})
    told = {c for e in endings for c in e.when}
    for ident in named:
        for outcome in OUTCOMES:
            if f"{ident} {outcome}" not in told:
                yield ("endings",), f"with {ident} {outcome} no ending is told of it (it leads nowhere)"
    if endings and not has_plain_ending and not any(not e.when for e in endings):
        for combo in itertools.product((True, False), repeat=len(named)):
            outcomes = dict(zip(named, combo, strict=True))
            if not any(holds(e.when, outcomes) for e in endings):
                said = ", ".join(f"{k} {'won' if v else 'lost'}" for k, v in outcomes.items())
                yield ("endings",), f"with {said} no ending is told (it leads nowhere)"
    for i, scene in enumerate(scenes):
        for j, stake in enumerate(scene.stakes):
            if not any(stake.id == c.split()[0] for s in scenes for w in s.exits or [] if not isinstance(w, str)
                       for c in w.when) and not any(stake.id == c.split()[0] for t in
                                                    [*endings, *(o for s in scenes for o in s.openings)]
                                                    for c in t.when):
                yield (("scenes", i, "stakes", j),
                       f"stake {stake.id!r} steers nothing: no way on, opening or ending follows it")
