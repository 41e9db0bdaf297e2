"""What a ruleset's kit tells the narration about one command, and what it hands back.

Every ruleset narrates the same way: its kit turns a command's events into typed
moments (:class:`~wyrd.oracle.narrators.base.NarrationRequest`, with the kit's own
enum of moment kinds), and the play layer's storyteller tells each of them with
the table narrator (drawing rows through the no-repeat deck) or, when a model is
configured, the LLM narrator with the tables behind it and the firewall between.

A kit's narration is a :class:`KitNarration`: :meth:`~KitNarration.tell` reads a
:class:`Command` and returns :class:`Told`, the events the kit adds before any
prose (the Abacus adds its twists and scene tests there) and the moments to tell.
Called the old way, ``kit_narration(before, after, events, dice)``, it tells its
moments from the tables alone, without a deck, as every ruleset but the Abacus
did before.

A kit names its narration with :class:`LazyNarration` (``"package.module:NAME"``),
so importing a kit loads nothing of the narration: the first prompt never waits
for tables, twists or prompts. This module itself imports nothing but the
standard library when it runs.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from wyrd.oracle.events import Narrated
    from wyrd.oracle.narrators.base import NarrationRequest
    from wyrd.oracle.tables import DeckState, Table
    from wyrd.rules.actions import Event
    from wyrd.rules.dice import Dice

__all__ = ["Command", "KitNarration", "LazyNarration", "Told", "narration_event", "setting"]


class Command(NamedTuple):
    """One command as the narration sees it: the state before and after, its events, the oracle's dice.

    ``follower`` is the kit's story follower (None without a story); ``deck`` is the
    storyteller's no-repeat deck, which a kit may draw on for rolls of its own (the
    Abacus's twists); ``tables`` the tables in play (None: the bundled ones).
    """

    before: Any
    after: Any
    events: Sequence[Event]
    dice: Dice
    follower: Any = None
    deck: DeckState | None = None
    tables: Mapping[str, Table] | None = None
    # False: no prose will be told, so the kit need not find its moments (what it adds still counts)
    prose: bool = True


class Told(NamedTuple):
    """A kit's answer: events to add before the prose, then the moments to tell, in order."""

    added: Sequence[Event] = ()
    moments: Sequence[NarrationRequest] = ()
    # the story's title, tone and place as they stand (:func:`setting`): a reading of the oracle is
    # asked in them even when the command has no moment of its own to tell
    setting: Mapping[str, Any] = {}


def narration_event(request: NarrationRequest, event: Narrated) -> Narrated:
    """The ``narration`` event for ``request`` as its kit wants it read.

    ``event`` is the narration's own (text, source, moment, and ``fallback`` after a
    failed model). A kit's ``marks`` (``moment`` or ``table``) replace its moment when
    the tables or the story told it; a model's narration always says its moment.
    """
    if request.marks is None or event.source not in ("table", "story"):
        return event
    marks = {"moment": None, **request.marks}
    return event.model_copy(update={k: v for k, v in marks.items() if k in ("moment", "table")})


def setting(story: Any, place: str | None = None) -> dict[str, Any]:
    """The story's title and tone notes, and the scene's ``place``, as a kit's requests carry them.

    A model is told them with every moment, as it is in every ruleset (issue 19, point 6);
    ``story`` is any scenario with a ``title`` and ``tone`` (None: no story, nothing to say).
    """
    if story is None:
        return {}
    found = {"story": str(getattr(story, "title", "") or ""), "tone": [str(t) for t in getattr(story, "tone", ())]}
    if getattr(story, "language", ""):  # a story told in its own language: the firewall checks for it
        found["language"] = str(story.language)
    return {**found, "location": place} if place else found


class KitNarration(ABC):
    """How one ruleset's events become moments to tell.

    ``deck``: whether the storyteller draws this kit's table rows through the
    no-repeat deck (a storyteller may be told to use it for every kit).
    """

    deck: bool = True

    @abstractmethod
    def tell(self, command: Command) -> Told:
        """The events to add and the moments to tell for one command; rolls only for what it adds."""

    def resolve(self) -> KitNarration:
        """The narration itself (a :class:`LazyNarration` imports it first)."""
        return self

    def tells(self, events: Sequence[Event]) -> bool:
        """Whether :meth:`tell` may add to or tell anything of a command with these ``events``.

        False only where it surely adds nothing and has no moment to tell; the storyteller then
        does not ask it (nor load it).
        """
        return True

    def __call__(self, before: Any, after: Any, events: list[Event], dice: Dice) -> list[Event]:
        """The narration events of a command, told from the tables without a deck (the call of old)."""
        from wyrd.oracle.narrators.table import TableNarrator

        told = self.tell(Command(before, after, events, dice))
        table = TableNarrator()
        return [*told.added, *(narration_event(r, table.narrate(r, dice).event()) for r in told.moments)]


class LazyNarration(KitNarration):
    """A kit's narration named by where it lives (``"package.module:NAME"``), imported when first needed.

    ``tells``, if given, answers :meth:`tells` without importing it: the kit knows which kinds of
    event its narration may add to or tell, and a command with none of them (a story chosen at a
    new game's start) then leaves it unloaded.
    """

    def __init__(self, target: str, *, tells: Callable[[Sequence[Event]], bool] | None = None) -> None:
        self.target = target
        self._tells = tells
        self._loaded: KitNarration | None = None

    def resolve(self) -> KitNarration:
        if self._loaded is None:
            module, _, name = self.target.partition(":")
            found = getattr(importlib.import_module(module), name)
            if not isinstance(found, KitNarration):
                raise TypeError(f"{self.target} is not a kit's narration but {found!r}")
            self._loaded = found.resolve()
        return self._loaded

    def tells(self, events: Sequence[Event]) -> bool:
        # Without the kit's own answer: perhaps; the storyteller asks the narration itself once loaded.
        return self._tells(events) if self._tells is not None else True

    def tell(self, command: Command) -> Told:
        return self.resolve().tell(command)
