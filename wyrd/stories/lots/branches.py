"""How a Thaeborn scenario follows what was rolled: conditions, exits, texts by outcome, standing rules.

A scene's check may have an ``id``; a scene with a fight settles that fight. A
:class:`When` names one of them and one outcome (``{check: stones, outcome: success}``,
``{fight: ringer, outcome: won}``). Scenes carry :class:`Exit` s (where the story may go
next, each opened by an outcome or always open), :class:`Told` texts (the scene's text
when an earlier outcome calls for another; the scenario's endings likewise), and
:class:`StageRule` s (a standing rule of the scene or the whole story, with its text).

[ours] How outcomes are settled, where seed 004 is silent (it has no scenes): a check
counts as the outcome of its last cast (a Re-tell replaces it, a Blot-out erases it); a
check never made, or wasted, counts as failed when the scene is left; a fight is won
when its NPC is incapacitated as the scene is left, and lost otherwise (the NPC still
stands).

:func:`branch_faults` is the linter's part: an exit or a text whose condition can never
hold (an unknown check, a scene that cannot have been played before it, an outcome the
call cannot have) and an outcome that leads nowhere (a scene whose exits leave one
outcome of the call they follow with no way on).
"""

from collections.abc import Iterator, Mapping, Sequence
from typing import Annotated, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from wyrd.rules.defaults import empty_list

__all__ = [
    "CHECK_OUTCOMES",
    "END",
    "FIGHT_OUTCOMES",
    "Exit",
    "StageRule",
    "Told",
    "Twists",
    "When",
    "branch_faults",
    "key_of",
]

_STRICT = ConfigDict(extra="forbid", frozen=True)
Slug = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$")]
Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Steps = tuple[str | int, ...]

END = "end"
"""An exit to the scenario's ending."""
CHECK_OUTCOMES = ("success", "failure")
FIGHT_OUTCOMES = ("won", "lost")


def key_of(kind: str, ident: str) -> str:
    """The key an outcome is kept under: ``check:stones``, ``fight:ringer``."""
    return f"{kind}:{ident}"


class When(BaseModel):
    """One outcome of one check (by its id) or one scene's fight (by the scene's id)."""

    model_config = _STRICT

    check: Slug | None = None
    fight: Slug | None = None
    outcome: Literal["success", "failure", "won", "lost"]

    @model_validator(mode="after")
    def _one(self) -> "When":
        if (self.check is None) == (self.fight is None):
            raise ValueError("a condition names either a check or a fight")
        allowed = CHECK_OUTCOMES if self.check is not None else FIGHT_OUTCOMES
        if self.outcome not in allowed:
            what = "check" if self.check is not None else "fight"
            raise ValueError(f"a {what} ends in {' or '.join(allowed)}, never {self.outcome}")
        return self

    @property
    def key(self) -> str:
        return key_of("check", self.check) if self.check is not None else key_of("fight", str(self.fight))

    def holds(self, outcomes: Mapping[str, str]) -> bool | None:
        """True or False once the outcome is known, None while it is not."""
        found = outcomes.get(self.key)
        return None if found is None else found == self.outcome


class Exit(BaseModel):
    """A way on from a scene: to another scene (or ``end``), always open or opened by an outcome."""

    model_config = _STRICT

    to: Slug
    when: When | None = None
    label: Text | None = None  # how the way reads ("down the tower stair")
    says: Text | None = None  # what the outcome changed ("the stones held: the causeway leads on")


class Told(BaseModel):
    """A text that stands in for the usual one when an earlier outcome calls for it."""

    model_config = _STRICT

    when: When
    text: Text


class StageRule(BaseModel):
    """A standing rule of a scene or of the whole story: its name and what it does."""

    model_config = _STRICT

    name: Text
    text: Text


class Twists(BaseModel):
    """The story's own twist tables, chosen by Thaeborn's signs of fate (see the kit's narration)."""

    model_config = _STRICT

    dark: list[Text] = Field(default_factory=empty_list)  # a heightened WOE
    fortunate: list[Text] = Field(default_factory=empty_list)  # a heightened WEAL
    portent: list[Text] = Field(default_factory=empty_list)  # a Portent spent, an oracle's doubled answer
    ordinary: list[Text] = Field(default_factory=empty_list)  # a scene test's WASTE: something ordinary intrudes


# -- the linter's part ---------------------------------------------------------------------------


class _Check(Protocol):
    @property
    def id(self) -> str | None: ...


class SceneLike(Protocol):
    """What the linter reads of a scene (the scenario module's Scene has it)."""

    @property
    def id(self) -> str: ...
    @property
    def checks(self) -> Sequence[_Check]: ...
    @property
    def fight(self) -> object | None: ...
    @property
    def texts(self) -> Sequence[Told]: ...
    @property
    def exits(self) -> Sequence[Exit]: ...


