"""Placeholder values for a moment, worked out only when a text asks for them.

A :class:`LazyContext` is a read-only mapping whose values are computed on first
use and then kept. Some values need a die (which facet a sentence names, which of
the story's locations or denizens appears), and rolling for a placeholder the
chosen text never uses would waste dice (and ask players with physical dice for
rolls that mean nothing). So nothing is rolled unless the text needs it, and the
same dice always give the same words.

:func:`request_context` builds the context for a
:class:`~wyrd.oracle.narrators.base.NarrationRequest`; the play layer can pass the
same context to :func:`wyrd.oracle.twists.twists` so a twist names the right people.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from wyrd.oracle.facts import ChallengeFacts, challenge_context
from wyrd.oracle.grammar import Referent, group, person
from wyrd.oracle.narrators.base import NarrationRequest
from wyrd.oracle.tables import Table, roll
from wyrd.oracle.text import PEOPLE
from wyrd.rules.actions import Event
from wyrd.rules.dice import Dice

__all__ = ["LazyContext", "kit_values", "pick", "request_context", "who"]

Resolver = Callable[[], object]


class LazyContext(Mapping[str, object]):
    """A mapping of placeholder names to values computed on first access."""

    def __init__(self, resolvers: Mapping[str, Resolver]) -> None:
        self._resolvers = dict(resolvers)
        self._done: dict[str, object] = {}

    def __getitem__(self, key: str) -> object:
        if key not in self._done:
            self._done[key] = self._resolvers[key]()
        return self._done[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._resolvers)

    def __len__(self) -> int:
        return len(self._resolvers)

    def __contains__(self, key: object) -> bool:
        return key in self._resolvers

    @property
    def used(self) -> dict[str, object]:
        """The values computed so far."""
        return dict(self._done)


def _constant(value: object) -> Resolver:
    return lambda: value


def pick(items: Sequence[str], dice: Dice, purpose: str) -> str:
    """One of ``items`` with a die (no die for a single item; empty for none)."""
    items = [i for i in items if i]
    if len(items) <= 1:
        return items[0] if items else ""
    return items[dice.roll(1, len(items), purpose).faces[0] - 1]


def _first(events: Sequence[Event], key: str) -> Any:
    """The latest event's field ``key`` that says something (None: none does)."""
    for event in reversed(events):
        found = getattr(event, key, None)
        if found not in (None, "", [], {}):
            return found
    return None


def who(request: NarrationRequest, name: object) -> Referent:
    """A character named in ``request`` as the texts refer to them (with their pronouns)."""
    text = str(name or "")
    found = request.referents.get(text)
    if found is not None:
        return found
    for char in request.characters:
        if char.name == text:
            return char.referent
    return person(text)


def _known(request: NarrationRequest, key: str, value: object) -> object:
    if isinstance(value, Referent):
        return value
    if isinstance(value, str):
        if key in PEOPLE:
            return who(request, value) if value.strip() else value
        return request.referents.get(value, value)
    if isinstance(value, (list, tuple)) and key in PEOPLE:
        return group([who(request, v) for v in value if str(v).strip()])
    return value


def kit_values(request: NarrationRequest) -> dict[str, object]:
    """A kit's placeholder values with the story's referents put in (names of people and things).

    A person's name becomes their :class:`~wyrd.oracle.grammar.Referent` (pronouns and all);
    a thing the story says how to refer to (``request.referents``, by name) becomes that.
    """
    return {key: _known(request, key, value) for key, value in request.values.items()}


def request_context(request: NarrationRequest, dice: Dice, *,
                    tables: Mapping[str, Table] | None = None) -> LazyContext:
    """Every placeholder a narration table may use, for ``request``, computed lazily."""
    subject = request.character(request.subject)
    challenge = request.challenge or ChallengeFacts(id="", name="")
    events = request.events
    story_tables = request.tables
    trait = _first(events, "trait")
    ability = challenge.ability or _first(events, "ability") or (trait if trait != "wyrd" else None)

    def entries(*names: str) -> list[str]:
        return [e for n in names for e in story_tables.get(n, [])]

    def named(text: str) -> object:
        return request.referents.get(text, text)

    def location() -> object:
        if request.location:
            return named(request.location)
        own = entries("location", "locations")
        if own:
            return named(pick(own, dice, "story location"))
        return roll("place/location", dice, tables=tables).raw

    def denizen() -> object:
        if challenge.denizen:
            return named(challenge.denizen)
        own = entries("denizen", "denizens") or list(request.denizens)
        if own:
            return named(pick(own, dice, "story denizen"))
        return roll("place/denizen", dice, tables=tables).raw

    def by_id(ident: object) -> object:
        # a clock or counter is named by its id in the events; the story's referents know its name
        text = str(ident or "")
        return request.referents.get(text) or text.replace("-", " ")

    def people(names: Sequence[object]) -> Referent:
        return group([who(request, n) for n in names if n])

    def others() -> Referent:
        named_ = {request.subject}
        return people([c.name for c in request.characters if c.name not in named_ and not c.defeated])

    def hurt() -> Referent:
        names = list(challenge.damage) or list(challenge.scratched)
        found = _first(events, "character")
        return people(names) if names else who(request, found or request.subject or "")

    resolvers: dict[str, Resolver] = {
        "character": lambda: who(request, request.subject) if request.subject else "",
        "lead": lambda: who(request, challenge.lead or request.subject) if (challenge.lead or request.subject) else "",
        "asker": lambda: who(request, request.subject) if request.subject else "",
        "concept": lambda: subject.concept,
        "connection": lambda: subject.connection or "",
        "facet": lambda: subject.facet(dice, str(ability) if ability else None),
        "party": others,
        "others": others,
        "present": lambda: people(_first(events, "present") or [c.name for c in request.characters]),
        "hurt": hurt,
        "scratched_ability": lambda: next(iter(challenge.scratched.values()), "") or _first(events, "ability") or "",
        "ability": lambda: str(ability or ""),
        "location": location,
        "place": location,
        "denizen": denizen,
        "story": lambda: request.story,
        "scene": lambda: request.scene or _first(events, "scene") or "",
        "seed": lambda: pick(request.seeds, dice, "narration seed"),
        "tone": lambda: pick(request.tone, dice, "tone note"),
        "question": lambda: _first(events, "question") or "",
        "form": lambda: _first(events, "form") or "",
        "inspiration": lambda: _first(events, "inspiration") or "",
        "casters": lambda: people(_first(events, "casters") or []),
        "rule": lambda: _first(events, "name") or "",
        "clock": lambda: by_id(_first(events, "clock")),
        "counter": lambda: by_id(_first(events, "counter")),
        "servant": lambda: str(_first(events, "servant") or "").replace("-", " "),
        "winner": lambda: who(request, _first(events, "winner")) if _first(events, "winner") else "",
        "twist": lambda: _first(events, "text") or "",
    }
    for key, value in challenge_context(challenge, request.referents).items():
        if key != "denizen":  # the denizen resolver already prefers the challenge's
            resolvers[key] = _constant(value)
    return LazyContext(resolvers)