class _Call:
    """What a condition may name: the calls with outcomes, by key, and the scene each is in."""

    def __init__(self, scenes: Sequence[SceneLike]) -> None:
        self.where: dict[str, str] = {}
        for scene in scenes:
            ident = str(scene.id)
            for check in scene.checks:
                if check.id is not None:
                    self.where[key_of("check", check.id)] = ident
            if scene.fight is not None:
                self.where[key_of("fight", ident)] = ident


def _successors(scenes: Sequence[SceneLike]) -> dict[str, list[str]]:
    """Each scene's possible next scenes (its exits; with none, the scenes after it in order)."""
    ids = [str(s.id) for s in scenes]
    out: dict[str, list[str]] = {}
    for i, scene in enumerate(scenes):
        exits = scene.exits
        out[ids[i]] = [e.to for e in exits if e.to in ids] if exits else ids[i + 1:i + 2]
    return out


def _before(scenes: Sequence[SceneLike]) -> dict[str, set[str]]:
    """For each scene, every scene that may have been played before it (on some path from the first)."""
    nexts = _successors(scenes)
    ids = [str(s.id) for s in scenes]
    before: dict[str, set[str]] = {i: set() for i in ids}
    if not ids:
        return before
    # paths are short; a walk carrying the scenes behind each step is enough
    stack: list[tuple[str, frozenset[str]]] = [(ids[0], frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while stack:
        at, behind = stack.pop()
        if (at, behind) in seen:
            continue
        seen.add((at, behind))
        before[at] |= behind
        for nxt in nexts[at]:
            if nxt not in behind and nxt != at:
                stack.append((nxt, behind | {at}))
    return before


def branch_faults(scenes: Sequence[SceneLike], endings: Sequence[Told]) -> Iterator[tuple[Steps, str]]:
    """Exits and texts that cannot work: see the module docstring."""
    calls = _Call(scenes)
    ids = [str(s.id) for s in scenes]
    before = _before(scenes)
    checks: list[str] = [c.id for s in scenes for c in s.checks if c.id is not None]
    for i, ident in enumerate(checks):
        if ident in checks[:i]:
            yield ("scenes",), f"two checks share the id {ident!r}"

    def never(when: When, seen: set[str], what: str) -> str | None:
        scene = calls.where.get(when.key)
        named = when.check or when.fight
        if scene is None:
            kind = "check" if when.check else "scene with a fight"
            return f"{what} follows the {kind} {named!r}, which there is not: it can never hold"
        if scene not in seen:
            return f"{what} follows {when.key.replace(':', ' ')} in scene {scene}, which cannot come before it"
        return None

    for i, scene in enumerate(scenes):
        ident = ids[i]
        for j, told in enumerate(scene.texts):
            why = never(told.when, before[ident], f"scene {ident}'s text")
            if why:
                yield ("scenes", i, "texts", j, "when"), why
        exits: list[Exit] = list(scene.exits)
        for j, way in enumerate(exits):
            if way.to != END and way.to not in ids:
                yield ("scenes", i, "exits", j, "to"), f"scene {ident} leads to {way.to!r}, which is not a scene"
            if way.to == ident:
                yield ("scenes", i, "exits", j, "to"), f"scene {ident} leads to itself"
            if way.when is not None:
                why = never(way.when, before[ident] | {ident}, f"an exit of scene {ident}")
                if why:
                    yield ("scenes", i, "exits", j, "when"), why
        if exits and all(w.when is not None for w in exits):
            for key in dict.fromkeys(w.when.key for w in exits if w.when is not None):
                allowed = CHECK_OUTCOMES if key.startswith("check:") else FIGHT_OUTCOMES
                covered = {w.when.outcome for w in exits if w.when is not None and w.when.key == key}
                for outcome in allowed:
                    if outcome not in covered and not _covered_elsewhere(exits, key):
                        yield (("scenes", i, "exits"),
                               f"scene {ident}: when {key.replace(':', ' ')} ends in {outcome}, no exit opens: "
                               "that outcome leads nowhere")
    last = set(ids)
    for j, told in enumerate(endings):
        why = never(told.when, last, "an ending")
        if why:
            yield ("endings", j, "when"), why


def _covered_elsewhere(exits: Sequence[Exit], key: str) -> bool:
    """Whether every outcome of some other call the exits follow is covered (so one of them always opens)."""
    for other in dict.fromkeys(w.when.key for w in exits if w.when is not None and w.when.key != key):
        allowed = CHECK_OUTCOMES if other.startswith("check:") else FIGHT_OUTCOMES
        if {w.when.outcome for w in exits if w.when is not None and w.when.key == other} >= set(allowed):
            return True
    return False
